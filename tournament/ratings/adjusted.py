"""Elo on luck-adjusted results (`meeple ratings --luck-adjusted`).

Each pairwise result of a game (1 ahead, 1/2 tie, 0 behind) less a share of the luck of
the game's chance events in that pair's chance of finishing ahead (``tournament.luck``;
the share is the control variate's coefficient, fitted on the other half of the
duplicate sets) is an unbiased estimate of the probability of finishing ahead, with less
noise when the luck bears on the result; it is no longer 0 or 1, so the Bradley-Terry fit takes fractional wins (summed per pair, negative sums clipped
at 0). The fit is the MM algorithm with the pairwise fit's prior (OpenSpiel's smoothing,
0.01 added to the wins each way of every pair), the intervals the same bootstrap over duplicate sets. The
crosstable, seats and α-Rank stay on the raw results; Plackett-Luce is not shown (it
rates orders, which luck does not adjust).
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csc_matrix

from tournament.luck import cross_fitted_scale
from tournament.ratings.fit import PRIOR_DRAW, Ratings, _anchor
from tournament.ratings.pairs import block_bounds

TOL = 1e-10


def fit_fractional(wins: np.ndarray, iterations: int = 10_000) -> np.ndarray:
    """Bradley-Terry Elo from real-valued wins (row over column), by MM, with OpenSpiel's
    smoothing: ``PRIOR_DRAW`` added to the wins each way of every pair (equal to
    ``pyspiel.elo`` on integer results, tested)."""
    k = len(wins)
    w = np.clip(wins, 0.0, None) + PRIOR_DRAW
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    total = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(iterations):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = total / denom
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(p))) < TOL:
            p = new
            break
        p = new
    return 400.0 * np.log10(p)


def _cells(groups, k: int, luck: dict) -> tuple[csc_matrix, float]:
    """(row agent, column agent) x duplicate set: summed adjusted results, and the mean
    share of the luck subtracted."""
    cells, blocks, results, lucks = [], [], [], []
    for g in groups:
        n = g.agents.shape[1]
        pairs = [
            np.asarray(luck[gid]["pairs"]) if g.ids is not None and gid in luck else None
            for gid in (g.ids if g.ids is not None else [None] * len(g.agents))
        ]
        for row in range(len(g.agents)):
            a, r, lk = g.agents[row], g.ranks[row], pairs[row]
            for i in range(n):
                for j in range(n):
                    if i == j or a[i] == a[j]:
                        continue
                    result = 1.0 if r[i] < r[j] else 0.5 if r[i] == r[j] else 0.0
                    cells.append(a[i] * k + a[j])
                    blocks.append(g.blocks[row])
                    results.append(result)
                    lucks.append(lk[i, j] if lk is not None else 0.0)
    num_blocks = int(max((g.blocks.max() + 1 for g in groups if len(g.blocks)), default=1))
    beta = cross_fitted_scale(results, lucks, np.asarray(blocks) % 2)
    values = np.asarray(results) - beta * np.asarray(lucks)
    matrix = csc_matrix((values, (cells, blocks)), shape=(k * k, num_blocks))
    return matrix, float(beta.mean()) if len(beta) else 0.0


def adjust(
    r: Ratings,
    groups,
    luck: dict,
    bootstrap: int,
    anchor,
    seed: int = 0,
    confidence=0.95,
    luck_value: str = "lookahead",
) -> None:
    """Replace ``r``'s Elo and intervals by the fit on luck-adjusted results
    (``luck_value``: the value function the luck was measured with, named in the report)."""
    k = len(r.agents)
    m, beta = _cells(groups, k, luck)
    index, value, _ = _anchor(r.agents, anchor)

    def anchored(e: np.ndarray) -> np.ndarray:
        return e - (e.mean() if index is None else e[index]) + value

    elo = anchored(fit_fractional(np.asarray(m.sum(axis=1)).reshape(k, k)))
    lo, hi = elo.copy(), elo.copy()
    blocks = m.shape[1]
    if bootstrap > 0 and blocks > 1:
        rng = np.random.default_rng(seed)
        draws = []
        for _ in range(bootstrap):
            mult = np.bincount(rng.integers(blocks, size=blocks), minlength=blocks)
            draws.append(anchored(fit_fractional((m @ mult.astype(float)).reshape(k, k))))
        lo, hi = block_bounds(draws, elo, blocks, confidence)
    measured = sum(1 for g in groups for gid in (g.ids if g.ids is not None else []) if gid in luck)
    games = sum(len(g.agents) for g in groups)
    r.elo, r.ci_low, r.ci_high = elo, np.minimum(lo, elo), np.maximum(hi, elo)
    r.one_sided = [""] * k
    r.plackett_luce = None
    r.luck = (
        f"Elo on pairwise results less {beta:.2f} of each game's luck (chance events and "
        f"known-strategy agents' decisions, valued by {luck_value}; the share "
        f"fitted on the other half of the duplicate sets; {measured} of {games} rated games "
        "measured, failed games raw); crosstable, seats and alpharank on raw results"
    )
