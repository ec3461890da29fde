"""Die Staufer's chests, figures and privileges inside a turn: gaining a chest, taking
the figures the province lacks from payment areas, choosing privileges, turquoise
chests, a supply action, and the end of an action. Arguments are legal (the engine has
checked the move); every function works on a ``Core`` (see state.py for ``v``).
"""

from __future__ import annotations

from spiel_games.staufer import rules as R
from spiel_games.staufer.rounds import end_turn
from spiel_games.staufer.state import (
    AFTER,
    CUR,
    ESCORT,
    GIFT,
    NSUP,
    PRIV_PENDING,
    PRIVILEGE,
    TAKE,
    TAKE_E,
    TAKE_N,
    VPLEFT,
    Core,
    gain_in_turn,
    take_vp_privilege,
)

PK = R.PRIV_KINDS


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


def available_privileges(c: Core, p: int) -> list[int]:
    v = c.v
    t = c.t
    out = [R.VP_PRIV] if v[VPLEFT] else []
    mine = t.privs + p * PK
    for kind in range(1, PK):
        if v[t.piles + kind] > 0 and not v[mine + kind]:
            out.append(kind)
    return out


def use_turquoise(c: Core, p: int, i: int) -> None:
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


def take_from(c: Core, p: int, pos: int) -> None:
    v = c.v
    t = c.t
    noble = 1 if v[TAKE_N] else 0
    v[t.pay + (pos * t.n + p) * 2 + noble] -= 1
    v[t.court + p * 2 + noble] += 1
    v[TAKE_N if noble else TAKE_E] -= 1


def take_options(c: Core, p: int) -> list[int]:
    """Positions whose payment area holds a figure of p of the kind to take next (nobles
    first)."""
    v = c.v
    t = c.t
    i = t.pay + p * 2 + (1 if v[TAKE_N] else 0)
    step = t.n * 2
    return [pos for pos in range(t.r) if v[i + pos * step] > 0]


def resolve_take(c: Core, p: int) -> bool:
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
            c.phase = TAKE
            return False
        take_from(c, p, opts[0])
    return True


def after_action(c: Core) -> None:
    """After the action: missing figures, then privileges, then the levy window."""
    v = c.v
    p = v[CUR]
    if (v[TAKE_N] or v[TAKE_E]) and not resolve_take(c, p):
        return
    if v[PRIV_PENDING] > 0 and available_privileges(c, p):
        c.phase = PRIVILEGE
        return
    v[PRIV_PENDING] = 0
    t = c.t
    if v[t.tq + p * 3 + 2] and v[t.prov + p * 2] > 0:
        c.phase = AFTER  # a levy may still be used after the action
        return
    end_turn(c)


def take_privilege(c: Core, p: int, kind: int) -> None:
    v = c.v
    t = c.t
    if kind == R.VP_PRIV:
        take_vp_privilege(c, p)
    else:
        v[t.piles + kind] -= 1
        v[t.privs + p * PK + kind] += 1
    v[PRIV_PENDING] -= 1
    after_action(c)


def supply(c: Core, p: int, space: int) -> None:
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
    after_action(c)
