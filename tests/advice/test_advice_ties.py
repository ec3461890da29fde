"""Ties are said as ties in the advice text: a move is never "ahead" of one with the same
value, and "most visited" is said only of a move strictly most visited.

Was (docs/advice.md's game record): both moves 1.000 on 50 paired passes, gap
0.000 [0.000, 0.000], 100 selection visits each, yet "the agent's own pick is take row 2
(most visited while selecting); compared on 50 paired passes, take row 1 is ahead"."""

from __future__ import annotations

from tests.advice.conftest import TINY
from tournament.advice.advise import advise
from tournament.advice.advise_text import render
from tournament.advice.positions import position_from

RECORD = (
    "start: blue; start: yellow; start player: P1; draw; deck: green; place green in row 1;"
    " draw; deck: blue; place blue in row 2"
)
THREE = "python_coloretto(players=3)"
PLUS2 = (
    "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow;"
    " place yellow in row 1; draw; deck: grey; place grey in row 2; draw; deck: +2"
)


def _advice(game: str, history: str, agent: str, **kw):
    pos = position_from(game, history=history)
    return advise(pos.game_string, pos.state, [agent], ply=pos.ply, **kw)


def test_moves_of_equal_value_are_tied_not_ahead():
    result = _advice(TINY, RECORD, "ismcts(sims=200)", top=2)
    adv = result.items[0]
    assert [m.gap for m in adv.moves[1:]] == [(0.0, 0.0, 0.0)]  # the record's exact tie
    text = render(result)
    assert "ahead" not in text and "(most visited while selecting)" not in text
    assert "best: take row 1, tied with take row 2" in text
    assert "take row 1 is listed first only as the lower action id" in text
    assert "tied for most visited while selecting with take row 1, 100 visits each" in text
    assert "compared on 50 paired passes it is tied with take row 1" in text


def test_a_tie_is_said_when_the_tied_move_is_not_shown():
    text = render(_advice(TINY, RECORD, "ismcts(sims=200)", top=1))
    assert "best: take row 1, tied with take row 2" in text and "ahead" not in text


def test_most_visited_only_of_a_move_strictly_most_visited():
    """README's tour: rows 1 and 3 both 583 visits (417 each while selecting), row 1
    called "most visited"."""
    text = render(_advice(THREE, PLUS2, "ismcts(sims=1000)", top=3, seed=1))
    assert "(most visited while selecting)" not in text
    assert (
        "the agent's own pick is place +2 in row 1 (tied for most visited while selecting with"
        " place +2 in row 3, 417 visits each; picked by its higher mean value then)"
    ) in text
    assert "place +2 in row 2 is ahead" in text  # a gap of 0.020 [0.004, 0.036]
