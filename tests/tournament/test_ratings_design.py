"""The ratings say when the ledger's design qualifies them: an interrupted (or still
running) run's games so far, an adaptive schedule's or an SPRT's results-driven stop (the
review: an incomplete ledger was rated with no sign)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pyarrow as pa
from typer.testing import CliRunner

from tournament.cli import app
from tournament.ratings.load import design_notes

runner = CliRunner()


def test_an_interrupted_ledger_is_rated_with_its_games_so_far(tmp_path, make_raw, write_toml):
    out = tmp_path / "run"
    argv = ["tournament", "run", str(write_toml(make_raw())), "--out", str(out)]
    assert runner.invoke(app, [*argv, "--executor", "serial", "--quiet"]).exit_code == 0
    parts = sorted(out.glob("part-*.parquet"))
    assert len(parts) == 3  # 12 games, batches of 4
    parts[0].unlink()  # as if the run had stopped before that batch
    res = runner.invoke(app, ["ratings", str(out), "--json", "--bootstrap", "0"])
    assert res.exit_code == 0, res.output
    (note,) = [n for n in json.loads(res.stdout)["notes"] if "scheduled" in n]
    assert note.startswith(f"{out}: 8 of 12 scheduled games played (an interrupted run")
    whole = runner.invoke(app, ["ratings", str(out), "--bootstrap", "0"]).stdout
    assert "8 of 12 scheduled" in " ".join(whole.split())


def _ledger(directory, rows: int, most: int, schedule: str):
    table = pa.table({"game_id": [f"{i:016x}" for i in range(rows)]})
    manifest = {"num_games": most, "config": {"tournament": {"schedule": schedule}}}
    return SimpleNamespace(directory=directory, table=table, manifest=manifest)


def test_adaptive_and_sprt_ledgers_say_their_intervals_take_a_fixed_design(tmp_path):
    assert design_notes(_ledger(tmp_path, 12, 12, "round-robin")) == []
    (adaptive,) = design_notes(_ledger(tmp_path, 60, 144, "adaptive"))
    assert "adaptive schedule (60 games of at most 144)" in adaptive
    assert "somewhat too narrow" in adaptive
    (tmp_path / ".sprt.json").write_text("{}")
    (sprt,) = design_notes(_ledger(tmp_path, 318, 20004, "fixed"))
    assert "an SPRT's ledger (318 games of at most 20004)" in sprt and "over-states" in sprt


def test_an_interrupted_ratings_says_so_in_one_line(tmp_path, make_raw, write_toml, monkeypatch):
    """Was: Ctrl-C during `meeple ratings --luck-adjusted` exited 130 with nothing on
    stderr; now the one line other commands print (SIGTERM: 143, 'terminated')."""
    import signal

    import tournament.ratings.load as load
    from tournament.signals import Stopped

    out = tmp_path / "run"
    argv = ["tournament", "run", str(write_toml(make_raw())), "--out", str(out)]
    assert runner.invoke(app, [*argv, "--executor", "serial", "--quiet"]).exit_code == 0
    for stop, code, word in ((KeyboardInterrupt(), 130, "interrupted"),
                             (Stopped(signal.SIGTERM), 143, "terminated")):  # fmt: skip

        def interrupted(*a, stop=stop, **k):
            raise stop

        monkeypatch.setattr(load, "ledger_luck", interrupted)
        res = runner.invoke(app, ["ratings", str(out), "--luck-adjusted", "--bootstrap", "0"])
        assert res.exit_code == code and res.stdout == ""
        assert res.stderr == (
            f"error: {word}: the ratings did not finish; the luck measured so far is kept in "
            "each ledger's .luck.json: rerun to go on\n"
        )
