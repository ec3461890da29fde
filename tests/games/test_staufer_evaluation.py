"""Die Staufer evaluation: majorities in the regions this round scores are valued."""

import random

import pyspiel

from spiel_games.staufer import evaluation as V
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S


def _play(moves: int, seed: int = 1):
    s = pyspiel.load_game("python_staufer(players=3)").new_initial_state()
    rng = random.Random(seed)
    done = 0
    while not s.is_terminal() and (s.is_chance_node() or done < moves):
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            done += 1
    return s


def test_seats_in_a_region_scored_this_round_count_toward_its_award():
    for moves in (5, 15, 30):
        s = _play(moves)
        c = s._s
        expected = [float(x) for x in s.scores()]
        for pos in S.scored_positions(c):
            counts, left = S.majority_counts(c, pos)
            if any(counts):
                awards = S.region_awards(counts, left, R.POINT_TILES[c.tile_at[pos]])
                for p, a in enumerate(awards):
                    expected[p] += V.PENDING_WEIGHT * a
        assert V.estimate(s) == expected


def test_estimate_is_the_final_score_once_the_game_is_over():
    s = _play(10_000)
    assert s.is_terminal()
    assert V.estimate(s) == [float(x) for x in s.scores()]
