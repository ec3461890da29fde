"""The `meeple` command line: a thin typer app delegating to pure functions.

One module per command group (games, solvers, tournament, advice): each parses its
options, resolves them in one step, and turns domain errors into exit codes through
``tournament.cli.common`` (which also makes click's usage errors one line). Heavy imports
(pyspiel, ray) happen inside commands, so `meeple --help` is fast.
"""

from __future__ import annotations

import platform
import sys
from importlib import metadata
from typing import Annotated

import typer

from tournament.cli import advice, agents, games, review, solvers, sprt, train, tune
from tournament.cli import tournament as tournament_commands
from tournament.cli.common import CONTEXT_SETTINGS
from tournament.cli.group import MeepleGroup
from tournament.signals import ignore_stops, stopped_exit

app = typer.Typer(
    name="meeple",
    help="meeple-arena: game-theoretic AI solvers and tournaments for modern board games.",
    cls=MeepleGroup,
    context_settings=CONTEXT_SETTINGS,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def version_line() -> str:
    """``meeple-arena X (open-spiel Y, Python Z)``: what ``meeple --version`` prints."""

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    return (
        f"meeple-arena {version('meeple-arena')} "
        f"(open-spiel {version('open_spiel')}, Python {platform.python_version()})"
    )


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit(0)


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit"
        ),
    ] = False,
) -> None:
    """meeple-arena: game-theoretic AI solvers and tournaments for modern board games."""


games.register(app)
agents.register(app)
solvers.register(app)
train.register(app)
tournament_commands.register(app)
sprt.register(app)
tune.register(app)
advice.register(app)
review.register(app)


def main() -> None:
    try:
        app(prog_name="meeple")  # also under `python -m tournament.cli`
    except KeyboardInterrupt:  # before a command's own handlers (was: a traceback)
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemExit as end:
        if stopped_exit(end.code):  # stopped on a signal, all kept: only the exit is left
            ignore_stops()
        raise


if __name__ == "__main__":
    main()
