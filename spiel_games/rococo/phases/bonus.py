"""Phase 3 of Rococo: the end of a step, the bonus and its steps (yarn or lace, deputing,
buying prestige, discarding tiles), exams and the jeweller of the Jewelry Box.

``finish_step`` ends the main action (stage 0: the bonus is offered next) or the bonus
(stage 1: the turn ends). Arguments are legal (the engine has checked them).
"""

from __future__ import annotations

from spiel_games.rococo import rounds as RD
from spiel_games.rococo import rules as R
from spiel_games.rococo import state as ST
from spiel_games.rococo.phases.checks import (
    BUY_RATE,
    EXTRA_DRESS,
    EXTRA_FUND,
    INSTANT,
    B,
    bonus_usable,
    discardable,
    instant_bonus,
    jewel_spaces,
)
from spiel_games.rococo.scoring import tiles_prestige
from spiel_games.rococo.state import (
    PH_BONUS,
    PH_BUY,
    PH_DEPUTE,
    PH_DISCARD,
    PH_EXAMDRAW,
    PH_EXAMPICK,
    PH_FUND,
    PH_HIRE,
    PH_JEWEL,
    PH_MAKE,
    PH_STACKDRAW,
    PH_TAKE,
    PH_YARNLACE,
    put,
)


def finish_step(c) -> None:
    """The main action (stage 0) or the bonus (stage 1) is complete: after renting a
    dress (Jewelry Box) the jeweller comes first."""
    if c.jmode:
        if jewel_spaces(c, c.cur):
            c.phase = PH_JEWEL
            return
        c.jmode = 0
        c.jcol = -1
    if c.stage == 0:
        c.stage = 1
        offer_bonus(c, c.card)
    else:
        RD.end_turn(c)


def offer_bonus(c, card: int) -> None:
    if bonus_usable(c, c.cur, R.CARDS[card].bonus):
        c.bcard = card
        c.phase = PH_BONUS
    else:
        RD.end_turn(c)


def bonus(c, use_it: bool) -> None:
    p = c.cur
    b = R.CARDS[c.bcard].bonus
    if not use_it:
        RD.end_turn(c)
        return
    if b in INSTANT:
        money, prestige = instant_bonus(c, p, b)
        c.money = put(c.money, p, c.money[p] + money)
        c.prestige = put(c.prestige, p, c.prestige[p] + prestige)
        RD.end_turn(c)
    elif b == B["extra_acquire"]:
        c.paying = True
        c.phase = PH_TAKE
    elif b in (B["yarn_or_lace_pay1"], B["yarn_or_lace_free"]):
        c.yl_cost = 1 if b == B["yarn_or_lace_pay1"] else 0
        c.phase = PH_YARNLACE
    elif b in (B["stack_tile_pay1"], B["stack_tile_free"]):
        if b == B["stack_tile_pay1"]:
            c.money = put(c.money, p, c.money[p] - (1))
        RD.ensure_tile_stack(c)
        c.phase = PH_STACKDRAW
    elif b in (B["depute_use"], B["depute_money"]):
        c.depute_mode = "use" if b == B["depute_use"] else "money"
        c.phase = PH_DEPUTE
    elif b in EXTRA_DRESS:
        c.by_master = False
        c.mod = EXTRA_DRESS[b]
        c.phase = PH_MAKE
    elif b in EXTRA_FUND:
        c.discount = EXTRA_FUND[b]
        c.phase = PH_FUND
    elif b in BUY_RATE:
        c.rate = BUY_RATE[b]
        c.phase = PH_BUY
    elif b == B["tiles_prestige"]:
        c.acc = (0, 0, 0, 0)
        c.phase = PH_DISCARD
    elif b in _NEW_STEP:
        _new_bonus(c, b)
    else:
        raise AssertionError(f"unhandled bonus {R.BONUS_NAMES[b]}")


def _new_bonus(c, b: int) -> None:
    """The Jewelry Box's bonuses that need a decision (or give yarn and lace)."""
    p = c.cur
    if b == B["yarn_and_lace"]:
        c.yarn = put(c.yarn, p, c.yarn[p] + 1)
        c.lace = put(c.lace, p, c.lace[p] + 1)
        RD.end_turn(c)
    elif b in (B["sell_dress_free"], B["extra_dress_master"]):
        c.by_master = b == B["extra_dress_master"]
        c.mod = "sell" if b == B["sell_dress_free"] else ""
        c.phase = PH_MAKE
    elif b == B["acquire_free"]:
        c.paying = False
        c.phase = PH_TAKE
    elif b == B["hire_extra"]:
        c.phase = PH_HIRE
    else:  # jewel_buy (at the space's price) or jewel_free
        c.jmode = 2 if b == B["jewel_buy"] else 3
        c.phase = PH_JEWEL


_NEW_STEP = frozenset(
    B[k]
    for k in (
        "yarn_and_lace",
        "sell_dress_free",
        "extra_dress_master",
        "acquire_free",
        "hire_extra",
        "jewel_buy",
        "jewel_free",
    )
)


def exam(c) -> None:
    """Pass the exam: pay the fee, the played card leaves the game, then up to 2 cards
    of the exam's stack are shown (public chance draws)."""
    p = c.cur
    side = c.xside[p]
    c.money = put(c.money, p, c.money[p] - R.EXAM_FEE[side])
    c.inplay = False
    c.xneed = min(_OFFER, ST.exam_stack(c, side))
    c.xoffer = ()
    c.phase = PH_EXAMDRAW


_OFFER = R.RULES["jewelry.exams.offer"]


def exam_draw(c, k: int) -> None:
    side = c.xside[c.cur]
    c.xpool = put(c.xpool, side, tuple(q for q in c.xpool[side] if q != k))
    c.xoffer += (k,)
    c.xneed -= 1
    if c.xneed == 0:
        if len(c.xoffer) == 1:
            exam_pick(c, k)
        else:
            c.phase = PH_EXAMPICK


def exam_pick(c, k: int) -> None:
    """The chosen card goes to the hand (seen by all); the other leaves the game; the
    exam card turns over and its tasks start again."""
    if k not in c.xoffer:
        raise ValueError("that exam card is not shown")
    p = c.cur
    c.hand = put(c.hand, p, ST.inc(c.hand[p], k))
    c.known = put(c.known, p, ST.inc(c.known[p], k))
    c.xoffer = ()
    c.xside = put(c.xside, p, 1 - c.xside[p])
    c.xbits = put(c.xbits, p, 0)
    RD.end_turn(c)


def yarn_or_lace(c, lace: bool) -> None:
    p = c.cur
    c.money = put(c.money, p, c.money[p] - (c.yl_cost))
    if lace:
        c.lace = put(c.lace, p, c.lace[p] + 1)
    else:
        c.yarn = put(c.yarn, p, c.yarn[p] + 1)
    c.yl_cost = 0
    finish_step(c)  # a bonus ends the turn; a colour-match reward returns to the action


def jewel(c, j: int) -> None:
    """Buy the piece on jeweller space j: pay its price, every dearer piece slides one
    space cheaper; a piece of the rented dress's colour adds a free yarn or lace."""
    p = c.cur
    kind = c.jdisp[j]
    if c.jmode != 3:  # jewel_free takes it without paying
        c.money = put(c.money, p, c.money[p] - c.tab.jprices[j])
    c.jewels = put(c.jewels, p, ST.inc(c.jewels[p], kind))
    c.jdisp = (-1,) + c.jdisp[:j] + c.jdisp[j + 1 :]
    match = c.jmode == 1 and R.JEWEL_COLOUR[kind] == c.jcol
    c.jmode = 0
    c.jcol = -1
    if match:
        c.yl_cost = 0
        c.phase = PH_YARNLACE
    else:
        finish_step(c)


def no_jewel(c) -> None:
    c.jmode = 0
    c.jcol = -1
    finish_step(c)


def depute_card(c, card: int, from_hand: bool = False) -> None:
    p = c.cur
    if from_hand:  # a card everyone saw go to the hand is taken first, as in play()
        c.hand = put(c.hand, p, ST.inc(c.hand[p], card, -1))
        if c.known[p][card]:
            c.known = put(c.known, p, ST.inc(c.known[p], card, -1))
        else:
            c.sspent += ((p, card),)
    elif c.discard[p][card]:
        c.discard = put(c.discard, p, ST.inc(c.discard[p], card, -1))
    else:
        c.supply = put(c.supply, p, ST.inc(c.supply[p], card, -1))
    if c.depute_mode == "money":
        c.money = put(c.money, p, c.money[p] + R.DEPUTE_MONEY_BONUS[R.CARDS[card].kind])
        RD.end_turn(c)
    else:
        offer_bonus(c, card)  # use the deputed card's bonus once (no money)


def buy(c) -> None:
    p = c.cur
    if c.money[p] < c.rate:
        raise ValueError("not enough Livre")
    c.money = put(c.money, p, c.money[p] - (c.rate))
    c.prestige = put(c.prestige, p, c.prestige[p] + 1)
    if c.money[p] < c.rate:
        RD.end_turn(c)


def discard_tile(c, t: int) -> None:
    p = c.cur
    if c.tpub[p][t]:
        c.tpub = put(c.tpub, p, ST.inc(c.tpub[p], t, -1))
    else:
        c.tsec = put(c.tsec, p, ST.inc(c.tsec[p], t, -1))
        ST.forget_secret_tile(c, p, t)
    c.tdisc = ST.inc(c.tdisc, t)
    c.acc = ST.add(c.acc, R.TILES[t].bales)
    if not discardable(c, p):
        end_discard(c)


def end_discard(c) -> None:
    p = c.cur
    c.prestige = put(c.prestige, p, c.prestige[p] + tiles_prestige(c.acc))
    c.acc = (0, 0, 0, 0)
    RD.end_turn(c)
