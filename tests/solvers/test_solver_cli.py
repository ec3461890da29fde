"""`meeple agents` and `meeple solve` through typer's CliRunner."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from solvers.mccfr_tables import load_npz
from solvers.policy_file import read_meta
from solvers.registry import all_kinds
from tournament.cli import app

runner = CliRunner()


def test_agents_lists_every_kind_with_parameters():
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0
    for kind in all_kinds():
        assert f"{kind.name}:" in result.output
        for p in kind.params:
            default = "required" if p.required else f"default {p.default!r}"
            line = f"    {p.name} ({p.type.__name__}, {default}): {p.help}"
            assert line in result.output


def test_a_parameter_without_a_usable_default_is_listed_as_required():
    """Was: policy's path showed "default ''" and nothing said the spec must give it."""
    import json

    text = runner.invoke(app, ["agents"]).output
    assert "    path (str, required): Parquet policy file" in text
    kinds = {k["kind"]: k for k in json.loads(runner.invoke(app, ["agents", "--json"]).output)}
    required = {(k, p["name"]) for k in kinds for p in kinds[k]["params"] if p["required"]}
    assert required == {("policy", "path")}  # blueprint's empty path is the shipped one


def test_solve_writes_a_policy_and_resumes(tmp_path):
    out = str(tmp_path / "kuhn.parquet")
    args = [
        "solve",
        "kuhn_poker",
        "--solver",
        "cfr+",
        "--iterations",
        "20",
        "--out",
        out,
        "--report-every",
        "10",
        "--quiet",
    ]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "iteration 10: nash_conv" in first.output
    more = runner.invoke(app, args[:4] + ["--iterations", "40"] + args[6:])
    assert more.exit_code == 0, more.output
    assert "resuming from checkpoint" in more.output
    assert "(20 this run" in more.output
    assert read_meta(out)["iterations"] == 40


def test_solve_reports_the_blueprints_figures_on_full_games(tmp_path):
    out = str(tmp_path / "c.npz")
    result = runner.invoke(
        app,
        [
            "solve",
            "python_coloretto(players=3)",
            "--solver",
            "mccfr-os",
            "--iterations",
            "2",
            "--report-every",
            "1",
            "--eval-deals",
            "1",
            "--out",
            out,
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[1]  # after the header line
    assert first.startswith("iteration 2: ahead of heuristic ")  # one round: one report
    # three games (one deal, every seat): the figure comes with its wide interval
    assert re.search(r"ahead of heuristic \d\.\d\d \(95% \d\.\d\d-\d\.\d\d\), coverage", first)
    assert re.search(r"ahead of heuristic \S+ \(95% ", result.output.splitlines()[-1])
    assert "coverage 0." in first and " keys, " in first and "visits/key" in first
    meta = load_npz(out)[0]
    assert meta["abstraction"] == "coloretto-rows" and meta["kind"] == "meeple-blueprint"


def test_solve_rejects_unknown_solver_and_game(tmp_path):
    bad = runner.invoke(
        app, ["solve", "kuhn_poker", "--solver", "nope", "--out", str(tmp_path / "x.parquet")]
    )
    assert bad.exit_code == 2
    unknown = runner.invoke(app, ["solve", "nosuchgame", "--out", str(tmp_path / "y.parquet")])
    assert unknown.exit_code == 2


TINY = (
    "python_coloretto(players=2,colors=2,cards_per_color=2,start_cards=1,last_round_depth=0,"
    "plus2=1,jokers=0,positive_colors=1,rows=2,row_capacity=1)"
)


def _solve(*extra: str):
    return runner.invoke(
        app, ["solve", TINY, "--solver", "mccfr-es", "--iterations", "4", "--quiet", *extra]
    )


def test_out_an_existing_directory_is_refused_before_the_run_without_litter(tmp_path):
    """Old: the whole run happened, then a traceback (IsADirectoryError), leaving
    `DIR.tmp` and `DIR.ckpt.parquet` beside the directory."""
    target = tmp_path / "existing"
    target.mkdir()
    r = _solve("--out", str(target))
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "is a directory" in r.stderr
    assert "iteration" not in r.stdout  # refused before the first iteration
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing"]


def test_an_existing_file_that_is_no_run_of_this_solver_is_never_overwritten(tmp_path):
    """Old: `--out` a saved game, or a policy of another solver, was silently replaced by
    the new policy (only a checkpoint of this solver beside it means a run to resume)."""
    game = tmp_path / "game.json"
    game.write_text('{"format": "meeple-game-record"}')
    r = _solve("--out", str(game))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "exists" in r.stderr
    assert game.read_text() == '{"format": "meeple-game-record"}'
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    before = out.read_bytes()
    r = runner.invoke(app, ["solve", TINY, "--solver", "cfr", "--iterations", "2", "-o", str(out)])
    assert r.exit_code == 2 and "no checkpoint of a cfr run" in r.stderr
    assert out.read_bytes() == before
    assert _solve("--out", str(out), "--iterations", "8").exit_code == 0  # resumes


def test_a_corrupt_checkpoint_is_one_line_with_status_1(tmp_path):
    """Old: a pyarrow traceback ('Parquet magic bytes not found')."""
    out = tmp_path / "p.parquet"
    (tmp_path / "p.parquet.ckpt").mkdir()
    (tmp_path / "p.parquet.ckpt" / "manifest.json").write_bytes(b"not json")
    r = _solve("--out", str(out))
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: checkpoint") and "delete it" in lines[0]
    assert not out.exists() and not list(tmp_path.glob(".tmp-*"))


def test_a_checkpoint_with_list_metadata_is_one_line(tmp_path):
    """Old: `meta.get` on a JSON list: AttributeError traceback."""
    out = tmp_path / "p.parquet"
    (tmp_path / "p.parquet.ckpt").mkdir()
    (tmp_path / "p.parquet.ckpt" / "manifest.json").write_text("[1, 2]")
    r = _solve("--out", str(out))
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert "no valid meeple manifest" in r.stderr


def test_a_corrupt_round_file_is_one_line_with_status_1(tmp_path):
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    ckpt = tmp_path / "p.parquet.ckpt"
    snapshot = next(ckpt.glob("tables-*.npz"))
    snapshot.write_bytes(b"truncated")
    r = _solve("--out", str(out), "--iterations", "8")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert "cannot be resumed" in r.stderr and "delete it" in r.stderr


def test_a_checkpoint_for_another_request_is_refused_with_status_2(tmp_path):
    """Was exit 1: a checkpoint of another request beside --out is found before any
    iteration and mended by another --out, a wrong command line (2) as in sprt and tune."""
    out = str(tmp_path / "p.parquet")
    assert _solve("--out", out).exit_code == 0
    r = _solve("--out", out, "--seed", "3")
    assert (
        r.exit_code == 2
        and "--seed 0 (this run: --seed 3)" in r.stderr
        and r.stderr.count("\n") == 1
    )
    # Old: "resuming from checkpoint ..." was printed first, then the checkpoint refused;
    # later the header still was: a refused run prints the error line alone
    assert "resuming" not in r.output and r.stdout == ""
    exact = str(tmp_path / "e.parquet")
    cfr = ["--solver", "cfr", "--out", exact]
    assert runner.invoke(app, ["solve", "kuhn_poker", *cfr, "--iterations", "2"]).exit_code == 0
    r = runner.invoke(app, ["solve", "kuhn_poker", *cfr, "--iterations", "4", "--seed", "3"])
    assert (
        r.exit_code == 2
        and "--seed 0 (this run: --seed 3)" in r.stderr
        and "resuming" not in r.output
        and r.stdout == ""
    )
    r = runner.invoke(app, ["solve", "kuhn_poker", *cfr, "--iterations", "4", "--quiet"])
    assert r.exit_code == 0 and "resuming from checkpoint" in r.stdout and "iteration 2" in r.stdout


def test_max_keys_zero_is_refused(tmp_path):
    """Old: `--max-keys 0` trained nothing and wrote a policy whose metadata held NaN."""
    r = _solve("--max-keys", "0", "--out", str(tmp_path / "p.parquet"))
    assert r.exit_code == 2 and "'--max-keys'" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_default_output_is_under_runs_not_the_working_directory(tmp_path, monkeypatch):
    """Old: `--out` defaulted to `policy.parquet` (and its checkpoint) in the working
    directory, i.e. the repository root, where nothing ignored them."""
    monkeypatch.chdir(tmp_path)
    r = _solve()
    assert r.exit_code == 0, r.output
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written and all(p.startswith("runs/policies/coloretto-mccfr-es-") for p in written)
    assert f"wrote {written[0]}" in r.stdout
    again = _solve("--iterations", "6")  # the same request finds its own checkpoint
    assert again.exit_code == 0 and "resuming from checkpoint" in again.stdout


def test_bad_workers_and_an_unreachable_cluster_are_one_line_errors(tmp_path):
    r = _solve("--workers", "0", "--out", str(tmp_path / "p.parquet"))
    assert r.exit_code == 2 and "--workers" in r.stderr
    r = _solve("--address", "127.0.0.1:9", "--out", str(tmp_path / "p.parquet"))
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert "cannot reach the Ray cluster at 127.0.0.1:9" in r.stderr
    assert list(tmp_path.iterdir()) == []
    exact = runner.invoke(
        app, ["solve", "kuhn_poker", "--solver", "cfr", "--workers", "2", "--quiet"]
    )
    assert exact.exit_code == 2 and "--workers and --address are MCCFR's" in exact.stderr


def test_the_progress_figures_interval_is_wilsons_and_narrows_with_games():
    """Few deals give a wide interval (0.73 of 12 games spans about half the range); the
    bounds match the Wilson score interval and stay in [0, 1]."""
    from solvers.intervals import wilson

    low, high = wilson(0.73, 12)
    assert low < 0.5 < 0.73 < high  # 12 games cannot tell 0.73 from parity
    assert (round(low, 3), round(high, 3)) == (0.449, 0.9)
    from scipy.stats import binomtest

    ci = binomtest(73, 100).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(0.73, 100) == pytest.approx((ci.low, ci.high), abs=1e-5)
    low2, high2 = wilson(0.73, 1200)
    assert 0.70 < low2 < 0.73 < high2 < 0.76
    assert wilson(1.0, 3)[1] == 1.0 and wilson(0.0, 3)[0] == 0.0


@pytest.mark.parametrize("solver", ["cfr", "cfr+", "dcfr"])
def test_exact_cfr_on_a_full_game_is_refused_at_once(tmp_path, solver):
    """Was: about 16 s of walking the tree, then a traceback ending "ValueError: game
    tree exceeds 1000000 nodes". Now a usage error (exit 2) before anything runs."""
    out = tmp_path / "p.parquet"
    r = runner.invoke(
        app, ["solve", "python_coloretto(players=2)", "--solver", solver, "-o", str(out)]
    )
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert r.stderr.startswith(f"error: {solver} is exact: it needs a game tree of at most ")
    assert "python_coloretto(players=2) has more" in r.stderr and "meeple games show" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_mccfr_on_a_large_openspiel_game_is_refused_at_once(tmp_path):
    """Was: the same traceback: MCCFR reports nash_conv on a 2-player OpenSpiel game
    outside the registry, and exported connect_four's tree for it."""
    out = tmp_path / "p.parquet"
    r = runner.invoke(app, ["solve", "connect_four", "--solver", "mccfr-os", "-o", str(out)])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert "mccfr-os on connect_four reports nash_conv over the whole game tree" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_tree_found_too_large_only_by_the_export_is_exit_2_too(tmp_path, monkeypatch):
    """The quick estimate refuses only trees certainly over the bound; one it lets through
    that the export's walk then finds over it is the same one-line usage error."""
    import functools

    from solvers import efg_cfr

    monkeypatch.setattr(efg_cfr, "export_efg", functools.partial(efg_cfr.export_efg, max_nodes=9))
    r = runner.invoke(app, ["solve", TINY, "--solver", "cfr", "-o", str(tmp_path / "p.parquet")])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert "at most 9 nodes" in r.stderr


def test_the_default_output_names_a_worker_or_batch_count_apart():
    """Was: `--workers 2` (or another `--batch`) hashed to the default request's file and
    resumed its checkpoint, mixing two sampled computations into one blueprint."""
    from solvers.solve_request import default_out

    game, solver = "python_coloretto(players=3)", "mccfr-os"
    plain = default_out(game, solver, None, 0)
    assert plain == default_out(game, solver, None, 0, 0.0, (1, None))  # names kept
    others = {default_out(game, solver, None, 0, 0.0, s) for s in ((2, None), (1, 16), (2, 16))}
    assert len(others) == 3 and plain not in others


def test_a_second_solve_on_the_same_checkpoint_is_refused_while_the_first_runs(tmp_path):
    """Was: two copies of one MCCFR request both trained fully into one checkpoint."""
    from solvers.solve_request import CheckpointError
    from spiel_games.common.files import run_lock

    out = tmp_path / "p.parquet"
    with run_lock(tmp_path / "p.parquet.ckpt", CheckpointError):  # the first run, going
        r = _solve("--out", str(out))
    assert r.exit_code == 1 and "is being written by another run" in r.stderr
    assert not out.exists()
    assert _solve("--out", str(out)).exit_code == 0  # once it is done


def test_a_second_exact_solve_on_the_same_out_is_refused_while_the_first_runs(tmp_path):
    """Was: exact solvers took no lock. Two copies on one --out both wrote the checkpoint
    through one temporary file, and one read a checkpoint the other was replacing (a
    traceback). A run holds FILE.ckpt.parquet.lock (here held by hand, as a first run
    would): a second one is refused in one line, exit 1, as MCCFR's."""
    import fcntl
    import os

    out = tmp_path / "e.parquet"
    cfr = ["solve", "kuhn_poker", "--solver", "cfr", "--iterations", "4", "--out", str(out)]
    fd = os.open(tmp_path / "e.parquet.ckpt.parquet.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # the first run, going
        r = runner.invoke(app, [*cfr, "--quiet"])
    finally:
        os.close(fd)
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert "e.parquet.ckpt.parquet is being written by another run" in r.stderr
    assert not out.exists() and not (tmp_path / "e.parquet.ckpt.parquet").exists()
    (tmp_path / "e.parquet.ckpt.parquet.lock").unlink()
    assert runner.invoke(app, [*cfr, "--quiet"]).exit_code == 0  # once it is done
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.parquet", "e.parquet.ckpt.parquet"]


def test_an_exact_checkpoint_the_replay_does_not_reproduce_is_one_line(tmp_path):
    """Was a traceback (the ValueError of ExactCFR.load_rows): a checkpoint whose values
    the replayed iterations do not give is refused in one line, exit 1 (a damaged file)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "e.parquet"
    cfr = ["solve", "kuhn_poker", "--solver", "cfr", "--out", str(out), "--quiet"]
    assert runner.invoke(app, [*cfr, "--iterations", "4"]).exit_code == 0
    ckpt = tmp_path / "e.parquet.ckpt.parquet"
    t = pq.read_table(ckpt)
    avg = t.column("avg").to_pylist()
    avg[0] = 1.0 - avg[0] if abs(avg[0] - 0.5) > 1e-6 else 0.9
    t = t.set_column(t.schema.get_field_index("avg"), "avg", pa.array(avg, pa.float64()))
    pq.write_table(t, ckpt)  # the metadata kept
    r = runner.invoke(app, [*cfr, "--iterations", "8"])
    assert r.exit_code == 1 and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1
    assert "does not reproduce" in r.stderr and "delete it to start over" in r.stderr
