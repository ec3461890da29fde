"""`meeple review`: a move-by-move review of one player's game (tournament.advice.review)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from spiel_games.common.files import is_folder
from tournament.cli.advice import _player_id, player_in_range
from tournament.cli.common import (
    OpponentsOption,
    domain_errors,
    fail,
    json_text,
    ledger_arguments,
    opponent_line,
    with_opponents,
    workers_option,
)
from tournament.cli.reports import report_path
from tournament.signals import stop_signals, stop_words

AgentOpt = Annotated[
    str | None,
    typer.Option(
        "--agent",
        "-a",
        help="The reviewing agent, e.g. 'ismcts(sims=2000)' (default ismcts(sims=800))",
    ),
]
WorkersOpt = Annotated[
    int,
    workers_option(
        "Processes analysing decisions side by side (the review is the same for any number)"
    ),
]


def review_cmd(
    source: Annotated[
        str, typer.Argument(help="A game record (JSON), or a tournament ledger directory")
    ],
    game_id: Annotated[
        str | None, typer.Argument(help="The game to review (with a ledger)")
    ] = None,
    agent: AgentOpt = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            "-p",
            help="The player to review: id 0.. or P1..; default the record's 'me'/'human' seat",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, help="Seed (same seed, same review)")
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
    fmt: Annotated[
        str, typer.Option("--format", help="text or json (json is the same as --json)")
    ] = "text",
    html_path: Annotated[
        str | None,
        typer.Option("--html", help="Also write an HTML review with a value-over-time plot"),
    ] = None,
    list_games: Annotated[
        bool, typer.Option("--list", help="List the game ids of a ledger (with seats and scores)")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar")] = False,
    opponents: OpponentsOption = None,
    workers: WorkersOpt = 2,
) -> None:
    """Where did I go wrong? Each unforced decision's best move, value, the move played and
    its loss."""
    from tournament.advice import review as rv  # deferred: fast --help
    from tournament.advice import review_text  # deferred: fast --help

    if fmt not in ("text", "json"):
        raise fail(f"--format must be text or json, got {fmt!r}", 2)
    if list_games:
        _list_ledger_games(source, game_id, as_json or fmt == "json")
        return
    view = _player_id(player)
    # the report's missing directories are made first (as ratings --html), removed on failure
    with report_path(None if html_path is None else Path(html_path)):
        with domain_errors(2):  # an unknown agent or opponent model: nothing ran
            spec = with_opponents(agent or rv.DEFAULT_AGENT, opponents)
        record, result = _review(source, game_id, str(spec), view, seed, quiet, workers)
        if html_path is not None:
            from spiel_games.common.files import atomic_write_text  # deferred: fast --help

            try:
                atomic_write_text(html_path, review_text.render_html(result))  # never torn
            except OSError as e:
                raise fail(f"cannot write {html_path!r}: {e.strerror or e}", 1) from None
    if as_json or fmt == "json":
        typer.echo(json_text(result.to_json()))
    else:
        typer.echo(opponent_line(record.game, spec) + "\n" + review_text.render(result))
    if html_path is not None:
        typer.echo(f"wrote {html_path}", err=True)


def _review(source: str, game_id, spec: str, view, seed: int, quiet: bool, workers: int):
    """The record and its review; a failure while reviewing is one line, exit 1."""
    from tournament.advice import review as rv  # deferred: fast --help
    from tournament.advice.positions import load_game_record  # deferred: fast --help

    try:
        with stop_signals(), domain_errors(1), player_in_range(), ledger_arguments():
            record = load_game_record(source, game_id)
            with _review_progress(quiet) as on_progress:
                result = rv.review(
                    record, spec, player=view, seed=seed, on_progress=on_progress, workers=workers
                )
    except typer.Exit:
        raise
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP (was: silent, or a bare 143)
        word, code = stop_words(stop)
        raise fail(f"{word}: the review did not finish; nothing was written", code) from None
    except (ValueError, RuntimeError) as e:
        raise fail(str(e), 1) from None
    return record, result


def _list_ledger_games(source: str, game_id: str | None, as_json: bool) -> None:
    from tournament.advice import review as rv  # deferred: fast --help

    if game_id is not None:
        raise fail("--list takes a ledger directory and no GAME_ID", 2)
    if not is_folder(source):
        raise fail(f"--list needs a ledger directory; {source!r} is not one", 2)
    with domain_errors(1), ledger_arguments():  # no ledger there: exit 2, as review DIR GAME
        games = rv.ledger_games(source)
    if as_json:
        typer.echo(json_text(games))
        return
    for g in games:
        shown = ["-" if x is None else f"{x:g}" for x in g["scores"]]
        scores = "-" if all(x is None for x in g["scores"]) else ", ".join(shown)
        seats = ", ".join(f"P{p + 1}={name}" for p, name in enumerate(g["seats"]))
        tail = f"  ({g['failure']})" if g["failure"] else ""
        typer.echo(f"{g['game_id']}  {seats}  scores {scores}{tail}")


@contextmanager
def _review_progress(quiet: bool):
    """A progress bar on stderr while the review runs (a terminal only, and not --quiet)."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "reviewing",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("review", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def register(app: typer.Typer) -> None:
    """Add `meeple review` to the root app."""
    app.command("review")(review_cmd)
