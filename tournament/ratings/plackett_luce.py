"""Plackett-Luce ratings: whole finishing orders, with a seat term, on Elo's scale.

A game's finishing order is drawn place by place: the winner among all players with
probability proportional to ``exp(theta_agent + gamma_seat)``, then second place among the
rest, and so on (Plackett-Luce). Players who share a rank are drawn together (Breslow's
rule for ties: each of them against everyone not ranked above them). ``theta`` is the
agent's strength and ``gamma`` the advantage of the seat (one per player count, seat 1 = 0
in the fit, shown centred on the seats' mean). With two players this is Bradley-Terry
with a first-move term.

Reported on Elo's scale (``theta * 400 / ln 10``), so without ties PL and Elo compare
directly: a 50-point gap is the same odds of finishing ahead in a two-player game (Breslow
counts a two-player draw as a win each way, Elo as half each way: with draws PL's gaps are
smaller). The prior is the pairwise fit's: OpenSpiel's smoothing, a virtual 0.01 win
each way between every pair of agents (two-player orders, no seat), so a perfect record
stays finite and the two fits share their assumptions; the seats of a player count get the
same (a virtual 0.01 win each way between every pair of seats), so a seat that won every
game of a small table, or of a bootstrap resample, keeps a finite term. Intervals: the same
percentile bootstrap over duplicate sets as Elo, where the data measure the value: the probe
(``prior_driven``) opens a side of a rating the prior alone holds; seat terms it finds the
prior's, on all the games or on more than (1 - confidence) / 2 of the resamples, are not
measured and have no value (NaN: the fit's would be where the prior stops a likelihood
that keeps rising, e.g. +-204 Elo beside even seat win rates); a value no resample moves
has no interval; and ``tournament.ratings.fit`` opens the sides Elo opens, their finite
side no tighter than Elo's.

The likelihood depends on the games only through distinct (agents by seat, ranks)
patterns, so games are counted per pattern and duplicate set (a sparse matrix): a
bootstrap replicate is one product with the sets' multiplicities, and a fit costs the
same for 10^3 and 10^6 games of one round robin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize
from scipy.sparse import csc_matrix

from tournament.ratings.pairs import block_bounds, block_weights

ELO = 400.0 / math.log(10.0)  # natural-log strength to Elo
PRIOR = 0.01  # virtual wins each way between every pair (OpenSpiel's smoothing_factor)


@dataclass
class Patterns:
    """Distinct games of one player count: agents and ranks by seat, counted per set."""

    agents: np.ndarray  # (P, n)
    ranks: np.ndarray  # (P, n)
    counts: csc_matrix  # (P, sets)

    def weights(self, multiplicity: np.ndarray | None = None) -> np.ndarray:
        if multiplicity is None:
            return np.asarray(self.counts.sum(axis=1)).ravel()
        return self.counts @ multiplicity


def patterns(groups, num_blocks: int) -> list[Patterns]:
    out = []
    for g in groups:
        if not len(g.agents):
            continue
        key = np.hstack([g.agents, g.ranks])
        uniq, inverse = np.unique(key, axis=0, return_inverse=True)
        n = g.agents.shape[1]
        counts = csc_matrix(
            (np.ones(len(inverse)), (inverse.ravel(), g.blocks)),
            shape=(len(uniq), max(num_blocks, 1)),
        )
        counts.sum_duplicates()
        out.append(Patterns(uniq[:, :n].astype(np.int64), uniq[:, n:], counts))
    return out


def _pair_prior(
    x: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    grad: np.ndarray,
    weight: float = PRIOR,
    tilt: float = 0.0,
) -> float:
    """The log-prior of a virtual ``weight`` win each way between the pairs (i, j) of
    strengths ``x`` (with ``tilt``: ``weight * e^tilt`` for i, ``weight * e^-tilt`` for j,
    whose mode is i ahead by ``2 tilt``); its gradient is added to ``grad`` (a view,
    updated in place)."""
    diff = x[i] - x[j]
    a, b = weight * math.exp(tilt), weight * math.exp(-tilt)
    d = a - (a + b) / (1.0 + np.exp(-diff))  # d/d diff of both terms
    grad += np.bincount(i, d, minlength=len(x)) - np.bincount(j, d, minlength=len(x))
    return float(np.sum(-a * np.logaddexp(0.0, -diff) - b * np.logaddexp(0.0, diff)))


def _pair_curvature(
    x: np.ndarray, i: np.ndarray, j: np.ndarray, out: np.ndarray, weight: float, tilt: float = 0.0
) -> None:
    """The Hessian of ``-_pair_prior(x, i, j, ...)``, added to ``out`` (a view, in place)."""
    s = 1.0 / (1.0 + np.exp(-(x[i] - x[j])))
    c = weight * (math.exp(tilt) + math.exp(-tilt)) * s * (1.0 - s)
    np.add.at(out, (i, i), c)
    np.add.at(out, (j, j), c)
    np.add.at(out, (i, j), -c)
    np.add.at(out, (j, i), -c)


MAX_STEP = 10.0  # the largest Newton step of one parameter, natural log (about 1,700 Elo)


class Model:
    """The negative log-posterior of weighted patterns (likelihood and pair priors), its
    gradient and Hessian, and its minimum (``fit``: BFGS; ``fit_newton``: the probe's)."""

    def __init__(self, pats: list[Patterns], k: int, prior: float = PRIOR, tilt: float = 0.0):
        self.pats, self.k = pats, k
        self.prior, self.tilt = prior, tilt  # the priors' weight; the seat prior's tilt
        self.sizes = [p.agents.shape[1] for p in pats]
        self.offsets = np.cumsum([k] + [n - 1 for n in self.sizes])
        self.dim = int(self.offsets[-1])
        self.risk = [(p.ranks[:, None, :] >= p.ranks[:, :, None]) for p in pats]  # [p, s, t]
        self.pair_i, self.pair_j = np.triu_indices(k, 1)
        self.seat_pairs = [np.triu_indices(n, 1) for n in self.sizes]

    def split(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        gammas = [
            np.concatenate([[0.0], x[self.offsets[i] : self.offsets[i + 1]]])
            for i in range(len(self.pats))
        ]
        return x[: self.k], gammas

    def __call__(self, x: np.ndarray, weights: list[np.ndarray]) -> tuple[float, np.ndarray]:
        theta, gammas = self.split(x)
        grad = np.zeros(self.dim)
        total = 0.0
        for i, (p, risk, w) in enumerate(zip(self.pats, self.risk, weights, strict=True)):
            eta = theta[p.agents] + gammas[i][None, :]
            top = eta.max(axis=1, keepdims=True)
            lam = np.exp(eta - top)
            denom = np.einsum("pst,pt->ps", risk, lam)  # over each player's risk set
            total += float(np.sum(w[:, None] * (eta - top - np.log(denom))))
            # d/d eta_t: w (1 - sum_s risk[s, t] lam_t / denom_s)
            d_eta = w[:, None] * (1.0 - lam * np.einsum("pst,ps->pt", risk, 1.0 / denom))
            grad[: self.k] += np.bincount(p.agents.ravel(), d_eta.ravel(), minlength=self.k)
            grad[self.offsets[i] : self.offsets[i + 1]] += d_eta.sum(axis=0)[1:]
        # the prior: a virtual 0.01 win each way between every pair of agents, and between
        # every pair of seats of a player count (a seat that won every game of a small
        # table, or of a bootstrap resample, keeps a finite term)
        total += _pair_prior(theta, self.pair_i, self.pair_j, grad[: self.k], self.prior)
        for i, (g, (si, sj)) in enumerate(zip(gammas, self.seat_pairs, strict=True)):
            seat_grad = np.zeros(len(g))
            total += _pair_prior(g, si, sj, seat_grad, self.prior, self.tilt)
            grad[self.offsets[i] : self.offsets[i + 1]] += seat_grad[1:]
        return -total, -grad

    def fit(
        self, weights: list[np.ndarray], start: np.ndarray | None = None, gtol: float = 1e-5
    ) -> np.ndarray:
        x0 = np.zeros(self.dim) if start is None else start
        res = minimize(self, x0, args=(weights,), jac=True, method="BFGS", options={"gtol": gtol})
        return res.x

    def hessian(self, x: np.ndarray, weights: list[np.ndarray]) -> np.ndarray:
        """The Hessian of ``self(x)``'s negative log-posterior: per game and place, the
        covariance of who takes the place among its risk set, summed into the cells of the
        agents' strengths and seat terms each player's eta holds (``_scatter``), plus the
        pair priors' curvature."""
        theta, gammas = self.split(x)
        out = np.zeros((self.dim, self.dim))
        for i, (p, risk, w) in enumerate(zip(self.pats, self.risk, weights, strict=True)):
            eta = theta[p.agents] + gammas[i][None, :]
            pi = risk * np.exp(eta - eta.max(axis=1, keepdims=True))[:, None, :]
            pi /= pi.sum(axis=2, keepdims=True)  # [p, s, t]: who takes place s, by player t
            h = -np.einsum("pst,psu->ptu", pi, pi)
            h[:, np.arange(pi.shape[1]), np.arange(pi.shape[1])] += pi.sum(axis=1)
            self._scatter(out, h * w[:, None, None], p.agents, int(self.offsets[i]))
        _pair_curvature(theta, self.pair_i, self.pair_j, out[: self.k, : self.k], self.prior)
        for i, (g, (si, sj)) in enumerate(zip(gammas, self.seat_pairs, strict=True)):
            seats = np.zeros((len(g), len(g)))
            _pair_curvature(g, si, sj, seats, self.prior, self.tilt)
            a, b = self.offsets[i], self.offsets[i + 1]
            out[a:b, a:b] += seats[1:, 1:]
        return out

    def _scatter(self, out: np.ndarray, h: np.ndarray, agents: np.ndarray, offset: int) -> None:
        """Add ``h[p, t, u]`` (d2 / d eta_t d eta_u of game pattern p) to ``out``: eta_t is
        the strength of ``agents[p, t]`` plus, from the second seat on, the seat's term at
        ``offset + t - 1``. Four sums by index, no (patterns x dim) array."""
        n, dim = agents.shape[1], self.dim
        seat = offset + np.arange(n) - 1  # seat 0 has no term
        rows = np.broadcast_to(agents[:, :, None], h.shape)
        cols = np.broadcast_to(agents[:, None, :], h.shape)
        cells = np.bincount((rows * dim + cols).ravel(), h.ravel(), minlength=dim * dim)
        out += cells.reshape(dim, dim)
        by_agent = np.bincount(  # [agent of t, seat u] summed over patterns
            (rows * n + np.arange(n)[None, None, :]).ravel(), h.ravel(), minlength=dim * n
        ).reshape(dim, n)[:, 1:]
        out[:, seat[1:]] += by_agent
        out[seat[1:], :] += by_agent.T
        out[np.ix_(seat[1:], seat[1:])] += h.sum(axis=0)[1:, 1:]

    def fit_newton(
        self, weights: list[np.ndarray], start: np.ndarray, gtol: float, max_steps: int = 100
    ) -> np.ndarray:
        """The optimum by Newton's method with a backtracking line search, from ``start``:
        until the largest gradient entry is at most ``gtol``, or no step lowers the
        objective (nor, at equal value, the gradient) within rounding. The negative
        log-posterior is convex; a least-squares step leaves its one flat direction, every
        strength shifted together, where it started. The probe's fit: under its weak prior
        separated results make the likelihood nearly flat, where a few Newton steps go
        far."""
        x = start.copy()
        f, g = self(x, weights)
        for _ in range(max_steps):
            if np.max(np.abs(g), initial=0.0) <= gtol:
                break
            step = np.linalg.lstsq(self.hessian(x, weights), -g, rcond=None)[0]
            step *= MAX_STEP / max(np.max(np.abs(step)), MAX_STEP)  # no overflow
            slope, t = float(g @ step), 1.0
            while True:
                fn, gn = self(x + t * step, weights)
                if fn <= f + 1e-4 * t * slope or t < 1e-12:
                    break
                t *= 0.5
            flatter = fn == f and np.max(np.abs(gn)) < np.max(np.abs(g))
            if not (fn < f or flatter):  # the optimum within rounding
                break
            x, f, g = x + t * step, fn, gn
        return x


@dataclass
class PLRatings:
    elo: np.ndarray  # per agent, Elo scale, same anchor as the Elo fit
    ci_low: np.ndarray
    ci_high: np.ndarray
    # per player count and seat: players, seat, elo, ci_low, ci_high, measured, why (""
    # or UNMEASURED_*: then elo and bounds are NaN) and resampled_share (of the resamples
    # whose seat terms the probe moves)
    seats: list[dict] = field(default_factory=list)
    log_likelihood: float = 0.0  # of the rated games' finishing orders, natural log
    # per agent: +1 / -1 where the probe finds its rating the prior's above / below, else 0
    driven: np.ndarray | None = None


# The probe (``prior_driven``): the fit again under a prior WEAK times as strong, the seat
# prior tilted to put each seat 2 TILT (natural log) ahead of the next. A parameter the data
# measure moves by a fraction of an Elo (1.3 at most on the review's and the tests'
# ledgers); one the likelihood leaves unbounded (separated results) or flat (a seat term
# when the agents' strengths decide every game) moves by 100s: more than DRIVEN_ELO means
# the value is the prior's, and that side of its interval is open.
WEAK = 0.01
TILT = 3.0
DRIVEN_ELO = 25.0
STILL_ELO = 1e-6  # a value whose resamples all lie within this has no bootstrap interval


def prior_driven(model: Model, x: np.ndarray, weights, anchored) -> tuple[np.ndarray, set[int]]:
    """(per agent: +1 when the probe moves its anchored rating up by more than DRIVEN_ELO,
    -1 down, else 0; the player counts whose seat terms move so)."""
    probe = Model(model.pats, model.k, PRIOR * WEAK, TILT)
    before, seats_before = _scaled(model, x, anchored)
    after, seats_after = _scaled(probe, probe.fit_newton(weights, x, gtol=1e-10), anchored)
    move = after - before
    agents = np.where(move > DRIVEN_ELO, 1, np.where(move < -DRIVEN_ELO, -1, 0))
    moved = {
        a["players"]
        for a, b in zip(seats_after, seats_before, strict=True)
        if abs(a["elo"] - b["elo"]) > DRIVEN_ELO
    }
    return agents, moved


# Why a player count's seat terms are not measured (``PLRatings.seats``' "why"): the probe
# moves them on all the games; or it moves them on more than (1 - confidence) / 2 of the
# bootstrap resamples (a few games whose order the agents' strengths did not decide, which
# the resamples miss), so a percentile interval would be one of values the prior holds.
UNMEASURED_DATA = "data"
UNMEASURED_RESAMPLES = "resamples"


def fit_plackett_luce(
    groups,
    k: int,
    num_blocks: int,
    anchored,
    bootstrap: int = 0,
    seed: int = 0,
    confidence: float = 0.95,
) -> PLRatings:
    """PL strengths (through ``anchored``, the Elo fit's anchoring of a rating vector) and
    seat terms, with bootstrap intervals over the ``num_blocks`` duplicate sets. A rating
    the probe finds the prior's (``prior_driven``) has that side open; seat terms it finds
    the prior's, on the data or on more than (1 - confidence) / 2 of the resamples, are not
    measured: no value, no interval (NaN), and why. A value that no resample moves has no
    interval (NaN): the resamples measured nothing."""
    pats = patterns(groups, num_blocks)
    model = Model(pats, k)
    full = [p.weights() for p in pats]
    x = model.fit(full)
    elo, seats = _scaled(model, x, anchored)
    est = np.concatenate([elo, [row["elo"] for row in seats]])
    lo, hi = np.full(len(est), np.nan), np.full(len(est), np.nan)  # not measured
    shares: dict[int, float] = {}
    if bootstrap > 0 and num_blocks > 1:
        draws, shares = _resample(model, pats, x, anchored, bootstrap, seed, num_blocks)
        lo, hi = block_bounds(draws, est, num_blocks, confidence)
        still = np.ptp(draws, axis=0) < STILL_ELO  # every resample the same: not measured
        lo, hi = np.where(still, np.nan, np.minimum(lo, est)), np.where(still, np.nan, hi)
        hi = np.maximum(hi, est)
    driven, moved = prior_driven(model, x, full, anchored)
    tail = (1.0 - confidence) / 2.0
    for row, a, b in zip(seats, lo[k:], hi[k:], strict=True):
        share = shares.get(row["players"], 0.0)
        why = UNMEASURED_DATA if row["players"] in moved else ""
        why = why or (UNMEASURED_RESAMPLES if share > tail else "")
        row.update(measured=not why, why=why, resampled_share=share)
        if why:  # the fit's value is where the prior stops the likelihood: not shown
            row["elo"], a, b = math.nan, math.nan, math.nan
        row["ci_low"], row["ci_high"] = float(a), float(b)
    loglik = -model(x, full)[0] - _prior_only(model, x)
    lo, hi = lo[:k], hi[:k]
    lo[driven < 0], hi[driven > 0] = -math.inf, math.inf
    return PLRatings(elo, lo, hi, seats, loglik, driven)


def _resample(model: Model, pats, x, anchored, bootstrap: int, seed: int, num_blocks: int):
    """(the anchored agents' and seat terms' values on each resample of the duplicate sets;
    per player count, the share of the resamples whose seat terms the probe moves)."""
    multiplicities = block_weights(np.random.default_rng(seed), num_blocks, bootstrap)
    draws, moved_in = [], {n: 0 for n in model.sizes}
    for mult in multiplicities.T:
        weights = [p.weights(mult) for p in pats]
        xr = model.fit(weights, x)
        e, s = _scaled(model, xr, anchored)
        draws.append(np.concatenate([e, [row["elo"] for row in s]]))
        for n in prior_driven(model, xr, weights, anchored)[1]:
            moved_in[n] += 1
    return draws, {n: c / bootstrap for n, c in moved_in.items()}


def _prior_only(model: Model, x: np.ndarray) -> float:
    """The log-prior at ``x`` (agents' and seats'), which the log-likelihood leaves out."""
    theta, gammas = model.split(x)
    total = _pair_prior(theta, model.pair_i, model.pair_j, np.zeros(model.k))
    for g, (si, sj) in zip(gammas, model.seat_pairs, strict=True):
        total += _pair_prior(g, si, sj, np.zeros(len(g)))
    return total


def _scaled(model: Model, x: np.ndarray, anchored) -> tuple[np.ndarray, list[dict]]:
    theta, gammas = model.split(x)
    seats = []
    for n, g in zip(model.sizes, gammas, strict=True):
        centred = (g - g.mean()) * ELO
        seats += [{"players": n, "seat": s + 1, "elo": float(centred[s])} for s in range(n)]
    return anchored(theta * ELO), seats


def order_log_probability(agents, ranks, strengths, seat_terms=None) -> np.ndarray:
    """Log-probability of each game's finishing order (natural log) under PL with
    ``strengths`` per agent (natural-log scale) and optional ``seat_terms`` per seat."""
    eta = np.asarray(strengths)[agents]
    if seat_terms is not None:
        eta = eta + np.asarray(seat_terms)[None, :]
    top = eta.max(axis=1, keepdims=True)
    lam = np.exp(eta - top)
    risk = ranks[:, None, :] >= ranks[:, :, None]
    denom = np.einsum("pst,pt->ps", risk, lam)
    return np.sum(eta - top - np.log(denom), axis=1)
