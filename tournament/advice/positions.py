"""Positions: from action histories, and the game record file.

A *history* is the action sequence from the start of the game, chance outcomes
included, written as action strings separated by ``;``::

    start: yellow; start: blue; start player: P2; draw; deck: red; place red in row 1

Each item is matched against the action strings of the legal actions (or the
chance outcomes) at its position, so every game's own ``action_to_string`` is
the vocabulary. An item that matches nothing is an error naming its position
(1-based) and listing what was legal there; nothing is ever guessed.

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
that does not replay is rejected with the position that failed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import spiel_games
from spiel_games.common.errors import MeepleError
from tournament.match import final_scores

FORMAT = "meeple-game-record"
VERSION = 1
CHANCE = -1


class HistoryError(MeepleError):
    """A history or game record that does not describe a legal position (one-line message)."""


def legal_strings(state) -> list[tuple[int, str]]:
    """(action id, action string) for every legal action or chance outcome at ``state``."""
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return [(int(a), state.action_to_string(CHANCE, a)) for a, _ in state.chance_outcomes()]
    p = state.current_player()
    return [(int(a), state.action_to_string(p, a)) for a in state.legal_actions()]


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def parse_action(state, item, position: int) -> int:
    """The action id that ``item`` (an action string, or an int id) names at ``state``.

    ``position`` (1-based) is only used in error messages.
    """
    if state.is_terminal():
        raise HistoryError(f"history item {position} ({item!r}): the game is already over")
    legal = legal_strings(state)
    if isinstance(item, bool) or not isinstance(item, (int, str)):
        raise HistoryError(f"history item {position}: expected an action string, got {item!r}")
    if isinstance(item, int):
        for a, _ in legal:
            if a == item:
                return a
        raise HistoryError(
            f"history item {position} (id {item}): not legal here; legal: {_list(legal)}"
        )
    text = item.strip()
    exact = [a for a, s in legal if s == text]
    if len(exact) == 1:
        return exact[0]
    loose = [a for a, s in legal if _norm(s) == _norm(text)]
    if len(loose) == 1:
        return loose[0]
    who = "chance" if state.is_chance_node() else f"P{state.current_player() + 1}"
    raise HistoryError(
        f"history item {position} ({text!r}) is not a legal action for {who}; legal: {_list(legal)}"
    )


def _list(legal: list[tuple[int, str]], limit: int = 40) -> str:
    names = [s for _, s in legal]
    if len(names) > limit:
        return ", ".join(names[:limit]) + f", ... ({len(names)} in all)"
    return ", ".join(names) or "none"


def split_history(history) -> list:
    """A history as a list of items: a ``;``-separated string, or a list of strings/ids."""
    if history is None:
        return []
    if isinstance(history, str):
        return [t.strip() for t in history.split(";") if t.strip()]
    if isinstance(history, (list, tuple)):
        return list(history)
    raise HistoryError(
        f"history must be a ';'-separated string or a list, got {type(history).__name__}"
    )


def replay_history(game, history) -> tuple[object, list[int]]:
    """Apply a history from the initial state; returns (state, action ids)."""
    state = game.new_initial_state()
    actions: list[int] = []
    for i, item in enumerate(split_history(history), start=1):
        a = parse_action(state, item, i)
        state.apply_action(a)
        actions.append(a)
    return state, actions


def history_string(game, actions) -> str:
    """The ``;``-separated history of a list of action ids (inverse of replay_history)."""
    state = game.new_initial_state()
    parts = []
    for a in actions:
        p = CHANCE if state.is_chance_node() else state.current_player()
        parts.append(state.action_to_string(p, a))
        state.apply_action(a)
    return "; ".join(parts)


@dataclass
class GameRecord:
    game: str
    seed: int = 0
    seats: list[str] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)  # {"player", "id", "action"}
    terminal: bool = False
    scores: list[float] | None = None
    returns: list[float] | None = None

    def action_ids(self) -> list[int]:
        return [int(a["id"]) for a in self.actions]

    def to_json(self) -> dict:
        return {
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


def record_of(game_string: str, state, seed: int, seats, actions: list[int]) -> GameRecord:
    """Build the record of a game whose action ids from the start are ``actions``."""
    game = state.get_game()
    s = game.new_initial_state()
    items = []
    for a in actions:
        p = CHANCE if s.is_chance_node() else s.current_player()
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
        if (
            not isinstance(a, dict)
            or not isinstance(a.get("id"), int)
            or not isinstance(a.get("action"), str)
        ):
            raise HistoryError(
                f'game record action {i} must be an object with an int "id" and an "action" string'
            )
    seats = data.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise HistoryError('game record "seats" must be a list of agent specs')
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise HistoryError('game record "seed" must be an integer')
    return GameRecord(
        game=game,
        seed=seed,
        seats=seats,
        actions=actions,
        terminal=bool(data.get("terminal", False)),
        scores=data.get("scores"),
        returns=data.get("returns"),
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
    return parse_record(data)


def replay_record(game, record: GameRecord, ply: int | None = None) -> tuple[object, list[int]]:
    """Replay a record's actions (the first ``ply`` of them); ids and strings must agree."""
    items = record.actions if ply is None else record.actions[:ply]
    state = game.new_initial_state()
    actions: list[int] = []
    for i, item in enumerate(items, start=1):
        a = parse_action(state, int(item["id"]), i)
        p = CHANCE if state.is_chance_node() else state.current_player()
        name = state.action_to_string(p, a)
        if name != item["action"]:
            raise HistoryError(
                f"game record action {i}: id {a} is {name!r} here, but the record says {item['action']!r}"
            )
        state.apply_action(a)
        actions.append(a)
    return state, actions


def position_from(
    game_string: str | None,
    history=None,
    record_path: str | None = None,
    ply: int | None = None,
):
    """(game string, game, state, ply) from a history or a game record file."""
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
        state, actions = replay_record(game, rec, ply)
    else:
        if not game_string:
            raise HistoryError("give a game string")
        game = spiel_games.load_game(game_string)
        items = split_history(history)
        if ply is not None:
            if not 0 <= ply <= len(items):
                raise HistoryError(f"ply {ply} is outside the history (0-{len(items)})")
            items = items[:ply]
        state, actions = replay_history(game, items)
    return game_string, game, state, len(actions)
