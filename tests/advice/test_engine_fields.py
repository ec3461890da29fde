"""The advice engine's query fields at their edges: lines that are no query, fields that
conflict or are null, error texts that name their field, and warnings that stay short."""

from __future__ import annotations

import io
import json

import pytest
from typer.testing import CliRunner

from tournament.advice.serve import Engine
from tournament.cli import app

THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"


def run(*lines: str) -> list[dict]:
    out = io.StringIO()
    Engine().serve(io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def q(**kw) -> str:
    return json.dumps(kw)


def test_a_line_of_json_null_is_answered_as_no_query():
    """Was: a line holding only `null` had no answer at all (read as a blank line), so a
    client waiting for one hung; `[1,2,3]`, `"hello"` and `42` were answered."""
    answers = run("null", " null ", "", "42", q(id=1, action="ping"))
    no_query = {"id": None, "error": "a query must be a JSON object"}
    assert answers == [no_query, no_query, no_query, {"id": 1, "pong": True}]


def test_a_null_action_does_not_hide_the_command():
    """Was: `"action": null` beside `"command": "ping"` made the line an analysis query
    ('"agent" must be an agent spec ...'); two different actions are refused."""
    answers = run(
        q(id=4, action=None, command="ping"),
        q(id=5, action="ping", command=None),
        q(id=6, action="ping", command="ping"),
        q(id=7, action="ping", command="quit"),
        q(id=8, command="dance"),
    )
    assert answers[:3] == [{"id": i, "pong": True} for i in (4, 5, 6)]
    assert answers[3] == {
        "id": 7,
        "error": '"action" and "command" differ: give one ("command" is its synonym)',
    }
    assert answers[4]["error"].startswith("unknown \"command\" 'dance'; known: ping, quit")


@pytest.mark.parametrize(
    ("args", "dropped"),
    [
        (["--top", "5"], "--top"),
        (["-k", "5"], "--top"),
        (["--seed", "0"], "--seed"),
        (["--format", "text"], "--format"),
        (["--json"], "--json"),
        (["--seed", "5", "-a", "random"], "--agent, --seed"),
    ],
)
def test_serve_refuses_every_per_query_option_given(args, dropped):
    """Was: `--top 5`, `--seed 0` and `--format text` (the defaults) were taken without a
    word (exit 0) while `--seed 5` was refused: an option was refused only when its value
    differed from the default."""
    r = CliRunner().invoke(app, ["advise", "--serve", *args], input=q(id=1, action="ping"))
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"error: --serve reads its queries on stdin: drop {dropped}\n"
    r = CliRunner().invoke(app, ["advise", "--serve"], input=q(id=1, action="ping"))
    assert r.exit_code == 0 and json.loads(r.stdout) == {"id": 1, "pong": True}


def test_errors_name_the_query_field_they_are_about():
    """Was: a missing game answered "give a game string", `top: 0` "top must be at least 1"
    (unquoted, the Python API's words) while `"top": "3"` gave '"top" must be an integer';
    `ply: -1` said "ply -1 is outside the history" and `history: 5` "history must be ..."."""
    answers = run(
        q(id=1, agent="random"),
        q(id=2, game=THREE, history=OPENING, agent="random", top=0),
        q(id=3, game=THREE, history=OPENING, agent="random", top="3"),
        q(id=4, game=THREE, history=OPENING, agent="random", ply=-1),
        q(id=5, game=THREE, history=5, agent="random"),
    )
    assert [a["error"] for a in answers] == [
        'give "game" (a game string) or "game_file" (a game record)',
        '"top" must be an integer >= 1',
        '"top" must be an integer',
        '"ply" must be an integer >= 0',
        '"history" must be a ";"-separated string or a list of action strings and ids, got int',
    ]


def test_unknown_field_warnings_stay_short_and_few():
    """Was: a 1 MB field name gave a 2 MB warning line, and 100,000 unknown fields 100,000
    warning lines."""
    huge = "x" * 1_000_000
    line = io.StringIO()
    Engine().serve(io.StringIO(json.dumps({"id": 1, "action": "ping", huge: 1}) + "\n"), line)
    warning, pong = line.getvalue().splitlines()
    assert len(warning) < 2200 and json.loads(pong) == {"id": 1, "pong": True}
    field = json.loads(warning)["field"]
    assert field.startswith("x" * 900) and field.endswith("(999040 characters cut)")
    many = {f"f{i:06d}": 0 for i in range(100_000)}
    answers = run(json.dumps({"id": 2, "action": "ping", **many}))
    assert [a.get("field") for a in answers[:10]] == [f"f{i:06d}" for i in range(10)]
    assert answers[10] == {"id": 2, "warning": "99990 more unknown fields ignored", "more": 99990}
    assert answers[11:] == [{"id": 2, "pong": True}]


def test_a_null_terminate_id_is_an_error():
    """Was: `terminateId: null` was acknowledged, though no query can have that id."""
    answers = run(q(id=1, action="terminate", terminateId=None))
    assert answers == [{"id": 1, "error": '"terminateId" is null, which no query\'s "id" can be'}]


def test_the_opponents_field_is_the_command_lines_option():
    """Was: no documented field; only `budget: {"opponents": ...}` set the model. The keys of
    `best` are the agents' `agent` fields: the spec run, rewritten in name order."""
    (answer,) = run(
        q(
            id=1,
            game=THREE,
            history=OPENING,
            agent=["ismcts(sims=30)", "heuristic"],
            opponents="search",
        )  # fmt: skip
    )
    run_spec = "ismcts(opponents=search,sims=30)"
    assert [a["agent"] for a in answer["agents"]] == [run_spec, "heuristic"]
    assert set(answer["best"]) == {run_spec, "heuristic"}
    assert answer["opponent_models"][0].startswith(f"Opponent model ({run_spec}): opponents=search")
    bad, both = run(
        q(id=2, game=THREE, agent="ismcts", opponents="bogus"),
        q(id=3, game=THREE, agent="ismcts", opponents="search", budget={"opponents": "infer"}),
    )
    assert bad["error"].startswith("unknown opponent model 'bogus'")
    assert both["error"] == 'give "opponents" or "budget": {"opponents": ...}, not both'
