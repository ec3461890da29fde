"""Die Staufer position evaluation for search: each player's expected final score.

``scores()`` already applies the final scoring (jobs, end bonuses) to the current
position. On top of it this adds the majorities of the regions this round scores,
as they stand now: each player gets the point tile award of its current place
(the award is still open, so it counts for ``PENDING_WEIGHT`` of its value).

``spread`` is the uncertainty of a score difference, large early, small late.
"""

from __future__ import annotations

# ----- game internals (re-point here when the game's modules move) -----------------------
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.state import ROUND

# -----------------------------------------------------------------------------------------

PENDING_WEIGHT = 0.7


def _round(c) -> int:
    return min(c.v[ROUND], c.t.cfg.rounds - 1)


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    base = [float(x) for x in state.scores()]
    if state.is_terminal():
        return base
    c = state._s
    for pos in S.scored_positions(c):
        counts, left = S.majority_counts(c, pos)
        if not any(counts):
            continue
        tile = R.POINT_TILES[c.tile_at[pos]]
        for p, a in enumerate(S.region_awards(counts, left, tile)):
            base[p] += PENDING_WEIGHT * a
    return base


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position."""
    c = state._s
    rounds = c.t.cfg.rounds
    return 4.0 + 20.0 * (rounds - _round(c)) / rounds
