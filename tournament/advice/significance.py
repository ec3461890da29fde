"""How sure the advice is that its best move beats the runner-up: a z score, paired where
the comparison phase measured the gap on shared samples."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from solvers.base import Z95

if TYPE_CHECKING:
    from tournament.advice.advise import MoveAdvice


def z_score(a: MoveAdvice, b: MoveAdvice) -> float | None:
    """z statistic of value(a) - value(b) from the moves' 95% intervals; None without them."""
    if (
        a.value is None
        or b.value is None
        or a.ci_low is None
        or a.ci_high is None
        or b.ci_low is None
        or b.ci_high is None
    ):
        return None
    se_a = (a.ci_high - a.ci_low) / (2 * Z95)
    se_b = (b.ci_high - b.ci_low) / (2 * Z95)
    se = math.hypot(se_a, se_b)
    diff = a.value - b.value
    if se == 0.0:
        return math.inf if diff > 0 else (-math.inf if diff < 0 else 0.0)
    return diff / se


def paired_z(moves: list[MoveAdvice]) -> float | None:
    """The runner-up's paired gap over its standard error, else the unpaired z score."""
    if len(moves) < 2:
        return None
    gap = moves[1].gap
    if gap is None:
        return z_score(moves[0], moves[1])
    se = (gap[2] - gap[1]) / (2 * Z95)
    if se == 0.0:
        return math.inf if gap[0] > 0 else 0.0
    return gap[0] / se
