"""The `meeple` command line: a thin typer app delegating to pure functions.

Heavy imports (pyspiel, ray) happen inside commands, so `meeple --help` is fast.
"""

from __future__ import annotations

import typer

from tournament import cli_advise, cli_solvers, cli_tournament
from tournament.cli_games import games_app

app = typer.Typer(
    name="meeple",
    help="meeple-arena: game-theoretic AI solvers and tournaments for modern board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(games_app, name="games")
cli_solvers.register(app)
cli_tournament.register(app)
cli_advise.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
