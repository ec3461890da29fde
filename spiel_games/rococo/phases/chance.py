"""Rococo's chance phases: the outcomes of each random event, exact and sorted, and
applying one (the engine has checked it is possible). Draws are count vectors; the
outcome lists of repeated count vectors are cached (``lru_cache``) and handed out as
they are, like every outcome list the engine hands out: no caller changes them.
"""

from __future__ import annotations

from functools import lru_cache

from spiel_games.common import deck as D
from spiel_games.rococo import rounds as RD
from spiel_games.rococo.phases import bonus, turn


@lru_cache(maxsize=4096)
def draw_outcomes(counts: tuple) -> list:
    return D.draw_outcomes(counts)


@lru_cache(maxsize=1024)
def uniform_outcomes(choices: tuple) -> list:
    return D.uniform_outcomes(choices)


def outcomes_start(c):
    return uniform_outcomes(tuple(range(c.cfg.players)))


def apply_start(c, a):
    c.start = a
    RD.start_round(c)


def outcomes_reveal(c):
    level = c.emp[0]
    if min(level) >= 0:
        return uniform_outcomes(level)
    return reveal_outcomes(level, c.xpool)


@lru_cache(maxsize=1024)
def reveal_outcomes(level: tuple, pools: tuple) -> list:
    """A level holding reserved slots (Jewelry Box): each slot is a card of its pool that
    no one has seen, so with g cards in the level and r slots of pool P, a fixed card
    comes up with 1/g and each card of P with r / (g * |P|)."""
    g = len(level)
    weight: dict[int, float] = {}
    for k in level:
        if k >= 0:
            weight[k] = weight.get(k, 0.0) + 1.0 / g
        else:
            pool = pools[-2 - k]
            for q in pool:
                weight[q] = weight.get(q, 0.0) + 1.0 / (g * len(pool))
    return sorted(weight.items())


def apply_reveal(c, a):
    RD.reveal(c, a)


def outcomes_warefill(c):
    return draw_outcomes(c.tstack)


def apply_warefill(c, a):
    RD.ware_fill(c, a)


def outcomes_dressfill(c):
    return draw_outcomes(c.bag)


def apply_dressfill(c, a):
    RD.dress_fill(c, a)


outcomes_stackdraw = outcomes_warefill


def apply_stackdraw(c, a):
    turn.stack_draw(c, a)


def outcomes_jewelfill(c):
    return draw_outcomes(c.jstack)


def apply_jewelfill(c, a):
    RD.jewel_fill(c, a)


def outcomes_examdraw(c):
    return uniform_outcomes(c.xpool[c.xside[c.cur]])


def apply_examdraw(c, a):
    bonus.exam_draw(c, a)
