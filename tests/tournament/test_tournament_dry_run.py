"""`tournament run --dry-run` checks --out as the run does, reading only: a directory that
holds another tournament or other files is refused the same way (exit 2), and nothing in
it, nor the directory itself, is made or changed."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app


def _invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def _snapshot(d: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in d.iterdir()}


def test_a_dry_run_refuses_an_out_the_run_would_refuse(tmp_path, make_raw, write_toml):
    """Was: the dry run exited 0 where the run then exited 2 ("holds another tournament")."""
    config = write_toml(make_raw(seeds_per_lineup=1))
    out = tmp_path / "ledger"
    assert (
        _invoke("tournament", "run", config, "--out", out, "--executor", "serial", "-q").exit_code
        == 0
    )
    before = _snapshot(out)
    dry = _invoke("tournament", "run", config, "--out", out, "--seed", "4", "--dry-run")
    real = _invoke("tournament", "run", config, "--out", out, "--seed", "4", "--executor", "serial")
    assert dry.exit_code == real.exit_code == 2
    assert (
        dry.output
        == real.output
        == f"error: {out} holds another tournament: tournament.seed was 3, now 4\n"
    )
    assert _snapshot(out) == before
    assert _invoke("tournament", "run", config, "--out", out, "--dry-run").exit_code == 0

    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    before = _snapshot(other)
    dry = _invoke("tournament", "run", config, "--out", other, "--dry-run")
    assert dry.exit_code == 2 and "is not empty and has no manifest.json" in dry.output
    assert _snapshot(other) == before

    fresh = tmp_path / "fresh"
    dry = _invoke("tournament", "run", config, "--out", fresh, "--dry-run")
    assert dry.exit_code == 0 and dry.stdout.startswith("2 games") and not fresh.exists()
