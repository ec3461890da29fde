"""The `meeple` command line: a thin typer app delegating to pure functions.

One module per command group (games, solvers, tournament, advice): each parses its
options, resolves them in one step, and turns domain errors into exit codes through
``tournament.cli.common``. Heavy imports (pyspiel, ray) happen inside commands, so
`meeple --help` is fast.
"""

from __future__ import annotations

import typer

from tournament.cli import advice, games, solvers
from tournament.cli import tournament as tournament_commands

app = typer.Typer(
    name="meeple",
    help="meeple-arena: game-theoretic AI solvers and tournaments for modern board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
games.register(app)
solvers.register(app)
tournament_commands.register(app)
advice.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
