"""Die Staufer chance phases: the setup steps (region order, point tiles, job cards,
round tiles A/B/C) and the chest refills, each an ``outcomes_<phase>`` / ``apply_<phase>``
pair (the engine has checked the outcome is possible). Draws are count vectors.
"""

from __future__ import annotations

from spiel_games.common import deck as D
from spiel_games.staufer import rules as R
from spiel_games.staufer.rounds import continue_refill, queue_refill
from spiel_games.staufer.state import (
    KING,
    ST_A,
    ST_B,
    ST_C,
    ST_JOB,
    ST_REGION,
    ST_TILE,
    STEP,
    Core,
)

_C_COUNTS = tuple(R.C_MOVES.count(m) for m in range(max(R.C_MOVES) + 1))


def outcomes_setup(c: Core) -> list[tuple[int, float]]:
    """The current setup step's outcomes (region, point tile, job, A/B/C tile)."""
    v = c.v
    t = c.t
    kind, arg = t.steps[v[STEP]]
    cfg = t.cfg
    if kind == ST_REGION:
        return D.uniform_outcomes([r for r in range(t.r) if c.pos_of[r] < 0])
    if kind == ST_TILE:
        return D.uniform_outcomes([x for x in range(t.r) if x not in c.tile_at])
    if kind == ST_JOB:
        ty = arg % 3
        dealt = {v[t.jobs + p * 3 + ty] for p in range(t.n)}
        return D.uniform_outcomes(
            [i for i in range(cfg.job_pool[ty]) if ty * R.JOB_POOL_MAX + i not in dealt]
        )
    if kind == ST_A:
        return D.uniform_outcomes([r for r in range(t.r) if r not in c.a_tiles])
    if kind == ST_B:
        return D.uniform_outcomes([b for b in range(len(R.B_CONDITIONS)) if b not in c.b_tiles])
    counts = list(_C_COUNTS)
    for m in c.c_tiles:
        counts[m] -= 1
    return D.draw_outcomes(counts)


def apply_setup(c: Core, outcome: int) -> None:
    v = c.v
    t = c.t
    kind, arg = t.steps[v[STEP]]
    if kind == ST_REGION:
        c.region_at = c.region_at[:arg] + (outcome,) + c.region_at[arg + 1 :]
        c.pos_of = c.pos_of[:outcome] + (arg,) + c.pos_of[outcome + 1 :]
    elif kind == ST_TILE:
        c.tile_at = c.tile_at[:arg] + (outcome,) + c.tile_at[arg + 1 :]
    elif kind == ST_JOB:
        v[t.jobs + arg] = (arg % 3) * R.JOB_POOL_MAX + outcome
    elif kind == ST_A:
        c.a_tiles = c.a_tiles + (outcome,)
        if arg == t.cfg.rounds:  # the unused sixth tile names the king's start region
            v[KING] = c.pos_of[outcome]
    elif kind == ST_B:
        c.b_tiles = c.b_tiles + (outcome,)
    else:
        assert kind == ST_C
        c.c_tiles = c.c_tiles + (outcome,)
    v[STEP] += 1
    if v[STEP] == len(t.steps):
        queue_refill(c)


def outcomes_refill(c: Core) -> list[tuple[int, float]]:
    """A chest draw: every kind left in the face-down stacks, by its count."""
    t = c.t
    return D.draw_outcomes(c.v[t.bag : t.bag + R.CHEST_KINDS])


def apply_refill(c: Core, outcome: int) -> None:
    c.v[c.t.bag + outcome] -= 1
    _place_chest(c, outcome)


def _place_chest(c: Core, kind: int) -> None:
    t = c.t
    space = c.refill[0]
    c.refill = c.refill[1:]
    if space < t.S:
        c.v[t.supc + space * R.CHEST_KINDS + kind] += 1
    else:
        c.v[t.chest + space - t.S] = kind
    continue_refill(c)
