"""Die Staufer deployments: what a seat costs (travel from the king's region, the seat's
payment), which seats and occupants are possible, where paying figures go, and taking
the seat. Arguments are legal (the engine has checked the move).
"""

from __future__ import annotations

from spiel_games.staufer import rules as R
from spiel_games.staufer.phases.chests import after_action, gain_chest, holds
from spiel_games.staufer.state import (
    ESCORT,
    GIFT,
    KING,
    NDEP,
    NOB_AT,
    NOB_CUR,
    NOB_LEFT,
    NOBLE,
    PAYMENT,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    Core,
)

PK = R.PRIV_KINDS


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


def choose_occupant(c: Core, p: int, occ: int) -> None:
    c.v[PEND_OCC] = occ
    lo, hi = noble_range(c, p)
    if lo == hi:
        deploy(c, p, lo)
    else:
        c.phase = PAYMENT


def deploy(c: Core, p: int, nobles_paid: int) -> None:
    v = c.v
    t = c.t
    groups = payment_groups(c, p)
    total = sum(m for _, m in groups)
    if 0 < nobles_paid < total and len(groups) > 1:
        # The player chooses the regions of the paying nobles (NOBLE phase).
        v[NOB_LEFT] = nobles_paid
        v[NOB_CUR] = v[NOB_AT] = 0
        place_nobles(c, p)
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
    occupy(c, p)


def put_noble(c: Core, p: int, groups: list[tuple[int, int]], i: int) -> None:
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


def place_nobles(c: Core, p: int) -> None:
    """Place paying nobles while only one region can take the next; ask when several can;
    then fill the remaining payment with envoys and occupy the seat."""
    v = c.v
    t = c.t
    groups = payment_groups(c, p)
    while v[NOB_LEFT]:
        opts = noble_options(c, groups)
        if len(opts) > 1:
            c.phase = NOBLE
            return
        put_noble(c, p, groups, opts[0])
    base = t.pay + p * 2
    step = t.n * 2
    cur = v[NOB_CUR]
    for j in range(cur, len(groups)):
        pos, m = groups[j]
        e = m - (v[NOB_AT] if j == cur else 0)
        v[base + pos * step] += e
        v[t.court + p * 2] -= e
    v[NOB_CUR] = v[NOB_AT] = 0
    occupy(c, p)


def occupy(c: Core, p: int) -> None:
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
    after_action(c)
