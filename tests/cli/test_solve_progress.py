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
    progress = solve_cli._SolveProgress("mccfr-os", False, tmp_path / "c", io.StringIO())
    before = sys.stdout, sys.stderr
    with progress.bar:
        progress.on_iteration(1, 10)
        inside = sys.stdout, sys.stderr
    assert inside == before
