"""Plackett-Luce ratings: the fit recovers known strengths and seat advantages, equals the
pairwise fit where the two models coincide, and the likelihood and its gradient agree."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import check_grad

from tournament.ratings.fit import AgentInfo, Games, rate
from tournament.ratings.plackett_luce import (
    ELO,
    Model,
    fit_plackett_luce,
    order_log_probability,
    patterns,
)


def pl_games(true_elo, seat_elo, games, rng, players=3, sets_of=3):
    """Games whose finishing orders are drawn from Plackett-Luce (Gumbel trick)."""
    k = len(true_elo)
    strength = np.asarray(true_elo) / ELO
    seat = np.asarray(seat_elo) / ELO
    agents = np.array([rng.choice(k, players, replace=False) for _ in range(games)])
    utility = strength[agents] + seat[None, :] + rng.gumbel(size=agents.shape)
    ranks = np.argsort(np.argsort(-utility, axis=1), axis=1) + 1
    blocks = np.arange(games) // sets_of
    return Games(agents, ranks, np.zeros(agents.shape), blocks), int(blocks.max()) + 1


def centred(x):
    x = np.asarray(x, float)
    return x - x.mean()


def test_the_fit_recovers_known_strengths_and_seat_terms():
    true = [0.0, 60.0, 120.0, 200.0, 350.0]
    seat = [40.0, 0.0, -40.0]
    g, sets = pl_games(true, seat, 9000, np.random.default_rng(7))
    pl = fit_plackett_luce([g], 5, sets, lambda e: e - e.mean(), bootstrap=40, seed=1)
    np.testing.assert_allclose(pl.elo, centred(true), atol=12)
    np.testing.assert_allclose([s["elo"] for s in pl.seats], centred(seat), atol=8)
    covered = sum(
        lo <= t <= hi for lo, t, hi in zip(pl.ci_low, centred(true), pl.ci_high, strict=True)
    )
    assert covered >= 4  # 95% intervals, five agents
    assert all(s["ci_low"] <= s["elo"] <= s["ci_high"] for s in pl.seats)


def test_the_gradient_is_the_likelihoods():
    g, sets = pl_games([0, 50, 100, 300], [30, 0, -30], 600, np.random.default_rng(2))
    g.ranks[:20, 1:] = 2  # ties: Breslow's rule
    pats = patterns([g], sets)
    model = Model(pats, 4)
    w = [p.weights() for p in pats]
    x = np.random.default_rng(3).normal(size=model.dim) * 0.3
    assert check_grad(lambda v: model(v, w)[0], lambda v: model(v, w)[1], x) < 1e-3


def test_two_player_games_without_seat_advantage_rate_as_the_pairwise_elo():
    """With two players and no seat advantage, PL is Bradley-Terry: the two fits agree."""
    g, sets = pl_games([0, 80, 160, 320], [0, 0], 4000, np.random.default_rng(4), players=2)
    r = rate([AgentInfo(f"a{i}", f"a{i}") for i in range(4)], [g], bootstrap=0)
    assert r.plackett_luce is not None
    np.testing.assert_allclose(r.plackett_luce.elo, r.elo, atol=3)


def test_order_probabilities_sum_to_one():
    """Over every finishing order of three players, the probabilities sum to 1."""
    import itertools

    strengths = np.array([0.3, -0.2, 0.9])
    seats = np.array([0.1, 0.0, -0.1])
    orders = list(itertools.permutations(range(3)))
    agents = np.tile([0, 1, 2], (6, 1))
    ranks = np.array([np.argsort(o) + 1 for o in orders])
    p = np.exp(order_log_probability(agents, ranks, strengths, seats))
    assert p.sum() == pytest.approx(1.0)


def test_a_seat_that_won_every_game_keeps_a_finite_term():
    """Was: the seat terms had no prior, so a seat that won every game of a small table
    (or of a bootstrap resample) ran off to where the optimiser stopped (seat 2 at +291,
    interval -2376 .. +3276 on two duplicate sets). Now a virtual 0.01 win each way
    between seats keeps it finite, as the agents' prior keeps a perfect record finite."""
    rng = np.random.default_rng(5)
    agents = np.array([rng.permutation(3) for _ in range(12)])
    ranks = np.tile([2, 1, 3], (12, 1))  # seat 2 always first, seat 3 always last
    g = Games(agents, ranks, np.zeros(agents.shape), np.arange(12) // 6)
    model = Model(patterns([g], 2), 3)
    gammas = model.split(model.fit([p.weights() for p in model.pats]))[1][0] * ELO
    assert gammas[1] > gammas[0] > gammas[2]
    gap = gammas[1] - gammas[2]
    assert 500 < gap < 4000  # decided by the prior: large, finite
    pl = fit_plackett_luce([g], 3, 2, lambda e: e - e.mean())
    assert not any(s["measured"] for s in pl.seats)  # the prior's: reported without a value
