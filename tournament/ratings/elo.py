"""The pairwise Bradley-Terry fit (OpenSpiel's MM, ``pyspiel.elo``) and the tables computed
beside it from the same win matrix: likelihood of superiority, comparison components,
alpha-Rank; ``elo_samples`` for the adaptive schedule's looks."""

from __future__ import annotations

import math

import numpy as np

from tournament.ratings.pairs import (
    Games,
    PairRecords,
    block_weights,
    pairwise,
    small_sample_factor,
)


def elo_samples(groups: list[Games], k: int, bootstrap: int, seed: int = 0):
    """(Elo, bootstrap replicates (B, k)), each centred on its mean: the pairwise fit on
    ``groups`` and on ``bootstrap`` resamples of their duplicate sets, each replicate's
    distance from the fit stretched by ``small_sample_factor`` as the report's intervals
    are (so a decision taken on few sets is no surer than those intervals)."""
    parts = [pairwise(g, k) for g in groups]
    blk, a, b, w = (np.concatenate([p[i] for p in parts]) for i in range(4))
    num_blocks = int(max((g.blocks.max() + 1 for g in groups if len(g.blocks)), default=1))
    rec = PairRecords(blk, a, b, w, k, num_blocks)
    elo = fit_elo(*rec.matrices())
    weights = block_weights(np.random.default_rng(seed), num_blocks, bootstrap)
    samples = fit_elo_many(*rec.matrices_many(weights))
    elo, samples = elo - elo.mean(), samples - samples.mean(axis=1, keepdims=True)
    return elo, elo + (samples - elo) * small_sample_factor(num_blocks)


def _elo_options():
    import pyspiel

    return pyspiel.elo.default_elo_options()


def prior_text() -> str:
    """The fit's prior as one line for reports (read from OpenSpiel, not restated)."""
    return (
        f"OpenSpiel Bradley-Terry MM fit, smoothing_factor {_elo_options().smoothing_factor:g} "
        "(a virtual win of that weight each way between every pair, a draw of twice that)"
    )


def fit_elo(wins: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """OpenSpiel's MM Bradley–Terry fit on integer win and (symmetric) draw matrices."""
    return fit_elo_many(wins[None], draws[None])[0]


def fit_elo_many(wins: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """``fit_elo`` on each of a stack of (win, draw) matrices, (replicates, k, k) each, as
    a (replicates, k) array: the matrices become Python lists in one call per stack, and
    the options are read once (the bootstraps' hot path)."""
    import pyspiel

    options = _elo_options()
    compute = pyspiel.elo.compute_ratings_from_matrices
    fits = [
        compute(win_matrix=w, draw_matrix=d, options=options)
        for w, d in zip(wins.tolist(), draws.tolist(), strict=True)
    ]
    return np.asarray(fits, dtype=float).reshape(len(wins), wins.shape[-1])


def los_matrix(wins: np.ndarray) -> np.ndarray:
    """P(row stronger than column) from head-to-head wins and losses (normal approximation)."""
    won, lost = wins.astype(float), wins.T.astype(float)
    n = won + lost
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (won - lost) / np.sqrt(2.0 * n)
    los = 0.5 * (1.0 + np.vectorize(math.erf)(np.nan_to_num(z)))
    los[n == 0] = np.nan
    np.fill_diagonal(los, np.nan)
    return los


def components(wins: np.ndarray, draws: np.ndarray) -> list[list[int]]:
    k = len(wins)
    parent = list(range(k))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    played = (wins + wins.T + draws) > 0
    for i in range(k):
        for j in range(k):
            if played[i, j]:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(k):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g))


def alpha_rank(wins: np.ndarray, draws: np.ndarray) -> np.ndarray | None:
    """α-Rank stationary mass on the pairwise score-rate table; None if a pair never met."""
    from open_spiel.python.egt import alpharank

    k = len(wins)
    n = wins + wins.T + draws
    off = ~np.eye(k, dtype=bool)
    if k < 2 or (n[off] == 0).any():
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        payoff = (wins + 0.5 * draws) / n
    np.fill_diagonal(payoff, 0.5)
    _, _, pi, _, _ = alpharank.compute([payoff], use_inf_alpha=True, inf_alpha_eps=0.01)
    return np.asarray(pi, dtype=float)


def majority_cycle(wins: np.ndarray, draws: np.ndarray) -> bool:
    """Whether the pairwise score rates hold a cycle of majorities (A ahead of B more often
    than not, B of C, C of A): the intransitive table alpha-Rank is for. Without one, its
    stationary mass at alpha -> infinity only repeats the order (the top agent near 1)."""
    n = wins + wins.T + draws
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = (wins + 0.5 * draws) / n
    ahead = np.nan_to_num(rate) > 0.5
    np.fill_diagonal(ahead, False)
    left = list(range(len(wins)))
    while left:  # peel agents no one left is ahead of; a cycle leaves none to peel
        free = [i for i in left if not ahead[left, i].any()]
        if not free:
            return True
        left = [i for i in left if i not in free]
    return False
