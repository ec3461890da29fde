"""`meeple solve` asked for fewer iterations than its checkpoint holds says so in one line
(the review: it silently did nothing)."""

from __future__ import annotations

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def test_fewer_iterations_than_the_checkpoint_are_noted(tmp_path):
    out = str(tmp_path / "kuhn.parquet")
    args = ["solve", "kuhn_poker", "--solver", "cfr", "--out", out, "--quiet"]
    assert runner.invoke(app, [*args, "--iterations", "20"]).exit_code == 0
    less = runner.invoke(app, [*args, "--iterations", "10"])
    assert less.exit_code == 0, less.output
    note = "note: --iterations 10 is below the checkpoint's 20: nothing was trained"
    assert note in less.stdout and "20 iterations (0 this run)" in less.stdout
    same = runner.invoke(app, [*args, "--iterations", "20"])
    assert "note: --iterations" not in same.stdout  # at the checkpoint: nothing to say
