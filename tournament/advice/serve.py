"""``meeple advise --serve``: a JSON-lines advice engine on stdin/stdout.

In the manner of KataGo's analysis engine: one JSON object per input line, one JSON object
per output line, every answer carrying the query's ``id``. Queries are answered in order
by one worker while the engine keeps reading, so a ``terminate`` takes effect during a
search. A query::

    {"id": "q1", "game": "python_coloretto(players=3)",
     "history": "start: red; start: blue; start: green; start player: P1",
     "agent": "ismcts(sims=400)", "player": "P1", "top": 3, "seed": 0,
     "budget": {"sims": 200}, "opponents": "search", "reportDuringSearchEvery": 0.1,
     "analyzeTurns": [4, 6]}

Every field is documented in docs/advice.md. The answer is the ``advise --format json``
object (``opponent_models`` included) plus ``"id"``, ``"isDuringSearch": false`` and, with
``analyzeTurns``, ``"turnNumber"`` (one answer per turn). With ``reportDuringSearchEvery``
(seconds) partial answers (``"isDuringSearch": true``, the moves' statistics so far, the
agent searching) are sent while searching.
Unknown fields are ignored with a warning line ``{"id", "warning", "field"}`` (the first
ten, then one line counting the others: ``serve_query.field_warnings``). Errors are
``{"id": ..., "error": "one-line message"}`` (``id`` null when the line was not a JSON
object with an id); a bad line never stops the engine. Actions (``"action"``, or the
older ``"command"``): ``query_version``, ``terminate`` (``terminateId``: stop that query,
which answers with what it has, ``"terminated": true`` when a search was cut short or
skipped), ``status`` (answered at once, ahead of a running search: what is searching, for
how long, and how many queries wait; a heartbeat), ``ping`` (answered in order: its pong
says every line read before it is answered) and ``quit``. Lines and their encoding:
``serve_io``; partial answers and stopping an agent: ``serve_partial``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
import time
from typing import IO

from solvers.assumptions import with_opponents
from solvers.registry import resolve
from spiel_games.common.errors import MeepleError, one_line
from tournament.advice.advise import (
    AdviceSet,
    advise_state,
    budgets_for,
    check_distinct,
    opponent_models,
    with_budget,
)
from tournament.advice.positions import position_from
from tournament.advice.serve_io import BLANK, Lines, dumps, key, parse_line, standard_streams
from tournament.advice.serve_partial import Running, watcher
from tournament.advice.serve_query import Query, field_warnings, parse_query

# 1.1: answers name their opponent models and partial answers their agent; "terminated"
# only where a search was cut short or skipped; a stopped query keeps its several agents' shape
# 1.2: the status action, answered at once while a search runs
# 1.3: the opponents field (as --opponents)
VERSION = "1.3"
AT_ONCE = ("terminate", "status")  # actions answered as read, ahead of a running search


class Engine:
    def __init__(self) -> None:
        self.answered = 0
        self.out = Lines(sys.stdout)
        self.lock = threading.Lock()
        # id -> [Running], the queries not yet answered in the order read (one id may be
        # reused: terminate stops every query of that id)
        self.pending: dict[str, list[Running]] = {}
        self.pending_lock = threading.Lock()
        self.current: Running | None = None  # the query being answered, for status
        self.closed = False  # no more answers can be written
        self.failed: str | None = None  # why, when not a reader that went away

    def send(self, answer: dict) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.out.write(dumps(answer) + "\n")
            except BrokenPipeError:  # the reader went away: nobody to answer, stop
                self.closed = True
            except (OSError, ValueError) as e:  # a full disk, a closed stream: stop, say why
                self.closed = True
                self.failed = f"cannot write the answers: {one_line(e) or type(e).__name__}"
        if self.closed:
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

    def read(self, line: str | bytes) -> tuple[list, bool]:
        """(what to do in order: answers to send and queries to run, keep running)."""
        query, error = parse_line(line)
        if error is not None:
            return [error], True
        if query is BLANK:  # no answer
            return [], True
        if not isinstance(query, dict):  # a JSON null too
            return [{"id": None, "error": "a query must be a JSON object"}], True
        if "id" not in query or query["id"] is None:
            why = 'has no "id"' if "id" not in query else '"id" is null, which no query may use'
            return [{"id": None, "error": f"the query {why}"}], True
        qid = query["id"]
        warnings: list = field_warnings(qid, query)
        try:
            parsed = parse_query(query)
        except (MeepleError, ValueError, KeyError, TypeError) as e:
            return [*warnings, {"id": qid, "error": one_line(e)}], True
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
        if q.action == "status":
            return self.status(q.qid), True
        # terminate
        with self.pending_lock:
            targets = list(self.pending.get(key(q.terminate_id), ()))
        for target in targets:
            target.stop()
        return {"id": q.qid, "action": "terminate", "terminateId": q.terminate_id}, True

    def status(self, qid) -> dict:
        """What the engine is doing now (the reader's thread, while the worker answers)."""
        with self.pending_lock:  # the worker moves both under it (_running, _answered)
            current = self.current
            waiting = sum(len(rs) for rs in self.pending.values())
            spec = None if current is None else current.spec
        answer = {"id": qid, "action": "status", "searching": None, "agent": None}
        if current is not None:
            waiting -= 1
            answer.update(searching=current.qid, agent=spec)
            answer["seconds"] = round(time.perf_counter() - current.began, 3)
        answer["queued"] = max(waiting, 0)
        return answer

    def run(self, q: Query, send) -> None:
        """Answer one analysis query, sending each answer with ``send``. Its agents are
        checked once (an error there is the query's one answer); with ``analyzeTurns`` a
        turn that fails answers its error with its ``turnNumber`` and the next turns go on;
        after a terminate each turn not begun answers that it was not analysed."""
        running = None
        try:
            running = self._running(q)
            agents = _fails(lambda: _agents(q))
            if isinstance(agents, str):
                send({"id": q.qid, "error": agents})
                return
            for turn in q.turns:
                where = {"turnNumber": turn} if q.analyze_turns else {}
                if running.terminated:  # not begun: nothing searched
                    send({"id": q.qid, **where, "terminated": True, "isDuringSearch": False})
                    continue
                answer = _fails(lambda t=turn: self.answer(q, t, running, send, agents))
                if isinstance(answer, str):
                    send({"id": q.qid, **where, "error": answer})
                else:
                    send({"id": q.qid, **answer})
                    self.answered += 1
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
            self.pending.setdefault(key(q.qid), []).append(Running(q.qid))

    def _running(self, q: Query) -> Running:
        """The entry of ``q``: the oldest of its id (queries run in the order read)."""
        with self.pending_lock:
            entries = self.pending.setdefault(key(q.qid), [])
            if not entries:  # answered at once (handle_line): not queued
                entries.append(Running(q.qid))
            running = entries[0]
            running.began = time.perf_counter()
            self.current = running
            return running

    def _answered(self, running: Running) -> None:
        with self.pending_lock:
            self.current = None
            k = key(running.qid)
            entries = self.pending.get(k, [])
            if running in entries:
                entries.remove(running)
            if not entries:
                self.pending.pop(k, None)

    def answer(self, q: Query, turn: int | None, running: Running, send, agents) -> dict:
        """One turn's answer: every agent's advice, in the shape asked for (several agents:
        the set's, those a terminate left out listed as skipped)."""
        pos = position_from(
            q.game, history=q.history, record_path=q.game_file, ply=turn, player=q.player
        )
        items, skipped = [], []
        for spec in agents:
            running.spec = None  # until this agent's search begins (status)
            if running.terminated:
                skipped.append(str(spec))
                continue
            item = advise_state(
                pos.game_string,
                pos.state,
                spec,
                player=pos.viewer,
                top=q.top,
                seed=q.seed,
                ply=pos.ply,
                budget=None,  # applied when the agents were parsed (_agents)
                on_agent=watcher(q, turn, running, send, str(spec)),
            )
            item.terminated = running.halted  # stopped early, not merely asked to stop
            items.append(item)
        if not items:
            return {"terminated": True, "isDuringSearch": False}
        out = AdviceSet(items, skipped).to_json()
        out["opponent_models"] = opponent_models(pos.game, agents)
        out["isDuringSearch"] = False
        if turn is not None and q.analyze_turns:
            out["turnNumber"] = turn
        if skipped or any(a.terminated for a in items):
            out["terminated"] = True
        return out

    def serve(self, inp: IO, out: IO) -> int:
        """Answer queries until end of input or a quit action (the queries read before it
        are answered first); returns the queries answered. ``inp`` gives lines of text or
        of UTF-8 bytes; ``out`` takes text, or bytes (written as UTF-8)."""
        self.out = Lines(out)
        jobs: queue.Queue = queue.Queue()

        def work():
            try:
                while (job := jobs.get()) is not None:
                    if isinstance(job, Query):
                        if not self.closed:  # else it would search for nobody
                            self.run(job, self.send)
                    else:
                        self.send(job)
            except Exception as e:  # a bug: the engine cannot answer any more, say why
                failed = f"internal error: {type(e).__name__}: {one_line(e)}"
                qid = job.qid if isinstance(job, Query) else None
                self.send({"id": qid, "error": f"{failed}; the engine stops"})  # now: a
                self.failed, self.closed = failed, True  # client may wait for this answer

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        for line in inp:
            todo, keep = self.read(line)
            now = any(isinstance(j, dict) and j.get("action") in AT_ONCE for j in todo)
            for job in todo:
                if isinstance(job, Query):
                    self._queued(job)
                if now:  # at once, its warnings first: a search may be running now
                    self.send(job)
                else:
                    jobs.put(job)
            if not keep or self.closed:  # quit: answered after the queries read before it
                break
        jobs.put(None)
        worker.join()
        return self.answered


def _agents(q: Query) -> list:
    """The query's agents, parsed once here at the edge, with ``opponents`` (as the command
    line's ``--opponents``: on each agent that has the parameter) and the budget each takes
    applied and checked (its values too: one error for the whole query)."""
    specs = [with_opponents(resolve(a), q.opponents) for a in q.agents]
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


def serve(inp: IO | None = None, out: IO | None = None) -> str | None:
    """Run the engine on ``inp`` and ``out``, by default the standard input and output as
    bytes (UTF-8 whatever the locale); returns why answers could not be written (the
    caller says so and fails), or None: also when the reader went away (a closed pipe)."""
    std_in, std_out = standard_streams()
    sink = std_out if out is None else out
    if sink is None:
        return "cannot write the answers: the standard output is closed"
    engine = Engine()
    engine.serve(std_in if inp is None else inp, sink)
    if engine.closed and out is None:  # no "Exception ignored ..." as Python flushes at exit
        with contextlib.suppress(OSError, ValueError):  # not a file: nothing flushes it
            os.dup2(os.open(os.devnull, os.O_WRONLY), sink.fileno())
    return engine.failed
