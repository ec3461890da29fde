"""A Ctrl-C before a command's own handlers ends in one line and exit status 130 (found in
review). Was: while the modules loaded, a KeyboardInterrupt traceback; while typer read
the command line or before a command caught it, exit 130 without a word."""

from __future__ import annotations

import builtins

import pytest
import typer
from typer.testing import CliRunner

from tests.one_line import one_line_error
from tournament import entry
from tournament.cli import app
from tournament.cli.group import MeepleGroup


@pytest.mark.parametrize("where", ["invoke", "make_context"])
def test_an_interrupt_typer_would_swallow_is_one_line(monkeypatch, where):
    real = getattr(typer.core.TyperGroup, where)

    def interrupted(self, *args, **kwargs):
        if where == "make_context" or args[0].info_name != "meeple":
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(typer.core.TyperGroup, where, interrupted)
    assert getattr(MeepleGroup, where) is not interrupted  # the group's own override runs
    r = CliRunner().invoke(app, ["games", "list"])
    assert one_line_error(r, 130) == "error: interrupted"


def test_an_interrupt_while_the_modules_load_is_one_line(monkeypatch, capsys):
    real = builtins.__import__

    def importing(name, *args, **kwargs):
        if name == "tournament.cli":
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", importing)
    with pytest.raises(SystemExit) as end:
        entry.main()
    assert end.value.code == 130
    err = capsys.readouterr().err
    assert err == "error: interrupted before the command started; nothing was done\n"


def test_a_termination_no_handler_caught_says_so_and_a_second_stop_keeps_the_exit():
    """Found in review of the fix: SIGTERM there (``Stopped``) said "interrupted", exit 130
    (it is "terminated", 143); and a second Ctrl-C while a command's own exit was leaving
    (its line printed) added another line."""
    import signal

    from tournament.cli.group import _stopped
    from tournament.signals import Stopped

    end = _stopped(Stopped(signal.SIGTERM))
    assert end.exit_code == 143
    own = typer.Exit(130)  # a command's own exit, its line printed
    second = KeyboardInterrupt()  # a second Ctrl-C while that exit was leaving
    second.__context__ = own
    assert _stopped(second) is own
