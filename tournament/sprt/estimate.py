"""The Elo difference when an SPRT stops, corrected for the early stop.

A test that stops as soon as the evidence suffices over-states the difference: the runs that
happen to start lucky stop early and high. fishtest reports a median-unbiased estimate
instead, and so does this module, by the same route:

- the GSPRT's log-likelihood ratio after ``n`` sets is close to a Brownian motion in ``n``
  whose drift and variance per set are those of the LLR's increment ``log(p1(x) / p0(x))``
  when the sets follow the observed distribution tilted to a candidate mean ``s``;
- the discrete walk jumps over a bound; Siegmund's correction moves each bound outwards by
  ``0.583`` standard deviations of one step (``OVERSHOOT``), the bound a continuous path
  with the same stopping law would have;
- outcomes are ordered from most to least favourable to A (stagewise ordering): H1 early,
  H1 late, inconclusive with a high LLR, inconclusive with a low one, H0 late, H0 early;
- the estimate is the ``s`` under which the observed outcome is the median outcome, and the
  95% interval's ends the ``s`` under which it is the 2.5% or 97.5% quantile.

The probabilities come from the method of images for a Brownian motion between two
absorbing bounds (first-passage laws as sums of normal distribution functions), summed in
logarithms so that nothing overflows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr, logsumexp
from scipy.stats import t as t_dist

from tournament.sprt.gsprt import PSEUDO, constrained_mle

OVERSHOOT = 0.5826  # Siegmund: -zeta(1/2) / sqrt(2 pi), expected overshoot per step SD


def _log_pass(d: float, m: float, t: float) -> float:
    """log P(a Brownian motion with drift m, unit variance, from 0 reaches d > 0 by time t)."""
    r = math.sqrt(t)
    return float(np.logaddexp(log_ndtr((m * t - d) / r), 2.0 * m * d + log_ndtr((-m * t - d) / r)))


def _images(w: float, t: float) -> range:
    k = int(math.ceil(4.0 * math.sqrt(t) / w)) + 3
    return range(-k, k + 1)


def upper_by(t: float, m: float, x0: float, w: float) -> float:
    """P(exit through the upper bound before time t) for a Brownian motion with drift m and
    unit variance started at x0 between absorbing bounds 0 and w."""
    if t <= 0:
        return 0.0
    logs, signs = [], []
    for k in _images(w, t):
        d = w - x0 + 2 * k * w
        if d == 0:
            continue
        # image term: exp(-2 k w m) * sign(d) * P(pass |d| with drift sign(d) m by t)
        logs.append(-2.0 * k * w * m + _log_pass(abs(d), math.copysign(1.0, d) * m, t))
        signs.append(math.copysign(1.0, d))
    value, sign = logsumexp(logs, b=signs, return_sign=True)
    return float(min(max(sign * math.exp(value), 0.0), 1.0))


def lower_by(t: float, m: float, x0: float, w: float) -> float:
    """P(exit through the lower bound before time t): the mirror image of ``upper_by``."""
    return upper_by(t, -m, w - x0, w)


def _log_between(a: float, b: float) -> float:
    """log(Phi(b) - Phi(a)) for a < b, from whichever tail is accurate."""
    if a > 0:  # both in the upper tail: use Phi(-a) - Phi(-b)
        a, b = -b, -a
    hi, lo = log_ndtr(b), log_ndtr(a)
    return float(hi + np.log1p(-np.exp(min(lo - hi, 0.0)))) if lo < hi else -math.inf


def survive_above(t: float, y: float, m: float, x0: float, w: float) -> float:
    """P(no exit before time t and the position at t is at least y), 0 <= y <= w."""
    r = math.sqrt(t)
    logs, signs = [], []
    for k in _images(w, t):
        for shift, sign, weight in (
            (-x0 + 2 * k * w, 1.0, -2.0 * k * w * m),
            (x0 + 2 * k * w, -1.0, -2.0 * m * (x0 + k * w)),
        ):
            part = _log_between((y + shift - m * t) / r, (w + shift - m * t) / r)
            if part > -math.inf:
                logs.append(weight + part)
                signs.append(sign)
    if not logs:
        return 0.0
    value, sign = logsumexp(logs, b=signs, return_sign=True)
    return float(min(max(sign * math.exp(value), 0.0), 1.0))


@dataclass(frozen=True)
class Outcome:
    """How a test ended, in units of the LLR: the verdict, the sets it took, the LLR then."""

    verdict: str  # "H1", "H0" or "inconclusive"
    sets: int
    llr: float


def favourable(o: Outcome, m: float, lower: float, upper: float, max_sets: int) -> float:
    """P(an outcome at least as favourable to A as ``o``) for a standardized drift ``m``;
    ``lower``, ``upper`` the bounds in standard deviations of one step (already corrected)."""
    w, x0 = upper - lower, -lower
    if o.verdict == "H1":
        return upper_by(o.sets, m, x0, w)
    if o.verdict == "H0":
        return 1.0 - lower_by(o.sets, m, x0, w)
    y = min(max(o.llr - lower, 0.0), w)
    return upper_by(max_sets, m, x0, w) + survive_above(max_sets, y, m, x0, w)


@dataclass(frozen=True)
class Estimate:
    score: float  # median-unbiased mean set score (or the plain mean: ``method``)
    low: float  # 95% interval of the mean set score
    high: float
    # or "plain mean" (a stop near the fewest sets), "plain mean (inconclusive)"
    method: str = "median-unbiased"
    fewest: int = 0  # the fewest sets that could have crossed the bound the test crossed


def stopped_estimate(
    outcome: Outcome,
    values: np.ndarray,
    weights: np.ndarray,
    s0: float,
    s1: float,
    lower: float,
    upper: float,
    max_sets: int,
    confidence: float = 0.95,
    steps: np.ndarray | None = None,
) -> Estimate:
    """The mean set score that makes ``outcome`` the median outcome, and its interval.

    ``values``, ``weights``: the observed set scores and their counts; ``lower``,
    ``upper``: the LLR bounds. For a candidate mean ``s`` the sets are taken to follow the
    observed distribution tilted to mean ``s`` (``constrained_mle``), and the LLR to
    move by ``log(p1 / p0)`` per set (the GSPRT's increments at the stop), whose mean and
    variance under that distribution give the Brownian motion's drift and variance: the
    drift levels off far from the hypotheses, as the empirical GSPRT's does. ``steps``: the
    test's LLR step per value (``gsprt.increments``) when it is not the empirical one
    between the means ``s0`` and ``s1`` (the normalized model, the normal LLR)."""
    z = steps
    if z is None:
        z = np.log(constrained_mle(values, weights, s1)) - np.log(
            constrained_mle(values, weights, s0)
        )
    inner = values[0] + 1e-9, values[-1] - 1e-9

    def favourable_at(s: float) -> float:
        p = constrained_mle(values, weights, s)
        drift = float(np.sum(p * z))
        sd = math.sqrt(max(float(np.sum(p * (z - drift) ** 2)), 1e-18))
        lo, hi = lower / sd, upper / sd
        if outcome.verdict != "inconclusive":  # the walk jumped over the bound it crossed
            lo, hi = lo - OVERSHOOT, hi + OVERSHOOT
        o = Outcome(outcome.verdict, outcome.sets, outcome.llr / sd)
        return favourable(o, drift / sd, lo, hi, max_sets)

    def solve(target: float) -> float:
        a, b = inner
        if favourable_at(a) >= target:
            return a
        if favourable_at(b) <= target:
            return b
        return brentq(lambda s: favourable_at(s) - target, a, b, xtol=1e-7)

    q = (1.0 - confidence) / 2.0
    return Estimate(solve(0.5), solve(q), solve(1.0 - q))


def near_fewest(sets: int, fewest: int) -> bool:
    """Whether a stop after ``sets`` is near the fewest sets that could have crossed its
    bound: within 10% of it, and at least 3 sets. There the stopping time cannot tell the
    gaps apart (every gap far beyond the bounds stops at the minimum), so the
    median-unbiased estimate pins itself to the smallest gap that stops that early and
    its interval misses the truth (coverage 0.29-0.36 at true gaps of +240 to +360 with
    the gain preset); a stop k sets after the minimum holds about k sets that fell short
    of the top score, too few to say more than the mean does. And near the minimum the
    stop is nearly certain at every gap that can reach it, so conditioning the plain mean
    on it biases it little."""
    return sets <= fewest + max(3, math.ceil(0.1 * fewest))


def at_stop(
    outcome: Outcome,
    values: np.ndarray,
    weights: np.ndarray,
    steps: np.ndarray,
    bounds: tuple[float, float],
    max_sets: int,
    fewest: int,
) -> Estimate:
    """The estimate to report when a test stopped: the median-unbiased one
    (``stopped_estimate``); after a stop near the fewest sets that could cross
    (``near_fewest``), the plain mean, with an interval that holds both the fixed-sample
    95% interval of the mean (the upper end, which the stopping time cannot give) and the
    median-unbiased one (the lower end, which guards a small gap's lucky early stop); and
    for a test that reached ``max_sets`` without crossing (inconclusive), the plain mean
    with its fixed-sample interval. There the stopping rule never acted, and when no bound
    could be crossed within ``max_sets`` the test is a fixed-sample one, whose plain mean
    is unbiased, while the Brownian model behind the median-unbiased estimate still lets
    the walk reach a bound: simulated at a true score of 0.78 and 40 sets (no bound
    reachable), that estimate was above the truth in 84% of 200 runs, its upper end
    hundreds of Elo out, the plain mean in 45% with 95% coverage; on inconclusive runs
    that could have crossed, the two agree (tests/tournament/test_sprt_truncated.py).
    ``method`` names which. ``values``, ``weights``: the tally's (pseudo-counts weigh ~0)."""
    mean, half = plain_mean(values, weights, outcome.sets)
    if outcome.verdict == "inconclusive":  # a fixed-sample test that ran its course
        return Estimate(mean, mean - half, mean + half, "plain mean (inconclusive)", fewest)
    lower, upper = bounds
    est = stopped_estimate(outcome, values, weights, 0.0, 0.0, lower, upper, max_sets, steps=steps)
    if not near_fewest(outcome.sets, fewest):
        return replace(est, fewest=fewest)
    low, high = min(est.low, mean - half), max(est.high, mean + half)
    return Estimate(mean, low, high, "plain mean", fewest)


def plain_mean(
    values: np.ndarray, weights: np.ndarray, sets: int, confidence: float = 0.95
) -> tuple[float, float]:
    """(the mean set score, the half-width of its fixed-sample interval): Student's t on
    ``sets`` sets with the sample standard deviation (NaN on a single set); the tally's
    pseudo-counts at 0 and 1 left out (a plain mean is of the sets played)."""
    weights = weights - PSEUDO * ((values == 0.0) | (values == 1.0))
    total = float(weights.sum())
    mean = float(np.sum(values * weights) / total)
    if sets < 2:
        return mean, math.nan
    var = float(np.sum(weights * (values - mean) ** 2)) / total * sets / (sets - 1)
    q = float(t_dist.ppf(1.0 - (1.0 - confidence) / 2.0, sets - 1))
    return mean, q * math.sqrt(var / sets)
