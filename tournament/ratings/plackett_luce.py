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
game of a small table, or of a bootstrap resample, keeps a finite term. Intervals: the same percentile bootstrap over duplicate sets as Elo.

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

from tournament.ratings.pairs import block_bounds

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


def _pair_prior(x: np.ndarray, i: np.ndarray, j: np.ndarray, grad: np.ndarray) -> float:
    """The log-prior of a virtual ``PRIOR`` win each way between the pairs (i, j) of
    strengths ``x``; its gradient is added to ``grad`` (a view, updated in place)."""
    diff = x[i] - x[j]
    d = PRIOR * (1.0 - 2.0 / (1.0 + np.exp(-diff)))  # d/d diff of both terms
    grad += np.bincount(i, d, minlength=len(x)) - np.bincount(j, d, minlength=len(x))
    return float(PRIOR * np.sum(-np.logaddexp(0.0, -diff) - np.logaddexp(0.0, diff)))


class Model:
    """The negative log-likelihood and its gradient for weighted patterns."""

    def __init__(self, pats: list[Patterns], k: int):
        self.pats, self.k = pats, k
        self.sizes = [p.agents.shape[1] for p in pats]
        self.offsets = np.cumsum([k] + [n - 1 for n in self.sizes])
        self.dim = int(self.offsets[-1])
        self.risk = [(p.ranks[:, None, :] >= p.ranks[:, :, None]) for p in pats]  # [p, s, t]
        self.pair_i, self.pair_j = np.triu_indices(k, 1)

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
        total += _pair_prior(theta, self.pair_i, self.pair_j, grad[: self.k])
        for i, g in enumerate(gammas):
            si, sj = np.triu_indices(len(g), 1)
            seat_grad = np.zeros(len(g))
            total += _pair_prior(g, si, sj, seat_grad)
            grad[self.offsets[i] : self.offsets[i + 1]] += seat_grad[1:]
        return -total, -grad

    def fit(self, weights: list[np.ndarray], start: np.ndarray | None = None) -> np.ndarray:
        x0 = np.zeros(self.dim) if start is None else start
        res = minimize(self, x0, args=(weights,), jac=True, method="BFGS")
        return res.x


@dataclass
class PLRatings:
    elo: np.ndarray  # per agent, Elo scale, same anchor as the Elo fit
    ci_low: np.ndarray
    ci_high: np.ndarray
    seats: list[dict] = field(default_factory=list)  # players, seat, elo, ci_low, ci_high
    log_likelihood: float = 0.0  # of the rated games' finishing orders, natural log


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
    seat terms, with bootstrap intervals over the ``num_blocks`` duplicate sets."""
    pats = patterns(groups, num_blocks)
    model = Model(pats, k)
    full = [p.weights() for p in pats]
    x = model.fit(full)
    elo, seats = _scaled(model, x, anchored)
    lo, hi = np.full(k, np.nan), np.full(k, np.nan)  # not measured without resamples
    seat_est = [s["elo"] for s in seats]
    seat_lo = [math.nan for _ in seats]
    seat_hi = list(seat_lo)
    if bootstrap > 0 and num_blocks > 1:
        rng = np.random.default_rng(seed)
        draws, seat_draws = [], []
        for _ in range(bootstrap):
            mult = np.bincount(rng.integers(num_blocks, size=num_blocks), minlength=num_blocks)
            e, s = _scaled(model, model.fit([p.weights(mult) for p in pats], x), anchored)
            draws.append(e)
            seat_draws.append([row["elo"] for row in s])
        lo, hi = block_bounds(draws, elo, num_blocks, confidence)
        s_lo, s_hi = block_bounds(seat_draws, seat_est, num_blocks, confidence)
        seat_lo, seat_hi = list(s_lo), list(s_hi)
    for row, a, b in zip(seats, seat_lo, seat_hi, strict=True):
        if math.isnan(a):  # no resamples: no interval
            row["ci_low"] = row["ci_high"] = math.nan
        else:
            row["ci_low"], row["ci_high"] = min(float(a), row["elo"]), max(float(b), row["elo"])
    loglik = -model(x, full)[0] - _prior_only(model, x)
    return PLRatings(elo, np.minimum(lo, elo), np.maximum(hi, elo), seats, loglik)


def _prior_only(model: Model, x: np.ndarray) -> float:
    """The log-prior at ``x`` (agents' and seats'), which the log-likelihood leaves out."""
    theta, gammas = model.split(x)
    total = _pair_prior(theta, model.pair_i, model.pair_j, np.zeros(model.k))
    for g in gammas:
        si, sj = np.triu_indices(len(g), 1)
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
