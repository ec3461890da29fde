"""``meeple advise --serve``: a JSON-lines advice engine on stdin/stdout.

In the manner of KataGo's analysis engine: one JSON object per input line, one
JSON object per output line, answers carrying the query's ``id``. A query::

    {"id": "q1", "game": "python_coloretto(players=3)",
     "history": "start: red; start: blue; start: green; start player: P1",
     "agent": "ismcts(sims=400)", "player": 0, "top": 3, "seed": 0,
     "budget": {"sims": 200}}

``history`` is a ``;``-separated string or a list of action strings / action
ids (``"?"`` for an item the advised player did not see); ``agent`` is a spec or a list of specs; ``player``, ``top``, ``seed``,
``ply`` and ``budget`` (parameter overrides for every agent, e.g. ``{"time":
0.2}``) are optional. A query may give ``"game_file"`` (a game record path)
instead of ``game`` + ``history``.

The answer is the ``advise --json`` object plus ``"id"``. Errors are
``{"id": ..., "error": "one-line message"}`` (``id`` is null when the line was
not a JSON object with an id); a bad line never stops the engine. Control
queries: ``{"id": ..., "command": "ping"}`` answers ``{"id": ..., "pong": true}``;
``{"id": ..., "command": "quit"}`` answers ``{"id": ..., "bye": true}`` and stops.
Loaded games stay warm between queries (``spiel_games.load_game`` loads each once).
"""

from __future__ import annotations

import json
import sys
from typing import IO

from solvers.registry import resolve
from spiel_games.common.errors import MeepleError, one_line
from tournament.advice.advise import advise
from tournament.advice.positions import position_from

_KNOWN = {
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
    "command",
}


class QueryError(MeepleError):
    """A query the engine cannot answer as written (one line, sent back as its error)."""


class Engine:
    def __init__(self):
        self.answered = 0

    def handle_line(self, line: str) -> tuple[dict | None, bool]:
        """(answer, keep running). Blank lines get no answer."""
        if not line.strip():
            return None, True
        qid = None
        try:
            query = json.loads(line)
        except json.JSONDecodeError as e:
            return {"id": None, "error": f"malformed JSON: {e.msg} at column {e.colno}"}, True
        except RecursionError:
            return {"id": None, "error": "malformed JSON: nested too deeply"}, True
        if not isinstance(query, dict):
            return {"id": None, "error": "a query must be a JSON object"}, True
        qid = query.get("id")
        if qid is None:
            return {"id": None, "error": 'the query has no "id"'}, True
        try:
            answer, keep = self.handle(query)
        except (MeepleError, ValueError, KeyError, TypeError) as e:
            return {"id": qid, "error": one_line(e)}, True
        except RecursionError:
            return {"id": qid, "error": "the query is nested too deeply"}, True
        except Exception as e:  # an agent or game bug: report it, keep serving
            return {"id": qid, "error": f"{type(e).__name__}: {one_line(e)}"}, True
        answer = {"id": qid, **answer}
        self.answered += 1
        return answer, keep

    def handle(self, q: dict) -> tuple[dict, bool]:
        unknown = sorted(set(q) - _KNOWN)
        if unknown:
            raise QueryError(
                f"unknown query field(s) {', '.join(unknown)}; known: {', '.join(sorted(_KNOWN))}"
            )
        command = q.get("command")
        if command is not None:
            if command == "ping":
                return {"pong": True}, True
            if command == "quit":
                return {"bye": True}, False
            raise QueryError(f"unknown command {command!r}; known: ping, quit")
        agents = q.get("agent")
        if isinstance(agents, str):
            agents = [agents]
        if (
            not isinstance(agents, list)
            or not agents
            or not all(isinstance(a, str) for a in agents)
        ):
            raise QueryError('"agent" must be an agent spec or a list of specs')
        game_file = q.get("game_file")
        if game_file is not None and not isinstance(game_file, str):
            raise QueryError('"game_file" must be a path')
        game_string = q.get("game")
        if game_string is not None and not isinstance(game_string, str):
            raise QueryError('"game" must be a game string')
        history = q.get("history")
        if game_file is None and history is None:
            history = ""
        player = _player(q)
        top = _opt_int(q, "top", 5)
        seed = _opt_int(q, "seed", 0)
        ply = _opt_int(q, "ply")
        budget = q.get("budget")
        if budget is not None and not isinstance(budget, dict):
            raise QueryError('"budget" must be an object of agent parameters, e.g. {"sims": 200}')
        pos = position_from(
            game_string,
            history=history,
            record_path=game_file,
            ply=ply,
            player=player,
        )
        specs = [resolve(a) for a in agents]  # parsed once, here at the edge
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
        return result.to_json(), True

    def serve(self, inp: IO[str], out: IO[str]) -> int:
        """Answer queries until end of input or a quit command; returns queries answered."""
        for line in inp:
            answer, keep = self.handle_line(line)
            if answer is not None:
                out.write(_dumps(answer) + "\n")
                out.flush()
            if not keep:
                break
        return self.answered


def _dumps(answer: dict) -> str:
    try:
        return json.dumps(answer)
    except (RecursionError, ValueError, TypeError):  # an id that cannot be written back
        return json.dumps({"id": None, "error": "the query id cannot be written back as JSON"})


def _opt_int(q: dict, key: str, default=None):
    v = q.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise QueryError(f'"{key}" must be an integer')
    return v


def _player(q: dict) -> int | None:
    """``"player"``: an id (0, 1, ...) or a seat name ("P1", "P2", ...), as on the command line."""
    v = q.get("player")
    if isinstance(v, str):
        t = v.strip()
        if t[:1] in "pP" and t[1:].isdigit() and int(t[1:]) >= 1:
            return int(t[1:]) - 1
        raise QueryError(
            f'"player" must be a player id (0, 1, ...) or a seat name (P1, ...), got {v!r}'
        )
    return _opt_int(q, "player")


def serve(inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    return Engine().serve(inp or sys.stdin, out or sys.stdout)
