"""Die Staufer round structure: setup and refill chance nodes, turn order, round end.

Every function works on a ``Core`` (see state.py for the layout of ``v``). Illegal chance
outcomes raise ValueError.
"""

from __future__ import annotations

from spiel_games.common import deck as D
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.state import (
    CHANCE,
    CUR,
    END,
    ESCORT,
    GIFT,
    KING,
    MOVER,
    NDEP,
    NOB_AT,
    NOB_CUR,
    NOB_LEFT,
    NSUP,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PHASE,
    PRIV_PENDING,
    REFILL,
    ROUND,
    SCORED_A,
    SCORED_B,
    ST_A,
    ST_B,
    ST_C,
    ST_JOB,
    ST_REGION,
    ST_TILE,
    STEP,
    TAKE_E,
    TAKE_N,
    TERMINAL,
    TI,
    TURN,
    Core,
)

_C_COUNTS = tuple(R.C_MOVES.count(m) for m in range(max(R.C_MOVES) + 1))

# ----- chance ------------------------------------------------------------------------------


def refill_outcomes(c: Core) -> list[tuple[int, float]]:
    """A chest draw: every kind left in the face-down stacks, by its count."""
    t = c.t
    return D.draw_outcomes(c.v[t.bag : t.bag + R.CHEST_KINDS])


def setup_outcomes(c: Core) -> list[tuple[int, float]]:
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


def apply_refill(c: Core, outcome: int) -> None:
    b = c.t.bag + outcome
    if not 0 <= outcome < R.CHEST_KINDS or c.v[b] <= 0:
        raise ValueError(f"no chest of kind {outcome} left in the stacks")
    c.v[b] -= 1
    _place_chest(c, outcome)


def apply_setup(c: Core, outcome: int) -> None:
    v = c.v
    t = c.t
    if outcome not in [a for a, _ in setup_outcomes(c)]:
        raise ValueError(f"chance outcome {outcome} is not possible at this setup step")
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


def queue_refill(c: Core) -> None:
    """Queue every empty chest space (supply spaces, then free seats) for a new chest."""
    v = c.v
    t = c.t
    ck = R.CHEST_KINDS
    q = [s for s in range(t.S) if not any(v[t.supc + s * ck : t.supc + (s + 1) * ck])]
    for pos in range(t.r):
        for i in range(t.nseats[c.region_at[pos]]):
            j = pos * t.K + i
            if v[t.seat + j] < 0 and v[t.chest + j] < 0:
                q.append(t.S + j)
    c.refill = tuple(q)
    _continue_refill(c)


def _continue_refill(c: Core) -> None:
    t = c.t
    if c.refill and any(c.v[t.bag : t.bag + R.CHEST_KINDS]):
        c.v[PHASE] = REFILL
        c.v[MOVER] = CHANCE
    else:
        c.refill = ()  # stacks exhausted: the remaining spaces stay empty
        start_round(c)


def _place_chest(c: Core, kind: int) -> None:
    t = c.t
    space = c.refill[0]
    c.refill = c.refill[1:]
    if space < t.S:
        c.v[t.supc + space * R.CHEST_KINDS + kind] += 1
    else:
        c.v[t.chest + space - t.S] = kind
    _continue_refill(c)


# ----- rounds and turns --------------------------------------------------------------------


def start_round(c: Core) -> None:
    v = c.v
    v[TI] = 0
    v[NSUP] = v[NDEP] = 0
    v[CUR] = v[c.t.order]
    _start_turn(v)


def _start_turn(v: list[int]) -> None:
    v[PHASE] = TURN
    v[MOVER] = v[CUR]
    v[ESCORT] = v[GIFT] = 0
    v[PEND_POS] = v[PEND_SEAT] = v[PEND_OCC] = -1
    v[PRIV_PENDING] = 0
    v[TAKE_E] = v[TAKE_N] = v[NOB_LEFT] = v[NOB_CUR] = v[NOB_AT] = 0


def end_turn(c: Core) -> None:
    v = c.v
    v[TI] += 1
    if v[TI] < c.t.F:
        v[CUR] = v[c.t.order + v[TI]]
        _start_turn(v)
        return
    _end_round(c)


def _end_round(c: Core) -> None:
    v = c.v
    t = c.t
    n = t.n
    scored = S.scored_positions(c)
    v[SCORED_A] = scored[0]
    v[SCORED_B] = scored[1] if len(scored) > 1 else -1
    for pos in scored:
        S.score_region(c, pos)
    if v[ROUND] == t.cfg.rounds - 1:
        v[PHASE] = END
        v[MOVER] = TERMINAL
        c.returns = S.final_returns(c)
        return
    # Clean-up (C tile): empty scored seats, move the king, set the next order, refill.
    for pos in scored:
        base = t.seat + pos * t.K
        for i in range(t.nseats[c.region_at[pos]]):
            occ = v[base + i]
            if occ >= 0:
                v[t.prov + occ] += 1  # occ = player * 2 + is_noble indexes the province
                v[base + i] = -1
    move = c.c_tiles[v[ROUND]]
    for step in range(move):
        pos = (v[KING] + step) % t.r
        for i in range(2 * n):
            j = t.pay + pos * n * 2 + i
            v[t.court + i] += v[j]
            v[j] = 0
    v[KING] = (v[KING] + move) % t.r
    order = v[t.sup : t.sup + v[NSUP]] + v[t.dep : t.dep + v[NDEP]]
    v[t.order : t.order + t.F] = order
    v[ROUND] += 1
    queue_refill(c)
