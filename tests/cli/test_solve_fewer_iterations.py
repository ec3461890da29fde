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


COLORETTO = "python_coloretto(players=3)"


def _blueprint_reports(path) -> list[dict]:
    import json

    import numpy as np

    return json.loads(bytes(np.load(path)["meta"]).decode())["reports"]


def test_an_mccfr_rerun_that_trains_nothing_leaves_the_finished_file_alone(tmp_path):
    """Was (found in review): the checkpoint keeps whole rounds (64 of 100 iterations here)
    and the file the short last round too; a rerun at --iterations 50 (or 64) rewrote the
    100-iteration, 452-key file from the 64-iteration checkpoint, saying the file held it."""
    out = tmp_path / "b.npz"
    args = ["solve", COLORETTO, "--report-every", "50", "--eval-deals", "1", "--out", str(out)]
    assert runner.invoke(app, [*args, "--iterations", "100", "--quiet"]).exit_code == 0
    before = out.read_bytes()
    for fewer in ("50", "64"):
        r = runner.invoke(app, [*args, "--iterations", fewer, "--quiet"])
        assert r.exit_code == 0, r.output
        assert f"checkpoint's 64: nothing was trained; {out} left as it was" in r.stdout
        assert out.read_bytes() == before
    out.unlink()  # a missing file is written from the checkpoint
    assert runner.invoke(app, [*args, "--iterations", "50", "--quiet"]).exit_code == 0
    iterations = [r["iteration"] for r in _blueprint_reports(out)]
    assert iterations == [64]  # was: 64 twice (the checkpoint's report and this run's)
    assert all(r["eval_deals"] == 1 and r["min_visits"] == 1 for r in _blueprint_reports(out))


def test_a_file_older_than_the_checkpoint_is_written_from_it(tmp_path):
    """Found in review of the fix above: a file holding fewer iterations than the
    checkpoint (a rerun stopped after it checkpointed further) must not be kept: a rerun
    that trains nothing writes it from the checkpoint."""
    import json

    import numpy as np

    out = tmp_path / "b.npz"
    args = ["solve", COLORETTO, "--report-every", "64", "--eval-deals", "1", "--out", str(out)]
    assert runner.invoke(app, [*args, "--iterations", "64", "--quiet"]).exit_code == 0
    stale = out.read_bytes()
    assert runner.invoke(app, [*args, "--iterations", "128", "--quiet"]).exit_code == 0
    out.write_bytes(stale)  # the file as it stood at 64, the checkpoint at 128
    r = runner.invoke(app, [*args, "--iterations", "128", "--quiet"])
    assert r.exit_code == 0 and "left as it was" not in r.stdout, r.output
    assert json.loads(bytes(np.load(out)["meta"]).decode())["iterations"] == 128
