"""Die Staufer phases: one legal/apply pair per phase and the phase table.

Player phases: TURN (supply, deploy or a turquoise chest), SEAT, OCCUPANT, PAYMENT,
PRIVILEGE; with them the figure/chest effects and deployment costs they need. The
chance phases (SETUP, REFILL) enter the table with their outcome/apply pair from
rounds.py, where the setup steps and refills live.

Every function works on a ``Core`` (see state.py for the layout of ``v``). Illegal
input raises ValueError; nothing is silently repaired.
"""

from __future__ import annotations

from spiel_games.staufer import actions as A
from spiel_games.staufer import rounds as RD
from spiel_games.staufer import rules as R
from spiel_games.staufer.rounds import end_turn
from spiel_games.staufer.state import (
    CHANCE_PHASES,
    CUR,
    END,
    ESCORT,
    GIFT,
    KING,
    NDEP,
    NSUP,
    OCCUPANT,
    PAYMENT,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PHASE,
    PLAYER_PHASES,
    PRIV_PENDING,
    PRIVILEGE,
    REFILL,
    SEAT,
    SETUP,
    TURN,
    VPLEFT,
    Core,
    Phase,
    gain,
    take_vp_privilege,
)

PK = R.PRIV_KINDS

# ----- figures -----------------------------------------------------------------------------


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


def _legal_turn(c: Core) -> list[int]:
    v = c.v
    t = c.t
    p = v[CUR]
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


def _legal_seat(c: Core) -> list[int]:
    v = c.v
    p = v[CUR]
    pos = v[PEND_POS]
    return [
        A.SEAT0 + k
        for k in range(c.t.nseats[c.region_at[pos]])
        if any(occupant_options(c, p, pos, k))
    ]


def _legal_occupant(c: Core) -> list[int]:
    v = c.v
    env, nob = occupant_options(c, v[CUR], v[PEND_POS], v[PEND_SEAT])
    return ([A.OCC_ENVOY] if env else []) + ([A.OCC_NOBLE] if nob else [])


def _legal_payment(c: Core) -> list[int]:
    lo, hi = noble_range(c, c.v[CUR])
    return [A.PAYN0 + j for j in range(lo, hi + 1)]


def _legal_privilege(c: Core) -> list[int]:
    return [A.PRIV0 + k for k in available_privileges(c, c.v[CUR])]


def available_privileges(c: Core, p: int) -> list[int]:
    v = c.v
    t = c.t
    out = [R.VP_PRIV] if v[VPLEFT] else []
    mine = t.privs + p * PK
    for kind in range(1, PK):
        if v[t.piles + kind] > 0 and not v[mine + kind]:
            out.append(kind)
    return out


def _checked(c: Core, action: int, legal) -> tuple[str, int]:
    """(kind, argument) of `action`, which must be in the phase's legal list."""
    kind, arg = A.decode(action)
    if action not in legal(c):
        raise ValueError(
            f"illegal action {kind} {arg} ({action}) in phase {Phase(c.v[PHASE]).name}"
        )
    return kind, arg


def _apply_turn(c: Core, action: int) -> None:
    v = c.v
    p = v[CUR]
    kind, arg = A.decode(action)
    if kind == "supply" and arg < c.t.S:  # every supply space is always legal
        _supply(c, p, arg)
        return
    if kind == "deploy" and arg < c.t.r:
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
    _, arg = _checked(c, action, _legal_turn)
    _use_turquoise(c, p, arg)


def _apply_seat(c: Core, action: int) -> None:
    v = c.v
    p = v[CUR]
    _, arg = _checked(c, action, _legal_seat)
    v[PEND_SEAT] = arg
    env, nob = occupant_options(c, p, v[PEND_POS], arg)
    if env and nob:
        v[PHASE] = OCCUPANT
    else:
        _choose_occupant(c, p, 1 if nob else 0)


def _apply_occupant(c: Core, action: int) -> None:
    _, arg = _checked(c, action, _legal_occupant)
    _choose_occupant(c, c.v[CUR], arg)


def _apply_payment(c: Core, action: int) -> None:
    _, arg = _checked(c, action, _legal_payment)
    _deploy(c, c.v[CUR], arg)


def _apply_privilege(c: Core, action: int) -> None:
    _, arg = _checked(c, action, _legal_privilege)
    _take_privilege(c, c.v[CUR], arg)


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
    end_turn(c)


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


# ----- the phase table ---------------------------------------------------------------------

_BY_PHASE = {
    SETUP: (RD.setup_outcomes, RD.apply_setup),
    REFILL: (RD.refill_outcomes, RD.apply_refill),
    TURN: (_legal_turn, _apply_turn),
    SEAT: (_legal_seat, _apply_seat),
    OCCUPANT: (_legal_occupant, _apply_occupant),
    PAYMENT: (_legal_payment, _apply_payment),
    PRIVILEGE: (_legal_privilege, _apply_privilege),
}
# Indexed by phase id (END has no entry):
# OUTCOMES[ph](core) -> [(outcome, probability), ...] at a chance phase;
# LEGAL[ph](core) -> legal ids of the player to move at a player phase;
# APPLY[ph](core, id) for an outcome or action id (an impossible one raises ValueError).
OUTCOMES = tuple(_BY_PHASE[ph][0] if ph in CHANCE_PHASES else None for ph in range(END + 1))
LEGAL = tuple(_BY_PHASE[ph][0] if ph in PLAYER_PHASES else None for ph in range(END + 1))
APPLY = tuple(_BY_PHASE[ph][1] if ph in _BY_PHASE else None for ph in range(END + 1))
