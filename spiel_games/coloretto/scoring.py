"""Coloretto scoring: the colour table, the best joker assignment, final scores and returns.

A player's best ``positive`` colours score their table value, every other colour
scores it negatively, each +2 card scores 2 and each joker joins the colour where
it helps most (rulebook, RULES-FACTS 1.5). Ties share their rank (assumed: the
rulebook names no tie-break).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

from spiel_games.coloretto.rules import PLUS2_VALUE
from spiel_games.coloretto.state import Core
from spiel_games.common.utility import returns_from_keys


def colour_value(table: tuple[int, ...], count: int) -> int:
    return table[min(count, len(table) - 1)]


@lru_cache(maxsize=65536)
def best_score(
    colour_counts: tuple[int, ...], plus2: int, jokers: int, table: tuple[int, ...], positive: int
) -> tuple[int, tuple[int, ...]]:
    """Final score with the best joker assignment and the best choice of positive colours.

    Returns (score, final colour counts). Since score = 2 * (sum of the positive
    colours' values) - (sum of all values) + 2 * plus2, the positive colours are
    always those with the highest table values; jokers are assigned by trying
    every distribution (at most a few jokers over at most seven colours).
    """
    best: tuple[int, tuple[int, ...]] | None = None
    for assign in combinations_with_replacement(range(len(colour_counts)), jokers):
        counts = list(colour_counts)
        for c in assign:
            counts[c] += 1
        values = sorted((colour_value(table, k) for k in counts), reverse=True)
        score = 2 * sum(values[:positive]) - sum(values) + PLUS2_VALUE * plus2
        if best is None or score > best[0]:
            best = (score, tuple(counts))
    assert best is not None
    return best


def score_with(cfg, col: tuple[int, ...], cards) -> int:
    """The score of collection `col` (colours, +2, jokers) after adding `cards`."""
    counts = list(col)
    for t in cards:
        if t >= cfg.joker_type:
            counts[cfg.joker_type] += 1
        else:
            counts[t] += 1
    score, _ = best_score(
        tuple(counts[: cfg.colours]),
        counts[cfg.plus2_type],
        counts[cfg.joker_type],
        cfg.table,
        cfg.positive,
    )
    return score


def scores(s: Core) -> list[int]:
    """Each player's score if the game ended now (best joker use and colour choice)."""
    cfg = s.cfg
    out = []
    for col in s.coll:
        score, _ = best_score(
            col[: cfg.colours],
            col[cfg.plus2_type],
            col[cfg.joker_type],
            cfg.table,
            cfg.positive,
        )
        out.append(score)
    return out


def breakdown(s: Core) -> list[dict[str, object]]:
    """Each player's score in parts: final colour counts (jokers assigned), the
    positive and negative colour points, the +2 points and the total."""
    cfg = s.cfg
    out = []
    for col in s.coll:
        total, counts = best_score(
            col[: cfg.colours],
            col[cfg.plus2_type],
            col[cfg.joker_type],
            cfg.table,
            cfg.positive,
        )
        values = sorted((colour_value(cfg.table, k) for k in counts), reverse=True)
        plus = sum(values[: cfg.positive])
        minus = sum(values[cfg.positive :])
        out.append(
            {
                "colours": counts,
                "positive": plus,
                "negative": minus,
                "plus2": PLUS2_VALUE * col[cfg.plus2_type],
                "total": total,
            }
        )
    return out


def final_returns(s: Core) -> list[float]:
    return returns_from_keys(s.cfg.utility, scores(s))
