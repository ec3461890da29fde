"""Scenario tests for the player's choices the seed leaves open (issue 13): which payment
area gives a missing figure, where paying nobles go, a levy after the action."""

from __future__ import annotations

import spiel_games  # noqa: F401  (registers the games)
from spiel_games.staufer.scenario import (
    deploy,
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
