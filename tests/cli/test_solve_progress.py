"""`meeple solve`'s progress bar on a terminal leaves the standard streams alone: inside
own_stdout they carry Ray's prints to stderr (was: rich's default redirection routed them
onto the bar's console, the result's stdout)."""

from __future__ import annotations

import io
import sys

from rich.console import Console

import tournament.cli.solvers as solve_cli


def test_the_bar_on_a_terminal_does_not_take_over_sys_stdout(tmp_path, monkeypatch):
    terminal = Console(file=io.StringIO(), force_terminal=True)
    monkeypatch.setattr(solve_cli, "stdout_console", lambda out=None: terminal)
    progress = solve_cli._SolveProgress("mccfr-os", False, tmp_path / "c", io.StringIO(), "header")
    before = sys.stdout, sys.stderr
    with progress.bar:
        progress.on_iteration(1, 10)
        inside = sys.stdout, sys.stderr
    assert inside == before


def test_a_stdout_that_is_no_terminal_gets_whole_report_lines_and_no_bar(tmp_path):
    """Was: without --quiet the lines went through rich's console, which cut them at its
    default 80 columns off a terminal, and the bar's last frame ended up in the file."""
    from typer.testing import CliRunner

    from tournament.cli import app

    out = tmp_path / "w.npz"
    args = ["solve", "python_coloretto(players=3)", "--iterations", "64", "--report-every"]
    args += ["64", "--eval-deals", "1", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "mccfr-os on python_coloretto(players=3)",
        "iteration 64",
        f"wrote {out}",
    ]
    assert "visits/key" in lines[1] and len(lines[1]) > 80
    assert "━" not in result.output
