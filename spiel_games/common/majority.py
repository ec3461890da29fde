"""Majority scoring: award place values to the players with the most of something.

Used by Rococo (hall majorities), Bruxelles 1893 (area majorities) and Die
Staufer (region majorities). Tie policies differ between games, so they are
explicit:

- ``share``: tied players add up the values of the places they occupy and split
  the sum equally (rounded down to `granularity` when given).
- ``all_full``: every tied player receives the full value of the best place
  they share; following places are skipped as usual.
- ``all_lower``: tied players all receive the value of the *lowest* place they
  span (a common "friendly" tie rule).
- ``none``: tied players get nothing for those places; the next player moves up.
- ``order``: ties are broken by the `order` key (higher wins; e.g. who got there
  first / leftmost seat), so there are no ties left.

Players with a count of zero (or below `minimum`) never score.
"""

from __future__ import annotations

from collections.abc import Sequence

TIE_POLICIES = ("share", "all_full", "all_lower", "none", "order")


def majority_awards(
    counts: Sequence[int],
    values: Sequence[float],
    tie: str = "share",
    order: Sequence | None = None,
    minimum: int = 1,
    round_down: bool = False,
) -> list[float]:
    """Return the award of each player.

    counts: per-player count; values: place values (values[0] for first place).
    """
    if tie not in TIE_POLICIES:
        raise ValueError(f"unknown tie policy {tie!r}; expected one of {TIE_POLICIES}")
    n = len(counts)
    awards = [0.0] * n
    eligible = [i for i in range(n) if counts[i] >= minimum]
    if tie == "order":
        if order is None:
            raise ValueError("tie policy 'order' needs an order key per player")
        eligible.sort(key=lambda i: (counts[i], order[i]), reverse=True)
        for place, i in enumerate(eligible[: len(values)]):
            awards[i] = float(values[place])
        return awards
    # Group eligible players by count, best first.
    levels = sorted({counts[i] for i in eligible}, reverse=True)
    place = 0
    for level in levels:
        if place >= len(values):
            break
        group = [i for i in eligible if counts[i] == level]
        span = values[place : place + len(group)]
        if len(group) == 1:
            awards[group[0]] = float(span[0])
        elif tie == "share":
            each = sum(span) / len(group)
            if round_down:
                each = float(int(each))
            for i in group:
                awards[i] = each
        elif tie == "all_full":
            for i in group:
                awards[i] = float(span[0])
        elif tie == "all_lower":
            low = (
                float(values[place + len(group) - 1])
                if place + len(group) - 1 < len(values)
                else 0.0
            )
            for i in group:
                awards[i] = low
        elif tie == "none":
            # Tied players score nothing and the next player moves up.
            continue
        place += len(group)
    return awards
