"""spiel_games.common.json_read: every way a damaged JSON text fails to be read is a
ValueError with a one-line reason. Was: a text nested deeper than the recursion limit
raised RecursionError (no ValueError: a traceback in every state file reader), and a
5,000-digit number a ValueError that is no JSONDecodeError."""

from __future__ import annotations

import json

import pytest

from spiel_games.common.json_read import NotJson, loads


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (b'{"a": ' * 100_000, "nested too deeply"),  # cut off, and bytes
        ('{"n": ' + "9" * 5000 + "}", "a number of more than 4,300 digits"),
    ],
)
def test_what_json_cannot_hold_is_a_value_error(text, why):
    with pytest.raises(NotJson, match=why) as e:
        loads(text)
    assert isinstance(e.value, ValueError) and str(e.value) == why


def test_the_rest_is_as_json_loads():
    assert loads(b'{"a": [1, 2.5, null]}') == {"a": [1, 2.5, None]}
    assert loads("[" * 500 + "]" * 500) == json.loads("[" * 500 + "]" * 500)
    with pytest.raises(json.JSONDecodeError):
        loads("[1,")
    with pytest.raises(UnicodeDecodeError):
        loads(b"\xff")
