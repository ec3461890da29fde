"""Ratings on synthetic results: known order, CI coverage, anchoring, decomposition, warnings."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tournament.ratings.fit import AgentInfo, Games, RatingsError, pairwise, parse_anchor, rate


def simulate(true_elo, sets, rng, players=2, draw_rate=0.0):
    """Round-robin games from a Bradley–Terry (Plackett–Luce for N>2) model.

    Each duplicate set plays every rotation of one line-up; a shared 'deck luck' per set
    shifts one seat, so games in a set are correlated as in real duplicate play.
    """
    k = len(true_elo)
    strength = 10 ** (np.asarray(true_elo) / 400)
    agents, ranks, blocks = [], [], []
    lineups = [tuple(c) for c in __import__("itertools").combinations(range(k), players)]
    for b in range(sets):
        lu = lineups[b % len(lineups)]
        luck = rng.normal(0, 0.3, size=players)  # seat luck of this deck
        for r in range(players):
            seats = [lu[(i + r) % players] for i in range(players)]
            w = strength[seats] * np.exp(luck)
            order, remaining = [], list(range(players))
            while remaining:  # Plackett–Luce draw of the finishing order
                p = w[remaining] / w[remaining].sum()
                pick = remaining[rng.choice(len(remaining), p=p)]
                order.append(pick)
                remaining.remove(pick)
            rk = np.empty(players, dtype=np.int64)
            rk[order] = np.arange(1, players + 1)
            if draw_rate and rng.random() < draw_rate:
                rk[:] = 1
            agents.append(seats)
            ranks.append(rk)
            blocks.append(b)
    g = Games(np.array(agents), np.array(ranks), np.zeros((len(agents), players)), np.array(blocks))
    return [AgentInfo(f"a{i}", f"a{i}") for i in range(k)], [g]


def test_elo_recovers_a_known_order_and_scale():
    true = [0, 100, 200, 400]
    agents, games = simulate(true, 800, np.random.default_rng(1))
    r = rate(agents, games, bootstrap=0)
    assert list(np.argsort(r.elo)) == [0, 1, 2, 3]
    assert r.elo[0] == 0  # lowest anchored at 0 by default (no agent called random)
    np.testing.assert_allclose(r.elo, true, atol=60)


def test_bootstrap_intervals_cover_the_truth():
    true = np.array([0, 60, 120, 200])
    covered, width = 0, []
    trials = 30
    for t in range(trials):
        agents, games = simulate(true, 120, np.random.default_rng(100 + t))
        r = rate(agents, games, bootstrap=60, seed=t)
        # the anchor (lowest = a0 at 0) has a zero-width interval; check the others
        covered += sum(r.ci_low[i] <= true[i] <= r.ci_high[i] for i in range(1, 4))
        width.append(np.mean(r.ci_high[1:] - r.ci_low[1:]))
    coverage = covered / (3 * trials)
    assert coverage >= 0.8, coverage  # nominal 95%; 60 resamples and 30 trials are noisy
    assert 20 < np.mean(width) < 400


def test_n_player_games_decompose_pairwise_with_ties_as_draws():
    g = Games(
        agents=np.array([[0, 1, 2]]),
        ranks=np.array([[1, 2, 2]]),
        scores=np.array([[10.0, 5.0, 5.0]]),
        blocks=np.array([0]),
    )
    blk, a, b, w = pairwise(g, 3)
    results = sorted(zip(a.tolist(), b.tolist(), w.tolist(), strict=True))
    assert results == [(0, 1, 1), (0, 2, 1), (1, 2, 0)]


def test_anchor_option_and_random_default():
    agents, games = simulate([0, 300], 200, np.random.default_rng(3))
    agents[1] = AgentInfo("a1", "random", "random")
    r = rate(agents, games, bootstrap=20)
    assert r.elo[1] == 0 and r.elo[0] < -150 and r.anchor.startswith("random")
    r2 = rate(agents, games, bootstrap=20, anchor=("a0", 1000.0))
    assert r2.elo[0] == 1000 and r2.ci_low[0] == r2.ci_high[0] == 1000
    assert r2.elo[1] - r2.elo[0] == pytest.approx(r.elo[1] - r.elo[0])
    with pytest.raises(RatingsError, match="nobody"):
        rate(agents, games, anchor=("nobody", 0.0))
    assert parse_anchor("mcts@10=1500") == ("mcts@10", 1500.0)
    with pytest.raises(RatingsError, match="AGENT=ELO"):
        parse_anchor("1500")


def test_disconnected_comparison_graph_is_warned():
    a1, g1 = simulate([0, 100], 50, np.random.default_rng(4))
    g2 = Games(g1[0].agents + 2, g1[0].ranks, g1[0].scores, g1[0].blocks + 50)
    agents = [AgentInfo(f"a{i}", f"a{i}") for i in range(4)]
    r = rate(agents, [g1[0], g2], bootstrap=0)
    assert len(r.components) == 2
    assert any("disconnected" in w for w in r.warnings)
    assert r.alpharank is None  # pairs that never met


def test_crosstable_los_games_and_alpharank():
    agents, games = simulate([0, 150, 300], 300, np.random.default_rng(5), players=3)
    r = rate(agents, games, bootstrap=0)
    assert r.games.tolist() == [300 * 3] * 3  # every agent is in every 3-player game
    assert r.wins[2, 0] > r.wins[0, 2]
    assert r.los[2, 0] > 0.99 and r.los[0, 2] < 0.01 and math.isnan(r.los[0, 0])
    assert r.alpharank is not None and int(np.argmax(r.alpharank)) == 2
    assert abs(r.alpharank.sum() - 1) < 1e-9
    seats = {s["seat"]: s for s in r.seats}
    assert sum(s["win_rate"] for s in seats.values()) == pytest.approx(1.0)


def test_no_rated_games_is_an_error():
    agents = [AgentInfo("a", "a"), AgentInfo("b", "b")]
    g = Games(np.array([[0, 0]]), np.array([[1, 2]]), np.zeros((1, 2)), np.array([0]))
    with pytest.raises(RatingsError, match="no rated games"):
        rate(agents, [g])
