"""`meeple solve` refuses what it would ignore or lose (was: MCCFR's options accepted and
ignored by the exact solvers, a resumed --max-keys below the checkpoint's keys accepted,
and an empty blueprint written over a useful one)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import spiel_games
from solvers.mccfr_tables import load_npz
from tournament.cli import app

TINY = spiel_games.get_spec("coloretto").tiny_configs[0]
FULL = "python_coloretto(players=3)"
runner = CliRunner()


@pytest.mark.parametrize(
    "option", [["--batch", "2"], ["--eval-deals", "1"], ["--min-visits", "2"], ["--max-keys", "9"]]
)
def test_the_exact_solvers_refuse_mccfrs_options(tmp_path, option):
    out = tmp_path / "p.parquet"
    r = runner.invoke(app, ["solve", TINY, "--solver", "cfr", "--out", str(out), *option])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert f"cfr is exact: {option[0]} is MCCFR's" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_min_visits_needs_a_blueprint(tmp_path):
    out = tmp_path / "p.parquet"
    r = runner.invoke(app, ["solve", TINY, "--out", str(out), "--min-visits", "3"])
    assert r.exit_code == 2 and "--min-visits selects the keys of a blueprint" in r.stderr


def _full(out, *extra: str):
    args = ["solve", FULL, "--iterations", "64", "--eval-deals", "0", "--quiet", "--out", out]
    return runner.invoke(app, [*args, *extra])


def test_a_resumed_run_may_not_bound_the_table_below_the_checkpoints_keys(tmp_path):
    out = str(tmp_path / "b.npz")
    assert _full(out).exit_code == 0
    keys = load_npz(out)[0]["keys"]
    r = _full(out, "--max-keys", "10")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert f"holds {int(keys):,} keys, more than --max-keys 10" in r.stderr
    assert _full(out, "--max-keys", str(int(keys))).exit_code == 0  # no fewer: resumes


def test_an_empty_blueprint_is_never_written_over_an_existing_one(tmp_path):
    out = tmp_path / "b.npz"
    assert _full(str(out)).exit_code == 0
    before = out.read_bytes()
    r = _full(str(out), "--min-visits", "1000000")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert "keeps none of the" in r.stderr and "not written over" in r.stderr
    assert out.read_bytes() == before
    fresh = _full(str(tmp_path / "c.npz"), "--min-visits", "1000000")  # a new file: a warning
    assert (
        fresh.exit_code == 0 and "warning: " in fresh.stderr and "empty blueprint" in fresh.stderr
    )
    assert "note: --min-visits 1,000,000 kept 0 of the" in fresh.stdout


def test_an_upper_case_npz_suffix_writes_a_blueprint(tmp_path):
    """Was: `--out x.NPZ` wrote a Parquet file, which `blueprint(path=x.NPZ)` refused as
    "not an .npz file"."""
    out = tmp_path / "b.NPZ"
    assert _full(str(out)).exit_code == 0
    assert load_npz(out)[0]["kind"] == "meeple-blueprint"
    r = runner.invoke(app, ["solve", TINY, "--solver", "cfr", "--out", str(tmp_path / "e.NPZ")])
    assert r.exit_code == 2 and "blueprints (.npz) come from MCCFR" in r.stderr
