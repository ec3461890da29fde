"""Scenario tests for Die Staufer: one rule each, on scripted boards (named regions, tiles,
jobs and chests answered through the real chance nodes), asserting on public methods and
the public observation."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import spiel_games  # noqa: F401  (registers the games)
from spiel_games.staufer.scenario import draw_chests, play, scripted_setup, set_court

ALL = ["Milan", "Augsburg", "Nijmegen", "Aachen", "Strasbourg", "Palermo"]
MILAN, AUGSBURG, NIJMEGEN, AACHEN, STRASBOURG, PALERMO = range(6)  # board positions


def load(**params):
    text = ",".join(f"{k}={v}" for k, v in params.items())
    return pyspiel.load_game(f"python_staufer({text})")


def setup(game, a=("Strasbourg",), king="Milan", b=None, c=None, **kw):
    """Regions clockwise in the order of ALL, point tiles 0..5 (Milan 10/5/2, Augsburg
    9/5/2, Nijmegen 8/4/2, Aachen 8/4/1, Strasbourg 7/4/1, Palermo 6/3/1)."""
    cfg = game.config
    rest = [r for r in ALL[: cfg.regions] if r not in a and r != king]
    a_tiles = (list(a) + rest)[: cfg.rounds] + [king]
    b_tiles = (
        list(b)
        if b
        else ["king", "most_seats", "fewest_chests", "most_payment", "after_king"][: cfg.rounds]
    )
    c_tiles = list(c) if c else [1, 1, 2, 2][: cfg.rounds - 1]
    return scripted_setup(
        game,
        regions=ALL[: cfg.regions],
        tiles=list(range(cfg.regions)),
        a_tiles=a_tiles,
        b_tiles=b_tiles,
        c_tiles=c_tiles,
        **kw,
    )


def view(game, state, name, player=0):
    obs = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False,
            public_info=True,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
    )
    obs.set_from(state, player)
    return obs.dict[name].tolist()


def legal_names(state):
    return [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]


def deploy(state, region, seat, occupant="envoy", nobles=0, noble_to=()):
    """Deploy with the given occupant, nobles among the paid figures and the regions the
    paying nobles go to (each asked only when the rules leave a choice)."""
    play(state, f"deploy {region}", f"seat {seat}")
    if not state.is_terminal() and f"occupy with {occupant}" in legal_names(state):
        play(state, f"occupy with {occupant}")
    if not state.is_terminal() and any(n.startswith("pay ") for n in legal_names(state)):
        play(state, f"pay {nobles} noble(s)")
    for target in noble_to:
        if not state.is_terminal() and any(n.startswith("noble to ") for n in legal_names(state)):
            play(state, f"noble to {target}")


def supply(state, space=1):
    play(state, f"supply {space}")


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


# ----- chests and privileges -----------------------------------------------------------------


def test_brown_chests_score_on_the_collection_table():
    g = load(players=2, jobs=0, rounds=1)
    s = setup(g, a=("Strasbourg",), king="Palermo", chests=["brown"] * 4)
    supply(s, 1)  # P1
    supply(s, 4)  # P2 (brown)
    supply(s, 4)  # P2 (space empty now)
    supply(s, 2)  # P1
    supply(s, 4)  # P2
    supply(s, 3)  # P1
    assert s.is_terminal()
    assert s.scores() == [6, 1]  # 3 brown -> 6, 1 brown -> 1


def test_escort_chest_makes_the_journey_free():
    g = load(players=3, jobs=0)
    s = setup(g, king="Milan", chests=["tEsc", "brown", "brown", "brown", "brown"])
    supply(s, 1)
    for _ in range(4):
        supply(s, 2)
    play(s, "use escort")
    deploy(s, "Palermo", 5)  # five regions away, no travel figure
    assert all(row[0] == [0, 0] for row in view(g, s, "payment"))
    assert view(g, s, "court")[0] == [6, 1]  # 6 + first-position envoy - occupant


def test_gift_chest_makes_the_seat_one_figure_cheaper():
    g = load(players=3, jobs=0)
    s = setup(g, king="Milan", chests=["tGift", "brown", "brown", "brown", "brown"])
    supply(s, 1)
    for _ in range(4):
        supply(s, 2)
    play(s, "use gift")
    deploy(s, "Milan", 2)  # value 3 pays 1 instead of 2
    pay = [row[0] for row in view(g, s, "payment")]
    assert pay[:2] == [[1, 0], [0, 0]]
    assert view(g, s, "court")[0] == [5, 1]


def test_levy_chest_brings_two_envoys():
    g = load(players=3, jobs=0)
    s = setup(g, chests=["tLevy", "brown", "brown", "brown", "brown"])
    supply(s, 1)
    play(s, "end turn")  # keep the levy for the next turn
    for _ in range(4):
        supply(s, 2)
    play(s, "use levy")
    assert view(g, s, "court")[0] == [8, 1]
    assert s.current_player() == 0  # the chest is used during the turn, the action follows


def test_purple_chest_takes_a_privilege_vp_pile_highest_first():
    g = load(players=2, jobs=0, rounds=1)
    s = setup(g, a=("Strasbourg",), king="Palermo", chests=["purple", "purple", "brown", "brown"])
    supply(s, 1)
    names = legal_names(s)
    assert names[0] == "privilege vp" and "privilege courier" in names
    play(s, "privilege vp")
    assert s.scores()[0] == 6
    supply(s, 3)
    supply(s, 3)
    supply(s, 2)
    play(s, "privilege vp")
    assert s.scores()[0] == 6 + 5


def test_standing_privilege_is_held_once_per_kind():
    g = load(players=2, jobs=0)
    s = setup(g, chests=["purple", "purple", "brown", "brown"])
    supply(s, 1)
    play(s, "privilege courier")
    supply(s, 3)
    supply(s, 3)
    supply(s, 2)
    assert "privilege courier" not in legal_names(s)
    play(s, "privilege steward")


def test_courier_privilege_adds_an_envoy_to_every_supply():
    g = load(players=2, jobs=0)
    s = setup(g, chests=["purple", "brown", "brown", "brown"])
    supply(s, 1)  # 2 envoys
    play(s, "privilege courier")
    assert view(g, s, "court")[0] == [6, 1]
    supply(s, 3)
    supply(s, 3)
    supply(s, 1)  # 2 envoys + 1 from the courier
    assert view(g, s, "court")[0] == [9, 1]


def test_safe_conduct_privilege_saves_the_first_travel_figure():
    g = load(players=2, jobs=0)
    s = setup(g, king="Milan", chests=["purple", "brown", "brown", "brown"])
    supply(s, 1)
    play(s, "privilege safe_conduct")
    supply(s, 3)
    supply(s, 3)
    deploy(s, "Nijmegen", 3)
    pay = [row[0] for row in view(g, s, "payment")]
    assert pay[:3] == [[0, 0], [1, 0], [0, 0]]


def test_royal_favour_privilege_lets_an_envoy_take_a_noble_seat():
    g = load(players=2, jobs=0)
    s = setup(g, king="Milan", chests=["purple", "brown", "brown", "brown"])
    supply(s, 1)
    play(s, "privilege royal_favour")
    supply(s, 3)
    supply(s, 3)
    play(s, "deploy Milan", "seat 1")
    assert "occupy with envoy" in legal_names(s)
    play(s, "occupy with envoy")


# ----- game end ------------------------------------------------------------------------------


def test_region_job_scores_a_seat_in_its_region_at_game_end():
    g = load(players=2, chests="none", jobs=1, rounds=1, actions=1)
    s = setup(g, a=("Augsburg",), king="Milan", jobs=[["Aachen"], ["Milan"]])
    deploy(s, "Aachen", 3)
    supply(s)
    assert s.scores() == [6, 0]


def test_design_and_office_jobs_count_every_fulfilment():
    g = load(players=2, seats=5, chests="none", jobs=3, rounds=1, actions=2)
    s = setup(
        g,
        a=("Strasbourg",),
        king="Milan",
        b=["king"],
        jobs=[["Palermo", "presence", "value1"], ["Milan", "two_seats", "value2"]],
    )
    deploy(s, "Milan", 5)
    supply(s)
    supply(s)
    deploy(s, "Augsburg", 5)
    # Milan (B = king) 10; presence 2 x 2 regions; value-1 seats 2 x 2; Palermo job 0.
    assert s.scores() == [10 + 4 + 4, 0]


def test_final_tie_break_is_most_figures_in_court():
    g = load(players=2, chests="none", jobs=0, rounds=1, actions=1, utility="win")
    s = setup(g)
    supply(s, 1)  # 7 figures in court
    supply(s, 2)  # 8 figures in court
    assert s.scores() == [0, 0]
    assert s.returns() == [0.0, 1.0]


# ----- hidden information --------------------------------------------------------------------


def test_job_cards_are_secret_until_the_end():
    g = load(players=3, chests="none")
    jobs_a = [
        ["Milan", "presence", "value1"],
        ["Augsburg", "nobility", "value2"],
        ["Aachen", "leftmost", "value3"],
    ]
    jobs_b = [jobs_a[0], ["Palermo", "three_seats", "value4"], jobs_a[2]]
    a, b = setup(g, jobs=jobs_a), setup(g, jobs=jobs_b)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(2) == b.observation_string(2)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_resampler_redeals_only_the_opponents_jobs():
    g = load(players=3, chests="none")
    jobs = [
        ["Milan", "presence", "value1"],
        ["Augsburg", "nobility", "value2"],
        ["Aachen", "leftmost", "value3"],
    ]
    s = setup(g, jobs=jobs)
    draws = iter([0.99, 0.0, 0.5, 0.99, 0.2, 0.7])
    r = s.resample_from_infostate(0, lambda: next(draws))
    assert r.information_state_string(0) == s.information_state_string(0)
    mine = sum((r.holdings(p)["jobs"] for p in range(3)), ())
    before = sum((s.holdings(p)["jobs"] for p in range(3)), ())
    assert mine[:3] == before[:3]
    for ty in range(3):
        cards = [mine[p * 3 + ty] for p in range(3)]
        assert len(set(cards)) == 3  # dealt without replacement
    assert mine != before


# ----- region bonuses, B conditions, chest kinds, privilege texts -----------------------------


@pytest.mark.parametrize(
    "region,score,court",
    [
        ("Milan", 10, [3, 2]),  # noble from the province
        ("Augsburg", 9, [5, 1]),  # two envoys from the province
        ("Nijmegen", 8 + 4, [3, 1]),  # 4 VP
        ("Aachen", 8 + 6, [3, 1]),  # the top VP privilege (6 of 4/5/6 at 3 players)
        ("Strasbourg", 7 + 1, [3, 1]),  # 1 VP per region with a seat
        ("Palermo", 6 + 4, [3, 1]),  # 4 VP
    ],
)
def test_each_region_bonus_goes_to_its_majority_holder(region, score, court):
    g = load(players=3, chests="none", jobs=0, rounds=1, actions=1)
    before = ALL[(ALL.index(region) - 1) % 6]
    s = setup(g, a=(region,), king=before, b=["after_king"])
    deploy(s, region, 5)  # one travel figure, the seat's one figure
    supply(s)
    supply(s)
    assert s.scores()[0] == score
    assert view(g, s, "court")[0] == court


def test_b_condition_fewest_chests_scores_the_region_missing_most_chests():
    g = load(players=3, jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Palermo",), king="Milan", b=["fewest_chests"], chests=["brown"] * 18)
    deploy(s, "Augsburg", 5)  # takes the brown chest under the seat
    supply(s, 1)
    supply(s, 2)
    assert s.scores() == [9 + 1, 1, 1]  # Augsburg first place; one brown chest each


def test_b_condition_most_nobles_scores_the_region_with_most_seated_nobles():
    g = load(players=3, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Palermo",), king="Milan", b=["most_nobles"])
    deploy(s, "Augsburg", 5, occupant="envoy")
    deploy(s, "Nijmegen", 5, occupant="noble")
    supply(s)
    assert s.scores() == [0, 8 + 4, 0]


def test_b_condition_most_payment_scores_the_region_with_most_paid_figures():
    g = load(players=3, chests="none", jobs=0, rounds=1, actions=1)
    s = setup(g, a=("Palermo",), king="Augsburg", b=["most_payment"])
    deploy(s, "Augsburg", 2)  # value 3 pays into Augsburg and Nijmegen
    deploy(s, "Nijmegen", 4)  # travel through Augsburg: Augsburg 2, Nijmegen 1
    supply(s)
    assert s.scores() == [9, 0, 0]


@pytest.mark.parametrize("chest,court", [("oE", [7, 1]), ("oN", [6, 2]), ("o2", [6, 1])])
def test_orange_chests_give_figures_or_points_at_once(chest, court):
    g = load(players=3, jobs=0)
    s = setup(g, chests=[chest, "brown", "brown", "brown", "brown"])
    supply(s, 1)
    assert view(g, s, "court")[0] == court
    assert view(g, s, "vp")[0] == (2 if chest == "o2" else 0)


def _take_privilege(game, name, **kw):
    s = setup(game, chests=["purple"] + ["brown"] * 17, **kw)
    supply(s, 1)
    play(s, f"privilege {name}")
    supply(s, 3)
    supply(s, 3)
    return s


def test_treasurer_privilege_scores_a_seat_in_the_kings_region():
    g = load(players=2, jobs=0)
    s = _take_privilege(g, "treasurer", king="Milan")
    deploy(s, "Milan", 3)
    assert view(g, s, "vp")[0] == 1


def test_steward_privilege_scores_court_figures_at_the_end():
    g = load(players=2, jobs=0, rounds=1)
    s = _take_privilege(g, "steward", a=("Strasbourg",), king="Palermo")
    supply(s, 2)  # court 4+2+3 = 9 envoys + 1 noble
    assert view(g, s, "court")[0] == [9, 1]
    assert s.scores()[0] == 10 // 2 + 1  # steward + the brown chest


def test_patron_privilege_scores_every_supply_action():
    g = load(players=2, jobs=0, privileges="red")
    s = _take_privilege(g, "patron")
    supply(s, 2)
    assert view(g, s, "vp")[0] == 2


def test_herald_privilege_makes_every_seat_one_figure_cheaper():
    g = load(players=2, jobs=0, privileges="red")
    s = _take_privilege(g, "herald", king="Milan")
    deploy(s, "Milan", 2)  # value 2 on the two-player side: no further figure
    assert all(row[0] == [0, 0] for row in view(g, s, "payment"))


def test_chest_keeper_privilege_counts_one_more_brown_chest():
    g = load(players=2, jobs=0, privileges="red")
    s = _take_privilege(g, "chest_keeper")
    assert s.scores()[0] == 1  # no brown chest yet: the privilege's chest alone scores 1
    supply(s, 2)  # the brown chest under space 2
    assert s.scores()[0] == 3  # 1 brown + the privilege's chest = 2 -> 3 VP


def test_majordomo_privilege_adds_one_to_majorities_where_seated():
    g = load(players=2, seats=5, jobs=0, privileges="red", rounds=1)
    s = _take_privilege(g, "majordomo", a=("Milan",), king="Palermo", b=["after_king"])
    deploy(s, "Milan", 5)  # P1: 1 seat + 1
    deploy(s, "Milan", 2)  # P2: 1 seat, further left
    supply(s, 4)
    # Without the privilege the 1-1 tie would go to P2's seat further left.
    assert s.scores() == [10 + 3, 5 + 3]  # and two brown chests each


def test_pilgrim_privilege_scores_regions_with_a_seat_at_the_end():
    g = load(players=2, jobs=0, privileges="red", rounds=1)
    s = _take_privilege(g, "pilgrim", a=("Strasbourg",), king="Palermo")
    deploy(s, "Nijmegen", 3)
    assert s.scores()[0] == 2 + 1  # one region with a seat, and the seat's brown chest


def test_refill_skips_chest_spaces_under_occupied_seats():
    g = load(players=3, jobs=0, rounds=2, actions=1)
    s = setup(g, a=("Strasbourg", "Palermo"), king="Milan", chests=["brown"] * 18)
    deploy(s, "Augsburg", 5)  # takes the chest; Augsburg is not scored this round
    deploy(s, "Milan", 5)  # Milan (B = king) is scored and emptied
    supply(s, 1)
    assert s.is_chance_node()
    draw_chests(s)
    chests = view(g, s, "seat_chests")
    assert sum(chests[AUGSBURG][4]) == 0  # still occupied: no new chest
    assert sum(chests[MILAN][4]) == 1  # emptied by the scoring: refilled
    assert sum(view(g, s, "supply_chests")[0]) == 1


def test_final_round_has_no_cleanup_so_scored_seats_count_for_jobs():
    g = load(players=2, chests="none", jobs=1, rounds=1, actions=1)
    s = setup(g, a=("Aachen",), king="Nijmegen", b=["after_king"], jobs=[["Aachen"], ["Milan"]])
    deploy(s, "Aachen", 3)
    supply(s)
    assert s.is_terminal()
    # Aachen's first place, its bonus (the top VP privilege, 6) and the Aachen region job.
    assert s.scores() == [8 + 6 + 6, 0]


# ----- the player's choices the seed leaves open (issue 13) ---------------------------------


def test_short_province_figure_comes_from_the_payment_area_the_player_chooses():
    """The seed: missing figures come from the payment area "de cualquier región". The old
    code took them clockwise from the king (here: Milan) without asking."""
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    deploy(s, "Nijmegen", 5)  # travel: one envoy each into Milan and Augsburg
    set_court(s, 0, 12, 1)  # the province has no envoy of P1 left
    for _ in range(4):
        supply(s, 2)
    supply(s, 4)  # 1 envoy + 1 noble: the noble from the province, the envoy is missing
    assert s.current_player() == 0
    assert legal_names(s) == ["take from Milan", "take from Augsburg"]
    assert "lacks 1 envoy(s) and 0 noble(s)" in s.render_view(0)
    play(s, "take from Augsburg")
    assert [row[0] for row in view(g, s, "payment")][:2] == [[1, 0], [0, 0]]
    assert view(g, s, "court")[0] == [13, 2]
    assert s.current_player() == 2  # the turn is over (snake order: P3 next)


def test_missing_noble_comes_from_the_payment_area_the_player_chooses():
    """A missing noble is taken before envoys, also from the area the player names."""
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    set_court(s, 0, 4, 3)
    deploy(s, "Augsburg", 3, nobles=2)  # travel Milan, seat payment Augsburg: both nobles
    assert [row[0] for row in view(g, s, "payment")][:2] == [[0, 1], [0, 1]]
    assert view(g, s, "court")[0] == [4, 1]  # 4 + first-deployment envoy - occupant
    for _ in range(4):
        supply(s, 2)
    supply(s, 4)  # 1 envoy from the province, 1 noble from a payment area
    assert legal_names(s) == ["take from Milan", "take from Augsburg"]
    play(s, "take from Milan")
    assert [row[0] for row in view(g, s, "payment")][:2] == [[0, 0], [0, 1]]
    assert view(g, s, "court")[0] == [5, 2]


def test_paying_noble_goes_to_the_region_the_player_chooses():
    """The old code always put paying nobles into the last payment slots (here Augsburg)."""
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    play(s, "deploy Milan", "seat 2", "occupy with envoy", "pay 1 noble(s)")
    assert legal_names(s) == ["noble to Milan", "noble to Augsburg"]
    assert "1 paying noble(s) to place" in s.render_view(0)
    play(s, "noble to Milan")
    pay = [row[0] for row in view(g, s, "payment")]
    assert pay[:2] == [[0, 1], [1, 0]]
    assert view(g, s, "court")[0] == [3, 0]
    assert view(g, s, "seats")[MILAN][1] == [1, 0, 0, 0, 0, 0]


def test_paying_nobles_reach_every_split_once_and_ask_only_with_a_choice():
    """Two nobles among three payment regions: C(3, 2) = 3 splits, each by one sequence;
    all-noble or one-region payments ask nothing."""
    g = load(players=3, chests="none", jobs=0)
    s = setup(g, king="Milan")
    set_court(s, 0, 4, 3)
    play(s, "deploy Nijmegen", "seat 2", "occupy with envoy", "pay 2 noble(s)")
    leaves = []

    def walk(state, path):
        names = legal_names(state)
        if state.current_player() != 0 or not names[0].startswith("noble to "):
            leaves.append((tuple(path), str(view(g, state, "payment"))))
            return
        assert len(names) > 1  # a single option is applied without asking
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            walk(child, path + [state.action_to_string(0, a)])

    walk(s, [])
    assert len(leaves) == 3 and len({pay for _, pay in leaves}) == 3
    s2 = setup(g, king="Milan")
    set_court(s2, 0, 4, 3)
    play(s2, "deploy Milan", "seat 2", "occupy with envoy", "pay 2 noble(s)")
    assert s2.current_player() == 1  # both payment slots take nobles: nothing to choose


def test_levy_may_be_used_after_the_action():
    """The seed lets chests be used during the turn besides the action; the old code only
    offered turquoise chests before it, so a levy taken with the action waited a turn."""
    g = load(players=3, jobs=0)
    s = setup(g, chests=["tLevy", "brown", "brown", "brown", "brown"])
    supply(s, 1)  # 2 envoys and the levy chest
    assert s.current_player() == 0
    assert legal_names(s) == ["use levy", "end turn"]
    assert "use a levy now or end the turn" in s.render_view(0)
    play(s, "use levy")
    assert view(g, s, "court")[0] == [8, 1]
    assert s.current_player() == 1
    assert view(g, s, "turquoise")[0] == [0, 0, 0]


def test_new_decision_strings_round_trip_through_string_to_action():
    g = load(players=3, jobs=0)
    s = setup(g, chests=["tLevy", "brown", "brown", "brown", "brown"])
    supply(s, 1)
    g2 = load(players=3, chests="none", jobs=0)
    s2 = setup(g2, king="Milan")
    play(s2, "deploy Milan", "seat 2", "occupy with envoy", "pay 1 noble(s)")
    assert legal_names(s) == ["use levy", "end turn"]
    assert legal_names(s2) == ["noble to Milan", "noble to Augsburg"]
    for state in (s, s2):
        for a in state.legal_actions():
            text = state.action_to_string(state.current_player(), a)
            assert state.string_to_action(text) == a
