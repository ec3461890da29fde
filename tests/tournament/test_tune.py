"""`meeple tune` (tournament.tune, tournament.tune_report, tournament.cli.tune): one-line
errors on bad input with nothing written, games on the tuning's own seeds against the
pool, a run that resumes from its log exactly, and the report's parts."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.tune import BENCH_SEEDS, LOG, TuneRequest, lineup, prepare, space

runner = CliRunner()
GAME = "python_coloretto(players=3)"
TINY = [
    "tune", GAME, "--agent", "ismcts(sims=5)", "--params", "uct_c,opp_share", "--levels",
    "3", "--budget", "4", "--opponent", "heuristic", "--opponent", "noisy(eps=0.3)", "-q",
]  # fmt: skip


def _run(args, tmp_path):
    return runner.invoke(app, [*args, "--out", str(tmp_path / "t")])


@pytest.mark.parametrize(
    "args, says",
    [
        (["--params", "sims"], "cannot tune 'sims'"),
        (["--params", "nonsense"], "cannot tune 'nonsense'"),
        (["--params", "uct_c,uct_c"], "twice"),
        (["--budget", "0"], "--budget"),
        (["--levels", "1"], "--levels"),
        (["--seed", "11"], "benchmark seed"),
        (["--seed", "32"], "benchmark seed"),  # its confirmation would run on 33
        (["--agent", "ismcts(sims=0)"], "sims"),
        (["--agent", "ismcts(opp_eps=0.2)"], "opp_eps"),
        (["--opponent", "nobody"], "unknown agent kind"),
        (["--confirm", "-1"], "--confirm"),
        (["--executor", "warp"], "--executor"),
        (["--k", "nan"], "--k"),  # was: tuned with NaN UCB values
        (["--k", "-1"], "--k"),
        (["--confirm", "50", "--confirm-filler", "nobody"], "--confirm-filler"),  # was:
        # refused only by the confirming SPRT, after the whole tuning budget was played;
        # so were fillers refused only on the game, and the tuned agent itself:
        (
            ["--confirm", "4", "--confirm-filler", "policy(path=/nonexistent.parquet)"],
            "--confirm-filler: policy(path=/nonexistent.parquet): policy file not found",
        ),
        (["--confirm", "4", "--confirm-filler", "ismcts(sims=5,opp_eps=0.2)"], "opp_eps"),
        (["--confirm-filler", "ismcts(sims=5)"], "--confirm-filler is the --agent itself"),
        # was "cannot tune 'uct_c'; tunable:" with an empty list, and for heuristic the
        # --confirm-filler error (the filler is the agent) though --confirm was 0
        (["--agent", "random"], "agent 'random' has no tunable parameters: tune one of"),
        (["--agent", "cfr-search(iterations=5)"], "'cfr-search' has no tunable parameters"),
        (["--agent", "heuristic"], "agent 'heuristic' has no tunable parameters"),
    ],  # fmt: skip
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, says):
    res = _run(TINY + args, tmp_path)
    assert res.exit_code == 2, res.output
    err = res.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and says in err, err
    assert not (tmp_path / "t").exists()


def test_an_unknown_game_is_refused(tmp_path):
    res = _run(["tune", "python_nothing", "-q"], tmp_path)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1


def test_a_directory_holding_another_run_is_refused_and_kept(tmp_path):
    assert _run(TINY, tmp_path).exit_code == 0
    before = (tmp_path / "t" / LOG).read_text()
    res = _run([*TINY, "--seed", "7"], tmp_path)
    assert res.exit_code == 2 and "different tuning run" in res.stderr
    assert (tmp_path / "t" / LOG).read_text() == before
    (tmp_path / "u").mkdir()
    (tmp_path / "u" / "x").write_text("mine")
    res = runner.invoke(app, [*TINY, "--out", str(tmp_path / "u")])
    assert res.exit_code == 2 and (tmp_path / "u" / "x").read_text() == "mine"


def test_an_out_that_is_a_file_or_cannot_be_made_is_one_line(tmp_path):
    """Was: NotADirectoryError / FileNotFoundError tracebacks."""
    (tmp_path / "f").write_text("mine")
    for out in (tmp_path / "f", tmp_path / "f" / "sub"):
        res = runner.invoke(app, [*TINY, "--out", str(out)])
        assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.output
        assert res.stderr.startswith("error: --out ")
    assert (tmp_path / "f").read_text() == "mine"


def test_a_corrupt_request_or_log_is_one_line_and_kept(tmp_path):
    """Was: JSONDecodeError / TypeError tracebacks on a damaged tune.json; then a damaged
    log line refused with exit 1 after tune.json had been rewritten (the new budget); then
    a damaged log line exit 2 (a corrupt file is 1; another run's log, 2)."""
    assert _run(TINY, tmp_path).exit_code == 0
    log, request = tmp_path / "t" / LOG, tmp_path / "t" / "tune.json"
    lines = log.read_text().splitlines(keepends=True)
    before = request.read_text()
    row = json.loads(lines[1])
    for bad, says, code in (
        ("{not json\n", "line 2 is not JSON", 1),
        ('{"index": 1}\n', "line 2 is not an evaluation", 1),
        (json.dumps({**row, "fitness": "x"}) + "\n", "line 2 is not an evaluation", 1),
        (json.dumps({**row, "index": [1]}) + "\n", "line 2 is not an evaluation", 1),
        (json.dumps({**row, "seed": 1}) + "\n", "evaluation 1 is not one", 2),
    ):  # the last: another deal than this run's
        damaged = "".join([lines[0], bad, *lines[2:]])
        log.write_text(damaged)
        res = _run([*TINY, "--budget", "6"], tmp_path)
        assert res.exit_code == code and res.stderr.count("\n") == 1, res.output
        assert says in res.stderr, res.stderr
        assert log.read_text() == damaged and request.read_text() == before
    for text in ("[1]", "{"):  # a damaged request file: 1 (was 2, as another run's)
        request.write_text(text)
        res = _run(TINY, tmp_path)
        assert res.exit_code == 1 and res.stderr.count("\n") == 1, res.output
        assert request.read_text() == text


def test_a_last_line_cut_short_by_a_crash_is_played_again(tmp_path):
    """Was: "line 4 is not JSON", exit 1, on every rerun: the run could never resume."""
    assert _run(TINY, tmp_path).exit_code == 0
    log = tmp_path / "t" / LOG
    whole = log.read_text()
    log.write_text(whole[:-30])  # a crash while the fourth game was being appended
    res = _run([*TINY, "--json"], tmp_path)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["played_now"] == 1
    assert log.read_text() == whole


def test_a_run_resumes_from_its_log_and_extends_with_a_larger_budget(tmp_path):
    full = _run([*TINY, "--json"], tmp_path)
    assert full.exit_code == 0, full.output
    whole = json.loads(full.stdout)
    assert whole["games"] == 4 and whole["played_now"] == 4
    # an interrupted run: only its first game is in the log
    shutil.copytree(tmp_path / "t", tmp_path / "cut")
    lines = (tmp_path / "cut" / LOG).read_text().splitlines()
    (tmp_path / "cut" / LOG).write_text(lines[0] + "\n")
    again = json.loads(runner.invoke(app, [*TINY, "--json", "--out", str(tmp_path / "cut")]).stdout)
    assert again["played_now"] == 3
    assert again["recommended"] == whole["recommended"]
    assert again["marginals"] == whole["marginals"]
    assert (tmp_path / "cut" / LOG).read_text() == (tmp_path / "t" / LOG).read_text()
    more = json.loads(_run([*TINY, "--json", "--budget", "6"], tmp_path).stdout)
    assert more["games"] == 6 and more["played_now"] == 2


def test_evaluations_play_the_pool_on_the_tunings_own_seeds(tmp_path):
    req = TuneRequest(GAME, "ismcts(sims=5)", ("uct_c",), budget=6, levels=3,
                      opponents=("heuristic", "noisy(eps=0.3)", "random"))  # fmt: skip
    sp = prepare(req, tmp_path / "t")
    assert sp.dims[0].name == "uct_c" and sp.dims[0].values[sp.start[0]] == 1.4
    seen = [lineup(req, i, 3) for i in range(6)]
    assert [s[1] for s in seen] == [0, 1, 2, 0, 1, 2]  # the candidate's seat turns
    assert all(len(set(o)) == 2 and set(o) <= set(req.opponents) for _, _, o in seen)
    assert len({s[0] for s in seen}) == 6
    other = TuneRequest(GAME, "ismcts(sims=5)", ("uct_c",), seed=7)
    assert {lineup(other, i, 3)[0] for i in range(6)}.isdisjoint({s[0] for s in seen})
    assert req.seed not in BENCH_SEEDS


def test_the_start_is_the_agent_with_its_auto_values_resolved():
    req = TuneRequest(GAME, "ismcts(sims=5)", ("unprune", "opponents", "rollout_depth"))
    sp = space(req)
    start = sp.values(sp.start)
    # Coloretto's measured choices (auto: -1 and -2 in the spec)
    assert start == {"unprune": 0.0, "opponents": "infer", "rollout_depth": 4}
    assert "sims=5" in sp.spec(sp.start) and "opponents=infer" in sp.spec(sp.start)
    # a value the agent refuses on this game (opp_eps needs opponents=heuristic) is invalid
    eps = space(TuneRequest(GAME, "ismcts(sims=5)", ("opp_eps", "opponents")))
    bad = tuple(
        next(i for i, v in enumerate(d.values) if v == want)
        for d, want in zip(eps.dims, (0.5, "infer"), strict=True)
    )
    assert not eps.valid(bad)


def test_the_text_report_names_the_recommendation_marginals_and_confirmation(tmp_path):
    res = _run([*TINY, "--confirm", "2"], tmp_path)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "recommended: ismcts(" in out and "marginal effects" in out
    assert "uct_c: 0.05:" in out and "1.4*:" in out
    assert "confirmation: " in out and "meeple sprt" in out


def test_a_file_the_run_did_not_write_is_named_in_a_warning_and_kept(tmp_path):
    """Was: a stray file in the run directory (say a log copied in under another name,
    which is never read) was ignored without a word."""
    assert _run(TINY, tmp_path).exit_code == 0
    (tmp_path / "t" / "evaluations-old.jsonl").write_text("mine")
    (tmp_path / "t" / "confirm-0123abcd").mkdir()  # a confirming SPRT's: the run's own
    res = _run(TINY, tmp_path)
    assert res.exit_code == 0, res.output
    warnings = [line for line in res.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1, res.stderr  # the run's own files are not named
    assert warnings[0].endswith("did not write (ignored): 'evaluations-old.jsonl'")
    assert (tmp_path / "t" / "evaluations-old.jsonl").read_text() == "mine"


def test_a_log_the_replay_disagrees_with_is_refused_before_any_game(tmp_path):
    """Was: a logged setting other than the one replaying the log proposes at its index
    was found only by the replay, after tune.json had been rewritten (the new budget),
    with exit 1; a log missing a game before others played that game first."""
    assert _run(TINY, tmp_path).exit_code == 0
    log, request = tmp_path / "t" / LOG, tmp_path / "t" / "tune.json"
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert rows[0]["point"] != rows[2]["point"]  # the search moved after the first iteration
    before = request.read_text()
    swapped = [{**rows[0], "point": rows[2]["point"]}, *rows[1:]]
    gap = [rows[0], *rows[2:]]
    late = [*rows[:3], {**rows[3], "point": rows[0]["point"]}]
    assert rows[3]["point"] != rows[0]["point"]
    for damaged, budget, says in (
        (swapped, "6", "evaluation 0 played "),
        (gap, "6", "evaluation 2 is logged but evaluation 1 before it is not"),
        # a budget that stops before the damage still finds it: the whole log is checked
        (gap, "1", "evaluation 2 is logged but evaluation 1 before it is not"),
        (late, "2", "evaluation 3 played "),
    ):
        text = "".join(json.dumps(r) + "\n" for r in damaged)
        log.write_text(text)
        res = _run([*TINY, "--budget", budget], tmp_path)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.output
        assert says in res.stderr, res.stderr
        assert log.read_text() == text and request.read_text() == before


def test_a_resumed_log_is_checked_once(tmp_path, monkeypatch):
    """Was: the command's prepare() and tune()'s own each replayed the whole log, doubling
    the wait before a long run resumed."""
    import tournament.tune as tune_module

    assert _run(TINY, tmp_path).exit_code == 0
    calls = []
    real = tune_module.check_log
    monkeypatch.setattr(tune_module, "check_log", lambda *a: calls.append(1) or real(*a))
    res = _run(TINY, tmp_path)
    assert res.exit_code == 0, res.output
    assert len(calls) == 1


def test_ctrl_c_while_the_log_is_checked_says_so_and_keeps_the_run(tmp_path, monkeypatch):
    """Ctrl-C during the up-front replay of a long log: one line saying no game was played,
    exit 130, the log and the request untouched."""
    import tournament.tune as tune_module

    assert _run(TINY, tmp_path).exit_code == 0
    log, request = tmp_path / "t" / LOG, tmp_path / "t" / "tune.json"
    before = (log.read_text(), request.read_text())

    def interrupted(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module, "check_log", interrupted)
    res = _run([*TINY, "--budget", "8"], tmp_path)
    assert res.exit_code == 130 and res.stderr.count("\n") == 1, res.output
    assert "interrupted before any game was played" in res.stderr
    assert (log.read_text(), request.read_text()) == before


def test_a_new_recommendation_is_confirmed_beside_the_earlier_one(tmp_path):
    """Was: one `confirm/` SPRT per run directory, so once a larger --budget changed the
    recommendation every rerun failed ('holds another tournament') after playing its new
    tuning games, until the user deleted `confirm/` by hand."""
    from tournament.tune_report import confirm

    game = "python_coloretto(players=3)"
    start = {"values": {"uct_c": 1.4}, "spec": "ismcts(sims=4,uct_c=1.4)"}
    verdicts = []
    for c in (0.5, 2.0):
        rec = {"values": {"uct_c": c}, "spec": f"ismcts(sims=4,uct_c={c})"}
        s = {"game": game, "agent": start["spec"], "start": start, "recommended": rec}
        verdicts.append(confirm(s, tmp_path, 6, "heuristic", 5, 1, "serial"))
    assert all(v["games_played"] > 0 for v in verdicts)
    assert len(list(tmp_path.glob("confirm-*"))) == 2
    again = confirm(s, tmp_path, 6, "heuristic", 5, 1, "serial")  # a rerun resumes its own
    assert again["games_played"] == verdicts[-1]["games_played"]


def test_a_second_run_on_the_same_out_is_refused_while_the_first_runs(tmp_path):
    """Was: two copies of one command both played every game into one log (duplicates in
    evaluations.jsonl), and one could cut the other's unfinished last line."""
    from spiel_games.common.files import run_lock
    from tournament.tune import TuneError

    assert _run(TINY, tmp_path).exit_code == 0
    log = (tmp_path / "t" / LOG).read_bytes()
    with run_lock(tmp_path / "t", TuneError):  # the first run, still going
        res = _run(TINY, tmp_path)
    assert res.exit_code == 1 and "is being written by another run" in res.stderr
    assert (tmp_path / "t" / LOG).read_bytes() == log
    assert _run(TINY, tmp_path).exit_code == 0  # once it is done


def test_an_existing_out_that_cannot_be_written_says_so(tmp_path, monkeypatch):
    """Was: 'cannot make it' for a directory that exists (a read-only disk)."""
    import errno
    import os

    out = tmp_path / "ro"
    out.mkdir()
    real_open = os.open

    def read_only(path, *args, **kwargs):
        if str(path).startswith(str(out)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    res = runner.invoke(app, [*TINY, "--out", str(out)])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.output
    assert "cannot write it (Read-only file system)" in res.stderr
    assert list(out.iterdir()) == []


def test_a_budget_that_is_not_a_multiple_of_repeats_is_noted(tmp_path):
    """Was: --budget 3 with --repeats 2 played 2 games without a word."""
    res = _run([*TINY, "--budget", "3"], tmp_path)
    assert res.exit_code == 0, res.output
    note = "note: --budget 3 is not a multiple of --repeats 2 (games per NTBEA iteration): "
    assert note + "the tuning plays 2 games" in res.stderr
    assert "note:" not in _run(TINY, tmp_path / "even").stderr


def test_the_help_says_executor_is_the_confirming_sprts_alone():
    """Was: --executor read as if it placed the tuning's games (they run in --workers
    processes; --executor ray started no Ray session for them)."""
    help_text = runner.invoke(app, ["tune", "--help"], env={"COLUMNS": "400"}).output
    text = " ".join(help_text.split())
    assert "Where the confirming SPRT (--confirm) runs" in text
    assert "the tuning's own games always run in the local pool of --workers" in text


def test_a_confirm_too_short_to_ever_adopt_is_warned_before_the_tuning_plays(tmp_path):
    """Was: --confirm 12 (the docs' example) or 48 (STRENGTH.md's) ran a confirming SPRT
    that could not accept H1 in so few games (318 at 3 players with a filler, the gain
    preset): the tuning spent its budget, then reported 'not adopted' as if measured."""
    from tournament.tune_report import confirm_warnings

    short = confirm_warnings(GAME, 48, "heuristic")
    assert short[-1] == "--confirm 48 can never adopt a recommendation: give --confirm 318 or more"
    assert confirm_warnings(GAME, 318, "heuristic") == []
    assert confirm_warnings(GAME, 0, "heuristic") == []  # no confirmation asked
    res = _run([*TINY, "--confirm", "2"], tmp_path)
    assert res.exit_code == 0, res.output
    assert "warning: --confirm 2 can never adopt a recommendation" in res.stderr
