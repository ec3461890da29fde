"""Rococo's phase table: one legal/apply pair per phase, chance phases included.

`RococoState` (game.py) looks up, by phase id:
- at a chance node, ``OUTCOMES[phase](core)`` (the outcomes with their exact
  probabilities) and, after `chance_possible`, ``APPLY[phase](core, layout, outcome)``;
- at a player node, ``LEGAL[phase](core, layout)`` for the legal ids of the player
  to move (cached on the core) and, after checking an id against that list,
  ``APPLY[phase](core, layout, id)``.
The apply functions carry the move out through rounds.py and turn.py; the option
lists behind the legal ids are in checks.py; the id layout is in actions.py.
"""

from __future__ import annotations

from functools import lru_cache

from spiel_games.common import deck as D
from spiel_games.rococo import rounds as RD
from spiel_games.rococo import rules as R
from spiel_games.rococo.phases import checks, turn
from spiel_games.rococo.state import (
    CHANCE_PHASES,
    PH_BONUS,
    PH_BUY,
    PH_DEPUTE,
    PH_DISCARD,
    PH_DRESSFILL,
    PH_END,
    PH_EXAMDRAW,
    PH_EXAMPICK,
    PH_FUND,
    PH_HIRE,
    PH_JEWEL,
    PH_JEWELFILL,
    PH_MAIN,
    PH_MAKE,
    PH_PAY,
    PH_PLACE,
    PH_PLAY,
    PH_REVEAL,
    PH_SELECT,
    PH_STACKDRAW,
    PH_START,
    PH_TAKE,
    PH_TERRACE,
    PH_USE,
    PH_WAREFILL,
    PH_YARNLACE,
)


# ----- chance phases: outcomes and their application ------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def draw_outcomes(counts: tuple) -> tuple:
    return tuple(D.draw_outcomes(counts))


@lru_cache(maxsize=1024)
def uniform_outcomes(choices: tuple) -> tuple:
    return tuple(D.uniform_outcomes(choices))


def chance_possible(c, ph: int, a: int) -> bool:
    """Whether `a` is one of chance_outcomes() (without building the list)."""
    if ph in (PH_WAREFILL, PH_STACKDRAW):
        return 0 <= a < R.NUM_TILES and c.tstack[a] > 0
    if ph == PH_REVEAL:
        level = c.emp[0]
        if a in level:
            return a >= 0
        return any(r < 0 and a in c.xpool[-2 - r] for r in level)
    if ph == PH_EXAMDRAW:
        return a in c.xpool[c.xside[c.cur]]
    if ph == PH_DRESSFILL:
        return 0 <= a < R.NUM_DRESSES and c.bag[a] > 0
    if ph == PH_JEWELFILL:
        return 0 <= a < len(c.jstack) and c.jstack[a] > 0
    return 0 <= a < c.cfg.players


def _o_start(c):
    return uniform_outcomes(tuple(range(c.cfg.players)))


def _o_reveal(c):
    level = c.emp[0]
    if min(level) >= 0:
        return uniform_outcomes(level)
    return reveal_outcomes(level, c.xpool)


@lru_cache(maxsize=1024)
def reveal_outcomes(level: tuple, pools: tuple) -> tuple:
    """A level holding reserved slots (Jewelry Box): each slot is a card of its pool that
    no one has seen, so with g cards in the level and r slots of pool P, a fixed card
    comes up with 1/g and each card of P with r / (g * |P|)."""
    g = len(level)
    weight: dict[int, float] = {}
    for k in level:
        if k >= 0:
            weight[k] = weight.get(k, 0.0) + 1.0 / g
        else:
            pool = pools[-2 - k]
            for q in pool:
                weight[q] = weight.get(q, 0.0) + 1.0 / (g * len(pool))
    return tuple(sorted(weight.items()))


def _o_examdraw(c):
    return uniform_outcomes(c.xpool[c.xside[c.cur]])


def _a_examdraw(c, lay, a):
    turn.exam_draw(c, a)


def _o_tile(c):
    return draw_outcomes(c.tstack)


def _o_dressfill(c):
    return draw_outcomes(c.bag)


def _o_jewelfill(c):
    return draw_outcomes(c.jstack)


def _a_jewelfill(c, lay, a):
    RD.jewel_fill(c, a)


def _a_start(c, lay, a):
    c.start = a
    RD.start_round(c)


def _a_reveal(c, lay, a):
    RD.reveal(c, a)


def _a_warefill(c, lay, a):
    RD.ware_fill(c, a)


def _a_dressfill(c, lay, a):
    RD.dress_fill(c, a)


def _a_stackdraw(c, lay, a):
    turn.stack_draw(c, a)


# ----- id-level legal actions, one function per player phase ------------------------------------
def _l_select(c, lay):
    ids = lay.card_ids["select"]
    return tuple([ids[k] for k, n in enumerate(c.supply[c.cur]) if n])


def _l_play(c, lay):
    ids = lay.card_ids["play"]
    return tuple([ids[k] for k, n in enumerate(c.hand[c.cur]) if n])


def _l_main(c, lay):
    base = lay.main
    out = [base + o for o in checks.main_options(c)]
    if c.tab.jewelry and checks.can_exam(c, c.cur):
        out.append(lay.exam)
    return tuple(out)


def _l_take(c, lay):
    base = lay.take
    # segments in order, types sorted within each: the ids come out ascending
    return tuple([base + s * R.NUM_TILES + t for s, t in checks.take_options(c)])


def _l_use(c, lay):
    return _use_ids(lay.use)[c.pend]


def _l_make(c, lay):
    base = lay.make
    return tuple([base + w for w in checks.makeable_windows(c, c.cur, c.by_master, c.mod)])


def _l_pay(c, lay):
    base = lay.pay
    return tuple([base + t for t in checks.pay_options(c)])


def _l_place(c, lay):
    if c.mod == "sell":  # sell_dress_free: the dress must be sold
        return (lay.sell,)
    base = lay.place
    out = [base + g for g in checks.place_options(c)]
    if R.DRESSES[c.dress].sellable:
        out.append(lay.sell)
    return tuple(out)


def _l_hire(c, lay):
    ids = lay.card_ids["hire"]
    out = []
    if c.display and R.HIRE_COST[len(c.display) - 1] <= c.money[c.cur]:
        out = [ids[k] for k in sorted(set(c.display))]
    if c.spec:
        out += [ids[k] for k in checks.hireable_specialists(c, c.cur)]
        out.sort()
    return tuple(out)


def _l_fund(c, lay):
    base = lay.fund
    return tuple([base + d for d in checks.fundable(c, c.cur, c.discount)])


def _l_bonus(c, lay):
    return (lay.bonus, lay.bonus + 1)


def _l_yarnlace(c, lay):
    return (lay.yarnlace, lay.yarnlace + 1)


def _l_depute(c, lay):
    base, hand = lay.card_ids["depute"], lay.card_ids["depute_hand"]
    out = [base[k] for k in checks.depute_options(c)]
    out += [hand[k] for k in checks.depute_hand_options(c)]
    if c.tab.jewelry:
        out.sort()
    return tuple(out)


def _l_jewel(c, lay):
    """After a rent (jmode 1) the player may decline; a jewellery bonus was chosen."""
    base = lay.jewel
    ids = tuple([base + j for j in checks.jewel_spaces(c, c.cur, c.jmode != 3)])
    return ids + (lay.nojewel,) if c.jmode == 1 else ids


def _a_jewel(c, lay, a):
    if a == lay.nojewel:
        turn.no_jewel(c)
    else:
        turn.jewel(c, a - lay.jewel)


def _l_exampick(c, lay):
    return tuple(sorted(lay.xpick + k for k in c.xoffer))


def _a_exampick(c, lay, a):
    turn.exam_pick(c, a - lay.xpick)


def _l_buy(c, lay):
    return (lay.buy, lay.done)


def _l_discard(c, lay):
    out = [lay.discard + t for t in checks.discardable(c, c.cur)]
    if any(c.acc):
        out.append(lay.done)
    return tuple(out)


def _l_terrace(c, lay):
    return (lay.done,) + tuple([lay.terrace + g for g in RD.terrace_moves(c, c.cur)])


@lru_cache(maxsize=16)
def _use_ids(base: int) -> tuple:
    """Per tile type: the USE ids (keep, and the conversions its lower half allows)."""
    return tuple(tuple(base + o for o in checks.use_options_of(t)) for t in range(R.NUM_TILES))


# ----- applying a legal id (RococoState._apply_action has checked it is legal) ------------------
def _a_select(c, lay, a):
    RD.select(c, lay.arg[a])


def _a_play(c, lay, a):
    turn.play(c, lay.arg[a])


def _a_main(c, lay, a):
    if a == lay.exam and c.tab.jewelry:
        turn.exam(c)
    else:
        turn.main(c, a - lay.main)


def _a_take(c, lay, a):
    arg = a - lay.take
    turn.take(c, arg // R.NUM_TILES, arg % R.NUM_TILES)


def _a_use(c, lay, a):
    turn.use(c, a - lay.use)


def _a_make(c, lay, a):
    turn.make(c, a - lay.make)


def _a_pay(c, lay, a):
    turn.pay(c, a - lay.pay)


def _a_place(c, lay, a):
    if a == lay.sell:
        turn.sell(c)
    else:
        turn.place(c, a - lay.place)


def _a_hire(c, lay, a):
    turn.hire(c, lay.arg[a])


def _a_fund(c, lay, a):
    turn.fund(c, a - lay.fund)


def _a_bonus(c, lay, a):
    turn.bonus(c, a == lay.bonus)


def _a_yarnlace(c, lay, a):
    turn.yarn_or_lace(c, a == lay.yarnlace + 1)


def _a_depute(c, lay, a):
    block, k = lay._decode[a]
    turn.depute_card(c, k, from_hand=block == "depute_hand")


def _a_buy(c, lay, a):
    if a == lay.buy:
        turn.buy(c)
    else:
        RD.end_turn(c)


def _a_discard(c, lay, a):
    if a == lay.done:
        turn.end_discard(c)
    else:
        turn.discard_tile(c, a - lay.discard)


def _a_terrace(c, lay, a):
    if a == lay.done:
        c.terr_left = c.terr_left[1:]
        RD.next_terrace(c)
    else:
        RD.move_to_terrace(c, a - lay.terrace)


_BY_PHASE = {
    PH_START: (_o_start, _a_start),
    PH_REVEAL: (_o_reveal, _a_reveal),
    PH_WAREFILL: (_o_tile, _a_warefill),
    PH_DRESSFILL: (_o_dressfill, _a_dressfill),
    PH_STACKDRAW: (_o_tile, _a_stackdraw),
    PH_SELECT: (_l_select, _a_select),
    PH_PLAY: (_l_play, _a_play),
    PH_MAIN: (_l_main, _a_main),
    PH_TAKE: (_l_take, _a_take),
    PH_USE: (_l_use, _a_use),
    PH_MAKE: (_l_make, _a_make),
    PH_PAY: (_l_pay, _a_pay),
    PH_PLACE: (_l_place, _a_place),
    PH_HIRE: (_l_hire, _a_hire),
    PH_FUND: (_l_fund, _a_fund),
    PH_BONUS: (_l_bonus, _a_bonus),
    PH_YARNLACE: (_l_yarnlace, _a_yarnlace),
    PH_DEPUTE: (_l_depute, _a_depute),
    PH_BUY: (_l_buy, _a_buy),
    PH_DISCARD: (_l_discard, _a_discard),
    PH_TERRACE: (_l_terrace, _a_terrace),
    PH_JEWELFILL: (_o_jewelfill, _a_jewelfill),
    PH_JEWEL: (_l_jewel, _a_jewel),
    PH_EXAMDRAW: (_o_examdraw, _a_examdraw),
    PH_EXAMPICK: (_l_exampick, _a_exampick),
}
# Indexed by phase id (END has no entry):
# OUTCOMES[ph](core) -> ((outcome, probability), ...) at a chance phase;
# LEGAL[ph](core, layout) -> tuple of legal ids at a player phase;
# APPLY[ph](core, layout, id) for a possible outcome or a legal id.
OUTCOMES = tuple(_BY_PHASE[ph][0] if ph in CHANCE_PHASES else None for ph in range(PH_END + 1))
LEGAL = tuple(
    _BY_PHASE[ph][0] if ph in _BY_PHASE and ph not in CHANCE_PHASES else None
    for ph in range(PH_END + 1)
)
APPLY = tuple(_BY_PHASE[ph][1] if ph in _BY_PHASE else None for ph in range(PH_END + 1))
