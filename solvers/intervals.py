"""Confidence intervals of shares shared by the solvers and the tournament reports."""

from __future__ import annotations

import math


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share over ``n`` trials (the share may be fractional)."""
    if n <= 0:
        return float("nan"), float("nan")
    d = 1 + z * z / n
    mid = (share + z * z / (2 * n)) / d
    half = z / d * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return max(0.0, mid - half), min(1.0, mid + half)
