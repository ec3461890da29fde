"""Bruxelles 1893 evaluation: majorities in progress, goods and tracks are valued."""

import random

import pyspiel
import pytest

from spiel_games.bruxelles import evaluation as V
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.scenario import put, start


def _weight(name: str) -> float:
    return V.WEIGHTS[V.FEATURES.index(name)]


def test_a_full_shield_led_on_the_board_is_valued_before_resolution():
    s = start(3)
    before = V.estimate(s)
    c = s.own_core()
    for sp in R.shields(c.cfg.board)[0]:
        c.occ[sp] = 0
    after = V.estimate(s)
    assert after[0] - before[0] >= R.HALL[c.hall[0]]
    assert after[1:] == before[1:]


def test_leading_a_column_on_bids_is_worth_its_bonus_card():
    s = start(3)
    c = s.own_core()
    c.strip_bonus = (0,) + c.strip_bonus[1:]
    before = V.estimate(s)
    c.occ[0] = 1
    c.bids[0] = 2
    after = V.estimate(s)
    assert after[1] - before[1] == pytest.approx(_weight("column_lead"))
    assert after[1] - before[1] > 2.0  # about a bonus card's worth


def test_cubes_toward_the_next_building_are_valued():
    s = start(3)
    put(s, "cubes", 0, (2, 1, 0, 0))
    put(s, "cubes", 1, (0, 0, 0, 0))
    est, now = V.estimate(s), s.scores()
    assert est[0] - est[1] > now[0] - now[1]


def test_a_higher_architect_level_is_worth_more_with_buildings_to_come():
    s = start(3)
    put(s, "arch", 0, 4)
    est, now = V.estimate(s), s.scores()
    # nothing built yet: the level scores nothing now, but multiplies what is to come
    assert est[0] - est[1] > now[0] - now[1]


def test_estimate_is_the_final_score_once_the_game_is_over():
    s = pyspiel.load_game("python_bruxelles(players=3)").new_initial_state()
    rng = random.Random(4)
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert V.estimate(s) == [float(x) for x in s.scores()]


def test_works_of_art_are_valued_for_their_sale_and_the_end_row():
    s = start(3)
    put(s, "works", 0, (1, 1, 0, 0, 0))
    est, now = V.estimate(s), s.scores()
    assert est[0] - est[1] > now[0] - now[1] + 2.0


def test_a_higher_city_hall_level_is_worth_more_with_rounds_left():
    s = start(3)
    low = V.estimate(s)
    put(s, "hall", 0, 3)
    high = V.estimate(s)
    assert high[0] > low[0]
    assert high[1:] == low[1:]


def test_upright_figures_the_palace_allows_are_valued():
    s = start(3)
    c = s.own_core()
    put(s, "palace", 0, len(R.PALACE) - 1)
    put(s, "kept", 0, 0b11)
    put(s, "rot", 0, 0)
    put(s, "money", 0, c.money[1] + 20)  # pays for the figures at the end
    put(s, "money", 1, c.money[1] + 20)
    est, now = V.estimate(s), s.scores()
    assert est[0] - est[1] > now[0] - now[1]


def test_the_spread_shrinks_as_the_game_goes_on():
    s = start(3)
    early = V.spread(s)
    s.own_core().round = s.own_core().cfg.rounds
    assert V.spread(s) < early
