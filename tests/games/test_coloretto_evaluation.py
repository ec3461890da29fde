"""Coloretto evaluation: a player still to take a row this round is credited with one."""

import random

import pyspiel
import pytest

from spiel_games.coloretto import evaluation as V
from spiel_games.coloretto.heuristic import row_gain


def _first_turn():
    s = pyspiel.load_game("python_coloretto(players=3)").new_initial_state()
    rng = random.Random(0)
    while s.is_chance_node():
        acts, probs = zip(*s.chance_outcomes(), strict=True)
        s.apply_action(rng.choices(acts, probs)[0])
    return s


def test_a_player_yet_to_take_a_row_is_credited_with_part_of_the_best_row():
    s = _first_turn()
    c = s._s
    c.rows = ((0, 0, 0),) + tuple(() for _ in c.rows[1:])  # three cards of colour 0 on the table
    c.done = 0b010  # player 1 has already taken a row this round
    est, now = V.estimate(s), s.scores()
    gain = row_gain(c.cfg, c.coll[0], c.rows[0])
    assert gain > 0
    x = V.stage(s)
    w_score, w_row = V.END[0] + V.SLOPE[0] * x, V.END[1] + V.SLOPE[1] * x
    assert 0 < w_row < 1
    assert est[0] == pytest.approx(w_score * now[0] + w_row * gain)
    assert est[1] == pytest.approx(w_score * now[1])


def test_an_empty_table_adds_nothing():
    s = _first_turn()
    c = s._s
    c.rows = tuple(() for _ in c.rows)
    w_score = V.END[0] + V.SLOPE[0] * V.stage(s)
    assert V.estimate(s) == pytest.approx([w_score * x for x in s.scores()])


def test_a_lead_counts_for_more_as_the_deck_empties():
    s = _first_turn()
    c = s._s
    c.rows = tuple(() for _ in c.rows)
    c.coll = (tuple(3 if i == 0 else 0 for i in range(len(c.coll[0]))),) + c.coll[1:]
    early = V.estimate(s)
    c.deck_size = 1
    late = V.estimate(s)
    assert late[0] - late[1] > early[0] - early[1] > 0


def test_the_spread_shrinks_with_the_deck():
    s = _first_turn()
    early = V.spread(s)
    s._s.deck_size = 0
    assert V.spread(s) < early
