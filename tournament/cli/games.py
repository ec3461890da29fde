"""`meeple games ...`: list, show and simulate the registered games."""

from __future__ import annotations

import json
import statistics
from typing import Annotated

import typer

from tournament.cli.common import (
    FormatOption,
    JsonFlag,
    OutputFormat,
    domain_errors,
    fail,
    wants_json,
)

games_app = typer.Typer(
    help="List, inspect and simulate the registered games.", no_args_is_help=True
)


def _load(game_string: str):
    import spiel_games  # deferred: fast --help

    with domain_errors(2):
        return spiel_games.load_game(game_string)


@games_app.command("list")
def list_games() -> None:
    """Every registered game with its player range and parameters."""
    import spiel_games  # deferred: fast --help

    for spec in spiel_games.all_specs():
        params = ", ".join(f"{p.name}={p.default}" for p in spec.params)
        typer.echo(
            f"{spec.short_name}  ({spec.title}, {spec.min_players}-{spec.max_players} players)"
        )
        typer.echo(f"    parameters: {params}")


@games_app.command("show")
def show(
    game: Annotated[str, typer.Argument(help="Game name or game string, e.g. python_coloretto")],
    fmt: FormatOption = OutputFormat.text,
    as_json: JsonFlag = False,
) -> None:
    """Rules summary, parameters, tiny configurations, and deviations and assumptions."""
    import spiel_games  # deferred: fast --help

    try:
        spec = spiel_games.get_spec(game)
    except KeyError as e:
        raise fail(e.args[0], 2) from None
    if "(" in game:
        _load(game)  # a full game string must also load
    if wants_json(fmt, as_json):
        typer.echo(
            json.dumps(
                {
                    "name": spec.short_name,
                    "title": spec.title,
                    "players": [spec.min_players, spec.max_players],
                    "parameters": [
                        {"name": p.name, "default": p.default, "meaning": p.meaning}
                        for p in spec.params
                    ],
                    "tiny_configs": list(spec.tiny_configs),
                    "assumptions": list(spec.assumptions),
                    "summary": spec.summary,
                },
                indent=2,
            )
        )
        return
    typer.echo(f"{spec.title} ({spec.short_name}), {spec.min_players}-{spec.max_players} players\n")
    typer.echo(spec.summary + "\n")
    typer.echo("Parameters:")
    for p in spec.params:
        typer.echo(f"  {p.name:<18} {str(p.default):<10} {p.meaning}")
    typer.echo("\nTiny configurations (exact CFR):")
    for c in spec.tiny_configs:
        typer.echo(f"  {c}")
    typer.echo("\nDeviations and assumptions:")
    typer.echo(f"  ({SOURCE_TAGS})")
    for a in spec.assumptions:
        typer.echo(f"  - {a}")


SOURCE_TAGS = (
    "source tags, docs/sources/README.md: RULES-FACTS N.M = section N.M of "
    "docs/sources/RULES-FACTS.md; SEED, SEED-00N = the project's founding rule summaries "
    "(Spanish, not distributed); other capitals = sources listed in RULES-FACTS.md"
)


@games_app.command("simulate")
def simulate(
    game_string: Annotated[
        str, typer.Argument(help="Game string, e.g. 'python_coloretto(players=4)'")
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Number of random playouts")
    ] = 100,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, help="Seed for the playouts (>= 0)")
    ] = 0,
) -> None:
    """Random playouts with a progress bar; prints score and length statistics."""
    from rich.progress import Progress

    from solvers.baselines import RandomAgent  # deferred: fast --help
    from tournament.match import play_match  # deferred: fast --help

    game = _load(game_string)
    n = game.num_players()
    scores: list[list[float]] = [[] for _ in range(n)]
    returns: list[list[float]] = [[] for _ in range(n)]
    lengths: list[int] = []
    seconds = 0.0
    with Progress(transient=True) as progress:
        task = progress.add_task("simulating", total=games)
        for i in range(games):
            agents = [RandomAgent(seed * 1_000_003 + i * 31 + p) for p in range(n)]
            r = play_match(game, agents, seed=seed * 1_000_003 + i)
            for p in range(n):
                scores[p].append(r.scores[p])
                returns[p].append(r.returns[p])
            lengths.append(r.length)
            seconds += r.seconds
            progress.advance(task)
    typer.echo(f"{games} random games of {game}")
    typer.echo(
        f"length in actions (chance outcomes included): mean {statistics.fmean(lengths):.1f}, "
        f"min {min(lengths)}, max {max(lengths)}"
    )
    typer.echo(f"speed: {sum(lengths) / max(seconds, 1e-9):,.0f} transitions/s")
    typer.echo("seat  score mean  score sd  min   max   return mean")
    for p in range(n):
        sd = statistics.pstdev(scores[p]) if len(scores[p]) > 1 else 0.0
        typer.echo(
            f"P{p + 1:<4} {statistics.fmean(scores[p]):>10.2f} {sd:>9.2f} {min(scores[p]):>5.0f} "
            f"{max(scores[p]):>5.0f} {statistics.fmean(returns[p]):>12.3f}"
        )


def register(app: typer.Typer) -> None:
    """Add `meeple games ...` to the root app."""
    app.add_typer(games_app, name="games")
