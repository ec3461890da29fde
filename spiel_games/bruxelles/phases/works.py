"""The five Art Nouveau actions' decisions (rulebook "The Art Nouveau actions"): Workshop
keep, Sale (work, cursor, shop space), Royal Theater and the public figures
(Solvay, keep or discard, activation), Materials (noble cubes) and Construction
(payment units, compass needle, building space). One legal/apply pair per phase.
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.rounds import advance
from spiel_games.bruxelles.state import (
    J,
    Phase,
    add_at,
    can_complete,
    construction_cost,
    decide,
    empty_spaces,
    gain_cubes,
    needle_moves,
    push,
    recycle_shop,
    sellable,
    set_at,
    set_chance,
    solvay_options,
    spend_cube,
    unit_available,
)


def start_action(s, p: int, a: int) -> None:
    if a == R.WORKSHOP:
        k = 1 + s.exhib[p]
        if sum(s.art_stack[: R.COLOURS]) < k:
            recycle_shop(s)  # the stack would run out: rebuild it from the covered shop works
        k = min(k, sum(s.art_stack[: R.COLOURS]))
        set_chance(s, Phase.C_ART, (p, k, (), 1))
    elif a == R.SALE:
        decide(s, Phase.SELL, p)
    elif a == R.THEATER:
        decide(s, Phase.THEATER, p)
    elif a == R.MATERIALS:
        push(s, ("noble", p, R.RULES["materials.materials_action"]))
        advance(s)
    elif a == R.CONSTRUCTION:
        decide(s, Phase.PAY, p, (construction_cost(s, p), (0,) * 5, 0))
    else:
        raise ValueError(f"unknown action {a}")


# ----- Workshop ------------------------------------------------------------------------------
def keep_work(s, p: int, drawn: tuple[int, ...], c: int) -> None:
    if c not in drawn:
        raise ValueError(f"{R.ART[c]} was not drawn")
    for d in drawn:
        s.art_stack = add_at(s.art_stack, d, 1)
    s.art_stack = add_at(s.art_stack, c, -1)
    s.works = set_at(s.works, p, add_at(s.works[p], c, 1))
    if not s.cfg.private_works:
        s.pub_works = set_at(s.pub_works, p, add_at(s.pub_works[p], c, 1))
    others = list(drawn)
    others.remove(c)
    if others:
        s.seen = set_at(s.seen, p, s.seen[p] + ((c, tuple(sorted(others))),))
        s.drawn_from = set_at(
            s.drawn_from, p, s.drawn_from[p] + (add_at(s.art_stack[: R.COLOURS], c, 1),)
        )
    advance(s)


def legal_keep_work(s) -> list[int]:
    return [A.KEEP_WORK0 + c for c in sorted(set(s.ctx[0]))]


def apply_keep_work(s, action: int) -> None:
    p = s.actor
    keep_work(s, p, s.ctx[0], action - A.KEEP_WORK0)


# ----- Sale ------------------------------------------------------------------------------------
def legal_sell(s) -> list[int]:
    p = s.actor
    return [A.SELL0 + c for c in sellable(s, p)]


def apply_sell(s, action: int) -> None:
    p = s.actor
    decide(s, Phase.CURSOR, p, (action - A.SELL0,))


def legal_cursor(s) -> list[int]:
    p = s.actor
    r0, c0 = s.cursor
    steps = s.total_works(p)
    return [
        A.cursor_action(r, c)
        for r in range(R.CURSOR_MIN, R.CURSOR_MAX + 1)
        for c in range(R.CURSOR_MIN, R.CURSOR_MAX + 1)
        if abs(r - r0) + abs(c - c0) <= steps
    ]


def apply_cursor(s, action: int) -> None:
    p = s.actor
    c = s.ctx[0]
    s.cursor = A.cursor_of(action)
    money, vp = R.sale_reward(s.cursor, c)
    s.money[p] += money
    s.vp[p] += vp
    s.works = set_at(s.works, p, add_at(s.works[p], c, -1))
    if s.pub_works[p][c] > 0:  # a hidden work of that colour is revealed by the sale
        s.pub_works = set_at(s.pub_works, p, add_at(s.pub_works[p], c, -1))
    empties = [i for i in (0, 1) if s.shop[i] < 0]
    if empties:
        _to_shop(s, c, empties[0])  # the first two sales fill the empty spaces
    else:
        decide(s, Phase.SLOT, p, (c,))


def legal_slot(s) -> list[int]:
    return [A.SLOT0, A.SLOT0 + 1]


def apply_slot(s, action: int) -> None:
    _to_shop(s, s.ctx[0], action - A.SLOT0)


def _to_shop(s, c: int, slot: int) -> None:
    old = s.shop[slot]
    if old >= 0:
        s.shop_pile = add_at(s.shop_pile, old, 1)
    s.shop = set_at(s.shop, slot, c)
    advance(s)


# ----- Royal Theater and the public figures ------------------------------------------------------
def legal_theater(s) -> list[int]:
    p = s.actor
    m = s.money[p]
    return [A.THEATER0 + k for k, f in enumerate(s.display) if f >= 0 and R.THEATER_COSTS[k] <= m]


def apply_theater(s, action: int) -> None:
    p = s.actor
    k = action - A.THEATER0
    s.money[p] -= R.THEATER_COSTS[k]
    f = s.display[k]
    s.display = s.display[:k] + s.display[k + 1 :] + (-1,)
    push(s, ("effect", p, f), ("keepfig", p, f), ("fig",))
    advance(s)


def legal_solvay(s) -> list[int]:
    p = s.actor
    return solvay_options(s, p)


def apply_solvay(s, action: int) -> None:
    p = s.actor
    if action == A.SOLVAY_SWAP:
        spend_cube(s, p, J)
        push(s, ("noble", p, 2))
    else:
        push(s, ("noble", p, 1))
    advance(s)


def legal_keep_fig(s) -> list[int]:
    return [A.KEEP_FIG, A.DISCARD_FIG]


def apply_keep_fig(s, action: int) -> None:
    p = s.actor
    f = s.ctx[0]
    if action == A.KEEP_FIG:
        s.kept = set_at(s.kept, p, s.kept[p] | (1 << f))
        s.rot = set_at(s.rot, p, s.rot[p] | (1 << f))
    else:
        s.fig_disc = add_at(s.fig_disc, f, 1)
    advance(s)


def legal_activate(s) -> list[int]:
    p = s.actor
    up = s.upright(p)
    return [A.SKIP] + [A.ACTIVATE0 + f for f in range(len(R.FIGURES)) if (up >> f) & 1]


def apply_activate(s, action: int) -> None:
    p = s.actor
    if action == A.SKIP:
        advance(s)
    else:
        f = action - A.ACTIVATE0
        s.rot = set_at(s.rot, p, s.rot[p] | (1 << f))
        push(s, ("effect", p, f), ("activate", p, s.ctx[0] - 1))
        advance(s)


# ----- Materials -------------------------------------------------------------------------------
def legal_noble(s) -> list[int]:
    k, lo = s.ctx
    sup = s.cube_supply
    # Cubes are taken in non-decreasing kind order (the order of a pair is irrelevant).
    return [A.NOBLE0 + m for m in range(lo, 3) if sup[m] > 0 and sum(sup[m:3]) >= k]


def apply_noble(s, action: int) -> None:
    p = s.actor
    m = action - A.NOBLE0
    gain_cubes(s, p, m, 1)
    k = s.ctx[0] - 1
    if k > 0 and sum(s.cube_supply[m:3]) > 0:
        s.ctx = (k, m)
    else:
        advance(s)


# ----- Construction ----------------------------------------------------------------------------
def legal_pay(s) -> list[int]:
    p = s.actor
    remaining, paid, lo = s.ctx
    cost = remaining + sum(paid)
    out = []
    for res in range(lo, 5):
        if unit_available(s, p, res) and can_complete(s, p, paid, cost, res):
            out.append(A.PAY0 + res)
    return out


def apply_pay(s, action: int) -> None:
    p = s.actor
    remaining, paid, _ = s.ctx
    res = action - A.PAY0
    if res == R.P_MONEY:
        s.money[p] -= R.BF_PER_UNIT
    else:
        spend_cube(s, p, J if res == R.P_JOKER else res)
    paid = add_at(paid, res, 1)
    if remaining > 1:
        s.ctx = (remaining - 1, paid, res)
    else:
        after_payment(s, p, paid)


def after_payment(s, p: int, paid: tuple[int, ...]) -> None:
    if paid[R.P_JOKER] == 0:
        s.vp[p] += R.RULES["buildings.no_joker_bonus"]
    legal = needle_moves(s)
    if len(legal) == 1:
        turn_needle(s, p, legal[0])
    else:
        decide(s, Phase.NEEDLE, p)


def legal_needle(s) -> list[int]:
    return [A.NEEDLE0 + i for i in needle_moves(s)]


def apply_needle(s, action: int) -> None:
    p = s.actor
    turn_needle(s, p, action - A.NEEDLE0)


def turn_needle(s, p: int, i: int) -> None:
    nxt = (s.needles[i] + 1) % len(R.COMPASS)
    if nxt == s.needles[1 - i]:
        raise ValueError("a needle may not turn onto the other needle's space")
    s.needles = (nxt, s.needles[1]) if i == 0 else (s.needles[0], nxt)
    spaces = empty_spaces(s)
    if len(spaces) == 1:
        build(s, p, spaces[0])
    else:
        decide(s, Phase.BUILD, p)


def legal_build(s) -> list[int]:
    return [A.BUILD0 + sp for sp in empty_spaces(s)]


def apply_build(s, action: int) -> None:
    p = s.actor
    build(s, p, action - A.BUILD0)


def build(s, p: int, sp: int) -> None:
    if s.occ[sp] >= 0 or s.bld[sp] >= 0:
        raise ValueError("buildings go on empty spaces only")
    tier = s.built[p]
    s.bld = set_at(s.bld, sp, p)
    s.built = add_at(s.built, p, 1)
    if R.TIER_COSTS[tier] == R.TIER_COSTS[-1]:
        s.vp[p] += R.RULES["buildings.top_row_bonus"]
    advance(s)
