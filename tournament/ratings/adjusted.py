"""Elo on luck-adjusted results (`meeple ratings --luck-adjusted`).

Each pairwise result of a game (1 ahead, 1/2 tie, 0 behind) less a share of the luck of
the game's chance events in that pair's chance of finishing ahead (``tournament.luck``;
the share is the control variate's coefficient, fitted on the other half of the
duplicate sets) is an unbiased estimate of the probability of finishing ahead, with less
noise when the luck bears on the result; it is no longer 0 or 1, so the Bradley-Terry fit takes fractional wins (summed per pair, negative sums clipped
at 0). The fit is the MM algorithm with the pairwise fit's prior (OpenSpiel's smoothing,
0.01 added to the wins each way of every pair), the intervals the same bootstrap over duplicate sets,
with the same open ends (``tournament.ratings.separation``) judged on the adjusted results
after the clip, an end the raw results leave open staying open (in the data and in every
resample), and the raw ratings' anchor (less any agent the adjustment separates), so that
the two tables differ by the adjustment, not by their reference. The
crosstable, seats and α-Rank stay on the raw results; Plackett-Luce is not shown (it
rates orders, which luck does not adjust).
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csc_matrix

from tournament.luck import cross_fitted_scale
from tournament.ratings.fit import Ratings, _anchor, _largest_noise, _reference
from tournament.ratings.pairs import block_bounds, bound_noise
from tournament.ratings.separation import (
    ANCHOR_RESAMPLES,
    ANCHOR_SEED,
    anchor_words,
    exact_bounds,
    fit_fractional,
    mean_anchor,
    open_ends,
    opened_shares,
    separate,
    with_resamples,
)

__all__ = ["adjust", "fit_fractional"]


def _cells(groups, k: int, luck: dict) -> tuple[csc_matrix, csc_matrix, float]:
    """(row agent, column agent) x duplicate set: summed adjusted results, summed raw
    results, and the mean share of the luck subtracted."""
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
    raw = csc_matrix((np.asarray(results), (cells, blocks)), shape=(k * k, num_blocks))
    return matrix, raw, float(beta.mean()) if len(beta) else 0.0


def _resamples(m, raw, k: int, n: int, rng) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` resamples of the duplicate sets: (adjusted results, "beat or drew" in the
    adjusted and in the raw results of the same sets) per resample (``k`` agents)."""
    blocks = m.shape[1]
    out = []
    for _ in range(n if blocks > 1 else 0):
        mult = np.bincount(rng.integers(blocks, size=blocks), minlength=blocks).astype(float)
        w = (m @ mult).reshape(k, k)
        out.append((w, (w > 0) & ((raw @ mult).reshape(k, k) > 0)))
    return out


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
    m, raw, beta = _cells(groups, k, luck)
    index, value, _ = _anchor(r.agents, anchor)

    adjusted = np.clip(np.asarray(m.sum(axis=1)).reshape(k, k), 0.0, None)
    # separated in the adjusted results (after the clip) or in the raw ones: the luck's
    # noise must not close an end the games leave open
    beat = (adjusted > 0) & (r.wins + r.draws > 0)
    blocks = m.shape[1]
    resamples = _resamples(m, raw, k, bootstrap, np.random.default_rng(seed))
    fixed = _resamples(m, raw, k, ANCHOR_RESAMPLES, np.random.default_rng(ANCHOR_SEED))
    sep, _ = with_resamples(beat, [], index, confidence, [b for _, b in fixed])
    if index is None and r.anchor_set is not None:  # the raw table's reference
        keep = sep.anchor & r.anchor_set
        sep = separate(beat, index, mean_anchor(sep.comp, sep.scc, keep))
        r.anchor = anchor_words([a.name for a in r.agents], sep.anchor, confidence)
    resampled = opened_shares(sep, [b for _, b in resamples], index)

    def anchored(e: np.ndarray) -> np.ndarray:
        return e - (e[sep.anchor].mean() if index is None else e[index]) + value

    elo = anchored(fit_fractional(adjusted))
    lo, hi = np.full(k, np.nan), np.full(k, np.nan)  # not measured without resamples
    noise = (lo.copy(), hi.copy())
    if resamples:
        draws = [anchored(fit_fractional(w)) for w, _ in resamples]
        lo, hi = block_bounds(draws, elo, blocks, confidence)
        noise = bound_noise(draws, blocks, confidence)
    ref = _reference(index, sep.anchor)  # exact by definition, as in the raw table (was:
    lo[ref] = hi[ref] = elo[ref]  # a lone mean-anchor agent's bounds unmeasured, '-')
    lo, hi = np.minimum(lo, elo), np.maximum(hi, elo)
    exact = exact_bounds(adjusted, sep, anchored, confidence)
    names = [a.name for a in r.agents]
    r.one_sided = open_ends(names, sep, lo, hi, exact, resampled, confidence)
    # the Monte Carlo error of this table's bounds (was: the raw table's, kept)
    r.bound_noise = _largest_noise(noise, r.one_sided, lo, hi, ref, names)
    measured = sum(1 for g in groups for gid in (g.ids if g.ids is not None else []) if gid in luck)
    games = sum(len(g.agents) for g in groups)
    r.elo, r.ci_low, r.ci_high, r.anchor_set = elo, lo, hi, sep.anchor.copy()
    r.plackett_luce = None
    r.luck_value, r.luck_beta = luck_value, beta
    r.luck = (
        f"Elo on pairwise results less {beta:.2f} of each game's luck (chance events and "
        f"known-strategy agents' decisions, valued by {luck_value}; the share "
        f"fitted on the other half of the duplicate sets; {measured} of {games} rated games "
        "measured, failed games raw); crosstable, seats and alpharank on raw results"
    )
