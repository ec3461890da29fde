"""Bruxelles 1893 scenario tests of the Brussels board, passing, secondary actions, the
stacks and decks running out, private works and parameters: one rule each, driven through
real moves.

Positions come from spiel_games.bruxelles.scenario (fixed setup, whole board open,
holdings edited before the moves a test checks); every rule effect comes from the
engine.
"""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games  # noqa: F401
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.scenario import each, legal_strings, pass_all, play, put, start


# ----- Brussels board ---------------------------------------------------------------------------------
def test_brussels_action_costs_one_then_two_assistants_in_a_round():
    state = start(3)
    play(state, "brussels Market")
    assert state.holdings(0)["supply"] == 4 and state.holdings(0)["cubes"][R.JOKER] == 3
    play(state, "brussels Market")
    assert state.holdings(1)["supply"] == 3 and state.holdings(1)["on_brussels"] == 2


def test_with_four_players_each_brussels_action_is_available_twice():
    state = start(4)
    play(state, "brussels Market", "brussels Market", "brussels Market")
    assert each(state, "supply")[:3] == (4, 4, 3)


def test_park_performs_any_art_nouveau_action_without_a_bid_or_placement():
    state = start(3)
    play(state, "brussels Park")
    # Construction is impossible without cubes; the rest may be chosen anywhere
    assert legal_strings(state) == ["park Workshop", "park Sale", "park Theater", "park Materials"]
    play(state, "park Materials", "take iron", "take iron")
    b = state.board()
    assert state.holdings(0)["cubes"] == (0, 0, 2, 0)
    assert sum(b["bids"]) == 0 and b["occupants"].count(0) == 0


def test_grand_place_activates_up_to_royal_palace_level_upright_figures():
    state = start(3)
    state.own_core()
    put(state, "kept", 0, (1 << R.BRUGMANN) | (1 << R.MAETERLINCK) | (1 << R.BULS))
    put(state, "palace", 0, 1)  # level 2
    play(state, "brussels GrandPlace")
    assert legal_strings(state) == [
        "skip",
        "activate Brugmann",
        "activate Buls",
        "activate Maeterlinck",
    ]
    play(state, "activate Maeterlinck", "activate Brugmann")
    h = state.holdings(0)
    assert h["vp"] == 5 and h["money"] == 10 and state.current_player() == 1
    assert h["rotated"] == (1 << R.BRUGMANN) | (1 << R.MAETERLINCK)


# ----- pass --------------------------------------------------------------------------------------------
def test_first_passer_takes_the_exhibition_and_1_bf_plus_1_per_colour_later_passers_1_per_colour():
    state = start(3)
    put(state, "works", 0, (1, 1, 0, 0, 1))
    put(state, "works", 1, (2, 0, 0, 0, 0))
    play(state, "pass")
    h = state.holdings(0)
    assert h["money"] == 5 + 1 + 3 and h["exhibitions"] == 1 and h["manneken"] == 2
    play(state, "pass")
    assert state.holdings(1)["money"] == 6 + 1 and state.holdings(1)["exhibitions"] == 0
    assert R.pass_income((1, 1, 1, 1, 1), True) == 6 and R.pass_income((1, 1, 1, 1, 1), False) == 5


def test_passed_players_are_skipped_until_everyone_has_passed():
    state = start(3)
    play(state, "pass", "brussels Market")
    assert state.current_player() == 2
    play(state, "brussels Bourse")
    assert state.current_player() == 1


def test_theater_and_materials_secondary_actions_let_the_owner_choose():
    state = start(3)
    put(state, "bld", 2, 1)  # P2's building on r1c3 (Theater)
    put(state, "kept", 1, state.holdings(1)["kept"] | 1 << R.MAETERLINCK)
    play(state, "place r1c3", "bid 1", "skip")
    assert state.current_player() == 1 and state.board()["phase"] == "activate"
    assert legal_strings(state) == ["skip", "activate Brugmann", "activate Maeterlinck"]
    play(state, "activate Maeterlinck")
    assert state.holdings(1)["vp"] == 5 and state.current_player() == 1  # now P2's own turn
    put(state, "bld", 3, 0)  # P1's building on r1c4 (Materials)
    play(state, "place r1c4", "bid 1", "skip")
    assert state.current_player() == 0 and legal_strings(state) == [
        "take wood",
        "take stone",
        "take iron",
    ]
    play(state, "take iron")
    assert state.holdings(0)["cubes"] == (0, 0, 1, 0)


def test_construction_secondary_scores_1_vp_per_building_of_the_owner():
    state = start(3)
    put(state, "bld", 4, 1)  # P2's building on r1c5 (Construction)
    put(state, "bld", 24, 1)
    put(state, "built", 1, 2)
    play(state, "place r1c5", "bid 1")  # P1 cannot pay for a building: the action is skipped
    assert state.holdings(1)["vp"] == 2 and state.current_player() == 1


def test_black_works_sell_on_the_cursor_centre_and_only_one_black_is_shown():
    state = start(3)
    put(state, "works", 0, (0, 0, 0, 0, 2))
    play(state, "place r1c2", "bid 1", "perform", "sell black", "cursor 3,3")
    assert (
        state.holdings(0)["money"] == 4 + R.MONEY_BY_ROW[3]
        and state.holdings(0)["vp"] == R.VP_BY_COL[3]
    )
    assert state.board()["shop"] == (R.BLACK, -1)
    play(state, "pass")
    put(state, "works", 2, (0, 0, 0, 0, 1))  # P3 owns only a black work
    assert "park Sale" not in legal_strings(play(state, "brussels Park"))  # a black one is on show


def test_workshop_stack_is_rebuilt_from_the_covered_shop_works():
    state = start(3)
    s = state.own_core()
    s.art_stack = (0, 0, 0, 0, s.art_stack[4])
    s.shop = (0, 1)
    s.shop_pile = (0, 0, 2, 0, 0)  # two yellow works covered in the shop
    play(state, "place r2c3", "bid 1", "perform")
    assert [a for a, _ in state.chance_outcomes()] == [2]  # only the recycled yellows
    play(state, "art yellow")
    assert state.holdings(0)["works"][2] == 1 and state.board()["shop"] == (0, 1)


def test_market_gives_at_most_the_jokers_left_in_the_supply():
    state = start(3)
    state.own_core().cube_supply = (10, 10, 10, 2)
    play(state, "brussels Market")
    assert state.holdings(0)["cubes"][R.JOKER] == 2 and state.board()["cube_supply"][R.JOKER] == 0


def test_park_construction_may_build_anywhere_on_the_board():
    state = start(3, open_board=False)
    put(state, "cubes", 0, (2, 0, 0, 0))
    play(state, "brussels Park", "park Construction", "pay wood", "pay wood", "needle 1")
    builds = legal_strings(state)
    assert "build r1c1" in builds and len(builds) == 25  # outside the available area too
    play(state, "build r1c1")
    assert (
        state.board()["buildings"][0] == 0 and max(state.board()["occupants"]) < 0
    )  # no assistant on the board


def test_the_theater_deck_is_reshuffled_from_the_discards_when_empty():
    state = start(3)
    s = state.own_core()
    s.fig_deck = (0,) * 8
    s.fig_disc = (0, 0, 0, 0, 0, 2, 0, 0)
    play(state, "place r1c3", "bid 1", "perform", "theater 2", "discard figure")
    assert [a for a, _ in state.chance_outcomes()] == [R.ALBERT, R.MAETERLINCK]


def test_endgame_assistant_row_counts_assistants_beyond_two_outside_the_courthouse():
    state = start(3, rounds=1)
    put(state, "rows", 0, (1, 1, 1, 3))
    pass_all(state)
    d = state.score_details()[0]
    # 5 assistants outside the Courthouse: (5 - 2) x 3 = 9; plus rows 1-3: 4 BF / 1 work / 1 figure
    assert d.rows == 9 + (7 - 3) // 4 + 1 + 1


def test_private_works_hide_a_kept_workshop_work_until_it_is_sold():
    state = start(3, private_works="true")
    play(state, "place r2c3", "bid 1", "perform", "art green")  # a single draw is kept at once
    h = state.holdings(0)
    assert h["works"] == (1, 0, 0, 1, 0) and h["public_works"] == (1, 0, 0, 0, 0)
    mine, theirs = state.observation_string(0), state.observation_string(1)
    assert "own_works:1,0,0,1,0" in mine and "own_works:1,0,0,1,0" not in theirs
    # P2's view is the same whichever colour P1 kept (and the stack shows only its size)
    other = state.clone()
    o = other.own_core()
    o.works = ((1, 1, 0, 0, 0),) + o.works[1:]
    o.art_stack = (o.art_stack[0], o.art_stack[1] - 1, o.art_stack[2], o.art_stack[3] + 1, 6)
    assert other.observation_string(1) == theirs
    assert other.information_state_string(1) == state.information_state_string(1)
    play(state, "pass", "pass")  # P2, P3 pass; P1 sells the green work and reveals it
    play(state, "place r1c2", "bid 1", "perform", "sell green", "cursor 3,3")
    assert state.holdings(0)["public_works"] == (1, 0, 0, 0, 0) and state.holdings(0)["works"] == (
        1,
        0,
        0,
        0,
        0,
    )


def test_without_private_works_the_kept_work_is_face_up():
    state = start(3)
    play(state, "place r2c3", "bid 1", "perform", "art green")
    assert state.holdings(0)["public_works"] == (1, 0, 0, 1, 0)
    assert "P1:" in (obs := state.observation_string(1)) and "/1,0,0,1,0/" in obs


@pytest.mark.parametrize(
    "bad,message",
    [
        ("players=6", "2-5 players"),
        ("max_bid=-1", "max_bid must be 0"),
        ("board=6", "board must be 2-5"),
        ("assistants=6", r"assistants must be 1-5 with courthouse=2 \(7 assistants in all\)"),
        ("setup=weird", "setup must be"),
        ("rounds=7", "rounds must be 1-5"),
    ],
)
def test_bad_parameters_raise_a_clear_error(bad, message):
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(f"python_bruxelles({bad})")
