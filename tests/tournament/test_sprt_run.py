"""`meeple sprt` on real games: line-ups, the verdict from the ledger, resume, the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.ledger import read_ledger
from tournament.sprt.gsprt import Bounds, SprtError, walk
from tournament.sprt.run import SIDECAR, SprtRequest, play_sprt, read_sprt, set_score, tables

GAME2 = "python_coloretto(players=2)"
GAME3 = "python_coloretto(players=3)"
runner = CliRunner()


def test_line_ups_share_the_seats_between_a_and_b():
    assert tables(2, "ab") == [["A", "B"]]
    assert tables(3, "ab") == [["A", "A", "B"], ["A", "B", "B"]]
    assert tables(4, "ab") == [["A", "A", "B", "B"]]
    assert tables(5, "ab") == [["A", "A", "A", "B", "B"], ["A", "A", "B", "B", "B"]]
    assert tables(4, "heuristic") == [["A", "B", "filler", "filler"]]


def test_set_score_counts_a_b_pairs_only():
    rows = [
        {"agents": ["a", "a", "b"], "ranks": [1, 3, 2]},  # A ahead in one pair of two
        {"agents": ["b", "a", "a"], "ranks": [1, 1, 3]},  # a tie and a loss
        {"agents": ["a", "b", "a"], "ranks": None},  # void: not counted
    ]
    assert set_score(rows, "a", "b") == pytest.approx((1 + 0.5) / 4)
    assert set_score(rows[2:], "a", "b") is None


def test_a_clear_gap_is_accepted_and_the_verdict_is_the_ledgers(tmp_path):
    req = SprtRequest(GAME3, "heuristic", "random", Bounds(0.0, 100.0), max_games=600)
    v, summary, state = play_sprt(req, tmp_path / "t", executor="serial")
    assert v.verdict == "H1" and v.games == v.sets * 6 == summary.played
    assert v.elo_low <= v.elo <= v.elo_high and v.elo > 100
    # the verdict again, from the ledger alone: sets in index order, walked independently
    table = read_ledger(tmp_path / "t").table.to_pylist()
    ids = {a["name"]: a["id"] for a in read_ledger(tmp_path / "t").manifest["agents"]}
    scores = [
        set_score([r for r in table if r["seed_index"] == i], ids["A"], ids["B"])
        for i in range(v.sets)
    ]
    steps = walk(scores, req.bounds, games_per_set=6)
    assert steps[-1].verdict == "H1" and steps[-1].sets == v.sets
    assert steps[-1].llr == pytest.approx(v.llr)
    # a rerun plays nothing and says the same
    again, summary2, _ = play_sprt(req, tmp_path / "t", executor="serial")
    assert summary2.played == 0 and again.verdict == "H1" and again.llr == v.llr


def test_an_interrupted_test_resumes_to_the_same_verdict(tmp_path):
    req = SprtRequest(GAME2, "heuristic", "noisy(eps=0.5)", Bounds(0.0, 60.0), max_games=400)
    whole, _, _ = play_sprt(req, tmp_path / "whole", executor="serial")

    def stop(v):
        if v.sets == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_sprt(req, tmp_path / "cut", executor="serial", on_step=stop)
    resumed, summary, _ = play_sprt(req, tmp_path / "cut", executor="serial")
    assert 0 < summary.played < whole.games
    assert (resumed.verdict, resumed.sets, resumed.llr) == (whole.verdict, whole.sets, whole.llr)


def test_max_games_ends_inconclusive(tmp_path):
    req = SprtRequest(GAME2, "heuristic", "noisy(eps=0.3)", Bounds(0.0, 5.0), max_games=8)
    v, _, _ = play_sprt(req, tmp_path / "x", executor="serial")
    assert v.verdict == "inconclusive" and v.sets == 4


def test_other_bounds_on_the_same_ledger_are_refused(tmp_path):
    req = SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 100.0), max_games=40)
    play_sprt(req, tmp_path / "x", executor="serial")
    assert (tmp_path / "x" / SIDECAR).exists()
    other = SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 50.0), max_games=40)
    with pytest.raises(SprtError, match="holds an SPRT with elo1 100.0, now 50.0; use another"):
        play_sprt(other, tmp_path / "x", executor="serial")


def test_an_out_holding_another_test_is_a_wrong_command_line(tmp_path):
    """Was exit 1: another test's ledger at --out (other bounds, or other agents) is found
    before any game and mended by another --out: exit 2, as solve and tune."""
    out = tmp_path / "x"
    args = ["sprt", GAME2, "heuristic", "random", "--max-games", "4", "--executor", "serial"]
    assert runner.invoke(app, [*args, "--elo1", "100", "--out", str(out), "-q"]).exit_code == 0
    before = sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir())
    other_bounds = [*args, "--elo1", "50", "--out", str(out), "-q"]
    other_agent = ["sprt", GAME2, "heuristic", "noisy(eps=0.5)", *args[4:], "--elo1", "100"]
    for argv, says in (
        (other_bounds, "holds an SPRT with elo1 100.0, now 50.0"),
        ([*other_agent, "--out", str(out), "-q"], "holds another tournament"),
    ):
        r = runner.invoke(app, argv)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1 and says in r.stderr, r.output
    assert sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir()) == before


def test_a_bad_agent_is_exit_2_before_the_out_ledger_is_compared(tmp_path):
    """Was: with an SPRT already at --out a misspelt agent was exit 1 (2 on a fresh --out),
    and a filler the old test did not have read "agents.filler was None"."""
    out = tmp_path / "x"
    args = ["sprt", GAME3, "heuristic", "random", "--max-games", "6", "--executor", "serial"]
    assert runner.invoke(app, [*args, "--elo1", "100", "--out", str(out), "-q"]).exit_code == 0
    before = sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir())
    for where in (out, tmp_path / "fresh"):
        bad = ["sprt", GAME3, "heuristic", "randomx", *args[4:], "--elo1", "100"]
        r = runner.invoke(app, [*bad, "--out", str(where), "-q"])
        assert r.exit_code == 2 and "unknown agent kind 'randomx'" in r.stderr, r.output
    filler = [*args, "--elo1", "100", "--filler", "noisy(eps=0.5)", "--out", str(out), "-q"]
    r = runner.invoke(app, filler)
    assert r.exit_code == 2 and "agents.filler was not set, now 'noisy(eps=0.5)'" in r.stderr
    assert "None" not in r.stderr, r.stderr
    assert sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir()) == before


def test_a_sidecar_that_is_not_an_object_is_refused_in_one_line(tmp_path):
    """Was: a `.sprt.json` holding a JSON list ended in an AttributeError traceback."""
    req = SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 100.0), max_games=4)
    play_sprt(req, tmp_path / "x", executor="serial")
    (tmp_path / "x" / SIDECAR).write_text("[1]")
    args = ["sprt", GAME2, "heuristic", "random", "--elo1", "100", "--max-games", "4"]
    r = runner.invoke(app, [*args, "--out", str(tmp_path / "x"), "--executor", "serial"])
    assert r.exit_code == 1 and r.output.count("\n") == 1, r.output
    assert r.output.startswith("error: ") and SIDECAR in r.output


@pytest.mark.parametrize("text", ["[1]", '{"bounds": [0, 35]}', '{"bounds": 3}'])
def test_reading_a_ledger_with_a_foreign_sidecar_is_an_sprt_error(tmp_path, text):
    """Was: read_sprt (bench_strength's --sprt-read) let a TypeError through when the
    sidecar held a list or its bounds were not an object."""
    req = SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 100.0), max_games=4)
    play_sprt(req, tmp_path / "x", executor="serial")
    assert read_sprt(tmp_path / "x")[0].games == 4
    (tmp_path / "x" / SIDECAR).write_text(text)
    with pytest.raises(SprtError, match="not a finished or running SPRT ledger"):
        read_sprt(tmp_path / "x")


def test_an_out_that_is_a_file_is_one_line_and_kept(tmp_path):
    """Was: the cleanup after the refusal raised NotADirectoryError (a traceback), then
    exit 1 where tune, solve and train answer the same mistake with 2."""
    mine = tmp_path / "game.json"
    mine.write_text("mine")
    r = runner.invoke(app, ["sprt", GAME2, "heuristic", "random", "--out", str(mine), "-q"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "not a directory" in r.output
    assert mine.read_text() == "mine"


def test_a_and_b_must_differ(tmp_path):
    req = SprtRequest(GAME2, "heuristic", "heuristic", Bounds(0.0, 5.0))
    with pytest.raises(SprtError, match="same agent"):
        play_sprt(req, tmp_path / "x", executor="serial")
    assert not (tmp_path / "x").exists()


def test_cli_json_ends_with_the_verdict(tmp_path):
    out = tmp_path / "cli"
    args = ["sprt", GAME2, "heuristic", "random", "--elo1", "100", "--max-games", "200"]
    r = runner.invoke(app, [*args, "--out", str(out), "--executor", "serial", "--json", "-q"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["verdict"] == "H1" and obj["games"] == 2 * obj["sets"]
    assert obj["llr"] >= obj["llr_bounds"][1]
    low, high = obj["elo_ci"]
    assert low <= obj["elo"] and (high is None or obj["elo"] <= high)
    # every set won: the interval is open above (was the clip's +3600, found in review),
    # and the score and SD are the sets' own (was: with the pseudo-counts, divisor n)
    assert (high is None) == (obj["score"] == 1.0)
    assert obj["score_sd"] == (0.0 if obj["score"] == 1.0 else obj["score_sd"])
    text = runner.invoke(app, [*args, "--out", str(out), "-q"])
    assert "verdict: H1 accepted" in text.stdout and "0" in text.stdout


def _ctrl_c_at_three_sets(monkeypatch) -> None:
    """The command's progress raises KeyboardInterrupt (Ctrl-C) once three sets are done."""
    from tournament.cli import sprt as sprt_cli

    real = sprt_cli.SprtProgress.on_step

    def stop_at_three(self, v):
        real(self, v)
        if v.sets == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(sprt_cli.SprtProgress, "on_step", stop_at_three)


def test_an_interrupted_json_test_still_prints_where_it_stands(tmp_path, monkeypatch):
    """Was: Ctrl-C (exit 130) printed nothing on stdout, though the JSON's verdict
    "running" is documented for a stopped test."""
    _ctrl_c_at_three_sets(monkeypatch)
    out = tmp_path / "cut"
    args = ["sprt", GAME2, "heuristic", "noisy(eps=0.5)", "--elo1", "60", "--max-games", "400"]
    r = runner.invoke(app, [*args, "--out", str(out), "--executor", "serial", "--json", "-q"])
    assert r.exit_code == 130, r.output
    assert r.stderr.startswith("error: interrupted") and r.stderr.count("\n") == 1
    obj = json.loads(r.stdout)
    assert obj["verdict"] == "running" and obj["sets"] >= 3
    assert obj["games"] == 2 * obj["sets"] and obj["played_now"] >= obj["games"]
    assert obj["llr_bounds"][0] < obj["llr"] < obj["llr_bounds"][1] and obj["ledger"] == str(out)
    assert obj["elo_estimate"] == "mean so far" and obj["elo_ci"] is None  # below 10 sets
    # the same standing the ledger gives a reader
    assert (obj["sets"], obj["llr"]) == (read_sprt(out)[0].sets, round(read_sprt(out)[0].llr, 4))


def test_an_interrupted_text_test_says_where_it_stands(tmp_path, monkeypatch):
    """Was: without --json, Ctrl-C printed the error line alone, not where the test stood."""
    _ctrl_c_at_three_sets(monkeypatch)
    out = tmp_path / "cut"
    args = ["sprt", GAME2, "heuristic", "noisy(eps=0.5)", "--elo1", "60", "--max-games", "400"]
    r = runner.invoke(app, [*args, "--out", str(out), "--executor", "serial", "-q"])
    assert r.exit_code == 130, r.output
    assert "not finished: rerun the same command to resume" in r.stdout
    assert r.stderr.startswith("error: interrupted") and r.stderr.count("\n") == 1


def test_a_second_ctrl_c_while_the_ledger_is_read_is_still_one_line(tmp_path, monkeypatch):
    """Was: a second Ctrl-C while the stopped test read its ledger escaped as a traceback."""
    from tournament import ledger

    _ctrl_c_at_three_sets(monkeypatch)

    def ctrl_c_again(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ledger, "read_ledger", ctrl_c_again)
    out = tmp_path / "cut"
    args = ["sprt", GAME2, "heuristic", "noisy(eps=0.5)", "--elo1", "60", "--max-games", "400"]
    r = runner.invoke(app, [*args, "--out", str(out), "--executor", "serial", "-q"])
    assert r.exit_code == 130, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert r.stderr.startswith("error: interrupted") and r.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--elo0", "5", "--elo1", "1"], "--elo0 must be below --elo1"),
        (["--preset", "fast"], "--preset must be one of"),
        (["--alpha", "0.9"], "--alpha must be in"),
        (["--max-games", "0"], "--max-games must be >= 1"),
        (["--filler", "nosuch"], "unknown agent kind"),
        (["--preset", "gain", "--elo-model", "normalized"], "--preset bounds are logistic"),
        (["--elo-model", "bayes"], "--elo-model must be one of"),
        (["--elo1", "inf"], "must be in [-2000, 2000]"),  # was: a traceback after games
        (["--elo0", "-1e6", "--elo1", "1e6"], "must be in [-2000, 2000]"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(tmp_path, extra, message):
    out = tmp_path / "bad"
    r = runner.invoke(app, ["sprt", GAME2, "heuristic", "random", "--out", str(out), *extra])
    assert r.exit_code == 2, r.output
    assert message in r.output and r.output.count("error:") == 1
    assert not out.exists()


@pytest.mark.ray
def test_ray_plays_the_same_test_as_serial(ray_cluster, tmp_path):
    req = SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 100.0), max_games=200)
    serial, _, _ = play_sprt(req, tmp_path / "s", executor="serial")
    on_ray, summary, _ = play_sprt(req, tmp_path / "r", executor="ray")
    assert summary.executor == "ray"
    assert (on_ray.verdict, on_ray.sets, on_ray.llr) == (serial.verdict, serial.sets, serial.llr)
