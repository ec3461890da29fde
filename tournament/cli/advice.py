"""`meeple advise` (move advice, and the JSON-lines engine) and `meeple play` (terminal play);
`meeple review` lives in tournament.cli.review."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from tournament.cli.common import (
    FormatOption,
    JsonFlag,
    OpponentsOption,
    OutputFormat,
    domain_errors,
    fail,
    wants_json,
)
from tournament.cli.common import (
    with_opponents as _with_opponents,
)
from tournament.signals import stop_signals


def _player_id(text: str | None) -> int | None:
    if text is None:
        return None
    from tournament.advice.items import parse_player  # deferred: fast --help

    player = parse_player(text)  # "P2" is the second player, id 1
    if player is not None:
        return player
    raise fail(
        f"--player must be a player id (0, 1, ...) or a seat name (P1, P2, ...), got {text!r}", 2
    )


@contextmanager
def player_in_range() -> Iterator[None]:
    """``--player`` outside the game (known once the game string or record is read), or a
    record path that names no file, is a wrong command line: one line, exit 2 (advise,
    review and play)."""
    from tournament.advice.items import PlayerRangeError  # deferred: fast --help
    from tournament.records import NoRecordError  # deferred: fast --help

    try:
        yield
    except (PlayerRangeError, NoRecordError) as e:
        raise fail(str(e), 2) from None


@contextmanager
def damaged_record() -> Iterator[None]:
    """A ``--load`` record that does not replay (an illegal move, an id and its action
    string that disagree) is damaged: the run failed, exit 1, as `meeple advise` says."""
    from tournament.advice.terminal import DamagedRecordError  # deferred: fast --help

    try:
        yield
    except DamagedRecordError as e:
        raise fail(str(e), 1) from None


GameArg = Annotated[
    str | None,
    typer.Argument(
        help="Game string, e.g. 'python_coloretto(players=3)' (optional with --game-file or --serve)"
    ),
]
HistoryOpt = Annotated[
    str | None,
    typer.Option(
        "--history",
        "-H",
        help="Action strings from the start, chance outcomes included, separated by ';'",
    ),
]
GameFileOpt = Annotated[
    str | None,
    typer.Option("--game-file", "-f", help="A game record (JSON) written by `meeple play` save"),
]
AgentsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--agent", "-a", help="Agent spec, e.g. 'ismcts(sims=2000)'; repeat to compare agents"
    ),
]
AdvisePlayerOpt = Annotated[
    str | None,
    typer.Option(
        "--player",
        "-p",
        help="Advise from this player's information state: id 0.. or P1..; default the player to move",
    ),
]
TopOpt = Annotated[int, typer.Option("--top", "-k", min=1, help="Moves to show")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed (same seed, same answer)")]
TimeOpt = Annotated[
    float | None,
    typer.Option(
        "--time",
        "-t",
        min=0.0,
        help="Anytime search: a deadline of T seconds per agent, its comparison included"
        " (at most T plus a few ms; it may end sooner); sets the agent's time= (0: no"
        " deadline, the agent's simulation budget)",
    ),
]
PlyOpt = Annotated[
    int | None,
    typer.Option("--ply", min=0, help="Use only the first N actions of the history or record"),
]
ServeOpt = Annotated[
    bool,
    typer.Option("--serve", help="Run the JSON-lines engine on stdin/stdout (see docs/advice.md)"),
]


# what --serve refuses, given on the command line at all (each query gives its own): the
# parameter's name and the option as written
SERVE_REFUSES = (
    ("game_string", "GAME"), ("history", "--history"), ("game_file", "--game-file"),
    ("agents", "--agent"), ("player", "--player"), ("top", "--top"), ("seed", "--seed"),
    ("seconds", "--time"), ("ply", "--ply"), ("fmt", "--format"), ("as_json", "--json"),
    ("opponents", "--opponents"),
)  # fmt: skip


def _refuse_with_serve(ctx: typer.Context) -> None:
    """Every per-query option given with --serve, whatever its value (``--seed 0``, the
    default, too): exit 2 naming them."""
    sources = {name: ctx.get_parameter_source(name) for name, _ in SERVE_REFUSES}
    given = [  # by the source's name: typer carries its own copy of click's enum
        flag
        for name, flag in SERVE_REFUSES
        if getattr(sources[name], "name", "DEFAULT") not in ("DEFAULT", "DEFAULT_MAP")
    ]
    if given:  # each query gives these: on the command line they would do nothing
        raise fail(f"--serve reads its queries on stdin: drop {', '.join(given)}", 2)


def advise_cmd(
    ctx: typer.Context,
    game_string: GameArg = None,
    history: HistoryOpt = None,
    game_file: GameFileOpt = None,
    agents: AgentsOpt = None,
    player: AdvisePlayerOpt = None,
    top: TopOpt = 5,
    seed: SeedOpt = 0,
    seconds: TimeOpt = None,
    ply: PlyOpt = None,
    fmt: FormatOption = OutputFormat.text,
    as_json: JsonFlag = False,
    serve: ServeOpt = False,
    opponents: OpponentsOption = None,
) -> None:
    """What to play here: the top moves compared on the same paired samples, each with its
    value (rank score), points and chance to finish first, 95% ranges and significance."""
    if serve:
        _refuse_with_serve(ctx)
        from tournament.advice.serve import serve as run_engine  # deferred: fast --help

        failed = run_engine()  # stdin and stdout as UTF-8 bytes, whatever the locale
        if failed:
            raise fail(failed, 1)
        return
    if not agents:
        raise fail("give at least one --agent, e.g. --agent 'ismcts(sims=2000)'", 2)
    if history is None and game_file is None:
        raise fail("give the position with --history or --game-file", 2)
    if history is not None and game_file is not None:
        raise fail("give only one of --history and --game-file", 2)
    view = _player_id(player)
    budget = {"time": seconds} if seconds is not None else None
    asked = (game_string, history, game_file, ply, view)
    result, lines = _advise(asked, agents, top, seed, budget, opponents)
    if wants_json(fmt, as_json):
        try:  # advice writes "not measured" as null: a NaN or Infinity here is a bug
            text = json.dumps(
                {**result.to_json(), "opponent_models": lines}, indent=1, allow_nan=False
            )
        except ValueError as e:
            raise fail(f"the advice cannot be written as JSON: {e}", 1) from None
        typer.echo(text)
    else:
        from tournament.advice.advise_text import render  # deferred: fast --help

        typer.echo("".join(x + "\n" for x in lines) + render(result))


def _advise(asked, agents, top, seed, budget, opponents):
    """The advice asked for on the command line and the lines naming the opponent models
    its values assume (one line: exit 2 for an unknown game or agent, 1 when it fails)."""
    game_string, history, game_file, ply, view = asked
    import spiel_games  # deferred: fast --help
    from solvers.registry import resolve  # deferred: fast --help
    from tournament.advice.advise import (  # deferred: fast --help
        advise,
        budgets_for,
        check_distinct,
        opponent_models,
    )
    from tournament.advice.positions import position_from  # deferred: fast --help

    with domain_errors(2):  # an unknown game or agent on the command line: nothing ran
        if history is not None and not game_string:  # was exit 1 (found in review)
            raise fail("give a game string", 2)
        if game_string:
            spiel_games.load_game(game_string)
        specs = [_with_opponents(resolve(a), opponents) for a in agents]  # parsed once
        check_distinct(specs)
        budgets_for(specs, budget, "--{}")  # --time out of range or for no agent: refused
    try:
        with domain_errors(1), player_in_range():
            pos = position_from(
                game_string, history=history, record_path=game_file, ply=ply, player=view
            )
        with domain_errors(2):  # a spec this game refuses (a missing model, eval=game with
            for spec in specs:  # model=): a wrong command line, as in play's --seats
                spec.check(pos.game)
        with domain_errors(1), player_in_range():
            result = advise(
                pos.game_string,
                pos.state,
                specs,
                player=pos.viewer,
                top=top,
                seed=seed,
                ply=pos.ply,
                budget=budget,
            )
    except typer.Exit:
        raise
    except (ValueError, RuntimeError) as e:  # an agent that fails here: one line too
        raise fail(str(e), 1) from None
    return result, opponent_models(pos.game, specs)


PlayGameArg = Annotated[
    str | None,
    typer.Argument(help="Game string, e.g. 'python_coloretto(players=3)' (optional with --load)"),
]
SeatsOpt = Annotated[
    str | None,
    typer.Option(
        "--seats",
        help="One agent spec per player, 'human' (or 'me') for you, 'table' for a person at"
        " a physical table whose moves you type, e.g. human,ismcts(time=1),heuristic",
    ),
]
PlaySeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed", "-s", min=0, help="Seed for chance and the AI seats (default 0, or the record's)"
    ),
]
SaveOpt = Annotated[
    str | None,
    typer.Option(
        "--save",
        help="Write the game record here on save, quit and at the end (an existing file"
        " only with --force, or when it is the --load record)",
    ),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Let --save overwrite an existing file")]
LoadOpt = Annotated[str | None, typer.Option("--load", help="Continue a saved game record")]
HintAgentOpt = Annotated[
    str | None,
    typer.Option("--hint-agent", help="Agent used by `hint` (default ismcts(time=2))"),
]
ChanceOpt = Annotated[
    str | None,
    typer.Option(
        "--chance",
        help="'seed' (drawn from the seed) or 'manual' (you type what happens at a"
        " physical table; '?' for what you cannot see); default seed, or the record's",
    ),
]


def play_cmd(
    game_string: PlayGameArg = None,
    seats: SeatsOpt = None,
    seed: PlaySeedOpt = None,
    save: SaveOpt = None,
    force: ForceOpt = False,
    load: LoadOpt = None,
    hint_agent: HintAgentOpt = None,
    chance: ChanceOpt = None,
    opponents: OpponentsOption = None,
) -> None:
    """Play in the terminal against AI seats, or mirror a physical game (table mode):
    numbered moves, hint, undo, save."""
    import spiel_games  # deferred: fast --help
    from tournament.advice.play import PlayError, PlaySession, split_seats  # deferred: fast --help
    from tournament.advice.positions import read_record  # deferred: fast --help
    from tournament.advice.terminal import (  # deferred: fast --help
        check_loadable,
        default_hint_agent,
    )

    hint = hint_agent or default_hint_agent()
    record = None
    if game_string:
        with domain_errors(2):  # the command line's game: before the record is blamed
            spiel_games.load_game(game_string)
    if load is not None:
        with domain_errors(1), player_in_range():  # missing: 2, corrupt: 1, as advise says
            record = read_record(load)
            check_loadable(record, load, game_string, seats is None)  # foreign, bad seats
    with domain_errors(2):
        if record is not None:
            game_string = record.game
        if not game_string:
            raise PlayError("give a game string or --load FILE")
        if seats is not None:
            seat_list = split_seats(seats)
        elif record is not None and record.seats:
            seat_list = list(record.seats)
        else:
            names = "the record names none: " if record is not None else ""
            raise PlayError(f"give --seats ({names}one agent per player, e.g. human,heuristic)")
        if seed is None:
            seed = record.seed if record is not None else 0
        if chance is None:
            chance = record.chance if record is not None else "seed"
        table = any(x.strip().lower() == "table" for x in seat_list)  # as seats are read
        if chance == "seed" and table:  # was: cards made up without a word
            typer.echo(MADE_UP, err=True)
        with damaged_record():  # a record that does not replay: 1, as advise says
            session = PlaySession(
                game_string,
                seat_list,
                seed,
                inp=sys.stdin,
                out=sys.stdout,
                save_path=save,
                hint_agent=hint_agent if opponents is None else _with_opponents(hint, opponents),
                record=record,
                chance=chance,
                load_path=load,
                force=force,
                err=sys.stderr,
            )
    with stop_signals(interrupt=True):  # a second Ctrl-C while the game is kept: ignored
        result = session.run()
        if result.interrupted:  # raised here: the second Ctrl-C stays ignored up to main
            raise typer.Exit(128 + result.signal if result.signal else 130)
    if result.error or result.lost or (save and result.kept == "recovered"):
        raise typer.Exit(1)  # a --save that failed exits non-zero, the moves recovered


MADE_UP = (
    "warning: table seats with --chance seed: the engine draws every card and tile from its"
    " seed, not from your table; to type what the table shows, start with --chance manual"
)


def register(app: typer.Typer) -> None:
    """Add `meeple advise` and `meeple play` to the root app."""
    app.command("advise")(advise_cmd)
    app.command("play")(play_cmd)
