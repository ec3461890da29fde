"""Bruxelles 1893 scenario tests: one rule each, driven through real moves.

Positions come from spiel_games.bruxelles.scenario (fixed setup, whole board open,
holdings edited before the moves a test checks); every rule effect comes from the
engine.
"""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games  # noqa: F401
from spiel_games.bruxelles import actions
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.scenario import each, game, legal_strings, play, put, start


# ----- setup ------------------------------------------------------------------------------
def test_setup_gives_5_to_9_bf_brugmann_assistants_and_one_colour_work():
    state = game(5).new_initial_state()
    assert each(state, "money") == (5, 6, 7, 8, 9)
    assert all(k == 1 << R.BRUGMANN for k in each(state, "kept"))
    assert each(state, "supply") == (5,) * 5 and each(state, "courthouse") == (2,) * 5
    assert all(sum(w[:4]) == 1 and w[4] == 0 for w in each(state, "works"))
    assert state.scores()[0] >= 5  # the first player holds the Manneken Pis


def test_random_setup_shuffles_strips_compass_works_display_and_bonus_cards():
    state = pyspiel.load_game("python_bruxelles(players=2)").new_initial_state()
    seen = []
    while state.is_chance_node():
        seen.append(state.board()["phase"].upper())
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(outcomes[-1][0])
    assert seen == (
        ["C_STRIP"] * 5
        + ["C_COMPASS"] * 6
        + ["C_ART"] * 2
        + ["C_FIGURE"] * 4
        + ["C_BONUS"] * 5
        + ["C_STOCK"]
    )
    b = state.board()
    assert sorted(b["strips"]) == [0, 1, 2, 3, 4] and sorted(b["compass"]) == list(range(6))
    assert -1 not in b["display"] and -1 not in b["bonus_strip"]


def test_every_strip_holds_each_action_once():
    for strip in R.STRIPS:
        assert sorted(strip) == [0, 1, 2, 3, 4]


# ----- stock exchange ---------------------------------------------------------------------------
def test_first_player_chooses_one_of_the_cards_two_shields_and_the_bracket_opens_the_largest_area():
    state = game(4).new_initial_state()
    assert state.board()["phase"] == "shield" and state.current_player() == 0
    assert legal_strings(state) == ["shield 1 (1-2)", "shield 2 (3-4)"]
    play(state, "shield 1")
    area = state.board()["area"]
    assert bin(area).count("1") == 12
    # shield 1-2: rows 2-5, columns 3-5 are the largest quarter
    assert all((area >> (r * 5 + c)) & 1 == (r >= 1 and c >= 2) for r in range(5) for c in range(5))


@pytest.mark.parametrize("shield,size", [((1, 1), 16), ((2, 2), 9), ((2, 4), 12), ((4, 4), 16)])
def test_bracket_area_is_the_largest_quarter(shield, size):
    assert bin(R.bracket_area(*shield)).count("1") == size


def test_stock_card_value_is_paid_by_the_bourse_action():
    state = start(3)
    money = state.holdings(0)["money"]
    play(state, "brussels Bourse")
    assert state.holdings(0)["money"] == money + R.STOCK_VALUES[0]


# ----- Art Nouveau placement ----------------------------------------------------------------------
def test_art_nouveau_space_needs_an_assistant_and_a_bid_of_at_least_1_bf():
    state = start(3, max_bid=4)
    places = [a for a in legal_strings(state) if a.startswith("place")]
    assert len(places) == bin(state.board()["area"]).count("1")
    play(state, places[0])
    assert legal_strings(state) == ["bid 1", "bid 2", "bid 3", "bid 4"]  # 5 BF, capped at max_bid
    state2 = start(3)
    state2.own_core().money[0] = 0
    assert not any(a.startswith("place") for a in legal_strings(state2))


def test_bid_is_capped_by_money():
    state = start(3)
    play(state, "place r2c3")
    assert legal_strings(state) == [f"bid {k}" for k in range(1, 6)]


def test_each_action_space_takes_one_assistant_per_round():
    state = start(3)
    play(state, "place r2c3", "bid 1", "skip")
    assert not any(a.startswith("place r2c3") for a in legal_strings(state))
    assert (
        state.board()["occupants"][7] == 0
        and state.board()["bids"][7] == 1
        and state.holdings(0)["money"] == 4
    )


def test_placing_only_to_bid_is_allowed():
    state = start(3)
    play(state, "place r2c3")  # Workshop
    play(state, "bid 2")
    assert legal_strings(state) == ["skip", "perform"]
    play(state, "skip")
    assert state.current_player() == 1
    assert state.holdings(0)["works"] == (1, 0, 0, 0, 0)


# ----- the five Art Nouveau actions -------------------------------------------------------------------
def test_workshop_draws_one_plus_exhibition_tiles_and_keeps_one():
    state = start(3)
    put(state, "exhib", 0, 2)
    play(state, "place r2c3", "bid 1", "perform")
    play(state, "art pink", "art green", "art pink")
    assert state.current_player() == 0 and legal_strings(state) == ["keep pink", "keep green"]
    stack = list(state.board()["art_stack"])
    play(state, "keep green")
    h, b = state.holdings(0), state.board()
    assert h["works"] == (1, 0, 0, 1, 0)
    assert b["art_stack"][1] == stack[1] + 2 and b["art_stack"][3] == stack[3]  # others go back
    assert h["seen"] == ((3, (1, 1)),)


def test_workshop_draw_is_seen_only_by_the_drawer():
    state = start(3)
    put(state, "exhib", 0, 1)
    play(state, "place r2c3", "bid 1", "perform", "art pink", "art green")
    before = [state.observation_string(p) for p in range(3)]
    other = state.clone()
    o = other.own_core()  # pretend blue (not pink) and green were drawn
    o.ctx = ((0, 3),)
    o.art_stack = (o.art_stack[0] - 1, o.art_stack[1] + 1) + o.art_stack[2:]
    assert other.observation_string(1) == before[1]
    assert other.observation_string(2) == before[2]
    assert other.observation_string(0) != before[0]
    assert "drawn:pink,green" in before[0] and "drawn" not in before[1]


def test_sale_moves_cursor_up_to_works_owned_and_pays_the_dot_money_and_vp():
    state = start(3)
    put(state, "works", 0, (1, 1, 0, 0, 0))  # blue and pink: cursor may move 2 steps
    play(state, "place r1c2", "bid 1", "perform")  # Sale (row 1 column 2)
    assert legal_strings(state) == ["sell blue", "sell pink"]
    play(state, "sell pink")
    cursors = legal_strings(state)
    assert len(cursors) == 13 and "cursor 1,3" in cursors and "cursor 3,5" in cursors
    money, vp = state.holdings(0)["money"], state.holdings(0)["vp"]
    play(state, "cursor 4,4")
    exp_money, exp_vp = R.sale_reward((4, 4), 1)  # pink dot is right of the centre
    assert (exp_money, exp_vp) == (R.MONEY_BY_ROW[4], R.VP_BY_COL[5])
    h, b = state.holdings(0), state.board()
    assert h["money"] == money + exp_money and h["vp"] == vp + exp_vp
    assert h["works"] == (1, 0, 0, 0, 0) and b["shop"] == (1, -1) and b["cursor"] == (4, 4)


def test_sale_forbids_colours_shown_in_the_shop_and_later_sales_choose_the_space():
    state = start(3)
    s = state.own_core()
    s.shop = (0, 2)
    put(state, "shop_pile", 0, 0)
    put(state, "works", 0, (1, 1, 1, 0, 1))
    play(state, "place r1c2", "bid 1", "perform")
    assert legal_strings(state) == ["sell pink", "sell black"]
    play(state, "sell black", "cursor 3,3")
    assert legal_strings(state) == ["shop 1", "shop 2"]
    play(state, "shop 1")
    assert (
        state.board()["shop"] == (4, 2) and state.board()["shop_pile"][0] == 1
    )  # blue sellable again


def test_theater_costs_0_to_3_bf_applies_the_figure_and_refills_the_3_bf_space():
    state = start(3)
    play(state, "place r1c3", "bid 1", "perform")  # Theater
    assert legal_strings(state) == [
        "theater 0 Solvay (0 BF)",
        "theater 1 Buls (1 BF)",
        "theater 2 Albert (2 BF)",
        "theater 3 Vandervelde (3 BF)",
    ]
    money = state.holdings(0)["money"]
    play(state, "theater 2")  # Prince Albert: Royal Palace +1
    assert state.holdings(0)["money"] == money - 2 and state.holdings(0)["palace"] == 1
    assert legal_strings(state) == ["keep figure", "discard figure"]
    play(state, "keep figure")
    assert state.is_chance_node()
    play(state, "figure Maeterlinck")
    h = state.holdings(0)
    assert state.board()["display"] == (R.SOLVAY, R.BULS, R.VANDERVELDE, R.MAETERLINCK)
    assert (h["kept"] >> R.ALBERT) & 1 and (h["rotated"] >> R.ALBERT) & 1


def test_a_second_copy_of_a_kept_figure_must_be_discarded():
    state = start(3)
    put(state, "kept", 0, state.holdings(0)["kept"] | 1 << R.SOLVAY)
    play(state, "place r1c3", "bid 1", "perform", "theater 0", "solvay one", "take wood")
    assert state.is_chance_node()  # no keep/discard question: straight to the refill
    assert state.board()["figure_discard"][R.SOLVAY] == 1


@pytest.mark.parametrize(
    "figure,check",
    [
        (R.BRUGMANN, lambda h: h["money"] == 5 + 5 - 1),
        (R.BULS, lambda h: h["city_hall"] == 1),
        (R.ALBERT, lambda h: h["palace"] == 1),
        (R.VANDERVELDE, lambda h: h["courthouse"] == 1 and h["supply"] == 5),
        (R.MAETERLINCK, lambda h: h["vp"] == 5),
        (R.EMPAIN, lambda h: h["cubes"][R.JOKER] == 2),
        (R.VANDEVELDE, lambda h: h["architect"] == 1),
    ],
)
def test_public_figure_effects(figure, check):
    state = start(3)
    state.own_core().display = (figure, 1, 2, 3)
    play(state, "place r1c3", "bid 1", "perform", "theater 0")
    if "discard figure" in legal_strings(state):  # Brugmann is already kept: discarded at once
        play(state, "discard figure")
    assert check(state.holdings(0))


def test_solvay_swaps_a_joker_for_two_noble_cubes():
    state = start(3)
    put(state, "cubes", 0, (0, 0, 0, 1))
    play(state, "place r1c3", "bid 1", "perform", "theater 0")
    assert legal_strings(state) == ["solvay one", "solvay swap"]
    play(state, "solvay swap", "take stone", "take iron", "discard figure")
    assert state.holdings(0)["cubes"] == (0, 1, 1, 0)


def test_materials_gives_two_noble_cubes_of_the_players_choice():
    state = start(3)
    play(state, "place r1c4", "bid 1", "perform")  # Materials
    assert legal_strings(state) == ["take wood", "take stone", "take iron"]
    play(state, "take stone", "take stone")
    assert (
        state.holdings(0)["cubes"] == (0, 2, 0, 0)
        and state.board()["cube_supply"][1] == R.NOBLE_EACH - 2
    )


def test_construction_pays_both_needle_units_and_scores_5_vp_without_jokers():
    state = start(3)
    put(state, "cubes", 0, (2, 1, 0, 0))  # needles: wood and "any noble"
    play(state, "place r1c5", "bid 1", "perform")  # Construction
    assert legal_strings(state) == ["pay wood"]  # units are paid in kind order: wood first
    play(state, "pay wood")
    assert legal_strings(state) == ["pay wood", "pay stone"]  # wood also counts as "any noble"
    play(state, "pay wood")
    assert state.holdings(0)["vp"] == 5
    assert legal_strings(state) == ["needle 1", "needle 2"]
    play(state, "needle 2")
    assert state.board()["needles"] == (0, 4)  # noble -> 3BF, one step clockwise
    play(state, "build r1c1")
    h = state.holdings(0)
    assert state.board()["buildings"][0] == 0 and h["built"] == 1 and h["cubes"] == (0, 1, 0, 0)


def test_construction_with_a_joker_gets_no_5_vp_bonus():
    state = start(3)
    put(state, "cubes", 0, (1, 0, 0, 2))
    play(state, "place r1c5", "bid 1", "perform", "pay wood", "pay joker", "needle 1", "build r1c1")
    assert state.holdings(0)["vp"] == 0 and state.holdings(0)["cubes"] == (0, 0, 0, 1)


def test_a_needle_on_the_blank_tile_means_all_units_of_the_other_kind():
    assert R.payment_options(4, 5, 2) == ((0, 0, 0, 2, 0), (0, 0, 0, 1, 1), (0, 0, 0, 0, 2))
    assert (2, 0, 0, 0, 0) not in R.payment_options(0, 4, 2)  # both needles must be paid
    assert (1, 0, 0, 1, 0) in R.payment_options(0, 4, 2)


def test_needles_never_point_at_the_same_tile():
    state = start(3)
    s = state.own_core()
    s.needles = (2, 3)
    put(state, "cubes", 0, (0, 0, 2, 2))
    play(state, "place r1c5", "bid 1", "perform", "pay iron", "pay joker")
    assert state.board()["needles"] == (2, 4)  # needle 1 was blocked: needle 2 turned by itself


def test_buildings_go_bottom_then_middle_then_top_and_top_tiles_give_5_vp():
    assert R.TIER_COSTS == (2, 2, 3, 3, 4, 4)
    state = start(3)
    state.own_core()
    put(state, "built", 0, 4)
    put(state, "cubes", 0, (4, 0, 0, 0))
    play(state, "place r1c5", "bid 1", "perform")
    play(state, "pay wood", "pay wood", "pay wood", "pay wood", "needle 1", "build r1c1")
    assert state.holdings(0)["vp"] == 5 + 5 and state.holdings(0)["built"] == 5


def test_building_owner_gets_a_secondary_action_when_an_opponent_uses_the_space():
    state = start(3)
    state.own_core()
    put(state, "bld", 7, 1)  # P2's building on r2c3 (Workshop)
    put(state, "bld", 13, 2)  # P3's building on r3c4 (Workshop)
    play(state, "place r2c3", "bid 1", "skip")
    assert state.holdings(1)["works"][R.BLACK] == 1  # Workshop secondary: a black work
    state.own_core()
    put(state, "bld", 8, 0)  # P1's building on r2c4 (Sale)
    play(state, "place r2c4", "bid 1", "skip")  # P2 uses it: P1 scores 1 VP per work
    assert state.holdings(0)["vp"] == sum(state.holdings(0)["works"])


def test_no_secondary_action_on_your_own_building():
    state = start(3)
    put(state, "bld", 7, 0)
    play(state, "place r2c3", "bid 1", "skip")
    assert state.holdings(0)["works"][R.BLACK] == 0


def test_the_largest_max_bid_fits_below_the_move_log_tokens():
    """max_bid is 0 (no cap) or 1-MAX_BID; every bid id stays below the chance tokens."""
    assert actions.num_actions(R.MAX_BID) <= actions.CHANCE_TOKEN
    assert pyspiel.load_game(f"python_bruxelles(players=2,max_bid={R.MAX_BID})")
    with pytest.raises(ValueError, match=f"max_bid must be 0 \\(no cap\\) or 1-{R.MAX_BID}, got"):
        pyspiel.load_game(f"python_bruxelles(max_bid={R.MAX_BID + 1})")
