"""Shared game toolkit: decks, utilities, majorities, rules data, observers."""

from __future__ import annotations

import math

import numpy as np
import pyspiel
import pytest

from spiel_games.common import deck as D
from spiel_games.common.majority import majority_awards
from spiel_games.common.observer import Layout, Piece, PieceObserver
from spiel_games.common.rules_data import parse_rules
from spiel_games.common.utility import returns_from_keys, utility_bounds


def test_draw_outcomes_are_exact_and_aggregated_by_type():
    assert D.draw_outcomes([2, 0, 1, 5]) == [(0, 2 / 8), (2, 1 / 8), (3, 5 / 8)]


def test_draw_changes_only_the_count_vector():
    counts = [2, 0, 1]
    D.draw(counts, 0)
    assert counts == [1, 0, 1]
    with pytest.raises(ValueError):
        D.draw(counts, 1)


def test_drawing_from_an_empty_deck_raises():
    with pytest.raises(ValueError):
        D.draw_outcomes([0, 0])


def test_draw_many_outcomes_are_multisets_with_hypergeometric_probabilities():
    out = dict(D.draw_many_outcomes([2, 1], 2))
    assert out == {(0, 0): pytest.approx(1 / 3), (0, 1): pytest.approx(2 / 3)}
    assert math.isclose(sum(p for _, p in D.draw_many_outcomes([3, 2, 4], 3)), 1.0)


def test_rank_utility_is_zero_sum_and_shares_ties():
    r = returns_from_keys("rank", [30, 10, 20, 20])
    assert r == [1.0, -1.0, 0.0, 0.0]
    assert sum(r) == 0


def test_win_utility_splits_among_tied_winners():
    assert returns_from_keys("win", [5, 9, 9]) == [0.0, 0.5, 0.5]


def test_score_utility_returns_raw_scores_and_bounds_follow_mode():
    assert returns_from_keys("score", [3, -2]) == [3.0, -2.0]
    assert utility_bounds("rank", -50, 80) == (-1.0, 1.0, 0.0)
    assert utility_bounds("win", -50, 80) == (0.0, 1.0, 1.0)
    assert utility_bounds("score", -50, 80) == (-50.0, 80.0, 0.0)
    with pytest.raises(ValueError):
        utility_bounds("elo", 0, 1)


def test_tie_break_keys_order_tied_scores():
    assert returns_from_keys("rank", [10, 10], keys=[(10, 1), (10, 2)]) == [-1.0, 1.0]


def test_majority_first_second_third():
    assert majority_awards([5, 3, 1, 0], [10, 6, 3]) == [10, 6, 3, 0]


def test_majority_share_splits_the_places_spanned():
    assert majority_awards([4, 4, 1], [10, 6, 3]) == [8, 8, 3]
    assert majority_awards([4, 4, 1], [10, 5, 3], round_down=True) == [7, 7, 3]


def test_majority_all_full_and_all_lower():
    assert majority_awards([4, 4, 1], [10, 6, 3], tie="all_full") == [10, 10, 3]
    assert majority_awards([4, 4, 1], [10, 6, 3], tie="all_lower") == [6, 6, 3]


def test_majority_none_lets_the_next_player_move_up():
    assert majority_awards([4, 4, 1], [10, 6, 3], tie="none") == [0, 0, 10]


def test_majority_order_breaks_ties_and_zero_never_scores():
    assert majority_awards([2, 2, 0], [10, 6, 3], tie="order", order=[0, 1, 2]) == [6, 10, 0]
    with pytest.raises(ValueError):
        majority_awards([1], [1], tie="coin")


def test_rules_data_requires_sources_and_reasons_for_assumptions():
    data = parse_rules(
        'a = { value = 3, source = "rulebook p.2" }\n'
        '[b]\nc = { value = [1, 2], source = "assumed", reason = "not printed" }\n'
    )
    assert data["a"] == 3 and data["b.c"] == [1, 2]
    assert data.assumptions() == ["b.c = [1, 2]: not printed"]
    with pytest.raises(ValueError, match="no source"):
        parse_rules("a = { value = 3 }")
    with pytest.raises(ValueError, match="reason"):
        parse_rules('a = { value = 3, source = "assumed" }')
    with pytest.raises(ValueError):
        parse_rules("a = 3")


def test_observer_pieces_feed_string_and_tensor_with_visibility_guards():
    layout = Layout([Piece("public", (2,)), Piece("secret", (2, 2))])

    def write(state, player, view, out):
        out("public", state["public"])
        for owner in range(2):
            if view.sees(owner, player):
                out("secret", state["secret"][owner], text=f"{owner}:{state['secret'][owner]}")

    state = {"public": [1, 2], "secret": [[3, 4], [5, 6]]}
    obs = PieceObserver(pyspiel.IIGObservationType(perfect_recall=False), layout, write)
    obs.set_from(state, 0)
    assert np.array_equal(obs.tensor, [1, 2, 3, 4, 0, 0])
    assert obs.string_from(state, 0) == "public:1,2 secret:0:[3, 4]"
    pub = PieceObserver(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
        layout,
        write,
    )
    assert pub.string_from(state, 0) == "public:1,2"
