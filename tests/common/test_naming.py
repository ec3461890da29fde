"""The one rule that names a move (spiel_games.common.naming), used by every scenario
module, the advice history parser and table mode."""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games  # noqa: F401
from spiel_games.common.engine import CHANCE, TERMINAL
from spiel_games.common.naming import NoMatch, legal_strings, match, mover, play

NAMED = [(3, "place red in row 1"), (4, "place red in row 2"), (0, "draw"), (7, "seat 2 (3)")]


def test_the_exact_string_wins():
    assert match(NAMED, "draw") == 0 and match(NAMED, "place red in row 2") == 4


def test_case_and_spacing_do_not_matter():
    assert match(NAMED, "  Place  RED in row 1 ") == 3


def test_a_unique_start_names_the_move():
    assert match(NAMED, "seat 2") == 7 and match(NAMED, "dr") == 0


def test_several_starts_are_refused_with_the_candidates():
    with pytest.raises(NoMatch, match="ambiguous: place red in row 1, place red in row 2") as e:
        match(NAMED, "place red")
    assert e.value.candidates == ("place red in row 1", "place red in row 2")


def test_a_unique_ending_of_whole_words_names_the_move_where_no_start_does():
    """Was: 'blue' at "P2's start card?" and 'P2' at "the start player?" were refused
    ("'blue' is impossible here: legal: start: yellow, start: blue, ..."): a name had to
    begin the option's string. An ending counts only as whole words and only when no
    option begins with the name; several endings are refused as ambiguous."""
    starts = [(1, "start: yellow"), (2, "start: blue"), (5, "start player: P2")]
    assert match(starts, "blue") == 2 and match(starts, "p2") == 5
    assert match(starts, "player: P2") == 5
    with pytest.raises(NoMatch):
        match(starts, "lue")  # not a whole word
    with pytest.raises(NoMatch, match="ambiguous: place red in row 1, take row 1"):
        match([*NAMED, (9, "take row 1")], "row 1")
    assert match([(1, "row 1 (red)"), (2, "take row 1")], "row 1") == 1  # a start wins
    # Was: '_', '-' and '+' counted as word breaks and a bare number matched an ending:
    # 'king' was ambiguous with 'after_king' (and named it once 'king' was gone), 'y+l'
    # named the tile 'Y-y+l', '3' named 'place blue in row 3' in a history
    tiles = [(1, "B tile: king"), (2, "B tile: after_king"), (3, "take Y-y+l")]
    assert match(tiles, "king") == 1 and match(tiles[1:], "after_king") == 2
    for name, options in (("king", tiles[1:]), ("y+l", tiles), ("3", [(6, "place blue in row 3")])):
        with pytest.raises(NoMatch):
            match(options, name)


def test_a_name_of_no_move_is_refused():
    with pytest.raises(NoMatch, match="'take row 1' names none of"):
        match(NAMED, "take row 1")
    with pytest.raises(NoMatch):
        match(NAMED, "")


def test_play_names_chance_outcomes_and_moves_and_mover_reads_the_node():
    state = pyspiel.load_game("python_coloretto(players=3)").new_initial_state()
    assert mover(state) == CHANCE and "start: yellow" in legal_strings(state)
    play(state, "start: yellow", "start: blue", "start: green", "start player: P2")
    assert mover(state) == 1 and legal_strings(state) == ["draw"]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    assert mover(state) == TERMINAL and legal_strings(state) == []
