"""The advice engine's terminate: what it stops, and what the answers then say."""

from __future__ import annotations

import io
import json
import threading

import pytest

import tournament.advice.serve as serve
from tournament.advice.serve import Engine
from tournament.advice.serve_query import parse_query

THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"
BASE = {"game": THREE, "history": OPENING}
LATER = OPENING + "; place yellow in row 1; draw; deck: blue"


def terminated_at_start(monkeypatch, *queries) -> list[dict]:
    """The answers to ``queries`` when a terminate for the first arrives as soon as its
    first agent is built (before it searches: no timing involved)."""
    engine = Engine()
    real = serve.advise_state
    stop = parse_query({"id": "t", "action": "terminate", "terminateId": queries[0]["id"]})

    def advise_state(*args, on_agent, **kw):
        def begun(agent, root):
            on_agent(agent, root)
            engine.act(stop)

        return real(*args, on_agent=begun, **kw)

    monkeypatch.setattr(serve, "advise_state", advise_state)
    out = io.StringIO()
    engine.serve(io.StringIO("".join(json.dumps(q) + "\n" for q in queries)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


@pytest.mark.parametrize(
    "agent, budget",
    [
        ("cfr-search(time=10)", {"iterations_done": 1}),  # was: ran its 10 s
        ("openspiel-ismcts(sims=20000)", {}),  # was: every simulation (minutes at 200000)
        ("ismcts(sims=1000000)", {"passes": 0}),
    ],
)
def test_terminate_stops_every_searching_agent(monkeypatch, agent, budget):
    """Was: only the project's own search agents could be stopped; cfr-search and
    openspiel-ismcts ran their full budget and still answered "terminated": true."""
    (a,) = terminated_at_start(monkeypatch, {"id": "q", **BASE, "agent": agent})
    assert a["terminated"] is True and a["seconds"] < 5, a
    assert budget.items() <= a["budget"].items()


def test_terminated_is_claimed_only_for_a_search_cut_short(monkeypatch):
    """Was: an agent that cannot stop (here the heuristic) ran to its end and its answer
    still said "terminated": true. The turns not begun answer that they were not run."""
    first, second = terminated_at_start(
        monkeypatch,
        {"id": "q", "game": THREE, "history": LATER, "agent": "heuristic", "analyzeTurns": [6, 9]},
    )
    assert "terminated" not in first and first["best"] and first["turnNumber"] == 6
    assert second == {"id": "q", "turnNumber": 9, "terminated": True, "isDuringSearch": False}


def test_a_terminated_query_of_several_agents_keeps_their_shape(monkeypatch):
    """Was: the answer switched to the one-agent object when a terminate left one agent's
    advice, so a client reading "agents" broke."""
    agents = ["ismcts(sims=1000000)", "pimc(sims=1000000)"]
    (a,) = terminated_at_start(monkeypatch, {"id": "q", **BASE, "agent": agents})
    assert a["terminated"] is True and a["agree"] is None
    assert [x["agent"] for x in a["agents"]] == agents
    ran, skipped = a["agents"]
    assert ran["terminated"] is True and ran["moves"]
    assert skipped == {"agent": agents[1], "skipped": True}
    assert a["best"] == {agents[0]: ran["best"], agents[1]: None}


def test_a_search_stopped_before_comparing_says_its_range_is_search_noise_only():
    """Was: a search stopped before its comparison phase showed the root statistics'
    intervals (about 0.02 wide where a compared move's is 0.5) under units.ci's calibrated
    meaning, "meant to hold the value a search with 8x the budget gives"."""
    engine = Engine()
    stop = parse_query({"id": "t", "action": "terminate", "terminateId": "q"})
    real_send = engine.send

    def send(answer):  # the terminate comes with the first partial answer: mid-selection
        real_send(answer)
        if answer.get("isDuringSearch"):
            engine.act(stop)

    engine.send = send  # type: ignore[method-assign]
    query = {"id": "q", **BASE, "agent": "ismcts(sims=1000000)", "reportDuringSearchEvery": 0.01}
    out = io.StringIO()
    engine.serve(io.StringIO(json.dumps(query) + "\n"), out)
    final = json.loads(out.getvalue().splitlines()[-1])
    assert final["terminated"] is True and final["passes"] == 0
    assert any(m["ci_low"] is not None for m in final["moves"])
    assert final["units"]["ci"].startswith("search noise only")
    # units name only the fields the answer has (found in review: margin, first and gap
    # were named beside moves that, stopped before the comparison, lack them)
    fields = {k for m in final["moves"] for k in m}
    assert not {"margin", "first", "gap"} & (set(final["units"]) | fields)
    (full,) = [json.loads(x) for x in _lines({"id": "f", **BASE, "agent": "ismcts(sims=100)"})]
    assert full["units"]["ci"].startswith("95% range meant to hold")
    assert {"margin", "first", "gap"} <= set(full["units"])


def _lines(*queries) -> list[str]:
    out = io.StringIO()
    Engine().serve(io.StringIO("".join(json.dumps(q) + "\n" for q in queries)), out)
    return out.getvalue().splitlines()


def test_an_internal_error_is_answered_at_once_on_the_querys_id(monkeypatch):
    """Was: a bug in the worker was reported only after the client's next line, so a client
    waiting for its answer hung. The next line is sent only once an answer arrived, or
    after 10 s without one."""

    def broken(self, q, send):
        raise RuntimeError("boom")

    monkeypatch.setattr(Engine, "run", broken)
    answered = threading.Event()

    class Out(io.StringIO):
        def write(self, s: str) -> int:
            answered.set()
            return super().write(s)

    out = Out()

    def lines():
        yield json.dumps({"id": "q", **BASE, "agent": "heuristic"}) + "\n"
        waited = answered.wait(10)
        yield json.dumps({"id": "late" if waited else "timed out", "action": "ping"}) + "\n"

    engine = Engine()
    engine.serve(lines(), out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0]["id"] == "q" and "internal error: RuntimeError: boom" in answers[0]["error"]
    assert engine.failed == "internal error: RuntimeError: boom"


class _Watched(io.StringIO):
    """The engine's output, with an event set once a status answer is written."""

    def __init__(self) -> None:
        super().__init__()
        self.status = threading.Event()

    def write(self, s: str) -> int:
        if '"status"' in s:
            self.status.set()
        return super().write(s)


def test_status_answers_at_once_while_a_search_runs(monkeypatch):
    """A heartbeat never waits for a search (ping is the in-order barrier): here the search
    runs until a terminate sent only once the status answer arrived (or after 10 s without
    one), with a second query waiting behind it."""
    begun = threading.Event()
    real = serve.advise_state

    def advise_state(*args, on_agent, **kw):
        def hook(agent, root):
            on_agent(agent, root)
            begun.set()

        return real(*args, on_agent=hook, **kw)

    monkeypatch.setattr(serve, "advise_state", advise_state)
    out = _Watched()
    long = "ismcts(sims=100000000)"

    def lines():
        yield json.dumps({"id": "q", **BASE, "agent": long}) + "\n"
        yield json.dumps({"id": "next", **BASE, "agent": "random"}) + "\n"
        assert begun.wait(60)
        yield json.dumps({"id": "s", "action": "status"}) + "\n"
        out.status.wait(10)
        yield json.dumps({"id": "t", "action": "terminate", "terminateId": "q"}) + "\n"

    Engine().serve(lines(), out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    ids = [a["id"] for a in answers]
    assert ids.index("s") < ids.index("q"), ids
    status = answers[ids.index("s")]
    assert status["searching"] == "q" and status["agent"] == long
    assert status["queued"] == 1 and status["seconds"] >= 0


def test_status_when_idle_names_nothing():
    (answer,) = [json.loads(x) for x in _lines({"id": 7, "action": "status"})]
    assert answer == {"id": 7, "action": "status", "searching": None, "agent": None, "queued": 0}


def test_status_never_counts_the_query_being_answered_as_queued():
    """Was: the worker cleared the query being answered before taking it off the pending
    list, so a status in between said nothing was searching and one query waited."""
    engine = Engine()
    window, go_on = threading.Event(), threading.Event()
    real = engine._answered

    def answered(running):  # the worker finishing the query, held open
        window.set()
        go_on.wait(10)
        real(running)

    engine._answered = answered  # type: ignore[method-assign]
    out = io.StringIO()

    def lines():
        yield json.dumps({"id": "q", **BASE, "agent": "random"}) + "\n"
        assert window.wait(60)
        yield json.dumps({"id": "s", "action": "status"}) + "\n"
        go_on.set()

    engine.serve(lines(), out)
    (status,) = [a for a in map(json.loads, out.getvalue().splitlines()) if a["id"] == "s"]
    assert (status["searching"], status["queued"]) in {("q", 0), (None, 0)}, status
