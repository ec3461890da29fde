"""Coloretto scenario tests: one rule each, from named cards and scripted draws."""

from __future__ import annotations

import re

import pyspiel
import pytest

import spiel_games  # noqa: F401
from spiel_games.coloretto import rules as R
from spiel_games.coloretto import scoring
from spiel_games.coloretto.scenario import draw_place, legal_strings, play, start
from spiel_games.coloretto.text import COLOUR_NAMES

CHANCE = pyspiel.PlayerId.CHANCE


# ----- components and setup ------------------------------------------------------------


def test_classic_deck_has_63_colour_cards_10_plus2_and_3_jokers():
    game = pyspiel.load_game("python_coloretto(players=4)")
    cfg = game.config
    assert cfg.colours == 7 and cfg.cards_per_colour == 9
    assert cfg.initial_deck() == [9] * 7 + [10, 3, 0]


def test_three_players_remove_one_colour():
    game = pyspiel.load_game("python_coloretto(players=3)")
    assert game.config.colours == 6
    assert game.config.rows == 3 and game.config.capacities == (3, 3, 3)


def test_two_players_remove_two_colours_and_use_rows_of_1_2_and_3():
    game = pyspiel.load_game("python_coloretto(players=2)")
    assert game.config.colours == 5
    assert game.config.capacities == (1, 2, 3)
    assert game.config.start_cards == 2


def test_start_cards_are_all_of_different_colours():
    game = pyspiel.load_game("python_coloretto(players=2)")
    state = game.new_initial_state()
    seen = []
    while state.is_chance_node() and len(seen) < 4:
        outcomes = [a for a, _ in state.chance_outcomes()]
        assert not set(outcomes) & set(seen), "a start colour was offered twice"
        assert len(outcomes) == 5 - len(seen)
        seen.append(outcomes[0])
        state.apply_action(outcomes[0])
    # Each player holds two cards of two colours.
    assert state.scores() == [2, 2]  # 1 + 1 with both colours positive
    assert "start player: P1" in [
        state.action_to_string(CHANCE, a) for a, _ in state.chance_outcomes()
    ]


def test_start_player_is_chosen_by_lot():
    game = pyspiel.load_game("python_coloretto(players=5)")
    state = game.new_initial_state()
    play(state, "start: yellow", "start: blue", "start: green", "start: pink", "start: grey")
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 2, 3, 4]
    assert all(p == pytest.approx(0.2) for _, p in outcomes)
    play(state, "start player: P3")
    assert state.current_player() == 2


def test_deck_draw_probabilities_follow_remaining_card_counts():
    _, state = start()
    play(state, "draw")
    probs = {state.action_to_string(CHANCE, a): p for a, p in state.chance_outcomes()}
    total = 63 - 4 + 10 + 3
    assert probs["deck: yellow"] == pytest.approx(8 / total)
    assert probs["deck: orange"] == pytest.approx(9 / total)
    assert probs["deck: +2"] == pytest.approx(10 / total)
    assert probs["deck: joker"] == pytest.approx(3 / total)


# ----- turn and round flow --------------------------------------------------------------


def test_turn_is_draw_and_place_or_take_a_non_empty_row():
    _, state = start()
    assert legal_strings(state) == ["draw"]  # every row is empty: nothing to take
    draw_place(state, "orange", 2)
    assert state.current_player() == 1
    assert legal_strings(state) == ["draw", "take row 2"]


def test_rows_hold_at_most_three_cards():
    _, state = start()
    for card in ("orange", "brown", "grey"):
        draw_place(state, card, 1)
    play(state, "draw", "deck: blue")
    assert "place blue in row 1" not in legal_strings(state)
    with pytest.raises(pyspiel.SpielError):
        state.string_to_action("place blue in row 1")
    with pytest.raises(ValueError, match="illegal action .*place blue in row 1"):
        state.apply_action(game_layout(state).place(0))


def test_drawing_is_illegal_when_every_open_row_is_full():
    _, state = start(players=3, starts=("yellow", "blue", "green"))
    cards = ["pink", "brown", "grey"]
    for r in (1, 2, 3):
        for c in cards:
            draw_place(state, c, r)
    assert legal_strings(state) == ["take row 1", "take row 2", "take row 3"]


def test_player_who_takes_a_row_sits_out_the_rest_of_the_round():
    _, state = start(players=3, starts=("yellow", "blue", "green"))
    draw_place(state, "pink", 1)  # P1
    play(state, "take row 1")  # P2 takes and sits out
    assert state.current_player() == 2
    draw_place(state, "brown", 2)  # P3
    assert state.current_player() == 0  # P2 is skipped
    draw_place(state, "grey", 3)  # P1
    assert state.current_player() == 2


def test_last_player_left_keeps_drawing_while_legal():
    _, state = start(players=3, starts=("yellow", "blue", "green"))
    draw_place(state, "pink", 1)  # P1
    play(state, "take row 1")  # P2
    draw_place(state, "brown", 2)  # P3
    play(state, "take row 2")  # P1
    assert state.current_player() == 2
    draw_place(state, "grey", 3)  # P3 again
    assert state.current_player() == 2
    draw_place(state, "grey", 3)
    draw_place(state, "grey", 3)
    assert legal_strings(state) == ["take row 3"]


def test_round_ends_when_all_have_taken_and_last_taker_starts_next_round():
    _, state = start(players=3, starts=("yellow", "blue", "green"))
    draw_place(state, "pink", 1)  # P1
    play(state, "take row 1")  # P2
    draw_place(state, "brown", 2)  # P3
    play(state, "take row 2")  # P1
    draw_place(state, "grey", 3)  # P3
    play(state, "take row 3")  # P3 takes the last row
    assert "Round 2" in str(state)
    assert state.current_player() == 2  # P3 starts round 2
    assert legal_strings(state) == ["draw"]  # all rows are back and empty


def test_two_players_discard_the_remaining_row_when_both_have_taken():
    _, state = start(players=2, starts=("yellow", "blue", "green", "pink"))
    draw_place(state, "grey", 3)  # P1
    draw_place(state, "grey", 2)  # P2
    play(state, "take row 3")  # P1
    play(state, "take row 2")  # P2: both have taken; row 1 is discarded
    assert "Round 2" in str(state)
    assert state.current_player() == 1  # P2 took last and starts
    draw_place(state, "yellow", 1)  # P2
    draw_place(state, "blue", 2)  # P1
    play(state, "take row 2")  # P2 takes the blue
    draw_place(state, "green", 3)  # P1 draws on alone
    play(state, "take row 3")  # P1: the row holding the yellow leaves the game
    assert "Round 3" in str(state)
    assert "yellow" not in str(state).split("row 1")[1].splitlines()[0]
    # P1: yellow, blue, grey, green; P2: green, pink, grey, blue. Nobody got the yellow.
    assert state.scores() == [2, 2]


def _draw_or_take(state):
    legal = legal_strings(state)
    if "draw" in legal:
        play(state, "draw")
        play(state, state.action_to_string(CHANCE, state.chance_outcomes()[0][0]))
        play(state, legal_strings(state)[0])
    else:
        play(state, legal[0])


def test_last_round_card_appears_at_its_depth_and_the_game_ends_after_that_round():
    game, state = start(players=3, starts=("yellow", "blue", "green"))
    depth = game.config.depth
    assert depth == 15
    while not (state.board()["deck_size"] == depth and "draw" in legal_strings(state)):
        assert "last round" not in str(state)
        _draw_or_take(state)
    play(state, "draw")
    assert "last round" in str(state)  # the card was revealed and set aside
    assert state.is_chance_node()  # the same player draws the next card
    assert state.board()["deck_size"] == depth
    rnd = state.board()["round"]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            _draw_or_take(state)
    assert state.board()["round"] == rnd, "the game ended with the round of the last-round card"
    assert 0 < state.board()["deck_size"] < depth
    assert sum(state.returns()) == pytest.approx(0.0)


# ----- scoring --------------------------------------------------------------------------

STANDARD = tuple(R.RULES["scoring.table_standard"])
ALTERNATIVE = tuple(R.RULES["scoring.table_alternative"])


def test_scoring_table_standard_side_is_1_3_6_10_15_21_capped_at_6():
    assert [scoring.colour_value(STANDARD, k) for k in range(1, 9)] == [1, 3, 6, 10, 15, 21, 21, 21]


def test_scoring_table_alternative_side_is_1_4_8_7_6_5():
    assert [scoring.colour_value(ALTERNATIVE, k) for k in range(1, 7)] == [1, 4, 8, 7, 6, 5]
    game = pyspiel.load_game("python_coloretto(players=4,scoring=alternative)")
    assert game.config.table == ALTERNATIVE


def test_best_three_colours_score_positive_and_all_others_negative():
    # 4 yellow (10), 3 blue (6), 2 green (3), 2 pink (3), 1 grey (1)
    score, _ = scoring.best_score((4, 3, 2, 2, 1, 0, 0), 0, 0, STANDARD, 3)
    assert score == 10 + 6 + 3 - 3 - 1


def test_each_plus2_card_is_worth_two_points():
    base, _ = scoring.best_score((1, 0, 0, 0, 0, 0, 0), 0, 0, STANDARD, 3)
    with3, _ = scoring.best_score((1, 0, 0, 0, 0, 0, 0), 3, 0, STANDARD, 3)
    assert with3 - base == 6


def test_joker_joins_a_four_card_colour_when_the_six_card_colour_is_capped():
    # Rulebook example: the 6-card colour is already at 21, so the joker makes 4 -> 5.
    score, counts = scoring.best_score((6, 4, 2, 0, 0, 0, 0), 0, 1, STANDARD, 3)
    assert counts == (6, 5, 2, 0, 0, 0, 0)
    assert score == 21 + 15 + 3


def test_seed_worked_example_scores_47_points():
    # Laura: 7 yellow, 5 blue, 4 orange, 4 grey, 1 brown, 1 joker, three +2 cards.
    names = COLOUR_NAMES
    counts = [0] * 7
    for name, k in (("yellow", 7), ("blue", 5), ("orange", 4), ("grey", 4), ("brown", 1)):
        counts[names.index(name)] = k
    score, final = scoring.best_score(tuple(counts), 3, 1, STANDARD, 3)
    assert score == 47
    assert final[names.index("blue")] == 6  # she turns the joker blue


def test_variant_only_two_colours_score_positive():
    score3, _ = scoring.best_score((4, 3, 2, 0, 0, 0, 0), 0, 0, STANDARD, 3)
    score2, _ = scoring.best_score((4, 3, 2, 0, 0, 0, 0), 0, 0, STANDARD, 2)
    assert score3 == 10 + 6 + 3
    assert score2 == 10 + 6 - 3


def test_immediate_joker_variant_lets_the_owner_choose_the_colour_on_taking():
    _, state = start(players=3, starts=("yellow", "blue", "green"), joker_timing="immediate")
    draw_place(state, "joker", 1)  # P1
    play(state, "take row 1")  # P2 takes the joker and must colour it now
    assert state.current_player() == 1
    assert legal_strings(state)[:2] == ["joker as yellow", "joker as blue"]
    play(state, "joker as blue")
    assert state.scores()[1] == 3  # two blue cards
    assert state.current_player() == 2


def test_new_edition_golden_joker_reveals_an_extra_card_for_its_taker():
    game, state = start(players=3, starts=("yellow", "blue", "green"), edition="new")
    assert game.config.jokers == 2 and game.config.golden == 1 and game.config.depth == 16
    play(state, "draw", "deck: golden joker", "place golden joker in row 1")
    play(state, "take row 1")  # P2
    assert state.is_chance_node()
    play(state, "deck: blue")  # the extra card joins P2's collection
    assert state.current_player() == 2
    # P2: blue, blue + golden joker (end timing) -> 3 blue = 6 points.
    assert state.scores()[1] == 6


# ----- end of game and utilities --------------------------------------------------------

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1,positive_colors=2{extra})"
)


def _finish_tiny(extra=""):
    game = pyspiel.load_game(TINY.format(extra=extra))
    state = game.new_initial_state()
    # P1 starts with yellow, P2 with blue; deck: yellow, blue, green x2, +2.
    play(state, "start: yellow", "start: blue", "start player: P1")
    draw_place(state, "green", 1)  # P1
    play(state, "take row 1")  # P2 takes green
    draw_place(state, "green", 2)  # P1 alone
    play(state, "take row 2")  # P1 takes green; round 2, P1 starts
    draw_place(state, "+2", 1)  # P1
    play(state, "take row 1")  # P2 +2
    draw_place(state, "yellow", 2)  # P1
    play(state, "take row 2")  # P1; round 3, P1 starts
    draw_place(state, "blue", 1)  # P1: last card
    play(state, "take row 1")  # P2
    play(state, "take row 2")  # P1 takes the empty row (deck empty)
    assert state.is_terminal()
    return state


def test_game_ends_when_a_round_ends_with_an_empty_deck():
    state = _finish_tiny()
    # Two colours score positive. P1: yellow 2, green 1 -> 3 + 1 = 4;
    # P2: blue 2, green 1, +2 -> 3 + 1 + 2 = 6.
    assert state.scores() == [4, 6]
    assert state.returns() == [-1.0, 1.0]


def test_tied_players_share_their_rank():
    from spiel_games.common.utility import returns_from_keys

    assert returns_from_keys("rank", [10, 10, 4]) == [0.5, 0.5, -1.0]
    assert returns_from_keys("win", [10, 10, 4]) == [0.5, 0.5, 0.0]


def test_utility_parameter_selects_score_or_win_returns():
    assert _finish_tiny(",utility=score").returns() == [4.0, 6.0]
    assert _finish_tiny(",utility=win").returns() == [0.0, 1.0]


def game_layout(state):
    return state.get_game().layout


def test_illegal_actions_raise_and_are_never_repaired():
    _, state = start()
    before = str(state)
    with pytest.raises(pyspiel.SpielError):
        state.string_to_action("take row 1")  # rows are empty: not a legal move
    with pytest.raises(ValueError, match="illegal action .*take row 1"):
        state.apply_action(game_layout(state).take(0))
    assert str(state) == before


@pytest.mark.parametrize(
    "bad",
    [
        "python_coloretto(players=6)",
        "python_coloretto(players=4,scoring=fancy)",
        "python_coloretto(players=4,edition=deluxe)",
        "python_coloretto(players=5,colors=4)",
    ],
)
def test_bad_parameters_are_rejected(bad):
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game(bad)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        # Negative values other than the -1 sentinel were silently read as "by the rules".
        ("jokers=-7", "jokers must be -1 (by edition) or 0-10, got -7"),
        ("last_round_depth=-5", "last_round_depth must be -1 (by edition) or 0-"),
        ("start_cards=-2", "start_cards must be -1 (by the rules) or 0-1, got -2"),
        # Huge values built a game that ran until a timeout.
        ("cards_per_color=100000", "cards_per_color must be 1-20, got 100000"),
        ("jokers=1000", "jokers must be -1 (by edition) or 0-10, got 1000"),
        ("plus2=1000", "plus2 must be 0-20, got 1000"),
        ("rows=1000", "rows must be 0 (by the rules) or 4-10, got 1000"),
        ("row_capacity=1000", "row_capacity must be 0 (3 per row) or 1-10, got 1000"),
    ],
)
def test_out_of_range_parameters_name_the_parameter_and_its_range(bad, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        pyspiel.load_game(f"python_coloretto(players=4,{bad})")


# ----- public inspection ----------------------------------------------------------------


def test_holdings_and_board_show_collections_rows_and_the_deck():
    _, state = start(players=3, starts=("yellow", "blue", "green"))
    draw_place(state, "+2", 1)  # P1
    play(state, "take row 1")  # P2 takes the +2
    h = state.holdings(1)
    assert h["colours"][COLOUR_NAMES.index("blue")] == 1 and h["plus2"] == 1 and h["done"]
    assert not state.holdings(0)["done"]
    b = state.board()
    assert b["phase"] == "play" and b["current"] == 2 and b["round"] == 1
    assert b["taken"] == (True, False, False) and b["rows"] == ((), (), ())
    assert b["deck_size"] == sum(b["deck"]) == 6 * 9 - 3 + 10 + 3 - 1  # 3p: 6 colours


def test_score_breakdown_adds_up_to_the_score_with_the_joker_assigned():
    # P1: yellow, yellow (start + row), joker, +2 -> yellow 3 = 6, +2 = 2, total 8.
    _, state = start(players=3, starts=("yellow", "blue", "green"))
    draw_place(state, "yellow", 1)
    draw_place(state, "joker", 1)
    draw_place(state, "+2", 1)
    play(state, "take row 1")  # P1 takes all three
    d = state.score_breakdown()[0]
    assert d["colours"][COLOUR_NAMES.index("yellow")] == 3
    assert (d["positive"], d["negative"], d["plus2"], d["total"]) == (6, 0, 2, 8)
    assert [x["total"] for x in state.score_breakdown()] == state.scores()
