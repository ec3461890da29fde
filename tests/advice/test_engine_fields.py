"""The advice engine's query fields at their edges: lines that are no query, fields that
conflict or are null, error texts that name their field, and warnings that stay short."""

from __future__ import annotations

import io
import json

from tournament.advice.serve import Engine

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
