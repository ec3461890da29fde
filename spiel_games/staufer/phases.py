"""Die Staufer rules in motion: chance steps, the player phases and round transitions.

Every function works on a ``Core`` (see core.py for the layout of ``v``). Illegal
input raises ValueError; nothing is silently repaired.
"""

from __future__ import annotations

from spiel_games.common import deck as D
from spiel_games.staufer import actions as A
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.core import (
    CHANCE,
    CUR,
    END,
    ESCORT,
    GIFT,
    KING,
    MOVER,
    NDEP,
    NSUP,
    OCCUPANT,
    PAYMENT,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PHASE,
    PRIV_PENDING,
    PRIVILEGE,
    REFILL,
    ROUND,
    SCORED_A,
    SCORED_B,
    SEAT,
    SETUP,
    ST_A,
    ST_B,
    ST_C,
    ST_JOB,
    ST_REGION,
    ST_TILE,
    STEP,
    TERMINAL,
    TI,
    TURN,
    VPLEFT,
    Core,
)

PK = R.PRIV_KINDS
_C_COUNTS = tuple(R.C_MOVES.count(m) for m in range(max(R.C_MOVES) + 1))

# ----- chance ------------------------------------------------------------------------------


def chance_outcomes(c: Core) -> list[tuple[int, float]]:
    v = c.v
    t = c.t
    if v[PHASE] == REFILL:
        return D.draw_outcomes(v[t.bag : t.bag + R.CHEST_KINDS])
    if v[PHASE] != SETUP:
        raise ValueError("chance_outcomes called at a player node")
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


def apply_chance(c: Core, outcome: int) -> None:
    v = c.v
    t = c.t
    if v[PHASE] == REFILL:
        b = t.bag + outcome
        if not 0 <= outcome < R.CHEST_KINDS or v[b] <= 0:
            raise ValueError(f"no chest of kind {outcome} left in the stacks")
        v[b] -= 1
        _place_chest(c, outcome)
        return
    if outcome not in [a for a, _ in chance_outcomes(c)]:
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


def _end_turn(c: Core) -> None:
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


# ----- figures -----------------------------------------------------------------------------


def gain(c: Core, p: int, envoys: int, nobles: int) -> None:
    """Take figures of colour p from the province; when it runs short, from payment areas
    clockwise from the king's region; a noble that exists nowhere becomes an envoy."""
    for _ in range(nobles):
        if not _take_one(c, p, 1):
            envoys += 1
    for _ in range(envoys):
        _take_one(c, p, 0)


def _take_one(c: Core, p: int, noble: int) -> bool:
    v = c.v
    t = c.t
    i = p * 2 + noble
    if v[t.prov + i] > 0:
        v[t.prov + i] -= 1
        v[t.court + i] += 1
        return True
    for step in range(t.r):
        pos = (v[KING] + step) % t.r
        j = t.pay + pos * t.n * 2 + i
        if v[j] > 0:
            v[j] -= 1
            v[t.court + i] += 1
            return True
    return False


def gain_chest(c: Core, p: int, kind: int) -> None:
    v = c.v
    t = c.t
    if kind == R.O2VP:
        v[t.vp + p] += 2
    elif kind == R.O3VP:
        v[t.vp + p] += 3
    elif kind == R.OENVOY:
        gain(c, p, 1, 0)
    elif kind == R.ONOBLE:
        gain(c, p, 0, 1)
    elif kind == R.PURPLE:
        v[PRIV_PENDING] += 1
    elif kind == R.BROWN:
        v[t.brown + p] += 1
    else:
        v[t.tq + p * 3 + kind - R.ESCORT] += 1


def holds(c: Core, p: int, kind: int) -> bool:
    return c.v[c.t.privs + p * PK + kind] > 0


# ----- deployment costs --------------------------------------------------------------------


def travel_slots(c: Core, p: int, pos: int) -> list[int]:
    """Regions receiving one travel figure: from the king's region up to the target."""
    v = c.v
    if v[ESCORT]:
        return []
    r = c.t.r
    king = v[KING]
    d = (pos - king) % r
    slots = [(king + i) % r for i in range(d)]
    if slots and v[c.t.privs + p * PK + R.SAFE_CONDUCT]:
        del slots[0]
    return slots


def seat_payment(c: Core, p: int, value: int) -> int:
    v = c.v
    pay = value - 1 - v[GIFT] - (1 if v[c.t.privs + p * PK + R.HERALD] else 0)
    return pay if pay > 0 else 0


def travel_cost(c: Core, p: int, pos: int) -> int:
    v = c.v
    if v[ESCORT]:
        return 0
    d = (pos - v[KING]) % c.t.r
    if d and v[c.t.privs + p * PK + R.SAFE_CONDUCT]:
        d -= 1
    return d


def occupant_options(c: Core, p: int, pos: int, k: int, bonus: int = 0) -> tuple[bool, bool]:
    """(envoy may occupy, noble may occupy) seat k at pos with the court as it is (+bonus)."""
    v = c.v
    t = c.t
    if v[t.seat + pos * t.K + k] >= 0:
        return False, False
    e = v[t.court + p * 2] + bonus
    nb = v[t.court + p * 2 + 1]
    value, noble_only = t.cfg.seats[c.region_at[pos]][k]
    if e + nb < travel_cost(c, p, pos) + 1 + seat_payment(c, p, value):
        return False, False
    envoy_ok = e >= 1 and (not noble_only or v[t.privs + p * PK + R.ROYAL_FAVOUR] > 0)
    return envoy_ok, nb >= 1


def bonus_envoy(c: Core, p: int) -> int:
    """The first deployment position of a round grants an envoy (if the province has one)."""
    v = c.v
    return 1 if v[NDEP] == 0 and v[c.t.prov + p * 2] > 0 else 0


def deployable(c: Core, p: int, pos: int, bonus: int) -> bool:
    """Some free seat at pos can be paid for (cheap test first, then the exact one)."""
    v = c.v
    t = c.t
    e = v[t.court + p * 2] + bonus
    nb = v[t.court + p * 2 + 1]
    have = e + nb
    travel = travel_cost(c, p, pos)
    if have < travel + 1:
        return False
    base = t.seat + pos * t.K
    royal = v[t.privs + p * PK + R.ROYAL_FAVOUR] > 0
    for k, (value, noble_only) in enumerate(t.cfg.seats[c.region_at[pos]]):
        if v[base + k] >= 0:
            continue
        if have < travel + 1 + seat_payment(c, p, value):
            continue
        if nb >= 1 or (e >= 1 and (not noble_only or royal)):
            return True
    return False


def noble_range(c: Core, p: int) -> tuple[int, int]:
    """Possible numbers of nobles among the paid figures for the pending deployment."""
    v = c.v
    t = c.t
    pos, k, occ = v[PEND_POS], v[PEND_SEAT], v[PEND_OCC]
    value = t.cfg.seats[c.region_at[pos]][k][0]
    cost = travel_cost(c, p, pos) + seat_payment(c, p, value)
    e = v[t.court + p * 2] - (1 if occ == 0 else 0)
    nb = v[t.court + p * 2 + 1] - (1 if occ == 1 else 0)
    return max(0, cost - e), min(nb, cost)


# ----- player phases -----------------------------------------------------------------------


def legal_actions(c: Core) -> list[int]:
    v = c.v
    t = c.t
    p = v[CUR]
    ph = v[PHASE]
    if ph == TURN:
        acts = list(range(A.SUPPLY0, A.SUPPLY0 + t.S))
        bonus = bonus_envoy(c, p)
        pos_of = c.pos_of
        for rid in range(t.r):
            if deployable(c, p, pos_of[rid], bonus):
                acts.append(A.DEPLOY0 + rid)
        tq = t.tq + p * 3
        if v[tq] and not v[ESCORT]:
            acts.append(A.USE0)
        if v[tq + 1] and not v[GIFT]:
            acts.append(A.USE0 + 1)
        if v[tq + 2] and v[t.prov + p * 2] > 0:  # a levy takes envoys from the province
            acts.append(A.USE0 + 2)
        return acts
    if ph == SEAT:
        pos = v[PEND_POS]
        return [
            A.SEAT0 + k
            for k in range(t.nseats[c.region_at[pos]])
            if any(occupant_options(c, p, pos, k))
        ]
    if ph == OCCUPANT:
        env, nob = occupant_options(c, p, v[PEND_POS], v[PEND_SEAT])
        return ([A.OCC_ENVOY] if env else []) + ([A.OCC_NOBLE] if nob else [])
    if ph == PAYMENT:
        lo, hi = noble_range(c, p)
        return [A.PAYN0 + j for j in range(lo, hi + 1)]
    if ph == PRIVILEGE:
        return [A.PRIV0 + k for k in available_privileges(c, p)]
    return []


def available_privileges(c: Core, p: int) -> list[int]:
    v = c.v
    t = c.t
    out = [R.VP_PRIV] if v[VPLEFT] else []
    mine = t.privs + p * PK
    for kind in range(1, PK):
        if v[t.piles + kind] > 0 and not v[mine + kind]:
            out.append(kind)
    return out


def apply_action(c: Core, action: int) -> None:
    v = c.v
    p = v[CUR]
    ph = v[PHASE]
    kind, arg = A.decode(action)
    if kind == "supply" and ph == TURN and arg < c.t.S:
        _supply(c, p, arg)
        return
    if ph == TURN and kind == "deploy" and arg < c.t.r:
        pos = c.pos_of[arg]
        bonus = bonus_envoy(c, p)
        if not deployable(c, p, pos, bonus):
            raise ValueError(f"cannot deploy to {R.REGION_NAMES[arg]}: no affordable free seat")
        if bonus:
            v[c.t.prov + p * 2] -= 1
            v[c.t.court + p * 2] += 1
        v[c.t.dep + v[NDEP]] = p
        v[NDEP] += 1
        v[PEND_POS] = pos
        v[PHASE] = SEAT
        return
    if action not in legal_actions(c):
        raise ValueError(
            f"illegal action {A.to_string(action, c.t.cfg)!r} ({action}) in phase {ph}"
        )
    if kind == "seat":
        v[PEND_SEAT] = arg
        env, nob = occupant_options(c, p, v[PEND_POS], arg)
        if env and nob:
            v[PHASE] = OCCUPANT
        else:
            _choose_occupant(c, p, 1 if nob else 0)
    elif kind == "occupy":
        _choose_occupant(c, p, arg)
    elif kind == "pay":
        _deploy(c, p, arg)
    elif kind == "use":
        _use_turquoise(c, p, arg)
    else:
        _take_privilege(c, p, arg)


def _supply(c: Core, p: int, space: int) -> None:
    v = c.v
    t = c.t
    e, nb = t.cfg.supply[space]
    if holds(c, p, R.COURIER):
        e += R.RULES["privileges.courier_envoys"]
    if holds(c, p, R.PATRON):
        v[t.vp + p] += R.RULES["privileges.patron_vp"]
    v[t.sup + v[NSUP]] = p
    v[NSUP] += 1
    gain(c, p, e, nb)
    base = t.supc + space * R.CHEST_KINDS
    for kind in range(R.CHEST_KINDS):
        for _ in range(v[base + kind]):
            gain_chest(c, p, kind)
        v[base + kind] = 0
    _after_action(c)


def _choose_occupant(c: Core, p: int, occ: int) -> None:
    c.v[PEND_OCC] = occ
    lo, hi = noble_range(c, p)
    if lo == hi:
        _deploy(c, p, lo)
    else:
        c.v[PHASE] = PAYMENT


def _deploy(c: Core, p: int, nobles_paid: int) -> None:
    v = c.v
    t = c.t
    n = t.n
    pos, k, occ = v[PEND_POS], v[PEND_SEAT], v[PEND_OCC]
    value = t.cfg.seats[c.region_at[pos]][k][0]
    slots = travel_slots(c, p, pos)
    slots += [(pos + i) % t.r for i in range(seat_payment(c, p, value))]
    first_noble = len(slots) - nobles_paid  # nobles fill the last payment slots
    for i, region_pos in enumerate(slots):
        noble = 1 if i >= first_noble else 0
        v[t.court + p * 2 + noble] -= 1
        v[t.pay + (region_pos * n + p) * 2 + noble] += 1
    v[t.court + p * 2 + occ] -= 1
    if v[t.court + p * 2] < 0 or v[t.court + p * 2 + 1] < 0:
        raise AssertionError("deployment overspent the court")
    j = pos * t.K + k
    v[t.seat + j] = p * 2 + occ
    if pos == v[KING] and holds(c, p, R.TREASURER):
        v[t.vp + p] += R.RULES["privileges.treasurer_vp"]
    chest = v[t.chest + j]
    v[t.chest + j] = -1
    if chest >= 0:
        gain_chest(c, p, chest)
    _after_action(c)


def _use_turquoise(c: Core, p: int, i: int) -> None:
    v = c.v
    t = c.t
    v[t.tq + p * 3 + i] -= 1
    kind = R.TURQUOISE[i]
    if kind == R.ESCORT:
        v[ESCORT] = 1
    elif kind == R.GIFT:
        v[GIFT] = 1
    else:
        for _ in range(R.LEVY_ENVOYS):
            if v[t.prov + p * 2] > 0:
                v[t.prov + p * 2] -= 1
                v[t.court + p * 2] += 1


def _after_action(c: Core) -> None:
    v = c.v
    if v[PRIV_PENDING] > 0 and available_privileges(c, v[CUR]):
        v[PHASE] = PRIVILEGE
        return
    v[PRIV_PENDING] = 0
    _end_turn(c)


def take_vp_privilege(c: Core, p: int) -> None:
    v = c.v
    t = c.t
    v[t.vpp + p] += t.cfg.vp_pile[v[VPLEFT] - 1]  # the top card is the highest left
    v[VPLEFT] -= 1
    v[t.privs + p * PK + R.VP_PRIV] += 1


def _take_privilege(c: Core, p: int, kind: int) -> None:
    v = c.v
    t = c.t
    if kind == R.VP_PRIV:
        take_vp_privilege(c, p)
    else:
        v[t.piles + kind] -= 1
        v[t.privs + p * PK + kind] += 1
    v[PRIV_PENDING] -= 1
    _after_action(c)
