"""Positions: from action histories, and the game record file.

A *history* is the action sequence from the start of the game, chance outcomes
included, written as action strings separated by ``;``::

    start: yellow; start: blue; start player: P2; draw; deck: red; place red in row 1

Each item is matched against the action strings of the legal actions (or the
chance outcomes) at its position, so every game's own ``action_to_string`` is
the vocabulary. An item that matches nothing is an error naming its position
(1-based) and listing what was legal there; nothing is ever guessed. An item the
advised player could not see may be ``?`` (``tournament.advice.unknown``).

A *game record* (``tournament.records``) is the readable JSON that ``meeple play`` writes;
``replay_record_world`` replays one.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import spiel_games
from spiel_games.common.errors import MeepleError
from spiel_games.common.files import is_folder
from spiel_games.common.naming import NoMatch, match, mover, named_options
from tournament.advice.items import (
    CHANCE,
    HistoryError,
    NoRecordError,
    legal_strings,
    parse_action,
    split_history,
)
from tournament.advice.unknown import (
    UNKNOWN,
    World,
    build_world,
    extend_world,
    hidden_from,
    is_unknown,
)
from tournament.records import (
    FORMAT,
    VERSION,
    GameRecord,
    parse_record,
    read_record,
    record_of,
    record_viewer,
)
from tournament.replay import replay as replay_ledger


def replay_history(game, history, viewer: int | None = None) -> tuple[object, list[int]]:
    """Apply a history from the initial state; returns (state, action ids).

    ``?`` items (see ``tournament.advice.unknown``) are allowed for what ``viewer`` (default:
    the player to move at the end) could not see; the state is then one consistent world.
    """
    world = build_world(game, split_history(history), viewer)
    return world.state, list(world.actions)


def history_string(game, actions) -> str:
    """The ``;``-separated history of a list of action ids (inverse of replay_history)."""
    state = game.new_initial_state()
    parts = []
    for a in actions:
        p = mover(state)
        parts.append(state.action_to_string(p, a))
        state.apply_action(a)
    return "; ".join(parts)


def record_items(world: World) -> list[dict]:
    """Record entries for a world's history: ``?`` items stay ``?``."""
    unknown = set(world.unknown)
    items = []
    for i, a in enumerate(world.actions):
        s = world.states[i]
        p = mover(s)
        if i in unknown:
            items.append({"player": int(p), "id": None, "action": UNKNOWN})
        else:
            items.append({"player": int(p), "id": int(a), "action": s.action_to_string(p, a)})
    return items


def replay_record_world(
    game, record: GameRecord, ply: int | None = None, viewer: int | None = None
) -> World:
    """Replay a record's actions (the first ``ply``); ids and strings must agree.

    ``?`` entries are rebuilt as one world consistent with what ``viewer`` saw (default: the
    record's ``me`` seat, else the player to move at the end).
    """
    entries = record.actions if ply is None else record.actions[:ply]
    if viewer is None and any(is_unknown(e["action"]) for e in entries):
        viewer = record_viewer(record)
    items = [UNKNOWN if is_unknown(e["action"]) else e["id"] for e in entries]
    try:
        world = build_world(game, items, viewer)
    except HistoryError:  # a later id that is not legal, after the one that went wrong
        _first_disagreement(game, items, entries, viewer)
        raise
    for i, item in enumerate(entries):
        _check_name(world, i, item)
    return world


def _check_name(world: World, i: int, item: dict) -> None:
    """Entry ``i`` of a record names the action its id is in ``world`` (``?`` aside)."""
    if is_unknown(item["action"]):
        return
    s = world.states[i]
    name = s.action_to_string(mover(s), world.actions[i])
    if name != item["action"] and not _older_name(s, item["action"], world.actions[i]):
        raise HistoryError(
            f"game record action {i + 1}: id {world.actions[i]} is {name!r} here, but the"
            f" record says {item['action']!r}"
        )


def _older_name(state, text: str, action: int) -> bool:
    """Whether a record's string names ``action`` at ``state`` by the rule typed names
    follow (spiel_games.common.naming.match: up to case and spacing, or a unique
    beginning): a record written before a move's string grew (Die Staufer's job cards
    gained their city names) still reads, while a string naming another move does not."""
    try:
        return match(named_options(state), text) == action
    except NoMatch:
        return False


def _first_disagreement(game, items: list, entries: list, viewer: int | None) -> None:
    """Replay the record entry by entry up to the first that does not replay, and raise for
    the first whose id and action string disagree before it: that is the damage, not
    the illegal id it led to. A ``?`` that ``viewer`` saw ends the search: the world
    filled it with a placeholder, and its own error says so (was: the next entry was
    blamed for disagreeing with that placeholder)."""
    world = World(states=[game.new_initial_state()])
    for k, item in enumerate(items):
        if is_unknown(item) and viewer is not None and not hidden_from(world.state, viewer):
            return
        try:
            world = extend_world(game, world, items[:k], item)
        except HistoryError:
            return
        _check_name(world, k, entries[k])


def replay_record(game, record: GameRecord, ply: int | None = None) -> tuple[object, list[int]]:
    """Replay a record's actions (the first ``ply`` of them); ids and strings must agree."""
    world = replay_record_world(game, record, ply)
    return world.state, list(world.actions)


class Position(NamedTuple):
    """A position to advise on, and whose view it was entered from."""

    game_string: str
    game: object
    state: object
    ply: int
    # Whose information state advice must use by default: the player every ``?`` item is
    # hidden from (a table record's ``me`` seat), or None (the player to move). Advising
    # another player would fill that player's own unseen cards with made-up values.
    viewer: int | None


def same_game(a: str, b: str) -> bool:
    """Whether two game strings name the same game (``python_coloretto(players=3)`` and
    the record's spelled-out ``python_coloretto(cards_per_color=9,...,players=3,...)``):
    compared as the games they load (was: as strings, so `replay --save`'s records were
    refused by the command line that made them)."""
    if a == b:
        return True
    try:
        return str(spiel_games.load_game(a)) == str(spiel_games.load_game(b))
    except MeepleError:  # a string that does not load names no game of the record
        return False


def position_from(
    game_string: str | None,
    history=None,
    record_path: str | None = None,
    ply: int | None = None,
    player: int | None = None,
) -> Position:
    """The position of a history or a game record file.

    ``player`` is whose view a ``?`` item is checked against (default: a table record's
    ``me`` seat, else the player to move).
    """
    if (history is None) == (record_path is None):
        raise HistoryError("give exactly one of --history and --game-file")
    if record_path is not None:
        rec = read_record(record_path)
        if game_string and not same_game(game_string, rec.game):
            raise HistoryError(f"the game record is for {rec.game!r}, not {game_string!r}")
        game_string = rec.game
        game = spiel_games.load_game(game_string)
        if ply is not None and not 0 <= ply <= len(rec.actions):
            raise HistoryError(f"ply {ply} is outside the record (0-{len(rec.actions)})")
        world = replay_record_world(game, rec, ply, player)
    else:
        if not game_string:
            raise HistoryError("give a game string")
        game = spiel_games.load_game(game_string)
        items = split_history(history)
        if ply is not None:
            if not 0 <= ply <= len(items):
                raise HistoryError(f"ply {ply} is outside the history (0-{len(items)})")
            items = items[:ply]
        world = build_world(game, items, player)
    return Position(game_string, game, world.state, len(world.actions), world_viewer(world, player))


def world_viewer(world: World, player: int | None) -> int | None:
    """The player a world's ``?`` items were checked against (None: no ``?`` item)."""
    if not world.unknown:
        return player
    return player if player is not None else world.viewer


__all__ = [
    "CHANCE",
    "FORMAT",
    "UNKNOWN",
    "VERSION",
    "GameRecord",
    "HistoryError",
    "Position",
    "history_string",
    "load_game_record",
    "legal_strings",
    "parse_action",
    "parse_record",
    "position_from",
    "read_record",
    "record_items",
    "record_of",
    "record_viewer",
    "replay_history",
    "replay_record",
    "replay_record_world",
    "split_history",
]


def load_game_record(source: str, game_id: str | None) -> GameRecord:
    """A record file, or game ``game_id`` of the ledger directory ``source``."""
    if is_folder(source):
        if not (Path(source) / "manifest.json").exists():
            raise NoRecordError(f"{source} is a directory, not a meeple ledger")
        if not game_id:
            raise NoRecordError(f"{source} is a ledger: give the GAME_ID to review")
        return replay_ledger(source, game_id).record()
    if game_id:
        raise NoRecordError(f"{source} is a game record: give no GAME_ID")
    return read_record(source)
