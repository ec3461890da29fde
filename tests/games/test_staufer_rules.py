"""Scenario tests for Die Staufer (the setup, supply actions, deployments and the end of a
round): one rule each, on scripted boards (named regions, tiles, jobs and chests answered
through the real chance nodes), asserting on public methods and the public observation."""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games  # noqa: F401  (registers the games)
from spiel_games.staufer.scenario import (
    deploy,
    draw_chests,
    load,
    play,
    set_court,
    setup,
    supply,
    view,
)
from spiel_games.staufer.scenario import (
    legal_strings as legal_names,
)

MILAN, AUGSBURG, NIJMEGEN, AACHEN, STRASBOURG, PALERMO = range(6)  # board positions


# ----- setup ---------------------------------------------------------------------------------


def test_courts_start_with_4_envoys_and_1_noble_rest_in_province():
    g = load(players=3, chests="none")
    s = setup(g)
    assert view(g, s, "court") == [[4, 1]] * 3
    assert view(g, s, "province") == [[11, 2]] * 3


def test_king_starts_in_the_region_of_the_sixth_a_tile():
    g = load(players=3, chests="none")
    s = setup(g, king="Aachen")
    assert view(g, s, "king")[AACHEN] == 1 and sum(view(g, s, "king")) == 1


def test_first_round_order_is_snake_1_to_n_then_n_to_1_twice():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g)
    seen = []
    for _ in range(9):
        seen.append(s.current_player())
        supply(s)
    assert seen == [0, 1, 2, 2, 1, 0, 2, 1, 0]


@pytest.mark.parametrize("players,count", [(2, 2), (3, 3), (4, 4), (5, 5)])
def test_vp_privileges_used_by_player_count_highest_on_top(players, count):
    g = load(players=players)
    s = setup(g)
    assert view(g, s, "vp_pile") == [count, 6]


def _first_chest_draw(game):
    state = game.new_initial_state()
    while not state.action_to_string(-1, state.chance_outcomes()[0][0]).startswith("chest"):
        state.apply_action(state.chance_outcomes()[0][0])
    return dict(state.chance_outcomes())


def test_english_rules_have_10_purple_and_18_brown_chests_of_72():
    probs = _first_chest_draw(load(players=3))
    assert probs[7] == pytest.approx(10 / 72) and probs[8] == pytest.approx(18 / 72)


def test_german_edition_has_18_violet_and_10_brown_chests():
    probs = _first_chest_draw(load(players=3, chests="german"))
    assert probs[7] == pytest.approx(18 / 72) and probs[8] == pytest.approx(10 / 72)


def test_invalid_parameters_raise_value_error():
    for bad in ("players=6", "chests=french", "rounds=6", "job_pool=1", "regions=3,rounds=3"):
        with pytest.raises(Exception, match="must|takes|need"):
            pyspiel.load_game(f"python_staufer({bad})")


# ----- supply --------------------------------------------------------------------------------


def test_supply_takes_the_space_figures_and_its_chest():
    g = load(players=3, jobs=0)
    s = setup(g, chests=["o3", "brown", "brown", "brown", "brown"])
    supply(s, 1)  # 2 envoys + the orange 3-VP chest
    assert view(g, s, "court")[0] == [6, 1]
    assert view(g, s, "vp")[0] == 3
    assert sum(view(g, s, "supply_chests")[0]) == 0
    supply(s, 1)  # P2: the space keeps giving figures, but its chest is gone
    assert view(g, s, "court")[1] == [6, 1] and view(g, s, "vp")[1] == 0


def test_supply_short_province_takes_every_needed_payment_figure_without_asking():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    deploy(s, "Nijmegen", 5)  # travel: one envoy each into Milan and Augsburg
    assert [row[0] for row in view(g, s, "payment")][:2] == [[1, 0], [1, 0]]
    set_court(s, 0, 12, 1)  # every free envoy of P1 in court: the province has none
    for _ in range(4):
        supply(s, 2)  # P2, P3, P3, P2
    assert s.current_player() == 0
    supply(s, 1)  # 2 envoys, both needed: no choice of payment area
    assert view(g, s, "court")[0] == [14, 1]
    assert all(row[0] == [0, 0] for row in view(g, s, "payment"))


def test_supply_gives_an_envoy_when_no_noble_exists_anywhere():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g)
    set_court(s, 0, 4, 3)  # all three nobles in court: none in the province or on the board
    supply(s, 4)  # 1 envoy + 1 noble
    assert view(g, s, "court")[0] == [6, 3]


# ----- deployment ----------------------------------------------------------------------------


def test_travel_leaves_one_figure_in_each_region_from_the_king_to_the_target():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    deploy(s, "Nijmegen", 5)
    pay = [row[0] for row in view(g, s, "payment")]
    assert pay == [[1, 0], [1, 0], [0, 0], [0, 0], [0, 0], [0, 0]]
    assert view(g, s, "court")[0] == [2, 1]  # 4 + first-deployment envoy - 2 travel - 1 seat


def test_deploying_in_the_kings_region_needs_no_travel():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    deploy(s, "Milan", 5)
    assert all(row[0] == [0, 0] for row in view(g, s, "payment"))
    assert view(g, s, "court")[0] == [4, 1]


def test_seat_costs_its_value_minus_one_further_figures_clockwise_from_the_target():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    deploy(s, "Milan", 2)  # value 3: the occupant + 2 into Milan and Augsburg
    pay = [row[0] for row in view(g, s, "payment")]
    assert pay[:3] == [[1, 0], [1, 0], [0, 0]]
    assert view(g, s, "court")[0] == [2, 1]
    assert view(g, s, "seats")[MILAN][1] == [1, 0, 0, 0, 0, 0]  # P1 envoy


def test_nobles_may_pay_like_envoys():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    deploy(s, "Milan", 2, nobles=1, noble_to=["Augsburg"])  # value 3: Milan and Augsburg
    pay = [row[0] for row in view(g, s, "payment")]
    assert pay[:2] == [[1, 0], [0, 1]]
    assert view(g, s, "court")[0] == [3, 0]


def test_noble_only_seat_takes_only_a_noble():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    play(s, "deploy Milan", "seat 1")  # 3N: the noble occupies it without being asked
    assert view(g, s, "seats")[MILAN][0] == [0, 1, 0, 0, 0, 0]
    assert view(g, s, "court")[0][1] == 0
    set_court(s, 1, 6, 0)  # P2 without a noble cannot take Augsburg's noble seat
    play(s, "deploy Augsburg")
    names = legal_names(s)
    assert not any(n.startswith("seat 1 ") for n in names) and "seat 2 (3)" in names


def test_deployment_takes_the_chest_under_the_seat():
    g = load(players=3, jobs=0)
    # Refill order: the 5 supply spaces, then seats left to right from Milan.
    s = setup(g, king="Milan", chests=["brown"] * 9 + ["o3"])
    deploy(s, "Milan", 5)
    assert view(g, s, "vp")[0] == 3
    assert view(g, s, "seat_chests")[MILAN][4] == [0] * 9


def test_first_deployment_grants_an_envoy_usable_at_once():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    set_court(s, 0, 0, 0)
    set_court(s, 1, 0, 0)
    assert "deploy Milan" in legal_names(s)  # only thanks to the first-position envoy
    deploy(s, "Milan", 5)
    assert view(g, s, "seats")[MILAN][4] == [1, 0, 0, 0, 0, 0]
    assert not any(n.startswith("deploy") for n in legal_names(s))  # P2 gets no envoy


def test_unaffordable_deployment_is_illegal_and_raises():
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    set_court(s, 0, 1, 0)  # 1 envoy + the first-position envoy: 2 figures
    names = legal_names(s)
    assert "deploy Milan" in names and "deploy Augsburg" in names
    assert "deploy Nijmegen" not in names  # 2 travel + 1 seat
    with pytest.raises(Exception, match="illegal action .*deploy Nijmegen"):
        s.apply_action(6 + NIJMEGEN)


# ----- round end -----------------------------------------------------------------------------


def test_round_scores_the_a_region_and_the_b_region():
    g = load(players=3, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Milan",), king="Augsburg", b=["king"])
    # 5 travel figures from Augsburg round to Milan, the noble among them
    deploy(s, "Milan", 5, noble_to=["Palermo"])
    deploy(s, "Augsburg", 5)
    supply(s)
    assert s.is_terminal()
    assert s.scores() == [10, 9, 0]


def test_region_named_by_a_and_b_scores_once():
    g = load(players=3, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Milan",), king="Palermo", b=["after_king"])  # both name Milan
    deploy(s, "Milan", 5)
    supply(s)
    supply(s)
    assert s.scores() == [10, 0, 0]


def test_b_condition_most_seats_scores_the_fullest_region():
    g = load(players=3, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Palermo",), king="Milan", b=["most_seats"])
    deploy(s, "Augsburg", 5)
    deploy(s, "Augsburg", 4)
    deploy(s, "Nijmegen", 5)
    assert s.scores() == [5, 9, 0]  # Augsburg: tie 1-1, P2 holds the seat further left


def test_majority_counts_nobles_double():
    g = load(players=2, seats=5, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Milan",), king="Palermo", b=["after_king"])
    deploy(s, "Milan", 5, occupant="noble")
    deploy(s, "Milan", 2)
    assert s.scores() == [10, 5]


def test_majority_tie_goes_to_the_leftmost_seat():
    g = load(players=2, seats=5, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Milan",), king="Palermo", b=["after_king"])
    deploy(s, "Milan", 5)
    deploy(s, "Milan", 4)
    assert s.scores() == [5, 10]


def test_first_second_third_take_the_point_tile_values_fourth_nothing():
    g = load(players=4, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Milan",), king="Palermo", b=["after_king"])
    deploy(s, "Milan", 5, occupant="noble")
    deploy(s, "Milan", 2)
    deploy(s, "Milan", 3)
    deploy(s, "Milan", 4)
    assert s.scores() == [10, 5, 2, 0]


def test_region_bonus_goes_to_the_majority_holder():
    g = load(players=3, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Nijmegen",), king="Augsburg", b=["after_king"])
    deploy(s, "Nijmegen", 4)
    deploy(s, "Nijmegen", 5)
    supply(s)
    assert s.scores() == [8 + 4, 4, 0]  # Nijmegen's bonus: 4 VP to the majority holder


def test_cleanup_returns_scored_seats_to_the_province():
    g = load(players=3, chests="none", jobs=0, rounds=2, actions=1)
    s = setup(g, a=("Milan", "Augsburg"), king="Palermo", b=["after_king", "king"])
    deploy(s, "Milan", 5)
    assert view(g, s, "province")[0] == [10, 2]
    supply(s)
    supply(s)
    assert not s.is_terminal()
    assert view(g, s, "seats")[MILAN] == [[0] * 6] * 5
    # The envoy is back in the province; Milan's bonus took a noble from it into the court.
    assert view(g, s, "province")[0] == [11, 1]
    assert view(g, s, "court")[0][1] == 2
    assert view(g, s, "vp")[0] == 10


def test_king_moves_by_the_c_tile_and_returns_passed_payment_areas_to_courts():
    g = load(players=3, chests="none", jobs=0, rounds=2, actions=1)
    s = setup(g, a=("Strasbourg", "Palermo"), king="Milan", c=[2])
    deploy(s, "Aachen", 5)  # travel through Milan, Augsburg, Nijmegen
    assert view(g, s, "court")[0] == [1, 1]
    supply(s)
    supply(s)
    assert view(g, s, "king")[NIJMEGEN] == 1
    pay = [row[0] for row in view(g, s, "payment")]
    assert pay == [[0, 0], [0, 0], [1, 0], [0, 0], [0, 0], [0, 0]]
    assert view(g, s, "court")[0] == [3, 1]


def test_next_round_order_is_the_supply_track_then_the_deployment_track():
    g = load(players=2, chests="none", jobs=0, rounds=2)
    s = setup(g, king="Milan")
    assert s.current_player() == 0
    deploy(s, "Milan", 3)  # P1 deploys first
    supply(s)  # P2
    deploy(s, "Milan", 2)  # P2
    supply(s)  # P1
    supply(s)  # P2
    supply(s)  # P1
    seen = []
    for _ in range(6):
        seen.append(s.current_player())
        supply(s)
    assert seen == [1, 0, 1, 0, 0, 1]


def test_cleanup_refills_empty_chest_spaces_from_the_face_down_stacks():
    g = load(players=3, jobs=0, rounds=2)
    s = setup(g, king="Milan")
    for space in (1, 2, 3, 4, 5, 1, 2, 3, 4):
        supply(s, space)
    assert s.is_chance_node()  # five empty supply spaces wait for chests
    bag = view(g, s, "bag")
    total = sum(bag)
    assert dict(s.chance_outcomes()) == pytest.approx(
        {k: c / total for k, c in enumerate(bag) if c}
    )
    draw_chests(s)
    assert [sum(x) for x in view(g, s, "supply_chests")] == [1, 1, 1, 1, 1]
    assert s.current_player() >= 0
