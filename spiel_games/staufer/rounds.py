"""Die Staufer round structure: queuing chest refills, turn order, the end of a round
(region scoring, clean-up) and of the game. The chance phases themselves (setup steps,
refills) are in phases/chance.py.

Every function works on a ``Core`` (see state.py for the layout of ``v``).
"""

from __future__ import annotations

from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.state import (
    CUR,
    END,
    ESCORT,
    GIFT,
    KING,
    NDEP,
    NOB_AT,
    NOB_CUR,
    NOB_LEFT,
    NSUP,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PRIV_PENDING,
    REFILL,
    ROUND,
    SCORED_A,
    SCORED_B,
    TAKE_E,
    TAKE_N,
    TI,
    TURN,
    Core,
)

# ----- chance ------------------------------------------------------------------------------


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
    continue_refill(c)


def continue_refill(c: Core) -> None:
    t = c.t
    if c.refill and any(c.v[t.bag : t.bag + R.CHEST_KINDS]):
        c.phase = REFILL
    else:
        c.refill = ()  # stacks exhausted: the remaining spaces stay empty
        start_round(c)


def start_round(c: Core) -> None:
    v = c.v
    v[TI] = 0
    v[NSUP] = v[NDEP] = 0
    v[CUR] = v[c.t.order]
    _start_turn(c)


def _start_turn(c: Core) -> None:
    v = c.v
    c.phase = TURN
    v[ESCORT] = v[GIFT] = 0
    v[PEND_POS] = v[PEND_SEAT] = v[PEND_OCC] = -1
    v[PRIV_PENDING] = 0
    v[TAKE_E] = v[TAKE_N] = v[NOB_LEFT] = v[NOB_CUR] = v[NOB_AT] = 0


def end_turn(c: Core) -> None:
    v = c.v
    v[TI] += 1
    if v[TI] < c.t.F:
        v[CUR] = v[c.t.order + v[TI]]
        _start_turn(c)
        return
    _end_round(c)


def _end_round(c: Core) -> None:
    """Score the round's regions, then clean up (not after the last round); the scoring is
    recorded in ``c.scoring`` (scoring.RoundScoring) as it happens."""
    v = c.v
    t = c.t
    n = t.n
    vp_before = tuple(v[t.vp : t.vp + n])
    scored = S.scored_positions(c)
    v[SCORED_A] = scored[0]
    v[SCORED_B] = scored[1] if len(scored) > 1 else -1
    regions = tuple(S.score_region(c, pos) for pos in scored)  # one after the other
    rnd = v[ROUND]
    if rnd == t.cfg.rounds - 1:
        c.scoring = S.RoundScoring(rnd, regions, vp_before, tuple(v[t.vp : t.vp + n]), 0, -1)
        c.phase = END  # the engine sets the returns (scoring.final_returns)
        return
    # Clean-up (C tile): empty scored seats, move the king, set the next order, refill.
    for pos in scored:
        base = t.seat + pos * t.K
        for i in range(t.nseats[c.region_at[pos]]):
            occ = v[base + i]
            if occ >= 0:
                v[t.prov + occ] += 1  # occ = player * 2 + is_noble indexes the province
                v[base + i] = -1
    move = c.c_tiles[rnd]
    for step in range(move):
        pos = (v[KING] + step) % t.r
        for i in range(2 * n):
            j = t.pay + pos * n * 2 + i
            v[t.court + i] += v[j]
            v[j] = 0
    v[KING] = (v[KING] + move) % t.r
    c.scoring = S.RoundScoring(rnd, regions, vp_before, tuple(v[t.vp : t.vp + n]), move, v[KING])
    order = v[t.sup : t.sup + v[NSUP]] + v[t.dep : t.dep + v[NDEP]]
    v[t.order : t.order + t.F] = order
    v[ROUND] += 1
    queue_refill(c)
