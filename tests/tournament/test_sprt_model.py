"""The SPRT's statistics against Wald's formulas and closed forms, on synthetic streams."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from tournament.sprt.estimate import Outcome, lower_by, stopped_estimate, survive_above, upper_by
from tournament.sprt.gsprt import (
    PRESETS,
    Bounds,
    SprtError,
    Tally,
    constrained_mle,
    elo_to_score,
    llr,
    score_to_elo,
    wald,
    walk,
)

VALUES = np.linspace(0.0, 1.0, 13)  # a 3-player set: 12 (A, B) pairs


def set_scores(elo: float) -> np.ndarray:
    """A set-score distribution with the mean of ``elo``: twelve pairs, binomial."""
    return binom.pmf(np.arange(13), 12, elo_to_score(elo))


def runs(elo: float, bounds: Bounds, count: int, seed: int):
    rng = np.random.default_rng(seed)
    p = set_scores(elo)
    out = []
    for _ in range(count):
        xs = rng.choice(VALUES, size=4000, p=p)
        out.append((walk(xs, bounds)[-1], xs))
    return out


def test_elo_and_score_are_inverse():
    for elo in (-300.0, -20.0, 0.0, 7.5, 400.0):
        assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo)
    assert elo_to_score(0.0) == 0.5


def test_on_win_loss_sets_the_llr_is_walds():
    """With two values only, the constrained distribution is the Bernoulli with that mean,
    so the GSPRT's LLR is the classical SPRT's: W log(s1/s0) + L log((1-s1)/(1-s0)) (up to
    the pseudo-counts)."""
    s0, s1 = elo_to_score(0.0), elo_to_score(30.0)
    xs = [1.0] * 37 + [0.0] * 29
    exact = 37 * math.log(s1 / s0) + 29 * math.log((1 - s1) / (1 - s0))
    assert llr(xs, s0, s1) == pytest.approx(exact, abs=1e-3)


def test_the_constrained_distribution_has_the_asked_mean_and_beats_any_other():
    values = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    weights = np.array([1.0, 4.0, 7.0, 3.0, 1.0])
    p = constrained_mle(values, weights, 0.55)
    assert np.sum(p * values) == pytest.approx(0.55)
    best = np.sum(weights * np.log(p))
    # directions that keep both the total and the mean: orthogonal to 1 and to the values
    basis = np.linalg.svd(np.vstack([np.ones(5), values]))[2][2:]
    rng = np.random.default_rng(0)
    for _ in range(200):
        q = p + 0.05 * rng.standard_normal(3) @ basis
        if (q > 0).all():
            assert np.sum(q * values) == pytest.approx(0.55)
            assert np.sum(weights * np.log(q)) < best


def test_walds_bounds_and_presets():
    b = Bounds(*PRESETS["gain"])
    assert b.lower == pytest.approx(math.log(0.05 / 0.95))
    assert b.upper == pytest.approx(math.log(0.95 / 0.05))
    with pytest.raises(SprtError, match="elo0 must be below"):
        Bounds(5.0, 0.0)
    with pytest.raises(SprtError, match="alpha"):
        Bounds(0.0, 5.0, alpha=0.7)


def test_walds_oc_at_the_hypotheses_is_alpha_and_one_minus_beta():
    """Wald's operating characteristic at the true distributions of H0 and H1 (the
    projections of one distribution on the two means) is alpha and 1 - beta."""
    b = Bounds(0.0, 20.0, alpha=0.05, beta=0.1)
    s0, s1 = b.scores()
    base = set_scores(10.0)
    p0 = constrained_mle(VALUES, base, s0)
    p1 = constrained_mle(VALUES, base, s1)
    assert wald(p0, VALUES, b, s0, s1)[0] == pytest.approx(0.05, abs=1e-3)
    assert wald(p1, VALUES, b, s0, s1)[0] == pytest.approx(0.9, abs=1e-3)


@pytest.mark.parametrize("elo", [0.0, 20.0, 40.0])
def test_simulated_tests_match_walds_oc_and_expected_length(elo):
    """200 synthetic tests per true Elo: the share that accepts H1 is Wald's OC within
    sampling error, and the mean number of sets is within [0.9, 1.3] of Wald's expected
    sample number (the walk overshoots the bounds, which Wald's formula ignores)."""
    b = Bounds(0.0, 20.0)
    s0, s1 = b.scores()
    p_h1, expected = wald(set_scores(elo), VALUES, b, s0, s1)
    done = runs(elo, b, 200, seed=int(elo) + 1)
    share = np.mean([s.verdict == "H1" for s, _ in done])
    mean_sets = np.mean([s.sets for s, _ in done])
    se = math.sqrt(max(p_h1 * (1 - p_h1), 0.01) / 200)
    assert abs(share - p_h1) <= 3 * se + 0.01
    assert 0.9 <= mean_sets / expected <= 1.3


def test_an_a_a_test_rarely_accepts_h1():
    """A against itself (true Elo 0 = elo0): H1 in at most alpha plus two standard errors
    of 300 runs."""
    done = runs(0.0, Bounds(0.0, 20.0), 300, seed=99)
    share = np.mean([s.verdict == "H1" for s, _ in done])
    assert share <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 300)


def test_max_sets_ends_inconclusive():
    steps = walk([0.5] * 5 + [0.52] * 5, Bounds(0.0, 20.0), max_sets=6)
    assert [s.verdict for s in steps][-1] == "inconclusive" and len(steps) == 6


def test_identical_sets_lean_to_h0():
    """Two identical agents score exactly 1/2 in every duplicate set: the pseudo-counts
    keep the LLR finite and it falls steadily to H0."""
    steps = walk([0.5] * 500, Bounds(0.0, 20.0))
    assert steps[-1].verdict == "H0" and all(math.isfinite(s.llr) for s in steps)


# ---- the Brownian approximation behind the estimate at the stop -------------------------


@pytest.mark.parametrize("m", [-0.3, 0.0, 0.07, 0.5])
def test_exit_probabilities_match_the_closed_form(m):
    x0, w = 3.0, 8.0
    a, b = -x0, w - x0
    if m == 0:
        expected = -a / (b - a)
    else:
        expected = (1 - math.exp(-2 * m * a)) / (math.exp(-2 * m * b) - math.exp(-2 * m * a))
    assert upper_by(1e6, m, x0, w) == pytest.approx(expected, abs=1e-9)
    t = 20.0
    total = upper_by(t, m, x0, w) + lower_by(t, m, x0, w) + survive_above(t, 0.0, m, x0, w)
    assert total == pytest.approx(1.0, abs=1e-9)


def test_exit_probabilities_match_a_simulated_walk():
    rng = np.random.default_rng(3)
    m, x0, w, t, dt, n = 0.1, 3.0, 6.0, 20.0, 0.005, 6000
    x = np.full(n, x0)
    alive = np.ones(n, bool)
    up = np.zeros(n, bool)
    for _ in range(int(t / dt)):
        x[alive] += m * dt + math.sqrt(dt) * rng.standard_normal(alive.sum())
        hit_up, hit_low = alive & (x >= w), alive & (x <= 0)
        up |= hit_up
        alive &= ~(hit_up | hit_low)
    assert up.mean() == pytest.approx(upper_by(t, m, x0, w), abs=0.025)
    assert (alive & (x >= 4)).mean() == pytest.approx(survive_above(t, 4, m, x0, w), abs=0.01)


def test_the_estimate_at_the_stop_is_median_unbiased():
    """Stopped tests over-state the gap when they stop on H1: the plain mean of the sets is
    above the truth in most runs; the estimate at the stop is above it in about half."""
    b = Bounds(0.0, 20.0)
    s0, s1 = b.scores()
    truth = elo_to_score(30.0)
    above_plain = above_est = 0
    done = runs(30.0, b, 120, seed=5)
    for st, xs in done:
        tally = Tally(xs[: st.sets])
        values, weights = tally.arrays()
        est = stopped_estimate(
            Outcome(st.verdict, st.sets, st.llr), values, weights, s0, s1, b.lower, b.upper, 0
        )
        assert est.low <= est.score <= est.high
        above_plain += tally.mean_var()[0] > truth
        above_est += est.score > truth
    assert above_plain / len(done) > 0.6
    assert 0.35 <= above_est / len(done) <= 0.65


def test_normalized_elo_scales_with_the_spread_per_game():
    """fishtest's normalized Elo: nElo = (s - 1/2) / sigma_per_game * 800 / ln 10, a set
    counting as its games."""
    b = Bounds(0.0, 5.0, model="normalized")
    tally = Tally([0.25, 0.5, 0.75] * 30)
    sigma = tally.sigma_per_game(6)
    assert sigma == pytest.approx(math.sqrt(tally.mean_var()[1] * 6))
    s0, s1 = b.scores(sigma)
    assert s0 == 0.5 and s1 == pytest.approx(0.5 + 5.0 * sigma * math.log(10) / 800)
    assert b.to_elo(s1, sigma) == pytest.approx(5.0)
