"""Seat orders of a line-up: pure functions of the agent names (no config, no games).

``tournament.schedule`` turns them into games; ``tournament.config`` counts them.
"""

from __future__ import annotations

import functools
import itertools


def rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    n = len(lineup)
    return [tuple(lineup[(i + r) % n] for i in range(n)) for r in range(n)]


def seatings(lineup: tuple[str, ...], seating: str = "rotations") -> list[tuple[str, ...]]:
    """The seat orders a line-up is played in (index = the ledger's ``rotation``).

    ``rotations``: the n cyclic rotations, so each agent sits in each seat once, but each
    always sits right after the same agent (at 3 players A->B->C->A in every game).
    ``permutations``: every distinct seat order, the distinct rotations first (so when a
    line-up's rotations all differ their indices are as with ``rotations``; with repeats,
    e.g. (a, b, a, b), a rotation that repeats an earlier one is not played twice and the
    indices after it shift) and the other orders after them in sorted order; who plays
    after whom is then balanced as well as who sits where. ``balanced`` shares this index
    space but plays only some of these orders at each seed (``schedule.seat_orders``)."""
    turns = rotations(lineup)
    if seating == "rotations":
        return turns
    if seating not in ("permutations", "balanced"):
        raise ValueError(f"unknown seating {seating!r}")
    out = list(dict.fromkeys(turns))
    seen = set(out)
    out += [p for p in sorted(set(itertools.permutations(lineup))) if p not in seen]
    return out


Order = tuple[int, tuple[str, ...]]  # (index among the permutations, seats)


@functools.lru_cache(maxsize=1024)
def cyclic_orders(lineup: tuple[str, ...]) -> tuple[tuple[Order, ...], ...]:
    """The seat orders of ``seatings(lineup, "permutations")`` grouped by cyclic order:
    each group is one order of play around the table under its distinct rotations, as
    (index in the permutations list, seats); the line-up's own rotations come first.
    Cached: a balanced schedule asks once per line-up and seed."""
    perms = seatings(lineup, "permutations")
    index = {p: i for i, p in enumerate(perms)}
    groups: list[tuple[Order, ...]] = []
    seen: set[tuple[str, ...]] = set()
    for p in perms:
        if p in seen:
            continue
        group = tuple((index[q], q) for q in dict.fromkeys(rotations(p)))
        seen.update(q for _, q in group)
        groups.append(group)
    return tuple(groups)
