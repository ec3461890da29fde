"""The generalized SPRT (GSPRT) on per-set scores, with Elo bounds (fishtest's model).

An *observation* is one duplicate set: the games of one deal played in every seat order of
the test's line-ups. Its *score* ``x`` in [0, 1] is the share of the (A seat, B seat) pairs
of those games in which A finished ahead of B, ties counting half. Sets are independent
(each has its own deal and seeds) and identically distributed, and every seat and every
order of play is in every set, so the seat advantage cancels inside an observation. With
two players a set is fishtest's game pair and ``x`` its pentanomial score; with N players
``x`` takes more values, and nothing below assumes how many.

The distribution of ``x`` is left free (no draw model, no pentanomial): H0 says its mean is
``s0``, H1 that it is ``s1``. The log-likelihood ratio is the *empirical* one: the
distributions on the observed values that maximise the likelihood under each mean
(``constrained_mle``), as fishtest's GSPRT does for pentanomial results. A tiny
pseudo-count at 0 and 1 keeps every mean in (0, 1) reachable, so a run whose sets all scored
the same (two identical agents score exactly 1/2 under duplicate play) still has an LLR.

Elo bounds map to means through one of two models:

- ``logistic`` (default): ``s = 1 / (1 + 10^(-elo / 400))``, the scale of `meeple ratings`
  (its Bradley-Terry Elo on the same pairwise results), so a bound reads like a rating gap;
- ``normalized``: fishtest's normalized Elo, ``s = 1/2 + nelo * sigma * ln(10) / 800``, with
  ``sigma`` the standard deviation per game (per-set standard deviation times the square root
  of the games per set, as fishtest counts a game pair as two games), so the expected length
  of a test depends on the bounds only. Each hypothesis constrains the t-value of the
  distribution itself, ``(mean - 1/2) / sd = nelo * ln(10) / 800 * sqrt(games per set)``
  (``tvalue_mle``, fishtest's ``MLE_t_value``), not the mean that t-value gives with the
  observed spread, which collapses when every set scores alike (``hypotheses``).

The LLR itself has two forms (``Bounds.llr``):

- ``empirical`` (default): the empirical likelihood above. Its step per set is bounded: a
  set far below (or above) both means is explained by mass at the pseudo-count 0 (or 1),
  so it weighs at most what a single 0 (or 1) would, and a test never stops in fewer
  than about 50 sets at the gain preset, however large the gap;
- ``normal``: the LLR of a normal model of the set score with the variance estimated
  from the sets (fishtest's normal approximation, ``LLR_alt2``): ``n (s1 - s0) (mean - (s0
  + s1) / 2) / var``, linear in the mean, so a gap far outside the bounds stops the test in
  a few sets. ``var`` counts half a set at 0 and half at 1 (``NORMAL_PRIOR``) beside the
  sets played, so that the first few sets, whose spread says little, cannot stop it by
  chance (a clean sweep of n sets needs about sqrt(n) more). Near the bounds the two agree
  on sets whose score is roughly symmetric (docs/TOURNAMENTS-STATS.md measures both); on
  skewed ones (A a little ahead on most deals, far behind on a few) a run of the common
  sets looks like a gain, and the normal form accepts H1 more often than alpha: the
  empirical form makes no such assumption.

Wald's thresholds: accept H1 when ``LLR >= log((1 - beta) / alpha)``, H0 when
``LLR <= log(beta / (1 - alpha))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from spiel_games.common.errors import MeepleError

MODELS = ("logistic", "normalized")
LLRS = ("empirical", "normal")
NORMAL_PRIOR = 0.5  # weight of the pseudo-sets at 0 and at 1 in the normal LLR's variance
# Presets in the logistic model, alpha = beta = 0.05 (fishtest and OpenBench name theirs
# the same way; the widths suit board-game agents, whose gaps are tens of Elo, not one):
# "gain": is A at least 20 Elo stronger, or not stronger at all?
# "nonreg": non-regression: is A weaker by 20 Elo or more, or no worse than 5 above parity?
PRESETS: dict[str, tuple[float, float]] = {"gain": (0.0, 20.0), "nonreg": (-20.0, 5.0)}
PSEUDO = 1e-3  # pseudo-count at the scores 0 and 1 (fishtest regularises empty cells alike)
LN10 = math.log(10.0)


class SprtError(MeepleError):
    """An SPRT that cannot be run as asked (one line)."""


MAX_ELO = 2000  # a bound's score stays inside (0, 1): 1e-5 from either end at the limit


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    s = min(max(score, 1e-9), 1.0 - 1e-9)
    return -400.0 * math.log10(1.0 / s - 1.0)


@dataclass(frozen=True)
class Bounds:
    """The hypotheses and error rates of one test."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"
    llr: str = "empirical"  # the LLR's form (module docstring)

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise SprtError(f"--elo-model must be one of {', '.join(MODELS)}, got {self.model!r}")
        if self.llr not in LLRS:
            raise SprtError(f"--llr must be one of {', '.join(LLRS)}, got {self.llr!r}")
        if not all(abs(x) <= MAX_ELO for x in (self.elo0, self.elo1)):  # NaN too
            raise SprtError(
                f"--elo0 and --elo1 must be in [-{MAX_ELO}, {MAX_ELO}], got {self.elo0:g} and "
                f"{self.elo1:g}"
            )
        if not self.elo0 < self.elo1:
            raise SprtError(f"--elo0 must be below --elo1, got {self.elo0:g} and {self.elo1:g}")
        for name, x in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < x < 0.5:
                raise SprtError(f"--{name} must be in (0, 0.5), got {x:g}")

    @property
    def lower(self) -> float:
        """LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """LLR at or above which H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def scores(self, sigma_game: float = 0.0) -> tuple[float, float]:
        """(s0, s1): the mean set score under H0 and H1 (``sigma_game``: standard deviation
        per game, used by the normalized model)."""
        if self.model == "logistic":
            return elo_to_score(self.elo0), elo_to_score(self.elo1)
        k = max(sigma_game, 1e-6) * LN10 / 800.0
        return _clip(0.5 + self.elo0 * k), _clip(0.5 + self.elo1 * k)

    def to_elo(self, score: float, sigma_game: float = 0.0) -> float:
        """A mean set score in this model's Elo."""
        if self.model == "logistic":
            return score_to_elo(score)
        return (score - 0.5) * 800.0 / (LN10 * max(sigma_game, 1e-6))

    def describe(self) -> str:
        unit = "Elo" if self.model == "logistic" else "normalized Elo"
        form = "" if self.llr == "empirical" else f", {self.llr} LLR"
        return (
            f"H0: elo <= {self.elo0:g}, H1: elo >= {self.elo1:g} ({unit}), "
            f"alpha {self.alpha:g}, beta {self.beta:g}{form}"
        )


def _clip(s: float) -> float:
    return min(max(s, 1e-6), 1.0 - 1e-6)


class Tally:
    """Set scores counted by value (what the LLR depends on), updated one set at a time."""

    def __init__(self, scores=()) -> None:
        self.counts: dict[float, float] = {0.0: PSEUDO, 1.0: PSEUDO}
        self.n = 0
        for x in scores:
            self.add(x)

    def add(self, x: float) -> None:
        key = round(float(x), 12)
        self.counts[key] = self.counts.get(key, 0.0) + 1.0
        self.n += 1

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        keys = sorted(self.counts)
        return np.array(keys), np.array([self.counts[k] for k in keys])

    def mean_var(self) -> tuple[float, float]:
        values, weights = self.arrays()
        mean = float(np.sum(values * weights) / weights.sum())
        return mean, float(np.sum(weights * (values - mean) ** 2) / weights.sum())

    def sample(self) -> tuple[float, float]:
        """(mean, sample standard deviation) of the sets counted, without the pseudo-counts
        (which keep the test's likelihood away from 0 and 1, not the figures reported: was
        a divide-by-n SD with them in, which the interval on the same sets did not use);
        the SD NaN on fewer than two sets."""
        values, weights = self.arrays()
        weights = weights - PSEUDO * ((values == 0.0) | (values == 1.0))
        n = float(weights.sum())
        if n <= 0:
            return math.nan, math.nan
        mean = float(np.sum(values * weights) / n)
        if n < 2:
            return mean, math.nan
        return mean, math.sqrt(float(np.sum(weights * (values - mean) ** 2)) / (n - 1))

    def sigma_per_game(self, games_per_set: int) -> float:
        """Standard deviation of the score per game, as if a set's games were independent
        (the per-set standard deviation times the square root of the games in a set)."""
        return math.sqrt(self.mean_var()[1] * max(games_per_set, 1))

    def llr(self, s0: float, s1: float) -> float:
        """The generalized log-likelihood ratio of H1 (mean s1) against H0 (mean s0)."""
        values, weights = self.arrays()
        p0 = constrained_mle(values, weights, s0)
        p1 = constrained_mle(values, weights, s1)
        return float(np.sum(weights * (np.log(p1) - np.log(p0))))


def constrained_mle(values: np.ndarray, weights: np.ndarray, mean: float) -> np.ndarray:
    """The distribution on ``values`` of largest likelihood for ``weights`` whose mean is
    ``mean`` (empirical likelihood): p_k = w_k / (W (1 + lam (v_k - mean))), with ``lam``
    the root that makes the mean right. ``mean`` must lie strictly inside the values."""
    d = values - mean
    if d.max() <= 0 or d.min() >= 0:
        raise ValueError("the mean must lie strictly between the smallest and largest value")
    return _tilt(d, weights)


def tvalue_mle(values: np.ndarray, weights: np.ndarray, t: float, ref: float = 0.5) -> np.ndarray:
    """The distribution on ``values`` of largest likelihood for ``weights`` whose own mean
    and standard deviation satisfy ``(mean - ref) / sd = t``: the normalized model's
    hypothesis, which constrains the t-value rather than the mean. Fishtest's LLRcalc
    (``MLE_t_value``) finds it the same way: a Lagrange fixed point whose linearised
    constraint ``c_k = v_k - ref - t sd (1 + ((v_k - mean) / sd)^2) / 2`` is solved as
    ``constrained_mle`` solves its mean, then re-linearised at the new distribution."""
    p = np.full(len(values), 1.0 / len(values))  # as fishtest: from the uniform
    for _ in range(100):
        mean = float(np.sum(p * values))
        sd = math.sqrt(max(float(np.sum(p * (values - mean) ** 2)), 1e-300))
        c = values - ref - t * sd * (1.0 + ((values - mean) / sd) ** 2) / 2.0
        if c.max() <= 0 or c.min() >= 0:  # unreachable t: keep the last distribution
            break
        new = _tilt(c, weights)
        done = float(np.abs(new - p).max()) < 1e-12
        p = new
        if done:
            break
    return p


def _tilt(c: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """w_k / (1 + lam c_k), normalised, with ``lam`` such that its mean of ``c`` is 0."""
    lo, hi = -1.0 / c.max(), -1.0 / c.min()
    pad = (hi - lo) * 1e-12

    def f(lam: float) -> float:
        return float(np.sum(weights * c / (1.0 + lam * c)))

    lam = brentq(f, lo + pad, hi - pad, xtol=1e-14, rtol=1e-12, maxiter=200)
    p = weights / (1.0 + lam * c)
    return p / p.sum()


def hypotheses(tally: Tally, bounds: Bounds, games_per_set: int) -> tuple[np.ndarray, np.ndarray]:
    """(p0, p1): the distributions on the tally's values of largest likelihood under H0 and
    H1. Logistic: the means ``bounds.scores()``. Normalized: the t-values ``nelo * ln(10) /
    800 * sqrt(games per set)`` of the distributions themselves (``tvalue_mle``), not the
    mean a t-value gives with the *observed* spread: sets that all score alike (all 1, all
    1/2) have almost no spread, which would pull both means to 1/2 and stall the test for
    ever; the hypotheses' own spread does not collapse."""
    values, weights = tally.arrays()
    if bounds.model == "logistic":
        s0, s1 = bounds.scores()
        return constrained_mle(values, weights, s0), constrained_mle(values, weights, s1)
    k = LN10 / 800.0 * math.sqrt(max(games_per_set, 1))
    return (
        tvalue_mle(values, weights, bounds.elo0 * k),
        tvalue_mle(values, weights, bounds.elo1 * k),
    )


def increments(tally: Tally, bounds: Bounds, games_per_set: int) -> tuple[np.ndarray, np.ndarray]:
    """(weights, z): the LLR is ``sum(weights * z)``, ``z`` its step for a set of each of
    the tally's values. Empirical: ``log(p1 / p0)`` of ``hypotheses``, on the tally's
    weights. Normal: ``(s1 - s0) (v - (s0 + s1) / 2) / var`` on the sets played (the
    pseudo-counts weigh nothing), ``var`` with ``NORMAL_PRIOR`` (module docstring)."""
    values, weights = tally.arrays()
    if bounds.llr == "empirical":
        p0, p1 = hypotheses(tally, bounds, games_per_set)
        return weights, np.log(p1) - np.log(p0)
    ends = (values == 0.0) | (values == 1.0)
    played = weights - PSEUDO * ends
    prior = played + NORMAL_PRIOR * ends
    mean = float(np.sum(values * prior) / prior.sum())
    var = float(np.sum(prior * (values - mean) ** 2) / prior.sum())
    s0, s1 = bounds.scores(math.sqrt(var * max(games_per_set, 1)))
    return played, (s1 - s0) * (values - (s0 + s1) / 2.0) / var


def fewest_sets(bounds: Bounds, games_per_set: int, verdict: str, max_sets: int) -> int:
    """The fewest sets after which the test could accept ``verdict`` ("H1" or "H0"): the
    length of a run whose every set scores 1 (for H1) or 0 (for H0), the largest steps
    the LLR can take towards that bound; ``max_sets + 1`` when even that run never gets
    there."""
    x = 1.0 if verdict == "H1" else 0.0

    def crossed(n: int) -> bool:
        tally = Tally()
        tally.counts[x] += n
        tally.n = n
        value = step(tally, bounds, games_per_set).llr
        return value >= bounds.upper if verdict == "H1" else value <= bounds.lower

    lo, hi = 1, max(max_sets, 1)
    if not crossed(hi):
        return hi + 1
    while lo < hi:  # the LLR of constant sets moves monotonically with their number
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if crossed(mid) else (mid + 1, hi)
    return lo


def llr(scores, s0: float, s1: float) -> float:
    """The generalized LLR of a list of set scores."""
    return Tally(scores).llr(s0, s1)


@dataclass(frozen=True)
class Step:
    """The test after a prefix of sets."""

    sets: int
    llr: float
    verdict: str  # "H1", "H0", "inconclusive" or "" (go on)


def step(tally: Tally, bounds: Bounds, games_per_set: int, max_sets: int = 0) -> Step:
    """The LLR and verdict of the sets counted in ``tally``."""
    weights, z = increments(tally, bounds, games_per_set)
    value = float(np.sum(weights * z))
    verdict = "H1" if value >= bounds.upper else "H0" if value <= bounds.lower else ""
    if not verdict and max_sets and tally.n >= max_sets:
        verdict = "inconclusive"
    return Step(tally.n, value, verdict)


def walk(scores, bounds: Bounds, games_per_set: int = 1, max_sets: int = 0) -> list[Step]:
    """The test after each set, in order, up to the first that crosses a bound (then the
    verdict) or ``max_sets`` (``"inconclusive"`` when it is reached without a crossing)."""
    out: list[Step] = []
    tally = Tally()
    for x in scores:
        tally.add(x)
        out.append(step(tally, bounds, games_per_set, max_sets))
        if out[-1].verdict:
            break
    return out


def wald(probs, values, bounds: Bounds, s0: float, s1: float) -> tuple[float, float]:
    """Wald's approximations for a true set-score distribution ``probs`` on ``values``:
    (probability of accepting H1, expected number of sets), with the LLR per set taken at
    its limit (empirical: the true distribution's projections on the two means; normal:
    its true variance). They ignore the fewest sets a stop needs (``fewest_sets``) and the
    normal form's prior, so far outside the bounds the normal test runs longer than they
    say."""
    probs = np.asarray(probs, dtype=float)
    values = np.asarray(values, dtype=float)
    keep = probs > 0
    p, v = probs[keep], values[keep]
    if not (v.min() < s0 < v.max() and v.min() < s1 < v.max()):
        raise ValueError("both hypotheses' means must lie inside the distribution's values")
    if bounds.llr == "normal":  # the variance estimate at its limit: the distribution's
        var = float(np.sum(p * (v - np.sum(p * v)) ** 2))
        z = (s1 - s0) * (v - (s0 + s1) / 2.0) / var
    else:
        z = np.log(constrained_mle(v, p, s1)) - np.log(constrained_mle(v, p, s0))
    drift = float(np.sum(p * z))
    a, b = bounds.lower, bounds.upper
    if abs(drift) < 1e-12:  # the boundary case of Wald's formulas
        var = float(np.sum(p * z * z))
        return -a / (b - a), -a * b / var

    def mgf(h: float) -> float:
        return float(np.sum(p * np.exp(h * z))) - 1.0

    # the non-zero root of E[exp(h Z)] = 1 lies on the side opposite to the drift
    side = -math.copysign(1.0, drift)
    near = side * 1e-6 / float(np.abs(z).max())
    far = side
    while mgf(far) < 0:
        far *= 2.0
    h = brentq(mgf, near, far) if side > 0 else brentq(mgf, far, near)
    p1 = (1.0 - math.exp(h * a)) / (math.exp(h * b) - math.exp(h * a))
    return p1, (p1 * b + (1.0 - p1) * a) / drift
