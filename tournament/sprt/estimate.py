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
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr, logsumexp

from tournament.sprt.gsprt import constrained_mle

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
    score: float  # median-unbiased mean set score
    low: float  # 95% interval of the mean set score
    high: float


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
) -> Estimate:
    """The mean set score that makes ``outcome`` the median outcome, and its interval.

    ``values``, ``weights``: the observed set scores and their counts; ``lower``,
    ``upper``: the LLR bounds. For a candidate mean ``s`` the sets are taken to follow the
    observed distribution tilted to mean ``s`` (``constrained_mle``), and the LLR to
    move by ``log(p1 / p0)`` per set (the GSPRT's increments at the stop), whose mean and
    variance under that distribution give the Brownian motion's drift and variance: the
    drift levels off far from the hypotheses, as the GSPRT's does."""
    p0 = constrained_mle(values, weights, s0)
    p1 = constrained_mle(values, weights, s1)
    z = np.log(p1) - np.log(p0)
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
