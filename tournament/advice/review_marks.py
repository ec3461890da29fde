"""How a review marks a decision: the loss thresholds per game, the lower end of a loss's
95% range that the marks read, and Lichess's accuracy."""

from __future__ import annotations

import math

from solvers.base import Z95
from tournament.advice.moves import Triple

MARKS = ("doubtful", "bad", "very bad")
# Loss in points from which a decision is marked doubtful, bad, very bad (per game; about
# 1/40, 1/15 and 1/6 of a typical winning score, see docs/advice.md). Other games: DEFAULT.
THRESHOLDS = {
    "python_coloretto": (1.0, 3.0, 6.0),
    "python_rococo": (2.0, 5.0, 10.0),
    "python_bruxelles": (3.0, 7.0, 14.0),
    "python_staufer": (2.0, 5.0, 10.0),
}
DEFAULT_THRESHOLDS = (1.0, 3.0, 6.0)
# How far a loss in points moves between two reviews with different seeds beyond what its
# paired standard error says (the searched trees differ), per game: the standard deviation
# fitted by `python scripts/bench_advice.py noise` on development games (never the game
# docs/ADVICE-MEASURED.md measures the marks on). The mark's lower bound includes it. Other games: 0.
LOSS_FLOOR = {"python_bruxelles": 1.11, "python_rococo": 0.513, "python_staufer": 0.558}


def thresholds_for(game_string: str) -> tuple[float, float, float]:
    return THRESHOLDS.get(game_string.split("(")[0].strip(), DEFAULT_THRESHOLDS)


def loss_low(gap: Triple, floor: float) -> float:
    """The lower end of a loss's 95% range: mean - Z95 sqrt(se^2 + floor^2), ``se`` from the
    paired interval ``gap`` (mean, low, high; no interval: -inf, never marked)."""
    se = (gap[0] - (-math.inf if gap[1] is None else gap[1])) / Z95
    return gap[0] - Z95 * math.hypot(se, floor)


def mark_for(loss: float | None, low: float | None, limits: tuple[float, ...]) -> str | None:
    """The mark of a loss in points (None: no mark): the highest threshold the lower bound
    ``low`` of the loss's paired 95% interval reaches (a loss whose interval holds 0 is
    never marked)."""
    if loss is None or low is None or low <= 0.0:
        return None
    found = None
    for name, limit in zip(MARKS, limits, strict=True):
        if low >= limit:
            found = name
    return found


def accuracy(loss_first: float | None) -> float | None:
    """Lichess's move accuracy from a loss in chance to finish first (0-1); none is 100."""
    if loss_first is None or loss_first <= 0:
        return None if loss_first is None else 100.0
    return max(0.0, 103.1668 * math.exp(-0.04354 * 100 * loss_first) - 3.1669)
