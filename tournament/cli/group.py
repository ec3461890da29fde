"""The root ``meeple`` group: click's usage errors, a closed stdout and a stop that no
command handler caught each end in the project's one line (``tournament.cli.common``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from tournament.cli.common import FAILED, STDOUT_GONE, fail
from tournament.cli.stdout import stdout_closed
from tournament.signals import stop_words


def _usage_line(e: typer.TyperException) -> str:
    """click's usage message as one line, pointing at the command's help."""
    text = " ".join(e.format_message().split())
    if text[:1].isupper() and text[1:2].islower():
        text = text[0].lower() + text[1:]
    ctx = getattr(e, "ctx", None)
    if ctx is not None:
        text = text.rstrip(".") + f" (see '{ctx.command_path} -h')"
    return text


class MeepleGroup(TyperGroup):
    """The root group: click's usage errors become the project's one-line ``error:``.

    Runs click in non-standalone mode and does the standalone part itself, so that every
    error any command raises, typer's own included, is printed the same way."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except typer.TyperException as e:  # click's ClickException / UsageError
            ctx = getattr(e, "ctx", None)
            if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
                print(ctx.get_help(), file=sys.stderr)  # `meeple games`: the group's help
            else:
                fail(_usage_line(e))  # printed; the exit below
            sys.exit(e.exit_code)
        except typer.Abort:
            print("error: aborted", file=sys.stderr)
            sys.exit(FAILED)
        # non-standalone click returns the code of a typer.Exit, or the command's value
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        """The command, its output flushed; stdout's reader gone is a quiet exit 141
        (STDOUT_GONE; typer would exit 1 without a word, for any broken pipe)."""
        try:
            rv = super().invoke(ctx)
            if sys.stdout is not None:  # None: started with fd 1 closed
                sys.stdout.flush()  # the rest of the result: a closed reader is found here
            return rv
        except BrokenPipeError:
            if not stdout_closed():
                raise fail("a pipe closed while writing (broken pipe)", FAILED) from None
            # the interpreter's last flush of stdout must not fail again ("Exception ignored")
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
            raise typer.Exit(STDOUT_GONE) from None
        except KeyboardInterrupt as stop:  # before a command's own handlers (typer: no word)
            raise _stopped(stop) from None

    def make_context(self, *args: Any, **extra: Any) -> Any:
        try:  # the command line read (typer turned a Ctrl-C here into a silent 130 too)
            return super().make_context(*args, **extra)
        except KeyboardInterrupt as stop:
            raise _stopped(stop) from None


def _stopped(stop: KeyboardInterrupt) -> typer.Exit:
    """The one line and exit status of a stop no command handler caught; a second Ctrl-C
    while a command's own exit leaves (its line printed) keeps that exit, silently."""
    if isinstance(stop.__context__, typer.Exit):
        return stop.__context__
    word, code = stop_words(stop)  # SIGTERM, SIGHUP: their words and 143, 129
    print(f"error: {word}", file=sys.stderr)
    return typer.Exit(code)
