"""Separation: when the results leave a rating unbounded, and the finite side of its interval.

Hunter (2004): the Bradley-Terry likelihood has a finite maximum iff the directed graph
"i beat or drew j" is strongly connected. When it is not, its strongly connected
components are ordered (a chain, or more generally a partial order): some gaps between
them can grow without end, the likelihood still rising, and only the prior (OpenSpiel's
smoothing, :data:`PRIOR_WIN`) stops them. A rating is reported relative to an anchor
set ``F`` (the mean of ``F``'s agents, or one pinned agent), so the rule is:

- ``F``, for the mean anchor: the agents of each comparison component that lie in no
  *top* component (no agent outside it beat or drew one of it) and no *bottom* one (it beat
  or drew no agent outside it), and that this rule leaves out of ``F`` in no more than
  (1 - confidence)/2 of the bootstrap resamples; if none, the component's largest strongly connected components
  (both agents of a perfect record, {B, C, D} when A lost every game). A pinned
  ``--anchor`` agent is ``F`` for its comparison component.
- Agent ``i``'s **upper end is open** unless every agent of ``F`` is above or level with it
  through a chain of results (a path ``f -> ... -> i``); its set of such agents ``U`` (the
  agents above or level with it, itself included) won every game against the others.
- Its **lower end is open** unless it reaches every agent of ``F`` through such a chain; the
  agents it reaches ``D`` lost every game against the others.
- Both can hold: in a chain top > X > i > Y > bottom, ``F`` = {X, i, Y} and ``i`` is
  unbounded both ways relative to their mean. A top agent of a chain has its lower end
  finite (it reaches all of ``F``); one that won every game is the one-agent case.

The finite side of a one-sided interval is not the fit's point estimate (the prior's
ceiling) but an exact bound on the data: the games across the separation (``U`` against
the rest, or the rest against ``D``) were all won by one side; their count ``n`` gives the
one-sided Clopper-Pearson bound ``alpha ** (1 / n)`` on that side's score (``alpha`` =
(1 - confidence) / 2, as for each end of a two-sided interval). Those games' results are
replaced by that score (each crossing pair keeps its count, its wins scaled by the bound,
the rest turned into losses), the model is refitted (:func:`fit_fractional`, same prior),
anchored as the real fit, and the agent's rating in it is its finite bound. The bound
treats the games as independent (a duplicate set's games are not; separated results
leave no spread to resample) and the other agents' ratings at their fit; 400 wins of 400
give a gap of at least 813 Elo (A at +406 over the mean of two), where the fit says 1841.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tournament.ratings.pairs import block_weights

ANCHOR_RESAMPLES = 1000  # fixed resamples that choose the mean anchor's agents
# an agent stays in the mean anchor only if separated in at most (1 - confidence)/2 /
# ANCHOR_MARGIN of them: a margin, so that no anchor agent is separated in more than
# (1 - confidence)/2 of the bootstrap's own resamples, which would open every other
# agent's end relative to the anchor (was: at the threshold itself, random in `meeple
# demo` was separated in 2.5% of the fixed resamples and 3-4.5% of the bootstrap's, and
# three of four agents showed +inf)
ANCHOR_MARGIN = 4
ANCHOR_SEED = 0x5EED
PRIOR_WIN = 0.01  # OpenSpiel's smoothing_factor: a virtual win each way between every pair
TOL = 1e-10


@dataclass
class Separation:
    high: np.ndarray  # (k,) bool: upper end open
    low: np.ndarray  # (k,) bool: lower end open
    anchor: np.ndarray  # (k,) bool: the agents the mean anchor averages
    up: np.ndarray  # (k, k) bool: up[i] = U of agent i (the agents above or level with it)
    down: np.ndarray  # (k, k) bool: down[i] = D of agent i (the agents it reaches)
    comp: np.ndarray  # (k, k) bool: same comparison component
    scc: np.ndarray  # (k, k) bool: same strongly connected component


def _closure(edges: np.ndarray) -> np.ndarray:
    """Reachability (reflexive) of a directed graph given as a boolean matrix."""
    k = len(edges)
    reach = edges | np.eye(k, dtype=bool)
    for _ in range(max(1, int(np.ceil(np.log2(max(k, 2)))))):
        reach = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
    return reach


def separate(
    beat: np.ndarray, anchor_index: int | None = None, anchor: np.ndarray | None = None
) -> Separation:
    """The open ends of every agent's interval from ``beat[i, j]``: i beat or drew j at
    least once (the rule of the module docstring). ``anchor``: the mean anchor's agents
    when already chosen (the full results' for a bootstrap resample), else by the rule."""
    beat = np.asarray(beat, dtype=bool).copy()
    np.fill_diagonal(beat, False)
    reach = _closure(beat)  # reach[i, j]: a chain of results from i down to j
    comp = _closure(beat | beat.T)
    scc = reach & reach.T
    whole = (scc == comp).all(axis=1)  # its component is strongly connected
    top = ((reach.T & comp) == scc).all(axis=1) & ~whole  # only its own SCC reaches it
    bottom = ((reach & comp) == scc).all(axis=1) & ~whole
    extreme = top | bottom
    anchor = mean_anchor(comp, scc, ~extreme) if anchor is None else anchor.copy()
    if anchor_index is not None:
        anchor &= ~comp[anchor_index]
        anchor[anchor_index] = True
    outside = comp & anchor[None, :]  # per agent: F of its component
    high = (outside & ~reach.T).any(axis=1)  # an agent of F is not above or level with it
    low = (outside & ~reach).any(axis=1)  # it does not reach an agent of F
    return Separation(high, low, anchor, reach.T & comp, reach & comp, comp, scc)


def mean_anchor(comp: np.ndarray, scc: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The ``keep`` agents of each comparison component; if it has none, its largest
    strongly connected components (all of a two-agent split, the three of a 3-1 one)."""
    anchor = np.asarray(keep, dtype=bool).copy()
    size = scc.sum(axis=1)
    for i in range(len(comp)):
        if not (anchor & comp[i]).any():
            anchor |= comp[i] & (size == size[comp[i]].max())
    return anchor


def anchor_words(names: list[str], anchor: np.ndarray, confidence: float = 0.95) -> str:
    """The mean anchor in words: every agent's, or which agents it averages."""
    if anchor.all():
        return "mean rating = 0"
    left = ", ".join(n for n, a in zip(names, anchor, strict=True) if not a)
    kept = ", ".join(n for n, a in zip(names, anchor, strict=True) if a)
    head = (
        f"{kept} = 0 (the only agent left for reference: an interval of no width"
        if anchor.sum() == 1
        else f"mean rating of {kept} = 0 ("
    )
    return (
        f"{head}{'; ' if anchor.sum() == 1 else ''}{left} left out: separated results, in the "
        f"data or in more than {(1 - confidence) / 2 / ANCHOR_MARGIN:.1%} of "
        f"{ANCHOR_RESAMPLES:,} fixed resamples, leave their ratings to the prior)"
    )


def anchor_beats(rec) -> list[np.ndarray]:
    """The "beat or drew" matrices of ``ANCHOR_RESAMPLES`` resamples drawn with a fixed
    seed: what chooses the mean anchor's agents (none for a single duplicate set)."""
    if rec.num_blocks <= 1:
        return []
    rng = np.random.default_rng(ANCHOR_SEED)
    weights = block_weights(rng, rec.num_blocks, ANCHOR_RESAMPLES)
    wins, draws = rec.matrices_many(weights)
    return list(wins + draws > 0)


def with_resamples(
    beat, beats: list, anchor_index: int | None, confidence: float = 0.95, anchor_beats=None
):
    """(``separate`` on the full results, the share of the resamples ``beats`` opening each
    agent's (upper, lower) end or None). The mean anchor also leaves out the agents
    separated in more than (1 - confidence)/2 / ANCHOR_MARGIN of the resamples
    ``anchor_beats`` (their "beat or drew" matrices; ``beats`` when not given): the
    ratings' own fixed resamples
    (``ANCHOR_RESAMPLES``), so that the anchor, and with it every
    point rating, does not move with ``--seed`` or ``--bootstrap``. A resample's open ends
    are judged against that anchor."""
    sep = separate(beat, anchor_index)
    anchor_beats = beats if anchor_beats is None else anchor_beats
    if anchor_beats:
        q = (1.0 - confidence) / 2.0 / ANCHOR_MARGIN
        out = np.mean([~separate(b).anchor for b in anchor_beats], axis=0)
        keep = sep.anchor & (out <= q)
        sep = separate(beat, anchor_index, mean_anchor(sep.comp, sep.scc, keep))
    return sep, opened_shares(sep, beats, anchor_index)


def opened_shares(sep: Separation, beats: list, anchor_index: int | None):
    """Per agent, the share of the resamples ``beats`` that leave its (upper, lower) end
    open, judged against ``sep``'s anchor; None without resamples."""
    if not beats:
        return None
    opened = np.mean(
        [[s.high, s.low] for s in (separate(b, anchor_index, sep.anchor) for b in beats)], axis=0
    )
    return opened[0], opened[1]


def fit_fractional(wins: np.ndarray, iterations: int = 10_000) -> np.ndarray:
    """Bradley-Terry Elo from real-valued wins (row over column, a draw half each way), by
    MM, with OpenSpiel's smoothing: ``PRIOR_WIN`` added to the wins each way of every pair
    (equal to ``pyspiel.elo`` on integer results, tested)."""
    k = len(wins)
    w = np.clip(wins, 0.0, None) + PRIOR_WIN
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


def exact_bounds(score: np.ndarray, sep: Separation, anchored, confidence: float = 0.95):
    """(low, high): the finite side of each one-sided interval from the games across its
    separation (module docstring); NaN where the side is open or two-sided. ``score`` is
    (k, k) wins of row over column with draws as half; ``anchored`` anchors a rating vector
    as the reported fit is."""
    alpha = (1.0 - confidence) / 2.0
    k = len(score)
    low, high = np.full(k, np.nan), np.full(k, np.nan)
    cache: dict[bytes, np.ndarray] = {}

    def refit(winners: np.ndarray) -> np.ndarray:
        key = winners.tobytes()
        if key not in cache:
            cross = winners[:, None] & ~winners[None, :] & sep.comp
            n = float(score[cross].sum())
            bound = alpha ** (1.0 / n) if n > 0 else 0.0
            w = score.astype(float).copy()
            w.T[cross] = score[cross] * (1.0 - bound)
            w[cross] = score[cross] * bound
            cache[key] = anchored(fit_fractional(w))
        return cache[key]

    for i in range(k):
        if sep.high[i] and not sep.low[i]:
            low[i] = refit(sep.up[i])[i]
        elif sep.low[i] and not sep.high[i]:
            high[i] = refit(~sep.down[i] & sep.comp[i])[i]
    return low, high


def _group(names: list[str], members: np.ndarray) -> str:
    return "{" + ", ".join(n for n, m in zip(names, members, strict=True) if m) + "}"


def _why(names: list[str], sep: Separation, i: int) -> str:
    """Which separation leaves agent ``i``'s interval open, in words."""
    parts = []
    if sep.high[i]:
        alone = sep.up[i].sum() == 1
        parts.append(
            "won every game"
            if alone
            else f"is in {_group(names, sep.up[i])}, which won every game against the others"
        )
    if sep.low[i]:
        alone = sep.down[i].sum() == 1
        lost = f"{_group(names, sep.down[i])}, which lost every game against the others"
        parts.append("lost every game" if alone else ("and in " if parts else "is in ") + lost)
    return " ".join(parts) if sep.high[i] != sep.low[i] else ", ".join(parts)


def open_ends(
    names: list[str],
    sep: Separation,
    low: np.ndarray,
    high: np.ndarray,
    exact: tuple[np.ndarray, np.ndarray],
    resampled: tuple[np.ndarray, np.ndarray] | None = None,
    confidence: float = 0.95,
) -> list[str]:
    """Open the ends ``sep`` leaves unbounded (±inf), set their finite side to the
    ``exact`` bound (:func:`exact_bounds`), and open an end that more than (1 - confidence)/2
    of the bootstrap resamples leave unbounded (``resampled``: per agent, the share of the
    resamples with its upper, lower end open). Returns the note per agent ("" if none)."""
    q = (1.0 - confidence) / 2.0
    share_high, share_low = resampled if resampled is not None else (np.zeros(len(names)),) * 2
    out = []
    for i in range(len(names)):
        if sep.high[i] or sep.low[i]:
            high[i] = math.inf if sep.high[i] else high[i]
            low[i] = -math.inf if sep.low[i] else low[i]
            why = _why(names, sep, i)
            if sep.high[i] and sep.low[i]:
                out.append(f"{why}: no bound on either side (relative to the anchor)")
                continue
            side, value = ("lower", exact[0][i]) if sep.high[i] else ("upper", exact[1][i])
            if sep.high[i]:  # NaN: no two-sided interval was measured (no resamples)
                low[i] = value if math.isnan(low[i]) else min(low[i], value)
            else:
                high[i] = value if math.isnan(high[i]) else max(high[i], value)
            out.append(
                f"{why}: one-sided interval ({side} bound only); the {side} bound is exact "
                "(Clopper-Pearson on the games across the separation), its Elo what the "
                "prior allows, not a measurement"
            )
        elif share_high[i] > q or share_low[i] > q:
            up = share_high[i] > q
            share = share_high[i] if up else share_low[i]
            if up:
                high[i] = math.inf
            else:
                low[i] = -math.inf
            out.append(
                f"is unbounded {'above' if up else 'below'} (separated results: a perfect "
                f"record, alone or in a group) in {share:.1%} of the bootstrap resamples, more "
                f"than the {q:.1%} an end may leave out: one-sided interval "
                f"({'lower' if up else 'upper'} bound only)"
            )
        else:
            out.append("")
    return out
