"""Numbers too large for what they count, and config values nested too deeply: a one-line
usage error (exit 2), nothing made.

Was: a 5,000-digit integer in a tournament config or in ``--set tournament.seed=...`` a
ValueError traceback (tomllib's int() has a limit), a value nested 50,000 deep there a
RecursionError traceback; ``solve --workers 99999999999999999999`` an OverflowError and
``--workers 9223372036854775807`` a MemoryError (``tune --workers`` an OverflowError);
``tune --repeats 1000000000 --budget 4`` an iteration of 10^9 games eating 6 GB,
``--levels 10000000`` a 1.35 GB grid and ``--neighbours 1000000000`` a first iteration
that never ended: none of them had an upper bound."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()
HUGE = "9" * 5000
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


def _refused(tmp_path, *argv) -> str:
    r = runner.invoke(app, [str(a) for a in argv])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert not (tmp_path / "out").exists()
    return lines[0]


def test_a_config_with_a_5000_digit_number(tmp_path, make_raw, write_toml):
    toml = write_toml(make_raw(seeds_per_lineup=1, seed=2))
    toml.write_text(toml.read_text().replace("seed = 2\n", f"seed = {HUGE}\n"))
    line = _refused(tmp_path, "tournament", "run", toml, "-o", tmp_path / "out", "-q")
    assert line == f"error: {toml}: invalid TOML: a number of more than 4,300 digits"


def test_an_override_with_a_5000_digit_number(tmp_path, make_raw, write_toml):
    toml = write_toml(make_raw(seeds_per_lineup=1))
    argv = ["tournament", "run", toml, "--set", f"tournament.seed={HUGE}", "-q"]
    line = _refused(tmp_path, *argv, "-o", tmp_path / "out")
    assert line == "error: override tournament.seed: a number of more than 4,300 digits"


def test_a_config_or_override_nested_too_deeply(tmp_path, make_raw, write_toml):
    """Was a RecursionError traceback (tomllib parses nested arrays recursively)."""
    toml = write_toml(make_raw(seeds_per_lineup=1, seed=2))
    deep = "[" * 50_000 + "]" * 50_000
    argv = ["tournament", "run", toml, "--set", f"tournament.seed={deep}", "-q"]
    line = _refused(tmp_path, *argv, "-o", tmp_path / "out")
    assert line == "error: override tournament.seed: nested too deeply"
    toml.write_text(toml.read_text().replace("seed = 2\n", f"seed = {deep}\n"))
    line = _refused(tmp_path, "tournament", "run", toml, "-o", tmp_path / "out", "-q")
    assert line == f"error: {toml}: invalid TOML: nested too deeply"


@pytest.mark.parametrize("workers", ["99999999999999999999", "9223372036854775807", "1025"])
def test_solve_and_tune_workers_are_at_most_1024(tmp_path, workers):
    solve = ["solve", TINY, "--iterations", "2", "-o", tmp_path / "out"]
    tune = ["tune", TINY, "--agent", "ismcts(sims=2)", "--budget", "2", "-o", tmp_path / "out"]
    for argv in (solve, tune):
        line = _refused(tmp_path, *argv, "--workers", workers)
        assert "'--workers'" in line and "1024" in line


@pytest.mark.parametrize(
    ("option", "value", "bound"),
    [
        ("--levels", "10000000", "100"),
        ("--levels", "101", "100"),
        ("--repeats", "1000000000", "1000"),
        ("--repeats", "1001", "1000"),
        ("--neighbours", "1000000000", "10000"),
        ("--neighbours", "10001", "10000"),
    ],
)
def test_tune_bounds(tmp_path, option, value, bound):
    argv = ["tune", TINY, "--agent", "ismcts(sims=2)", "--budget", "4", "-o", tmp_path / "out"]
    line = _refused(tmp_path, *argv, option, value)
    assert f"'{option}'" in line and bound in line


def test_the_bounds_are_in_the_help():
    text = runner.invoke(app, ["tune", "--help"], terminal_width=200).output
    for shown in ("2<=x<=100", "1<=x<=1000", "1<=x<=10000", "1<=x<=1024"):
        assert shown in text, shown
    assert "1<=x<=1024" in runner.invoke(app, ["solve", "--help"], terminal_width=200).output
