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
        pending = [0.0] * 3
        for pos in S.scored_positions(c):
            counts, left = S.majority_counts(c, pos)
            if any(counts):
                awards = S.region_awards(counts, left, R.POINT_TILES[c.tile_at[pos]])
                for p, a in enumerate(awards):
                    pending[p] += a
        assert [f[1] for f in V.features(s)] == pending
        if any(pending):
            w = V.weights(s)
            est = V.estimate(s)
            rest = [e - w[1] * x for e, x in zip(est, pending, strict=True)]
            assert max(e - r for e, r in zip(est, rest, strict=True)) > 0


def _feature_gain(name: str, delta: int, moves: int = 15) -> tuple[list[float], list[float]]:
    s = _play(moves)
    before = V.estimate(s)
    c = s._s
    t = c.t
    slot = {
        "court_envoys": t.court,
        "court_nobles": t.court + 1,
        "province_envoys": t.prov,
        "province_nobles": t.prov + 1,
        "chests": t.tq,
    }[name]
    c.v[slot] += delta  # player 0's
    return before, V.estimate(s)


def test_figures_at_court_are_valued_and_a_noble_above_an_envoy():
    before, envoy = _feature_gain("court_envoys", 1)
    _, noble = _feature_gain("court_nobles", 1)
    assert envoy[0] >= before[0]
    assert noble[0] > envoy[0]
    assert envoy[1:] == before[1:]


def test_figures_in_the_province_and_chests_are_never_a_loss():
    for name in ("province_envoys", "province_nobles", "chests"):
        before, after = _feature_gain(name, 1)
        assert after[0] >= before[0]


def test_the_spread_shrinks_as_the_game_goes_on():
    early = V.spread(_play(3))
    late = V.spread(_play(70))
    assert late < early


def test_estimate_is_the_final_score_once_the_game_is_over():
    s = _play(10_000)
    assert s.is_terminal()
    assert V.estimate(s) == [float(x) for x in s.scores()]
