"""Die Staufer phases: one legal/apply pair per phase and the phase table.

Player phases: TURN (supply, deploy or a turquoise chest), SEAT, OCCUPANT, PAYMENT,
NOBLE (where paying nobles go), TAKE (which payment area gives a figure the province
lacks), PRIVILEGE, AFTER (a levy after the action); with them the figure/chest effects and deployment costs they need. The
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
    AFTER,
    CHANCE_PHASES,
    CUR,
    ESCORT,
    GIFT,
    KING,
    NDEP,
    NOB_AT,
    NOB_CUR,
    NOB_LEFT,
    NOBLE,
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
    TAKE,
    TAKE_E,
    TAKE_N,
    TURN,
    VPLEFT,
    Core,
    Phase,
    gain_in_turn,
    take_vp_privilege,
)

PK = R.PRIV_KINDS

# ----- figures -----------------------------------------------------------------------------


def gain_chest(c: Core, p: int, kind: int) -> None:
    """p takes a chest during their turn: orange act at once, the others are kept."""
    v = c.v
    t = c.t
    if kind == R.O2VP:
        v[t.vp + p] += 2
    elif kind == R.O3VP:
        v[t.vp + p] += 3
    elif kind == R.OENVOY:
        gain_in_turn(c, p, 1, 0)
    elif kind == R.ONOBLE:
        gain_in_turn(c, p, 0, 1)
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


def open_seats(c: Core, p: int, pos: int, bonus: int = 0):
    """Yield (seat k, its value, noble only, cost) for every free seat at pos that p can
    occupy with the court as it is (+bonus envoys): by an envoy (a noble-only seat needs
    the Royal favour) or by a noble, paying cost = travel + 1 + the seat's payment."""
    v = c.v
    t = c.t
    e = v[t.court + p * 2] + bonus
    nb = v[t.court + p * 2 + 1]
    have = e + nb
    travel = travel_cost(c, p, pos)
    if have < travel + 1:  # cheap test first: not even the cheapest seat
        return
    base = t.seat + pos * t.K
    royal = v[t.privs + p * PK + R.ROYAL_FAVOUR] > 0
    for k, (value, noble_only) in enumerate(t.cfg.seats[c.region_at[pos]]):
        if v[base + k] >= 0:
            continue
        cost = travel + 1 + seat_payment(c, p, value)
        if have < cost:
            continue
        if nb >= 1 or (e >= 1 and (not noble_only or royal)):
            yield k, value, noble_only, cost


def deployable(c: Core, p: int, pos: int, bonus: int) -> bool:
    """Some free seat at pos can be paid for."""
    return next(open_seats(c, p, pos, bonus), None) is not None


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


def payment_groups(c: Core, p: int) -> list[tuple[int, int]]:
    """(position, figures) of the pending deployment's payment: the travel regions from the
    king's, then the seat's further figures one per region clockwise from the target;
    a region reached twice (a long way round) is one group, in order of first payment."""
    v = c.v
    t = c.t
    pos = v[PEND_POS]
    value = t.cfg.seats[c.region_at[pos]][v[PEND_SEAT]][0]
    slots = travel_slots(c, p, pos)
    slots += [(pos + i) % t.r for i in range(seat_payment(c, p, value))]
    groups: list[tuple[int, int]] = []
    for x in slots:
        for i, (q, m) in enumerate(groups):
            if q == x:
                groups[i] = (q, m + 1)
                break
        else:
            groups.append((x, 1))
    return groups


def noble_options(c: Core, groups: list[tuple[int, int]]) -> list[int]:
    """Group indices that may take the next paying noble. Nobles are placed in group order
    (NOB_CUR never goes back), so every distribution is reached by exactly one sequence;
    a group is open when it has room and the nobles left still fit from it on."""
    v = c.v
    cur, at, left = v[NOB_CUR], v[NOB_AT], v[NOB_LEFT]
    out = []
    room_from = 0
    rooms = [m - (at if i == cur else 0) for i, (_, m) in enumerate(groups)]
    for i in range(len(groups) - 1, cur - 1, -1):
        room_from += rooms[i]
        if rooms[i] > 0 and room_from >= left:
            out.append(i)
    out.reverse()
    return out


def take_options(c: Core, p: int) -> list[int]:
    """Positions whose payment area holds a figure of p of the kind to take next (nobles
    first)."""
    v = c.v
    t = c.t
    i = t.pay + p * 2 + (1 if v[TAKE_N] else 0)
    step = t.n * 2
    return [pos for pos in range(t.r) if v[i + pos * step] > 0]


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
    return [A.SEAT0 + k for k, _, _, _ in open_seats(c, p, pos)]


def _legal_occupant(c: Core) -> list[int]:
    v = c.v
    env, nob = occupant_options(c, v[CUR], v[PEND_POS], v[PEND_SEAT])
    return ([A.OCC_ENVOY] if env else []) + ([A.OCC_NOBLE] if nob else [])


def _legal_payment(c: Core) -> list[int]:
    lo, hi = noble_range(c, c.v[CUR])
    return [A.PAYN0 + j for j in range(lo, hi + 1)]


def _legal_noble(c: Core) -> list[int]:
    groups = payment_groups(c, c.v[CUR])
    return sorted(A.NOBLE_TO0 + c.region_at[groups[i][0]] for i in noble_options(c, groups))


def _legal_take(c: Core) -> list[int]:
    return sorted(A.TAKE0 + c.region_at[pos] for pos in take_options(c, c.v[CUR]))


def _legal_after(c: Core) -> list[int]:
    return [A.USE0 + 2, A.END_TURN]


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


def _apply_noble(c: Core, action: int) -> None:
    _, rid = _checked(c, action, _legal_noble)
    p = c.v[CUR]
    groups = payment_groups(c, p)
    pos = c.pos_of[rid]
    i = next(i for i in noble_options(c, groups) if groups[i][0] == pos)
    _put_noble(c, p, groups, i)
    _place_nobles(c, p)


def _apply_take(c: Core, action: int) -> None:
    _, rid = _checked(c, action, _legal_take)
    p = c.v[CUR]
    _take_from(c, p, c.pos_of[rid])
    _after_action(c)


def _apply_after(c: Core, action: int) -> None:
    _checked(c, action, _legal_after)
    if action == A.END_TURN:
        end_turn(c)
        return
    _use_turquoise(c, c.v[CUR], 2)
    _after_action(c)


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
    gain_in_turn(c, p, e, nb)
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
    groups = payment_groups(c, p)
    total = sum(m for _, m in groups)
    if 0 < nobles_paid < total and len(groups) > 1:
        # The player chooses the regions of the paying nobles (NOBLE phase).
        v[NOB_LEFT] = nobles_paid
        v[NOB_CUR] = v[NOB_AT] = 0
        _place_nobles(c, p)
        return
    # One distribution only: all envoys, all nobles, or a single payment region.
    base = t.pay + p * 2
    step = t.n * 2
    left = nobles_paid
    for pos, m in groups:
        x = m if m < left else left
        v[base + pos * step + 1] += x
        v[base + pos * step] += m - x
        left -= x
    v[t.court + p * 2] -= total - nobles_paid
    v[t.court + p * 2 + 1] -= nobles_paid
    _occupy(c, p)


def _put_noble(c: Core, p: int, groups: list[tuple[int, int]], i: int) -> None:
    """The next paying noble goes to group i; groups passed over are filled with envoys."""
    v = c.v
    t = c.t
    base = t.pay + p * 2
    step = t.n * 2
    cur = v[NOB_CUR]
    if i > cur:
        for j in range(cur, i):
            pos, m = groups[j]
            e = m - (v[NOB_AT] if j == cur else 0)
            v[base + pos * step] += e
            v[t.court + p * 2] -= e
        v[NOB_CUR] = i
        v[NOB_AT] = 0
    v[base + groups[i][0] * step + 1] += 1
    v[t.court + p * 2 + 1] -= 1
    v[NOB_AT] += 1
    v[NOB_LEFT] -= 1


def _place_nobles(c: Core, p: int) -> None:
    """Place paying nobles while only one region can take the next; ask when several can;
    then fill the remaining payment with envoys and occupy the seat."""
    v = c.v
    t = c.t
    groups = payment_groups(c, p)
    while v[NOB_LEFT]:
        opts = noble_options(c, groups)
        if len(opts) > 1:
            v[PHASE] = NOBLE
            return
        _put_noble(c, p, groups, opts[0])
    base = t.pay + p * 2
    step = t.n * 2
    cur = v[NOB_CUR]
    for j in range(cur, len(groups)):
        pos, m = groups[j]
        e = m - (v[NOB_AT] if j == cur else 0)
        v[base + pos * step] += e
        v[t.court + p * 2] -= e
    v[NOB_CUR] = v[NOB_AT] = 0
    _occupy(c, p)


def _occupy(c: Core, p: int) -> None:
    """The pending figure takes its seat (payment is done) and takes the chest under it."""
    v = c.v
    t = c.t
    pos, k, occ = v[PEND_POS], v[PEND_SEAT], v[PEND_OCC]
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


def _take_from(c: Core, p: int, pos: int) -> None:
    v = c.v
    t = c.t
    noble = 1 if v[TAKE_N] else 0
    v[t.pay + (pos * t.n + p) * 2 + noble] -= 1
    v[t.court + p * 2 + noble] += 1
    v[TAKE_N if noble else TAKE_E] -= 1


def _resolve_take(c: Core, p: int) -> bool:
    """Take the figures the province lacked from payment areas: automatically while there
    is no choice (one area holds them, or every such figure is needed); False when the
    player must choose (TAKE phase). A noble that exists nowhere becomes an envoy; an
    envoy that exists nowhere is not taken."""
    v = c.v
    t = c.t
    while v[TAKE_N] or v[TAKE_E]:
        noble = 1 if v[TAKE_N] else 0
        need = v[TAKE_N] if noble else v[TAKE_E]
        opts = take_options(c, p)
        i = t.pay + p * 2 + noble
        have = sum(v[i + pos * t.n * 2] for pos in opts)
        if have == 0:
            if noble:
                v[TAKE_N] -= 1
                if v[t.prov + p * 2] > 0:
                    v[t.prov + p * 2] -= 1
                    v[t.court + p * 2] += 1
                else:
                    v[TAKE_E] += 1
            else:
                v[TAKE_E] = 0
            continue
        if len(opts) > 1 and have > need:
            v[PHASE] = TAKE
            return False
        _take_from(c, p, opts[0])
    return True


def _after_action(c: Core) -> None:
    """After the action: missing figures, then privileges, then the levy window."""
    v = c.v
    p = v[CUR]
    if (v[TAKE_N] or v[TAKE_E]) and not _resolve_take(c, p):
        return
    if v[PRIV_PENDING] > 0 and available_privileges(c, p):
        v[PHASE] = PRIVILEGE
        return
    v[PRIV_PENDING] = 0
    t = c.t
    if v[t.tq + p * 3 + 2] and v[t.prov + p * 2] > 0:
        v[PHASE] = AFTER  # a levy may still be used after the action
        return
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
    NOBLE: (_legal_noble, _apply_noble),
    TAKE: (_legal_take, _apply_take),
    AFTER: (_legal_after, _apply_after),
}
# Indexed by phase id (END has no entry):
# OUTCOMES[ph](core) -> [(outcome, probability), ...] at a chance phase;
# LEGAL[ph](core) -> legal ids of the player to move at a player phase;
# APPLY[ph](core, id) for an outcome or action id (an impossible one raises ValueError).
_N = len(Phase)
OUTCOMES = tuple(_BY_PHASE[ph][0] if ph in CHANCE_PHASES else None for ph in range(_N))
LEGAL = tuple(_BY_PHASE[ph][0] if ph in PLAYER_PHASES else None for ph in range(_N))
APPLY = tuple(_BY_PHASE[ph][1] if ph in _BY_PHASE else None for ph in range(_N))
