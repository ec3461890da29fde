"""Count-vector decks and bags.

A deck (or bag, or stack) is a list of counts indexed by card type. The order of
identical cards never matters to the rules, so a draw is a chance node whose
outcomes are the card *types* still present, each with probability
count / total. Drawing only decrements one count: states stay small, cheap to
copy, and information-state strings are independent of the physical order.
"""

from __future__ import annotations

from collections.abc import Sequence


def total(counts: Sequence[int]) -> int:
    return sum(counts)


def draw_outcomes(counts: Sequence[int]) -> list[tuple[int, float]]:
    """Chance outcomes for drawing one card: (type, exact probability), sorted by type."""
    n = sum(counts)
    if n <= 0:
        raise ValueError("cannot draw from an empty deck")
    return [(t, c / n) for t, c in enumerate(counts) if c > 0]


def draw(counts: list[int], card_type: int) -> None:
    """Remove one card of `card_type` in place; raise if none is left."""
    if counts[card_type] <= 0:
        raise ValueError(f"no card of type {card_type} left to draw")
    counts[card_type] -= 1


def uniform_outcomes(choices: Sequence[int]) -> list[tuple[int, float]]:
    """Chance outcomes picking uniformly among distinct `choices` (sorted)."""
    if not choices:
        raise ValueError("no outcomes to choose from")
    p = 1.0 / len(choices)
    return [(c, p) for c in sorted(choices)]


def draw_many_outcomes(counts: Sequence[int], k: int) -> list[tuple[tuple[int, ...], float]]:
    """Outcomes of drawing `k` cards at once, aggregated as sorted multisets.

    Returns (multiset as a sorted tuple of types, probability). Used for small k
    only (the number of outcomes grows combinatorially).
    """
    from math import comb

    n = sum(counts)
    if k > n:
        raise ValueError(f"cannot draw {k} cards from a deck of {n}")
    denom = comb(n, k)
    out: list[tuple[tuple[int, ...], float]] = []

    def rec(t: int, left: int, picked: list[int], ways: int) -> None:
        if left == 0:
            out.append((tuple(picked), ways / denom))
            return
        if t >= len(counts):
            return
        for take in range(min(left, counts[t]), -1, -1):
            rec(t + 1, left - take, picked + [t] * take, ways * comb(counts[t], take))

    rec(0, k, [], 1)
    out.sort()
    return out
