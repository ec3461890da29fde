"""A hand-edited checkpoint of `meeple solve` (an MCCFR manifest.json, an exact solver's
Parquet metadata): one line, exit 1, the checkpoint and the policy kept, never a traceback
(nor a replay that never ends)."""

from __future__ import annotations

import json
import os

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from solvers import efg_cfr
from solvers.base import MAX_COUNT
from tests.pipes import pipes, release_later
from tests.solvers.test_solver_cli import _solve
from tournament.cli import app

runner = CliRunner()


BAD_FIELDS = (
    [
        (key, value)
        for key in ("train_seconds", "train_cpu_seconds")
        for value in ("x", None, [1], {"a": 1}, -5)
    ]
    + [
        (key, value)
        for key in ("snapshot_round", "snapshot_iterations")
        for value in (None, [1], {}, -5, 1.5, True, MAX_COUNT + 1)
    ]
    + [("snapshot", -5), ("snapshot", "../x.npz"), ("reports", None), ("reports", -5)]
)


@pytest.mark.parametrize(("key", "value"), BAD_FIELDS)
def test_a_hand_edited_checkpoint_manifest_is_one_line_with_status_1(tmp_path, key, value):
    """Was: a ValueError/TypeError traceback from float(), int() or ``Path / -5`` on
    resume (a negative iteration count resumed silently)."""
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    path = tmp_path / "p.parquet.ckpt" / "manifest.json"
    manifest = json.loads(path.read_text())
    path.write_text(json.dumps({**manifest, key: value}))
    before = out.read_bytes()
    r = _solve("--out", str(out), "--iterations", "8")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(
        f"error: checkpoint {path.parent} cannot be resumed (manifest.json: {key} is "
    )
    assert r.stderr.endswith("); delete it to start over\n") and out.read_bytes() == before


@pytest.mark.parametrize("value", [-5, True, None])
def test_an_exact_checkpoint_whose_iteration_is_not_a_count_is_refused(tmp_path, value):
    """Was: -5 or true was replayed as a count ('replaying True iterations does not
    reproduce the checkpoint')."""
    cfr = ["solve", "kuhn_poker", "--solver", "cfr", "--out", str(tmp_path / "e.parquet")]
    assert runner.invoke(app, [*cfr, "--iterations", "2"]).exit_code == 0
    ckpt = tmp_path / "e.parquet.ckpt.parquet"
    t = pq.read_table(ckpt)
    meta = {**json.loads(t.schema.metadata[b"meeple_checkpoint"]), "iteration": value}
    pq.write_table(t.replace_schema_metadata({b"meeple_checkpoint": json.dumps(meta)}), ckpt)
    r = runner.invoke(app, [*cfr, "--iterations", "4"])
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert "has no valid meeple metadata; delete it to start over" in r.stderr


def _no_replay(*_args, **_kwargs):
    pytest.fail("the checkpoint's iterations were replayed")


@pytest.mark.parametrize("solver", ["cfr", "cfr+"])
@pytest.mark.parametrize("value", [10**12, MAX_COUNT + 1])
def test_an_exact_checkpoint_with_more_iterations_than_a_run_makes_is_refused(
    tmp_path, monkeypatch, solver, value
):
    """Was: an ``iteration`` edited to 10**12 was replayed, iteration after iteration,
    until Ctrl-C. Now it is refused before the replay (here one fails the test at once,
    so the old code fails instead of hanging), nothing written."""
    cfr = ["solve", "kuhn_poker", "--solver", solver, "--out", str(tmp_path / "e.parquet")]
    assert runner.invoke(app, [*cfr, "--iterations", "2"]).exit_code == 0
    ckpt = tmp_path / "e.parquet.ckpt.parquet"
    t = pq.read_table(ckpt)
    meta = {**json.loads(t.schema.metadata[b"meeple_checkpoint"]), "iteration": value}
    pq.write_table(t.replace_schema_metadata({b"meeple_checkpoint": json.dumps(meta)}), ckpt)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.setattr(efg_cfr.ExactCFR, "load_rows", _no_replay)
    r = runner.invoke(app, [*cfr, "--iterations", "4"])
    assert r.exit_code == 1
    assert r.stderr == (
        f"error: checkpoint {ckpt}: iteration {value:,} is more than --iterations accepts"
        f" ({MAX_COUNT:,}); delete it to start over\n"
    )
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files


def test_iterations_over_the_bound_are_refused_before_the_run(tmp_path, monkeypatch):
    """``--iterations`` is bounded as the agents' budgets are (MAX_COUNT), so every
    checkpoint a run writes can be resumed. Was: accepted (a run that never ends)."""
    monkeypatch.setattr(efg_cfr.ExactCFR, "iterate", _no_replay)
    out = tmp_path / "e.parquet"
    args = ["solve", "kuhn_poker", "--solver", "cfr", "--out", str(out)]
    r = runner.invoke(app, [*args, "--iterations", str(MAX_COUNT + 1)])
    assert r.exit_code == 2
    assert r.stderr == "error: --iterations must be <= 1,000,000,000, got 1,000,000,001\n"
    assert list(tmp_path.iterdir()) == []


@pipes
def test_an_mccfr_checkpoint_table_that_is_a_pipe_is_refused_unread(tmp_path):
    """Was: ``--resume`` of a checkpoint whose tables file is a named pipe waited forever
    for a writer (np.load on the path). Now one line, status 1, nothing written."""
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    ckpt = tmp_path / "p.parquet.ckpt"
    table = next(ckpt.glob("tables-*.npz"))
    table.unlink()
    os.mkfifo(table)
    release_later(table)
    manifest = (ckpt / "manifest.json").read_bytes()
    r = _solve("--out", str(out), "--iterations", "8")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.stderr
    assert f"{table} is unreadable (is a pipe (FIFO), not a file)" in r.stderr
    assert (ckpt / "manifest.json").read_bytes() == manifest


@pipes
def test_an_exact_checkpoint_that_is_a_pipe_is_refused_unread(tmp_path):
    """Was: pyarrow read the named pipe by path and waited forever for a writer."""
    out = tmp_path / "e.parquet"
    cfr = ["solve", "kuhn_poker", "--solver", "cfr", "--out", str(out)]
    assert runner.invoke(app, [*cfr, "--iterations", "2"]).exit_code == 0
    ckpt = tmp_path / "e.parquet.ckpt.parquet"
    ckpt.unlink()
    os.mkfifo(ckpt)
    release_later(ckpt)
    before = out.read_bytes()
    r = runner.invoke(app, [*cfr, "--iterations", "4"])
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr == (
        f"error: checkpoint {ckpt} is unreadable (is a pipe (FIFO), not a file); "
        "delete it to start over\n"
    )
    assert out.read_bytes() == before


@pipes
def test_an_mccfr_checkpoint_manifest_that_is_a_pipe_is_refused_unread(tmp_path):
    """Was: ``--resume`` read manifest.json by path and waited forever for a writer (a
    SIGTERM then said 'checkpoint saved'). Now one line, status 1, the tables kept."""
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    ckpt = tmp_path / "p.parquet.ckpt"
    manifest = ckpt / "manifest.json"
    manifest.unlink()
    os.mkfifo(manifest)
    release_later(manifest)
    tables = {p.name: p.read_bytes() for p in ckpt.glob("*.npz")}
    r = _solve("--out", str(out), "--iterations", "8")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr == (
        f"error: checkpoint {manifest} is unreadable (is a pipe (FIFO), not a file); "
        "delete it to start over\n"
    )
    assert {p.name: p.read_bytes() for p in ckpt.glob("*.npz")} == tables


def test_an_mccfr_table_file_copied_from_another_run_is_refused(tmp_path):
    """Was: a tables-N.npz copied in from another game's checkpoint was merged and the run
    went on (its files said only their round; the identity was in the manifest alone)."""
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    other = tmp_path / "k.parquet"
    kuhn = ["solve", "kuhn_poker", "--solver", "mccfr-es", "--iterations", "4", "--quiet"]
    assert runner.invoke(app, [*kuhn, "--out", str(other)]).exit_code == 0
    mine = next((tmp_path / "p.parquet.ckpt").glob("tables-*.npz"))
    theirs = next((tmp_path / "k.parquet.ckpt").glob("tables-*.npz"))
    mine.write_bytes(theirs.read_bytes())
    before = out.read_bytes()
    r = _solve("--out", str(out), "--iterations", "8")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.stderr
    assert f"({mine.name} was written by another run (game 'kuhn_poker()'))" in r.stderr
    assert out.read_bytes() == before
