"""Coloretto position evaluation for search: each player's expected final score.

``scores()`` scores each collection now (best colour choice and joker use). On
top of it, a player who has not yet taken a row this round will still take one:
it counts ``OPEN_ROW_WEIGHT`` of the best gain among the rows on the table
(others may take it first, and more cards may spoil it).

``spread`` is the uncertainty of a score difference: it shrinks with the deck.
"""

from __future__ import annotations

from spiel_games.coloretto.heuristic import row_gain

OPEN_ROW_WEIGHT = 0.5


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    base = [float(x) for x in state.scores()]
    if state.is_terminal():
        return base
    s = state._s
    cfg = s.cfg
    rows = [row for r, row in enumerate(s.rows) if row and not (s.taken >> r) & 1]
    if not rows:
        return base
    for p in range(len(base)):
        if (s.done >> p) & 1:
            continue
        best = max(row_gain(cfg, s.coll[p], row) for row in rows)
        base[p] += OPEN_ROW_WEIGHT * best
    return base


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position."""
    s = state._s
    return 3.0 + 12.0 * s.deck_size / max(1, s.cfg.deck_size_after_setup())
