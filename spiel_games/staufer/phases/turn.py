"""Die Staufer player phases: ``legal_<phase>`` / ``apply_<phase>`` for the turn (supply,
deploy or a turquoise chest), the seat, the occupant, the payment, where paying nobles
go, which payment area gives a missing figure, a levy after the action, and a purple
chest's privilege. The engine refuses an illegal action before any of them runs.
"""

from __future__ import annotations

from spiel_games.staufer import actions as A
from spiel_games.staufer.phases.chests import (
    after_action,
    available_privileges,
    supply,
    take_from,
    take_options,
    take_privilege,
    use_turquoise,
)
from spiel_games.staufer.phases.deploy import (
    bonus_envoy,
    choose_occupant,
    deploy,
    deployable,
    noble_options,
    noble_range,
    occupant_options,
    open_seats,
    payment_groups,
    place_nobles,
    put_noble,
)
from spiel_games.staufer.rounds import end_turn
from spiel_games.staufer.state import (
    CUR,
    ESCORT,
    GIFT,
    NDEP,
    OCCUPANT,
    PEND_POS,
    PEND_SEAT,
    SEAT,
    Core,
)


def legal_turn(c: Core) -> list[int]:
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


def apply_turn(c: Core, action: int) -> None:
    v = c.v
    p = v[CUR]
    kind, arg = A.decode(action)
    if kind == "supply":
        supply(c, p, arg)
        return
    if kind == "deploy":
        pos = c.pos_of[arg]
        if bonus_envoy(c, p):
            v[c.t.prov + p * 2] -= 1
            v[c.t.court + p * 2] += 1
        v[c.t.dep + v[NDEP]] = p
        v[NDEP] += 1
        v[PEND_POS] = pos
        c.phase = SEAT
        return
    use_turquoise(c, p, arg)  # a turquoise chest: the turn goes on


def legal_seat(c: Core) -> list[int]:
    v = c.v
    p = v[CUR]
    pos = v[PEND_POS]
    return [A.SEAT0 + k for k, _, _, _ in open_seats(c, p, pos)]


def apply_seat(c: Core, action: int) -> None:
    v = c.v
    p = v[CUR]
    arg = A.decode(action)[1]
    v[PEND_SEAT] = arg
    env, nob = occupant_options(c, p, v[PEND_POS], arg)
    if env and nob:
        c.phase = OCCUPANT
    else:
        choose_occupant(c, p, 1 if nob else 0)


def legal_occupant(c: Core) -> list[int]:
    v = c.v
    env, nob = occupant_options(c, v[CUR], v[PEND_POS], v[PEND_SEAT])
    return ([A.OCC_ENVOY] if env else []) + ([A.OCC_NOBLE] if nob else [])


def apply_occupant(c: Core, action: int) -> None:
    choose_occupant(c, c.v[CUR], A.decode(action)[1])


def legal_payment(c: Core) -> list[int]:
    lo, hi = noble_range(c, c.v[CUR])
    return [A.PAYN0 + j for j in range(lo, hi + 1)]


def apply_payment(c: Core, action: int) -> None:
    deploy(c, c.v[CUR], A.decode(action)[1])


def legal_noble(c: Core) -> list[int]:
    groups = payment_groups(c, c.v[CUR])
    return sorted(A.NOBLE_TO0 + c.region_at[groups[i][0]] for i in noble_options(c, groups))


def apply_noble(c: Core, action: int) -> None:
    rid = A.decode(action)[1]
    p = c.v[CUR]
    groups = payment_groups(c, p)
    pos = c.pos_of[rid]
    i = next(i for i in noble_options(c, groups) if groups[i][0] == pos)
    put_noble(c, p, groups, i)
    place_nobles(c, p)


def legal_take(c: Core) -> list[int]:
    return sorted(A.TAKE0 + c.region_at[pos] for pos in take_options(c, c.v[CUR]))


def apply_take(c: Core, action: int) -> None:
    take_from(c, c.v[CUR], c.pos_of[A.decode(action)[1]])
    after_action(c)


def legal_after(c: Core) -> list[int]:
    return [A.USE0 + 2, A.END_TURN]


def apply_after(c: Core, action: int) -> None:
    if action == A.END_TURN:
        end_turn(c)
        return
    use_turquoise(c, c.v[CUR], 2)
    after_action(c)


def legal_privilege(c: Core) -> list[int]:
    return [A.PRIV0 + k for k in available_privileges(c, c.v[CUR])]


def apply_privilege(c: Core, action: int) -> None:
    take_privilege(c, c.v[CUR], A.decode(action)[1])
