"""The utility convention shared by every game (`utility` game parameter).

- ``rank`` (default): a player's return is (players beaten - players who beat
  them) / (players - 1); tied players neither beat nor are beaten by each other.
  The game is zero-sum and returns lie in [-1, 1].
- ``score``: the raw final score (general-sum).
- ``win``: 1 for the winner, split equally among tied winners (constant-sum 1).

Games compute a final *score* per player and, when they apply a tie-break,
a *tie-break key* per player; both are compared lexicographically as
(score, key). Players equal on both are tied.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel

from spiel_games.common.errors import ConfigError

UTILITY_MODES = ("rank", "score", "win")

__all__ = [
    "UTILITY_MODES",
    "ConfigError",
    "check_mode",
    "ranks",
    "returns_from_keys",
    "utility_bounds",
    "utility_type",
]


def check_mode(mode: str) -> str:
    if mode not in UTILITY_MODES:
        raise ConfigError(f"utility must be one of {', '.join(UTILITY_MODES)}; got {mode!r}")
    return mode


def utility_type(mode: str):
    check_mode(mode)
    return {
        "rank": pyspiel.GameType.Utility.ZERO_SUM,
        "score": pyspiel.GameType.Utility.GENERAL_SUM,
        "win": pyspiel.GameType.Utility.CONSTANT_SUM,
    }[mode]


def utility_bounds(mode: str, min_score: float, max_score: float) -> tuple[float, float, float]:
    """(min_utility, max_utility, utility_sum) for GameInfo. utility_sum is 0 when not constant."""
    check_mode(mode)
    if mode == "rank":
        return -1.0, 1.0, 0.0
    if mode == "win":
        return 0.0, 1.0, 1.0
    return float(min_score), float(max_score), 0.0


def ranks(keys: Sequence) -> list[float]:
    """Competition rank of each player (1 = best); tied players share the best rank."""
    return [1.0 + sum(1 for other in keys if other > k) for k in keys]


def returns_from_keys(
    mode: str, scores: Sequence[float], keys: Sequence | None = None
) -> list[float]:
    """Map final scores (and optional tie-break keys) to returns under `mode`."""
    n = len(scores)
    if keys is None:
        keys = list(scores)
    if mode == "score":
        return [float(s) for s in scores]
    if mode == "rank":
        if n == 1:
            return [0.0]
        out = []
        for k in keys:
            beat = sum(1 for o in keys if o < k)
            lost = sum(1 for o in keys if o > k)
            out.append((beat - lost) / (n - 1))
        return out
    if mode == "win":
        best = max(keys)
        winners = [i for i, k in enumerate(keys) if k == best]
        share = 1.0 / len(winners)
        return [share if i in winners else 0.0 for i in range(n)]
    raise ValueError(f"unknown utility mode {mode!r}")
