"""Positions: from action histories, and the game record file.

A *history* is the action sequence from the start of the game, chance outcomes
included, written as action strings separated by ``;``::

    start: yellow; start: blue; start player: P2; draw; deck: red; place red in row 1

Each item is matched against the action strings of the legal actions (or the
chance outcomes) at its position, so every game's own ``action_to_string`` is
the vocabulary. An item that matches nothing is an error naming its position
(1-based) and listing what was legal there; nothing is ever guessed. An item the
advised player could not see may be ``?`` (``tournament.advice.unknown``).

A *game record* is readable JSON written by ``meeple play`` (``save``) and read
by ``meeple advise --game-file`` and ``meeple play --load``::

    {
      "format": "meeple-game-record",
      "version": 1,
      "game": "python_coloretto(players=3)",
      "seed": 7,
      "seats": ["human", "ismcts(sims=400)", "heuristic"],
      "actions": [{"player": -1, "id": 2, "action": "start: green"}, ...],
      "terminal": false,
      "scores": null,
      "returns": null
    }

``player`` is the OpenSpiel player id of the mover (-1 for chance). On load,
every action is replayed and must be legal with the recorded string; a record
that does not replay is rejected with the position that failed. An action the
recording player could not see is ``{"player": 1, "id": null, "action": "?"}``;
table mode (``--chance manual``) adds ``"chance": "manual"``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import spiel_games
from spiel_games.common.naming import mover
from tournament.advice.items import (
    CHANCE,
    HistoryError,
    legal_strings,
    parse_action,
    split_history,
)
from tournament.advice.unknown import UNKNOWN, World, build_world, is_unknown
from tournament.match import final_scores

FORMAT = "meeple-game-record"
VERSION = 1


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


@dataclass
class GameRecord:
    """A game as played. An action the recording player could not see is ``"?"`` with
    ``"id": null`` (table mode writes these); ``chance`` is ``"seed"`` (drawn from the seed)
    or ``"manual"`` (entered by hand at a physical table)."""

    game: str
    seed: int = 0
    seats: list[str] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)  # {"player", "id", "action"}
    terminal: bool = False
    scores: list[float] | None = None
    returns: list[float] | None = None
    chance: str = "seed"

    def action_ids(self) -> list[int]:
        return [int(a["id"]) for a in self.actions]

    def items(self) -> list:
        """The history items: the action id, or ``"?"`` for an unseen action."""
        return [UNKNOWN if is_unknown(a["action"]) else int(a["id"]) for a in self.actions]

    def to_json(self) -> dict:
        out = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "seed": self.seed,
            "seats": list(self.seats),
            "actions": [dict(a) for a in self.actions],
            "terminal": self.terminal,
            "scores": self.scores,
            "returns": self.returns,
        }
        if self.chance != "seed":
            out["chance"] = self.chance
        return out

    def dumps(self) -> str:
        """Readable JSON: one line per field, one line per action."""
        data = self.to_json()
        actions = data.pop("actions")
        lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in data.items()]
        body = ",\n".join(f"    {json.dumps(a)}" for a in actions)
        lines.append('  "actions": [' + (f"\n{body}\n  ]" if actions else "]"))
        return "{\n" + "\n".join(lines) + "\n}\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps())


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


def record_of(game_string: str, state, seed: int, seats, actions: list[int]) -> GameRecord:
    """Build the record of a game whose action ids from the start are ``actions``."""
    game = state.get_game()
    s = game.new_initial_state()
    items = []
    for a in actions:
        p = mover(s)
        items.append({"player": int(p), "id": int(a), "action": s.action_to_string(p, a)})
        s.apply_action(a)
    rec = GameRecord(game=game_string, seed=int(seed), seats=list(seats), actions=items)
    if state.is_terminal():
        rec.terminal = True
        rec.scores = final_scores(state)
        rec.returns = [float(x) for x in state.returns()]
    return rec


def parse_record(data: dict) -> GameRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HistoryError(f'not a game record (expected "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise HistoryError(
            f"unsupported game record version {data.get('version')!r} (expected {VERSION})"
        )
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise HistoryError('game record has no "game" string')
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise HistoryError('game record "actions" must be a list')
    for i, a in enumerate(actions, start=1):
        if not isinstance(a, dict) or not isinstance(a.get("action"), str):
            raise HistoryError(
                f'game record action {i} must be an object with an int "id" and an "action" string'
            )
        unseen = is_unknown(a["action"]) and a.get("id") is None
        if not unseen and (isinstance(a.get("id"), bool) or not isinstance(a.get("id"), int)):
            raise HistoryError(
                f'game record action {i} must be an object with an int "id" and an "action"'
                ' string (or "id": null with "action": "?")'
            )
    seats = data.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise HistoryError('game record "seats" must be a list of agent specs')
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise HistoryError('game record "seed" must be an integer')
    chance = data.get("chance", "seed")
    if chance not in ("seed", "manual"):
        raise HistoryError('game record "chance" must be "seed" or "manual"')
    return GameRecord(
        game=game,
        seed=seed,
        seats=seats,
        actions=actions,
        terminal=bool(data.get("terminal", False)),
        scores=data.get("scores"),
        returns=data.get("returns"),
        chance=chance,
    )


def read_record(path: str | Path) -> GameRecord:
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise HistoryError(f"cannot read game record {str(path)!r}: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise HistoryError(
            f"game record {str(path)!r} is not valid JSON: {e.msg} at line {e.lineno}"
        ) from None
    except RecursionError:
        raise HistoryError(f"game record {str(path)!r} is nested too deeply") from None
    return parse_record(data)


def record_viewer(record: GameRecord) -> int | None:
    """The seat whose view a table-mode record was entered from (``me``/``human``), if one."""
    seats = [i for i, s in enumerate(record.seats) if s.strip().lower() in ("me", "human")]
    return seats[0] if len(seats) == 1 else None


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
    world = build_world(
        game, [UNKNOWN if is_unknown(e["action"]) else e["id"] for e in entries], viewer
    )
    for i, item in enumerate(entries):
        if is_unknown(item["action"]):
            continue
        s = world.states[i]
        p = mover(s)
        name = s.action_to_string(p, world.actions[i])
        if name != item["action"]:
            raise HistoryError(
                f"game record action {i + 1}: id {world.actions[i]} is {name!r} here, but the"
                f" record says {item['action']!r}"
            )
    return world


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
        if game_string and game_string != rec.game:
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
