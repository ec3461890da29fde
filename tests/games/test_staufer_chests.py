"""Scenario tests for Die Staufer's chests, privileges, region bonuses, B conditions, the end
of the game and its hidden information: one rule each, on scripted boards."""

from __future__ import annotations

import pytest

import spiel_games  # noqa: F401  (registers the games)
from spiel_games.staufer.scenario import (
    REGIONS as ALL,
)
from spiel_games.staufer.scenario import (
    deploy,
    draw_chests,
    load,
    play,
    setup,
    supply,
    view,
)
from spiel_games.staufer.scenario import (
    legal_strings as legal_names,
)

MILAN, AUGSBURG, NIJMEGEN, AACHEN, STRASBOURG, PALERMO = range(6)  # board positions


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
