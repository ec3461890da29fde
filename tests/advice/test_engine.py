"""The JSON-lines advice engine (`meeple advise --serve`)."""

from __future__ import annotations

import io
import json
import time

import spiel_games
from tournament.advice.serve import Engine

THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"


def run(*lines) -> list[dict]:
    out = io.StringIO()
    Engine().serve(io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def q(**kw) -> str:
    return json.dumps(kw)


def test_answers_carry_the_query_id():
    answers = run(
        q(id="a", game=THREE, history=OPENING, agent="ismcts(sims=30)", top=2),
        q(id=7, game=THREE, history=OPENING.split("; "), agent=["ismcts(sims=30)", "heuristic"]),
    )
    assert [a["id"] for a in answers] == ["a", 7]
    assert answers[0]["agent"] == "ismcts(sims=30)" and len(answers[0]["moves"]) == 2
    assert "agree" in answers[1] and len(answers[1]["agents"]) == 2


def test_bad_lines_never_stop_the_engine():
    good = q(id="ok", game=THREE, history=OPENING, agent="ismcts(sims=20)")
    answers = run(
        "this is not json",
        "[1, 2]",
        q(game=THREE, agent="random"),
        q(id=1, game=THREE, history=OPENING + "; take row 9", agent="random"),
        q(id=2, game="python_nope", agent="random"),
        q(id=3, game=THREE, history=OPENING, agent="ismcts(bogus=1)"),
        q(id=4, game=THREE, history="start: pink", agent="random"),
        q(id=5, game=THREE, history=OPENING, agent="random", top="three"),
        q(id=8, game=THREE, history=OPENING, agent="heuristic", budget={"time": 1}),
        "",
        good,
    )
    assert [a["id"] for a in answers] == [None, None, None, 1, 2, 3, 4, 5, 8, "ok"]
    errors = [a["error"] for a in answers[:-1]]
    assert errors[0].startswith("malformed JSON")
    assert "must be a JSON object" in errors[1]
    assert 'no "id"' in errors[2]
    assert "history item 7 ('take row 9')" in errors[3] and "legal:" in errors[3]
    assert "unknown game 'python_nope'" in errors[4]
    assert "unknown parameter 'bogus'" in errors[5]
    assert "chance node" in errors[6]
    assert '"top" must be an integer' in errors[7]
    assert "budget 'time' needs an agent with a time parameter" in errors[8]
    assert errors[8].endswith("; heuristic has none")
    assert all("\n" not in e for e in errors)
    assert "error" not in answers[-1] and answers[-1]["best"]


def test_same_query_same_answer_and_budget_overrides():
    query = q(
        id=1, game=THREE, history=OPENING, agent="ismcts(sims=500)", seed=3, budget={"sims": 25}
    )
    a, b = run(query, query)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    assert a["agent"] == "ismcts(sims=25)" and a["budget"]["sims_done"] == 25


def test_commands_and_warm_games():
    engine = Engine()
    out = io.StringIO()
    lines = [
        q(id=1, command="ping"),
        q(id=2, game=THREE, history=OPENING, agent="random"),
        q(id=3, game=THREE, history=OPENING, agent="random", ply=4),
        q(id=4, command="quit"),
        q(id=5, command="ping"),  # never read: the engine stopped
    ]
    engine.serve(io.StringIO("\n".join(lines) + "\n"), out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0] == {"id": 1, "pong": True}
    assert answers[2]["ply"] == 4 and answers[2]["best"] == "draw"
    assert answers[3] == {"id": 4, "bye": True}
    assert len(answers) == 4
    # loaded once, kept warm: every query gets the same game object
    assert spiel_games.load_game(THREE) is spiel_games.load_game(THREE)


def test_game_file_queries(tmp_path):
    from spiel_games import load_game
    from tournament.advice.positions import record_of, replay_history

    game = load_game(THREE)
    state, actions = replay_history(game, OPENING)
    path = tmp_path / "g.json"
    record_of(THREE, state, 0, [], actions).save(path)
    (answer,) = run(q(id="f", game_file=str(path), agent="ismcts(sims=20)"))
    assert answer["ply"] == 6 and answer["best"].startswith("place yellow")


def test_player_may_be_a_seat_name():
    """Old: "player": "P1" was refused ("player" must be an integer)."""
    base = {"game": THREE, "history": OPENING, "agent": "ismcts(sims=20)"}
    (by_name,) = run(q(id="n", player="P1", **base))
    (by_id,) = run(q(id="n", player=0, **base))
    by_name.pop("seconds"), by_id.pop("seconds")
    assert by_name == by_id and by_name["player"] == 0
    (bad,) = run(q(id="b", player="P0", **base))
    assert bad["error"].startswith('"player" must be a player id')


def test_ids_and_terminate_ids_may_be_lists_or_objects():
    """Old: a list id (any JSON value, as documented) crashed the engine with a traceback
    (TypeError: unhashable type: 'list') when it ran or was named by terminateId."""
    answers = run(
        q(id=[1], game=THREE, history=OPENING, agent="random"),
        q(id=2, action="terminate", terminateId={"x": [1]}),
        q(id=3, action="ping"),
    )
    assert sorted(json.dumps(a["id"]) for a in answers) == ["2", "3", "[1]"]
    assert all("error" not in a for a in answers)


def test_warnings_before_an_action_are_lines_of_their_own():
    """Old: an action with an unknown field was answered by one JSON array line."""
    warn, pong = run(q(id=1, action="ping", colour="red"))
    assert warn == {"id": 1, "warning": "unknown field 'colour' ignored", "field": "colour"}
    assert pong == {"id": 1, "pong": True}


def test_numbers_json_cannot_carry_are_refused_and_never_echoed():
    """Old: NaN, Infinity and 1e400 were read as floats (an id NaN came back as the invalid
    JSON `NaN`), and an integer of 5000 digits crashed the engine with a ValueError."""
    answers = run(
        '{"id": NaN, "action": "ping"}',
        '{"id": 1e400, "action": "ping"}',
        '{"id": 1, "action": "ping", "x": -Infinity}',
        '{"id": 2, "top": ' + "9" * 5000 + "}",
        q(id=3, action="ping"),
    )
    assert [a["id"] for a in answers] == [None, None, None, None, 3]
    assert all(a["error"].startswith("malformed JSON") for a in answers[:4])


def test_budget_values_cannot_rewrite_the_agent_spec():
    """Old: {"sims": "5,time=3"} was written into the spec as is: ismcts(sims=5,time=3)."""
    base = {"game": THREE, "history": OPENING, "agent": "ismcts(sims=5)"}
    answers = run(
        q(id=1, budget={"sims": "5,time=3"}, **base),
        q(id=2, budget={"sims=3,time": 1}, **base),
        q(id=3, budget={"sims": [1]}, **base),
        q(id=4, budget={"opponents": "heuristic", "sims": 4}, **base),
        q(id=5, seed=-5, **base),
    )
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5]
    assert all(a["error"].startswith('"budget"') for a in answers[:3])
    assert answers[3]["agent"] == "ismcts(opponents=heuristic,sims=4)"
    assert answers[4]["error"] == '"seed" must be an integer >= 0'


class ClosedPipe(io.StringIO):
    """Output whose reader has gone away (``meeple advise --serve | head -1``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_goes_away_stops_the_engine_quietly():
    """Was: the worker thread died with a BrokenPipeError traceback and the engine kept
    reading its input, answering nothing."""
    engine = Engine()
    read: list[str] = []

    def lines():
        for i in range(5):
            read.append(q(id=i, action="ping"))
            yield read[-1] + "\n"
            for _ in range(1000):  # the next line comes once the first answer failed
                if engine.closed:
                    break
                time.sleep(0.01)

    assert engine.serve(lines(), ClosedPipe()) == 0  # type: ignore[arg-type]
    assert engine.closed and len(read) == 2  # stopped after the line read as it failed


def test_queries_read_after_the_reader_went_away_are_not_searched():
    """Was: the worker ran every queued query to its full budget for nobody."""
    engine = Engine()
    ran: list = []
    engine.run = lambda job, send: ran.append(job.qid)  # type: ignore[method-assign]

    def lines():
        yield q(id=1, action="ping") + "\n"
        for _ in range(1000):  # the query arrives once the ping's answer failed
            if engine.closed:
                break
            time.sleep(0.01)
        yield q(id=2, game=THREE, history=OPENING, agent="ismcts(sims=200000)") + "\n"

    engine.serve(lines(), ClosedPipe())  # type: ignore[arg-type]
    assert engine.closed and ran == []


def test_a_json_error_message_says_at_once():
    """Was: "malformed JSON: Invalid control character at at column 10" (json's message
    ends in "at", meant to be followed by its own position)."""
    answers = run('{"id": "x\x01"}', '{"id": "x\\q"}')
    assert [a["error"] for a in answers] == [
        "malformed JSON: Invalid control character at column 10",
        "malformed JSON: Invalid \\escape at column 10",
    ]


def test_messages_name_the_query_fields_and_every_line_is_answered(tmp_path):
    """Was: "id": null was refused as having no id (the docs said any JSON value: now they
    say null is not an id); history with game_file named the command line's
    --history/--game-file; a line of non-JSON whitespace (NBSP, U+3000) had no answer, so a
    client waiting for one hung; a query that failed lost its unknown-field warnings;
    "player": -1 was "player P0 (id -1)"; a game string with a space before it listed no
    games ("Available games are:" and nothing)."""
    record = tmp_path / "g.json"
    record.write_text("{}")
    answers = run(
        q(id=None, action="ping"),
        q(id=1, game=THREE, history=OPENING, game_file=str(record), agent="random"),
        "\u00a0\u3000",
        q(id=2, game=THREE, agent="random", top="x", colour="red"),
        q(id=3, game=THREE, history=OPENING, agent="random", player=-1),
        q(id=4, game=" " + THREE, agent="random"),
    )
    assert answers[0] == {"id": None, "error": 'the query "id" is null, which no query may use'}
    assert answers[1] == {"id": 1, "error": 'give "history" or "game_file", not both'}
    assert answers[2]["id"] is None and answers[2]["error"].startswith("malformed JSON")
    assert answers[3] == {"id": 2, "warning": "unknown field 'colour' ignored", "field": "colour"}
    assert answers[4] == {"id": 2, "error": '"top" must be an integer'}
    assert answers[5]["error"].startswith("player id -1 is out of range: this game has P1-P3")
    assert answers[6]["error"].endswith("spaces around the game's name")
    assert len(answers) == 7
