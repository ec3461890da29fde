"""Rococo's player phases: the options of each decision, its legal action ids and applying
one (the engine has checked it is legal). The feasibility checks behind the options are
in checks.py, the effects in turn.py and bonus.py, the id layout in actions.py.
"""

from __future__ import annotations

from functools import lru_cache

from spiel_games.rococo import rounds as RD
from spiel_games.rococo import rules as R
from spiel_games.rococo import state as ST
from spiel_games.rococo.actions import (
    ACQUIRE,
    DEPUTE,
    FAVOR,
    FUND,
    HIRE,
    KEEP,
    MAKE,
    SKIP,
    TO_BOTH,
    TO_LACE,
    TO_YARN,
)
from spiel_games.rococo.phases import bonus, turn
from spiel_games.rococo.phases.checks import (
    MIN_DEPUTE,
    can_exam,
    can_hire,
    can_take,
    discardable,
    free_guests,
    fundable,
    hireable_specialists,
    jewel_spaces,
    makeable_windows,
)


def legal_select(c):
    ids = c.lay.card_ids["select"]
    return [ids[k] for k, n in enumerate(c.supply[c.cur]) if n]


def apply_select(c, a):
    RD.select(c, c.lay.arg[a])


def legal_play(c):
    ids = c.lay.card_ids["play"]
    return [ids[k] for k, n in enumerate(c.hand[c.cur]) if n]


def apply_play(c, a):
    turn.play(c, c.lay.arg[a])


def legal_main(c):
    lay = c.lay
    base = lay.main
    out = [base + o for o in main_options(c)]
    if c.tab.jewelry and can_exam(c, c.cur):
        out.append(lay.exam)
    return out


def apply_main(c, a):
    lay = c.lay
    if a == lay.exam and c.tab.jewelry:
        bonus.exam(c)
    else:
        turn.main(c, a - lay.main)


def legal_take(c):
    base = c.lay.take
    # segments in order, types sorted within each: the ids come out ascending
    return [base + s * R.NUM_TILES + t for s, t in take_options(c)]


def apply_take(c, a):
    arg = a - c.lay.take
    turn.take(c, arg // R.NUM_TILES, arg % R.NUM_TILES)


def legal_use(c):
    return list(_use_ids(c.lay.use)[c.pend])


@lru_cache(maxsize=16)
def _use_ids(base: int) -> tuple:
    """Per tile type: the USE ids (keep, and the conversions its lower half allows)."""
    return tuple(tuple(base + o for o in use_options_of(t)) for t in range(R.NUM_TILES))


def apply_use(c, a):
    turn.use(c, a - c.lay.use)


def legal_make(c):
    base = c.lay.make
    return [base + w for w in makeable_windows(c, c.cur, c.by_master, c.mod)]


def apply_make(c, a):
    turn.make(c, a - c.lay.make)


def legal_pay(c):
    base = c.lay.pay
    return [base + t for t in pay_options(c)]


def apply_pay(c, a):
    turn.pay(c, a - c.lay.pay)


def legal_place(c):
    lay = c.lay
    if c.mod == "sell":  # sell_dress_free: the dress must be sold
        return [lay.sell]
    base = lay.place
    out = [base + g for g in place_options(c)]
    if R.DRESSES[c.dress].sellable:
        out.append(lay.sell)
    return out


def apply_place(c, a):
    lay = c.lay
    if a == lay.sell:
        turn.sell(c)
    else:
        turn.place(c, a - lay.place)


def legal_hire(c):
    ids = c.lay.card_ids["hire"]
    out = []
    if c.display and R.HIRE_COST[len(c.display) - 1] <= c.money[c.cur]:
        out = [ids[k] for k in sorted(set(c.display))]
    if c.spec:
        out += [ids[k] for k in hireable_specialists(c, c.cur)]
        out.sort()
    return out


def apply_hire(c, a):
    turn.hire(c, c.lay.arg[a])


def legal_fund(c):
    base = c.lay.fund
    return [base + d for d in fundable(c, c.cur, c.discount)]


def apply_fund(c, a):
    turn.fund(c, a - c.lay.fund)


def legal_bonus(c):
    lay = c.lay
    return [lay.bonus, lay.bonus + 1]


def apply_bonus(c, a):
    bonus.bonus(c, a == c.lay.bonus)


def legal_yarnlace(c):
    lay = c.lay
    return [lay.yarnlace, lay.yarnlace + 1]


def apply_yarnlace(c, a):
    bonus.yarn_or_lace(c, a == c.lay.yarnlace + 1)


def legal_depute(c):
    lay = c.lay
    base, hand = lay.card_ids["depute"], lay.card_ids["depute_hand"]
    out = [base[k] for k in depute_options(c)]
    out += [hand[k] for k in depute_hand_options(c)]
    if c.tab.jewelry:
        out.sort()
    return out


def apply_depute(c, a):
    block, k = c.lay._decode[a]
    bonus.depute_card(c, k, from_hand=block == "depute_hand")


def legal_buy(c):
    lay = c.lay
    return [lay.buy, lay.done]


def apply_buy(c, a):
    if a == c.lay.buy:
        bonus.buy(c)
    else:
        RD.end_turn(c)


def legal_discard(c):
    lay = c.lay
    out = [lay.discard + t for t in discardable(c, c.cur)]
    if any(c.acc):
        out.append(lay.done)
    return out


def apply_discard(c, a):
    lay = c.lay
    if a == lay.done:
        bonus.end_discard(c)
    else:
        bonus.discard_tile(c, a - lay.discard)


def legal_terrace(c):
    lay = c.lay
    return [lay.done] + [lay.terrace + g for g in RD.terrace_moves(c, c.cur)]


def apply_terrace(c, a):
    lay = c.lay
    if a == lay.done:
        c.terr_left = c.terr_left[1:]
        RD.next_terrace(c)
    else:
        RD.move_to_terrace(c, a - lay.terrace)


def legal_jewel(c):
    """After a rent (jmode 1) the player may decline; a jewellery bonus was chosen."""
    lay = c.lay
    base = lay.jewel
    ids = [base + j for j in jewel_spaces(c, c.cur, c.jmode != 3)]
    return ids + [lay.nojewel] if c.jmode == 1 else ids


def apply_jewel(c, a):
    lay = c.lay
    if a == lay.nojewel:
        bonus.no_jewel(c)
    else:
        bonus.jewel(c, a - lay.jewel)


def legal_exampick(c):
    return sorted(c.lay.xpick + k for k in c.xoffer)


def apply_exampick(c, a):
    bonus.exam_pick(c, a - c.lay.xpick)


# ----- the options of each player phase (arguments, not ids) ------------------------------
def main_options(c) -> list[int]:
    p = c.cur
    kind = R.CARDS[c.card].kind
    out = []
    if kind != R.APPRENTICE and c.favor < 0:
        out.append(FAVOR)
    if can_take(c, p, True):
        out.append(ACQUIRE)
    if kind != R.APPRENTICE and makeable_windows(c, p, kind == R.MASTER, "", first=True):
        out.append(MAKE)
    if kind == R.MASTER and can_hire(c, p):
        out.append(HIRE)
    if ST.deck_size(c, p) >= MIN_DEPUTE:
        out.append(DEPUTE)
    if fundable(c, p, 0, first=True):
        out.append(FUND)
    out.append(SKIP)
    return out


def take_options(c) -> list[tuple[int, int]]:
    """(segment, tile type) pairs the current player may take."""
    p = c.cur
    out: list[tuple[int, int]] = []
    for s, seg in enumerate(c.ware):
        if seg and (not c.paying or R.ACQUIRE_COST[len(seg) - 1] <= c.money[p]):
            out.extend((s, t) for t in _kinds(seg))
    return out


@lru_cache(maxsize=4096)
def _kinds(seg: tuple) -> tuple:
    """The distinct tile types of a warehouse segment, sorted."""
    return tuple(sorted(set(seg)))


def use_options_of(t: int) -> list[int]:
    """Keep tile type t as silk, or convert it as its lower half allows."""
    lower = R.TILES[t].lower
    out = [KEEP]
    if lower in ("y", "y/l"):
        out.append(TO_YARN)
    if lower in ("l", "y/l"):
        out.append(TO_LACE)
    if lower == "y+l":
        out.append(TO_BOTH)
    return out


def pay_options(c) -> list[int]:
    p = c.cur
    need = c.need
    return [
        t
        for t in range(R.NUM_TILES)
        if (c.tpub[p][t] or c.tsec[p][t]) and any(R.TILES[t].bales[i] and need[i] for i in range(4))
    ]


def place_options(c) -> list[int]:
    return free_guests(c, c.by_master)


def depute_options(c) -> list[int]:
    """Card types in the supply or discard pile (a copy in both: the discard pile's)."""
    p = c.cur
    sup, disc = c.supply[p], c.discard[p]
    return [k for k in range(len(sup)) if sup[k] or disc[k]]


def depute_hand_options(c) -> list[int]:
    """Card types in the hand (the card being played is no longer in it)."""
    return [k for k, m in enumerate(c.hand[c.cur]) if m]
