"""Rococo evaluation: what the rounds left will turn into prestige is valued."""

import random

import numpy as np
import pyspiel
import pytest

from spiel_games.rococo import evaluation as V
from spiel_games.rococo import rules as R
from spiel_games.rococo import scoring as S
from spiel_games.rococo.heuristic import heuristic_action as heuristic
from spiel_games.rococo.scenario import card, give, select_all, start


def _round_one():
    s = start(3, start_player=0)
    select_all(s)
    return s


def _silkiest_tile() -> int:
    return max(range(R.NUM_TILES), key=lambda t: sum(R.TILES[t].bales))


def test_materials_for_a_dress_in_hand_are_valued():
    s = _round_one()
    before = V.estimate(s)
    give(s, 0, tiles={_silkiest_tile(): 2})
    after = V.estimate(s)
    assert after[0] > before[0] + 2.0
    assert after[1:] == before[1:]


def test_livre_are_worth_more_than_their_final_conversion_while_rounds_remain():
    s = _round_one()
    give(s, 0, money=30)
    give(s, 1, money=10)
    est, now = V.estimate(s), s.scores()
    # 20 Livre more is 2 prestige at the final conversion, more while they can be spent
    assert now[0] - now[1] == 2
    assert est[0] - est[1] > 2.5


def test_a_master_in_the_deck_is_worth_more_than_a_journeyman_and_an_apprentice():
    s = _round_one()
    give(s, 0, supply={card("base Master"): 1}, discard={}, hand={})
    give(s, 1, supply={card("base Journeyman"): 1}, discard={}, hand={})
    give(s, 2, supply={card("base Apprentice (2 Livre)"): 1}, discard={}, hand={})
    est, now = V.estimate(s), s.scores()
    assert now[0] == now[1] == now[2]
    assert est[0] > est[1] >= est[2]


def test_an_employee_is_worth_less_with_fewer_rounds_left():
    s = _round_one()
    give(s, 0, supply={card("base Master"): 2}, discard={}, hand={})
    give(s, 1, supply={}, discard={}, hand={})
    early = V.estimate(s)
    s.own_core().round = s._s.cfg.rounds
    late = V.estimate(s)
    assert early[0] - early[1] > late[0] - late[1] > 0


def test_estimate_is_the_final_score_once_the_game_is_over():
    s = pyspiel.load_game("python_rococo(players=3)").new_initial_state()
    rng = random.Random(3)
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert V.estimate(s) == [float(x) for x in s.scores()]


def test_the_spread_shrinks_as_the_game_goes_on():
    s = _round_one()
    early = V.spread(s)
    s.own_core().round = s._s.cfg.rounds
    assert V.spread(s) < early


@pytest.mark.parametrize(
    "players,options",
    [(2, ""), (3, ""), (4, ""), (3, ",festivity=true,fancy=true"), (4, ",jewelry=true")],
)
def test_the_fast_final_scoring_agrees_with_the_rulebook_scoring(players, options):
    """evaluation.final_scores (one pass, used at every rollout cut-off) must give the
    scores of scoring.scores (the rulebook-ordered breakdown) at every position, with the
    expansions too (Festivity prestige once, jewellery prestige)."""
    game = pyspiel.load_game(f"python_rococo(players={players}{options})")
    rng = random.Random(players)
    np_rng = np.random.default_rng(players)
    for heuristic_play in (False, True):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(acts, probs)[0])
                continue
            assert V.final_scores(s._s) == S.scores(s._s)
            a = heuristic(s, np_rng) if heuristic_play else rng.choice(s.legal_actions())
            s.apply_action(a)
        assert V.final_scores(s._s) == S.scores(s._s)
