"""The advice engine's KataGo-like protocol: a conformance test per field and action."""

from __future__ import annotations

import io
import json
import threading

from tournament.advice.serve import VERSION, Engine

THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"
BASE = {"game": THREE, "history": OPENING}


def run(*queries) -> list[dict]:
    out = io.StringIO()
    Engine().serve(io.StringIO("".join(json.dumps(x) + "\n" for x in queries)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_every_move_has_visits_units_lower_bound_prior_and_pv():
    (a,) = run({"id": 1, **BASE, "agent": "ismcts(sims=200)", "top": 3})
    assert a["isDuringSearch"] is False and set(a["units"]) >= {"value", "margin", "first"}
    for m in a["moves"]:
        assert m["visits"] > 0 and m["samples"] == a["passes"] > 0
        assert m["lcb"] == m["ci_low"] <= m["value"] <= m["ci_high"]
        assert m["margin_low"] <= m["margin"] <= m["margin_high"]
        assert 0.0 <= m["first_low"] <= m["first"] <= m["first_high"] <= 1.0 + 1e-9
        assert m["prior"] in (0.0, 1.0)
        assert m["pv"] and m["pv"][0] == m["action"]
    assert sum(m["prior"] for m in a["moves"]) <= 1.0
    values = [m["value"] for m in a["moves"]]
    assert values == sorted(values, reverse=True)


def test_unknown_fields_are_ignored_with_a_warning():
    warn, answer = run({"id": "w", **BASE, "agent": "heuristic", "colour": "red"})
    assert warn == {"id": "w", "warning": "unknown field 'colour' ignored", "field": "colour"}
    assert answer["id"] == "w" and answer["best"]


def test_query_version_and_ping():
    v, p = run({"id": "v", "action": "query_version"}, {"id": "p", "action": "ping"})
    assert v == {"id": "v", "action": "query_version", "version": VERSION}
    assert p == {"id": "p", "pong": True}


def test_analyze_turns_answers_every_turn_of_a_game_in_one_query():
    history = OPENING + "; place yellow in row 1; draw; deck: blue"
    answers = run(
        {"id": "g", "game": THREE, "history": history, "agent": "heuristic", "analyzeTurns": [6]},
        {"id": "h", "game": THREE, "history": history, "agent": "random", "analyzeTurns": [6, 9]},
    )
    assert [(a["id"], a["turnNumber"], a["ply"]) for a in answers] == [
        ("g", 6, 6),
        ("h", 6, 6),
        ("h", 9, 9),
    ]
    (bad,) = run({"id": "b", **BASE, "agent": "random", "analyzeTurns": [1, "x"]})
    assert bad["error"].startswith('"analyzeTurns" must be a non-empty list')
    # an empty list is a list: the error names what it lacks (found in review)
    (empty,) = run({"id": "e", **BASE, "agent": "random", "analyzeTurns": []})
    assert "non-empty" in empty["error"]


def test_report_during_search_sends_partial_answers_before_the_final_one():
    answers = run(
        {"id": "r", **BASE, "agent": "ismcts(sims=3000)", "reportDuringSearchEvery": 0.05}
    )
    partial = [a for a in answers if a["isDuringSearch"]]
    assert partial and answers[-1]["isDuringSearch"] is False
    assert all(a["id"] == "r" and a["moves"] and a["moves"][0]["visits"] > 0 for a in partial)
    seen = [a["seconds"] for a in partial]
    assert seen == sorted(seen)
    for every in (0, 1e-300):  # 1e-300 was accepted: a partial answer on every search tick
        (bad,) = run({"id": "b", **BASE, "agent": "random", "reportDuringSearchEvery": every})
        assert bad["error"] == '"reportDuringSearchEvery" must be a number of seconds >= 0.01'


class SlowLines(io.StringIO):
    """Input whose second line arrives only after the first query has started searching."""

    def __init__(self, first: str, second: str, started: threading.Event):
        super().__init__()
        self.lines = [first, second]
        self.started = started

    def __iter__(self):
        yield self.lines[0]
        self.started.wait(30)
        yield self.lines[1]


def test_terminate_stops_a_running_search():
    started = threading.Event()
    engine = Engine()
    query = {"id": "long", **BASE, "agent": "ismcts(sims=2000000)", "reportDuringSearchEvery": 0.01}
    out = io.StringIO()
    real_send = engine.send

    def send(answer):
        if answer.get("isDuringSearch"):
            started.set()
        real_send(answer)

    engine.send = send  # type: ignore[method-assign]
    lines = SlowLines(
        json.dumps(query) + "\n",
        json.dumps({"id": "t", "action": "terminate", "terminateId": "long"}) + "\n",
        started,
    )
    engine.serve(lines, out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert {"id": "t", "action": "terminate", "terminateId": "long"} in answers
    final = [a for a in answers if a["id"] == "long" and not a.get("isDuringSearch")]
    assert len(final) == 1 and final[0]["terminated"] is True
    assert final[0]["budget"]["sims_done"] < 2_000_000
    (bad,) = run({"id": "x", "action": "terminate"})
    assert "terminateId" in bad["error"]


def test_terminate_stops_every_query_of_a_reused_id():
    """Was: two queries with one id shared one entry: the first to finish removed it, so a
    terminate for the second found nothing and it searched to the end of its budget."""
    started = threading.Event()
    engine = Engine()
    query = {"id": "same", **BASE, "agent": "ismcts(sims=2000000)", "reportDuringSearchEvery": 0.01}
    real_send = engine.send

    def send(answer):
        if answer.get("isDuringSearch"):
            started.set()
        real_send(answer)

    class Lines(io.StringIO):
        def __iter__(self):
            yield json.dumps(query) + "\n"
            yield json.dumps(query) + "\n"
            started.wait(30)
            yield json.dumps({"id": "t", "action": "terminate", "terminateId": "same"}) + "\n"

    engine.send = send  # type: ignore[method-assign]
    out = io.StringIO()
    engine.serve(Lines(), out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    final = [a for a in answers if a["id"] == "same" and not a.get("isDuringSearch")]
    assert len(final) == 2 and all(a["terminated"] is True for a in final)
    assert final[0]["budget"]["sims_done"] < 2_000_000  # stopped mid-search
    assert "moves" not in final[1]  # stopped before it began
    assert engine.pending == {}


def test_a_failing_turn_answers_its_error_and_the_next_turns_go_on():
    """Was: the first turn that failed ended the query; later turns got no answer. An
    unknown agent is still one error for the whole query, not one per turn."""
    answers = run({"id": "a", **BASE, "agent": "random", "analyzeTurns": [4, 2, 99, 6]})
    assert [(a.get("turnNumber"), "error" in a) for a in answers] == [
        (4, False),
        (2, True),  # a chance node: no move to advise
        (99, True),  # past the history
        (6, False),
    ]
    assert answers[1]["error"].startswith("the position is a chance node")
    (bad,) = run({"id": "b", **BASE, "agent": "nokind", "analyzeTurns": [5, 6]})
    assert bad["error"].startswith("unknown agent kind 'nokind'") and "turnNumber" not in bad


def test_an_error_echoing_a_huge_input_stays_a_readable_line():
    """Was: a 3 MB game string came back whole inside its error line."""
    (bad,) = run({"id": "h", "game": "x" * 3_000_000, "agent": "random"})
    assert len(bad["error"]) < 2100 and "characters cut" in bad["error"]
    # the reason after a long echoed input survives the cut
    items = ", ".join(["start: blue"] * 300)  # one item: commas where ';' was meant
    (long,) = run({"id": "l", "game": THREE, "history": items, "agent": "random"})
    assert len(long["error"]) < 2100 and "characters cut" in long["error"]
    assert "is not a legal action" in long["error"].split("characters cut")[1]


def test_budget_values_and_a_null_seed_are_checked_once_per_query():
    """Was: a bad budget value came back once per turn of analyzeTurns, and `"seed": null`
    (accepted before) was a Python comparison error."""
    (bad,) = run({"id": 1, **BASE, "agent": "ismcts(sims=5)", "budget": {"sims": -3},
                  "analyzeTurns": [4, 6]})  # fmt: skip
    assert "turnNumber" not in bad and "sims" in bad["error"]
    (ok,) = run({"id": 2, **BASE, "agent": "random", "seed": None})
    assert "error" not in ok and ok["seed"] == 0


def test_a_terminate_line_sends_its_warnings_before_its_answer():
    """Was: the answer went out at once and its warning later, through the worker."""
    answers = run({"id": "T", "action": "terminate", "terminateId": "A", "extra": 1})
    assert [("warning" in a, a.get("action")) for a in answers] == [
        (True, None),
        (False, "terminate"),
    ]


def test_an_id_too_deeply_nested_to_write_back_still_has_a_key():
    """Was: json.dumps raised RecursionError in the engine's bookkeeping and killed it."""
    from tournament.advice.serve_io import key as _key

    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert _key(deep).startswith("id ") and _key([1]) == "[1]"


def test_partial_answers_name_their_agent_and_keep_lcb_in_the_utility_range():
    """Was: a partial answer's lcb was the raw interval (-1.95 on Staufer, where the value
    is a rank score in [-1, 1]; the final answer cuts it), and in a query of several agents
    nothing said whose search a partial answer came from (``seconds`` restarts per agent)."""
    import time
    from types import SimpleNamespace

    import spiel_games
    from solvers.base import Analysis, MoveStat
    from tournament.advice.serve_partial import Running, watcher
    from tournament.advice.serve_query import parse_query

    sent: list[dict] = []
    query = parse_query({"id": "p", **BASE, "agent": "x", "reportDuringSearchEvery": 0.01})
    on_agent = watcher(query, None, Running("p"), sent.append, "ismcts(sims=9)")

    class Searching:
        engine = SimpleNamespace(on_tick=None)

        def halt(self) -> bool:
            return True

        def partial(self, root) -> Analysis:
            return Analysis(0, [MoveStat(4, "place yellow in row 1", 1, 0.2, -1.8, 2.2)])

    agent = Searching()
    on_agent(agent, spiel_games.load_game(THREE).new_initial_state())
    time.sleep(0.02)
    agent.engine.on_tick()
    (partial,) = sent
    assert partial["agent"] == "ismcts(sims=9)" and partial["moves"][0]["lcb"] == -1.0
    agents = ["ismcts(sims=600)", "pimc(sims=600)"]
    answers = run({"id": "r", **BASE, "agent": agents, "reportDuringSearchEvery": 0.01})
    named = {a["agent"] for a in answers if a["isDuringSearch"]}
    assert named <= set(agents) and agents[0] in named


def test_the_answer_names_the_opponent_models_as_advise_json_does():
    """Was: the engine's answer, documented as the `--format json` object, lacked the
    `opponent_models` that `meeple advise --format json` prints."""
    (a,) = run({"id": 1, **BASE, "agent": ["ismcts(sims=30)", "heuristic"]})
    (line,) = a["opponent_models"]
    assert line.startswith("Opponent model (ismcts(sims=30)): opponents=")
