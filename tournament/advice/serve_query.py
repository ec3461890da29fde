"""The queries of the advice engine (``meeple advise --serve``): every field, checked.

Field names follow KataGo's analysis engine where it has one (``reportDuringSearchEvery``,
``analyzeTurns``, ``action``, ``terminateId``); docs/advice.md documents each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solvers.spec import is_single_value
from spiel_games.common.errors import MeepleError
from tournament.advice.items import parse_player

FIELDS = {
    "id",
    "game",
    "history",
    "game_file",
    "agent",
    "player",
    "top",
    "seed",
    "ply",
    "budget",
    "opponents",
    "reportDuringSearchEvery",
    "analyzeTurns",
    "action",
    "command",
    "terminateId",
}
ACTIONS = ("ping", "quit", "query_version", "terminate", "status")

MIN_EVERY = 0.01  # partial answers at most 100 a second: smaller floods the pipe
MAX_WARNINGS = 10  # unknown fields warned of one by one; the others are counted in one line
MAX_NAME = 1000  # characters of an unknown field's name shown (its warning line ~2000)


class QueryError(MeepleError):
    """A query the engine cannot answer as written (one line, sent back as its error)."""


@dataclass
class Query:
    qid: object
    action: str | None = None
    terminate_id: object = None
    agents: list[str] = field(default_factory=list)
    game: str | None = None
    history: object = None
    game_file: str | None = None
    player: int | None = None
    top: int = 5
    seed: int = 0
    ply: int | None = None
    budget: dict | None = None
    opponents: str | None = None
    report_every: float | None = None
    analyze_turns: list[int] | None = None

    @property
    def turns(self) -> list[int | None]:
        return list(self.analyze_turns) if self.analyze_turns else [self.ply]


def unknown_fields(q: dict) -> list[str]:
    """The fields of ``q`` the engine does not know (each is ignored with a warning)."""
    return sorted(set(q) - FIELDS)


def field_warnings(qid, q: dict) -> list[dict]:
    """The warning lines of the unknown fields of ``q``: one for each of the first
    ``MAX_WARNINGS`` (in sorted order, the name cut to ``MAX_NAME`` characters), then one
    counting the others."""
    unknown = unknown_fields(q)
    out: list[dict] = []
    for name in unknown[:MAX_WARNINGS]:
        shown = cut_name(name)
        out.append({"id": qid, "warning": f"unknown field {shown!r} ignored", "field": shown})
    more = len(unknown) - MAX_WARNINGS
    if more > 0:
        out.append({"id": qid, "warning": f"{more} more unknown fields ignored", "more": more})
    return out


def cut_name(name: str) -> str:
    """A field name as a warning shows it: at most ``MAX_NAME`` characters, the cut said."""
    if len(name) <= MAX_NAME:
        return name
    keep = MAX_NAME - 40
    return f"{name[:keep]} ... ({len(name) - keep} characters cut)"


def parse_query(q: dict) -> Query:
    out = Query(qid=q["id"])
    action = _action(q)
    if action is not None:
        out.action = action
        if action == "terminate":
            if "terminateId" not in q:
                raise QueryError('"terminate" needs "terminateId", the id of the query to stop')
            if q["terminateId"] is None:  # no query has it: the stop would stop nothing
                raise QueryError('"terminateId" is null, which no query\'s "id" can be')
            out.terminate_id = q["terminateId"]
        return out
    agents = q.get("agent")
    if isinstance(agents, str):
        agents = [agents]
    if not isinstance(agents, list) or not agents or not all(isinstance(a, str) for a in agents):
        raise QueryError('"agent" must be an agent spec or a list of specs')
    out.agents = agents
    out.game_file = q.get("game_file")
    if out.game_file is not None and not isinstance(out.game_file, str):
        raise QueryError('"game_file" must be a path')
    out.game = q.get("game")
    if out.game is not None and not isinstance(out.game, str):
        raise QueryError('"game" must be a game string')
    out.history = q.get("history")
    if out.game_file is not None and out.history is not None:
        raise QueryError('give "history" or "game_file", not both')
    if out.game_file is None and not out.game:
        raise QueryError('give "game" (a game string) or "game_file" (a game record)')
    if out.history is not None and not isinstance(out.history, str | list):
        raise QueryError(
            f'"history" must be a ";"-separated string or a list of action strings and ids,'
            f" got {type(out.history).__name__}"
        )
    if out.game_file is None and out.history is None:
        out.history = ""
    out.player = _player(q)
    out.top = _opt_int(q, "top", 5, least=1)
    out.seed = _opt_int(q, "seed", 0, least=0)
    out.ply = _opt_int(q, "ply", least=0)
    out.budget = _budget(q)
    out.opponents = q.get("opponents")
    if out.opponents is not None and not isinstance(out.opponents, str):
        raise QueryError('"opponents" must be an opponent model, e.g. "search"')
    if out.opponents is not None and "opponents" in (out.budget or {}):
        raise QueryError('give "opponents" or "budget": {"opponents": ...}, not both')
    every = q.get("reportDuringSearchEvery")
    if every is not None:
        if isinstance(every, bool) or not isinstance(every, int | float) or every < MIN_EVERY:
            raise QueryError(
                f'"reportDuringSearchEvery" must be a number of seconds >= {MIN_EVERY}'
            )
        out.report_every = float(every)
    turns = q.get("analyzeTurns")
    if turns is not None:
        if (
            not isinstance(turns, list)
            or not turns
            or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in turns)
        ):
            raise QueryError('"analyzeTurns" must be a non-empty list of plies (integers >= 0)')
        if out.ply is not None:
            raise QueryError('give "ply" or "analyzeTurns", not both')
        out.analyze_turns = turns
    return out


def _action(q: dict) -> str | None:
    """``"action"``, or its synonym ``"command"`` (null or absent: an analysis query); the
    two given with different values is an error."""
    action, command = q.get("action"), q.get("command")
    if action is not None and command is not None and action != command:
        raise QueryError('"action" and "command" differ: give one ("command" is its synonym)')
    name, value = ("action", action) if action is not None else ("command", command)
    if value is not None and value not in ACTIONS:
        raise QueryError(f'unknown "{name}" {value!r}; known: {", ".join(ACTIONS)}')
    return value


def _budget(q: dict) -> dict | None:
    """``"budget"``: parameter names to numbers or plain words, never spec text such as
    ``"5,time=3"`` (written into the spec as is, it would set another parameter)."""
    budget = q.get("budget")
    if budget is None:
        return None
    if not isinstance(budget, dict):
        raise QueryError('"budget" must be an object of agent parameters, e.g. {"sims": 200}')
    for k, v in budget.items():
        if not k.isidentifier():
            raise QueryError(f'"budget": {k!r} is not a parameter name')
        if not isinstance(v, int | float | str):
            raise QueryError(f'"budget": {k!r} must be a number or a word, got {v!r}')
        if not is_single_value(v):
            raise QueryError(f'"budget": {k!r} must be a number or a word, got {v!r}')
    return budget


def _opt_int(q: dict, key: str, default=None, least: int | None = None):
    """The integer ``q[key]`` (absent or null: ``default``), at least ``least``; the error
    names the field."""
    v = q.get(key)
    if v is None:  # absent or null: the default
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise QueryError(f'"{key}" must be an integer')
    if least is not None and v < least:
        raise QueryError(f'"{key}" must be an integer >= {least}')
    return v


def _player(q: dict) -> int | None:
    """``"player"``: an id (0, 1, ...) or a seat name ("P1", "P2", ...), as on the command line."""
    v = q.get("player")
    if isinstance(v, str):
        player = parse_player(v)
        if player is not None and player >= 0:  # "P0" names no seat
            return player
        raise QueryError(
            f'"player" must be a player id (0, 1, ...) or a seat name (P1, ...), got {v!r}'
        )
    return _opt_int(q, "player")
