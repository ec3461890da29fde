"""``meeple advise --serve``: a JSON-lines advice engine on stdin/stdout.

In the manner of KataGo's analysis engine: one JSON object per input line, one JSON object
per output line, every answer carrying the query's ``id``. Queries are answered in order
by one worker while the engine keeps reading, so a ``terminate`` takes effect during a
search. A query::

    {"id": "q1", "game": "python_coloretto(players=3)",
     "history": "start: red; start: blue; start: green; start player: P1",
     "agent": "ismcts(sims=400)", "player": "P1", "top": 3, "seed": 0,
     "budget": {"sims": 200}, "reportDuringSearchEvery": 0.1, "analyzeTurns": [4, 6]}

Every field is documented in docs/advice.md. The answer is the ``advise --json`` object
plus ``"id"``, ``"isDuringSearch": false`` and, with ``analyzeTurns``, ``"turnNumber"``
(one answer per turn). With ``reportDuringSearchEvery`` (seconds) partial answers
(``"isDuringSearch": true``, the moves' statistics so far) are sent while searching.
Unknown fields are ignored with a warning line ``{"id", "warning", "field"}``. Errors are
``{"id": ..., "error": "one-line message"}`` (``id`` null when the line was not a JSON
object with an id); a bad line never stops the engine. Actions (``"action"``, or the
older ``"command"``): ``query_version``, ``terminate`` (``terminateId``: stop that query,
which answers with what it has and ``"terminated": true``), ``ping`` and ``quit``.
"""

from __future__ import annotations

import json
import math
import os
import queue
import sys
import threading
import time
from typing import IO

from solvers.registry import resolve
from spiel_games.common.errors import MeepleError, one_line
from tournament.advice.advise import (
    AdviceSet,
    advise_state,
    budgets_for,
    check_distinct,
    with_budget,
)
from tournament.advice.positions import position_from
from tournament.advice.serve_query import Query, parse_query
from tournament.records import json_reason

VERSION = "1.0"
FIRST_REPORT = 0.05  # seconds of search before the first partial answer (at most the interval)


class Running:
    """A query being answered: whether it was terminated and the agent searching now."""

    def __init__(self, qid):
        self.qid = qid
        self.terminated = False
        self.agent = None

    def stop(self) -> None:
        self.terminated = True
        engine = getattr(self.agent, "engine", None)
        if engine is not None:
            engine.halted = True


class Engine:
    def __init__(self) -> None:
        self.answered = 0
        self.out: IO[str] = sys.stdout
        self.lock = threading.Lock()
        # id -> [Running], the queries not yet answered in the order read (one id may be
        # reused: terminate stops every query of that id)
        self.pending: dict[str, list[Running]] = {}
        self.pending_lock = threading.Lock()
        self.closed = False  # the output's reader went away

    def send(self, answer: dict) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.out.write(_dumps(answer) + "\n")
                self.out.flush()
            except BrokenPipeError:  # the reader went away: nobody to answer, stop
                self.closed = True
                self._stop_all()  # what is searching or queued would answer nobody

    def handle_line(self, line: str) -> tuple[dict | None, bool]:
        """(last answer, keep running), answering the whole query now (no worker thread)."""
        jobs, keep = self.read(line)
        answers: list[dict] = []
        for job in jobs:
            if isinstance(job, Query):
                self.run(job, answers.append)
            else:
                answers.append(job)
        return (answers[-1] if answers else None), keep

    def read(self, line: str) -> tuple[list, bool]:
        """(what to do in order: answers to send and queries to run, keep running)."""
        if not line.strip():
            return [], True
        try:
            query = json.loads(line, parse_constant=_not_finite, parse_float=_finite)
        except json.JSONDecodeError as e:
            why = json_reason(e)
            return [{"id": None, "error": f"malformed JSON: {why} at column {e.colno}"}], True
        except ValueError as e:  # NaN, Infinity, 1e400, an integer of over 4300 digits
            return [{"id": None, "error": f"malformed JSON: {one_line(e)}"}], True
        except RecursionError:
            return [{"id": None, "error": "malformed JSON: nested too deeply"}], True
        if not isinstance(query, dict):
            return [{"id": None, "error": "a query must be a JSON object"}], True
        qid = query.get("id")
        if qid is None:
            return [{"id": None, "error": 'the query has no "id"'}], True
        try:
            parsed = parse_query(query)
        except (MeepleError, ValueError, KeyError, TypeError) as e:
            return [{"id": qid, "error": one_line(e)}], True
        warnings: list = [
            {"id": qid, "warning": f"unknown field {f!r} ignored", "field": f}
            for f in parsed.unknown
        ]
        acted = self.act(parsed)
        if isinstance(acted, Query):
            return [*warnings, acted], True
        answer, keep = acted
        return [*warnings, answer], keep

    def act(self, q: Query) -> Query | tuple[dict, bool]:
        if q.action is None:
            return q
        if q.action == "ping":
            return {"id": q.qid, "pong": True}, True
        if q.action == "quit":
            return {"id": q.qid, "bye": True}, False
        if q.action == "query_version":
            return {"id": q.qid, "action": "query_version", "version": VERSION}, True
        # terminate
        with self.pending_lock:
            targets = list(self.pending.get(_key(q.terminate_id), ()))
        for target in targets:
            target.stop()
        return {"id": q.qid, "action": "terminate", "terminateId": q.terminate_id}, True

    def run(self, q: Query, send) -> None:
        """Answer one analysis query, sending each answer with ``send``. Its agents are
        checked once (an error there is the query's one answer); with ``analyzeTurns`` a
        turn that fails answers its error with its ``turnNumber`` and the next turns go on."""
        running = None
        try:
            running = self._running(q)
            agents = _fails(lambda: _agents(q))
            if isinstance(agents, str):
                send({"id": q.qid, "error": agents})
                return
            for turn in q.turns:
                answer = _fails(lambda t=turn: self.answer(q, t, running, send, agents))
                if isinstance(answer, str):
                    where = {"turnNumber": turn} if q.analyze_turns else {}
                    send({"id": q.qid, **where, "error": answer})
                else:
                    send({"id": q.qid, **answer})
                    self.answered += 1
                if running.terminated:
                    break
        finally:
            if running is not None:
                self._answered(running)

    def _stop_all(self) -> None:
        with self.pending_lock:
            entries = [r for rs in self.pending.values() for r in rs]
        for r in entries:
            r.stop()

    def _queued(self, q: Query) -> None:
        with self.pending_lock:
            self.pending.setdefault(_key(q.qid), []).append(Running(q.qid))

    def _running(self, q: Query) -> Running:
        """The entry of ``q``: the oldest of its id (queries run in the order read)."""
        with self.pending_lock:
            entries = self.pending.setdefault(_key(q.qid), [])
            if not entries:  # answered at once (handle_line): not queued
                entries.append(Running(q.qid))
            return entries[0]

    def _answered(self, running: Running) -> None:
        with self.pending_lock:
            key = _key(running.qid)
            entries = self.pending.get(key, [])
            if running in entries:
                entries.remove(running)
            if not entries:
                self.pending.pop(key, None)

    def answer(self, q: Query, turn: int | None, running: Running, send, agents) -> dict:
        pos = position_from(
            q.game, history=q.history, record_path=q.game_file, ply=turn, player=q.player
        )
        items = []
        for spec in agents:
            if running.terminated:
                break
            watch = _watcher(q, turn, running, send)
            items.append(
                advise_state(
                    pos.game_string,
                    pos.state,
                    spec,
                    player=pos.viewer,
                    top=q.top,
                    seed=q.seed,
                    ply=pos.ply,
                    budget=None,  # applied when the agents were parsed (_agents)
                    on_agent=watch,
                )
            )
        if not items:
            return {"terminated": True, "isDuringSearch": False}
        out = AdviceSet(items).to_json()
        out["isDuringSearch"] = False
        if turn is not None and q.analyze_turns:
            out["turnNumber"] = turn
        if running.terminated:
            out["terminated"] = True
        return out

    def serve(self, inp: IO[str], out: IO[str]) -> int:
        """Answer queries until end of input or a quit action (the queries read before it
        are answered first); returns the queries answered."""
        self.out = out
        jobs: queue.Queue = queue.Queue()

        def work():
            while (job := jobs.get()) is not None:
                if isinstance(job, Query):
                    if not self.closed:  # else it would search for nobody
                        self.run(job, self.send)
                else:
                    self.send(job)

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        for line in inp:
            todo, keep = self.read(line)
            now = any(isinstance(j, dict) and j.get("action") == "terminate" for j in todo)
            for job in todo:
                if isinstance(job, Query):
                    self._queued(job)
                if now:  # at once, its warnings first: the query it stops may be running now
                    self.send(job)
                else:
                    jobs.put(job)
            if not keep or self.closed:  # quit: answered after the queries read before it
                break
        jobs.put(None)
        worker.join()
        return self.answered


def _watcher(q: Query, turn, running: Running, send):
    """``on_agent`` for advise_state: remembers the agent (for terminate) and, with
    ``reportDuringSearchEvery``, sends the search's statistics so far at that interval."""

    def on_agent(agent, root) -> None:
        running.agent = agent
        if running.terminated and hasattr(agent, "engine"):
            agent.engine.halted = True
        every = q.report_every
        engine = getattr(agent, "engine", None)
        if every is None or engine is None or not hasattr(agent, "partial"):
            return
        start = time.perf_counter()
        last = [start - every + min(every, FIRST_REPORT)]  # the first after FIRST_REPORT s

        def tick() -> None:
            now = time.perf_counter()
            if now - last[0] < every:
                return
            last[0] = now
            partial = agent.partial(root)
            moves = [m for m in partial.moves if m.visits][: q.top]
            moves.sort(key=lambda m: -m.visits)
            answer = {
                "id": q.qid,
                "isDuringSearch": True,
                "seconds": round(now - start, 4),
                "moves": [
                    {
                        "action": m.action_str,
                        "id": int(m.action),
                        "visits": int(m.visits),
                        "value": m.value,
                        "lcb": m.ci_low,
                    }
                    for m in moves
                ],
            }
            if turn is not None and q.analyze_turns:
                answer["turnNumber"] = turn
            send(answer)

        engine.on_tick = tick

    return on_agent


def _agents(q: Query) -> list:
    """The query's agents, parsed once here at the edge, with the budget each takes
    applied and checked (its values too: one error for the whole query)."""
    specs = [resolve(a) for a in q.agents]
    check_distinct(specs)
    budgets = budgets_for(specs, q.budget)
    return [with_budget(s, b) for s, b in zip(specs, budgets, strict=True)]


def _fails(work):
    """``work()``, or its error as one line (an agent or game bug too: the engine goes on)."""
    try:
        return work()
    except (MeepleError, ValueError, KeyError, TypeError) as e:
        return one_line(e)
    except RecursionError:
        return "the query is nested too deeply"
    except Exception as e:  # an agent or game bug: report it, keep serving
        return f"{type(e).__name__}: {one_line(e)}"


class NotFinite(ValueError):
    """A number JSON cannot carry: NaN, Infinity, or one too large for a float (1e400)."""


def _not_finite(text: str) -> float:
    raise NotFinite(f"{text} is not a JSON number")


def _finite(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise NotFinite(f"the number {text[:20]} is out of range")
    return x


def _key(qid) -> str:
    """A query id as a dict key: ids are any JSON value, lists and objects included (one
    nested too deeply to write back is keyed by its identity)."""
    try:
        return json.dumps(qid, sort_keys=True)
    except (RecursionError, ValueError, TypeError):
        return f"id {id(qid)}"


def _dumps(answer: dict) -> str:
    try:
        return json.dumps(answer)
    except (RecursionError, ValueError, TypeError):  # an id that cannot be written back
        return json.dumps({"id": None, "error": "the query id cannot be written back as JSON"})


def serve(inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    engine = Engine()
    answered = engine.serve(inp or sys.stdin, out or sys.stdout)
    if engine.closed and out is None:  # no "Exception ignored ... BrokenPipeError" at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return answered
