"""Phase 3 of Rococo: playing a card and the steps of its main action.

A turn is: PLAY a hand card -> MAIN action (or skip) -> the action's steps ->
BONUS (use or skip, offered only when the bonus can do something) -> the
bonus's steps -> end of turn. ``c.stage`` is 0 during the main action and 1
during the bonus; ``bonus.finish_step`` moves from one to the next.

Every action offered is completable: a main action or bonus is legal only when
at least one way to carry it out exists (e.g. a dress you can pay for).

The functions here assume their argument is legal: the engine checks every action id
against the legal list (checks.py) before the hooks (decisions.py) call them, so the
option lists are not computed a second time.
"""

from __future__ import annotations

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
    TO_BOTH,
    TO_LACE,
    TO_YARN,
)
from spiel_games.rococo.phases.bonus import finish_step
from spiel_games.rococo.phases.checks import (
    FAVOR_MONEY,
    acquire_cost,
    fund_price,
    need_met,
    reduced_need,
)
from spiel_games.rococo.state import (
    PH_FUND,
    PH_HIRE,
    PH_MAIN,
    PH_MAKE,
    PH_PAY,
    PH_PLACE,
    PH_TAKE,
    PH_USE,
    put,
)


def play(c, card: int) -> None:
    p = c.cur
    if c.hand[p][card] <= 0:
        raise ValueError("that card is not in the hand")
    c.hand = put(c.hand, p, ST.inc(c.hand[p], card, -1))
    if c.known[p][card]:
        c.known = put(c.known, p, ST.inc(c.known[p], card, -1))
    else:
        c.sspent += ((p, card),)  # a selected card, shown now
    c.card = card
    c.inplay = True
    c.stage = 0
    c.phase = PH_MAIN


def main(c, option: int) -> None:
    p = c.cur
    kind = R.CARDS[c.card].kind
    if option == FAVOR:
        c.money = put(c.money, p, c.money[p] + FAVOR_MONEY)
        c.favor = p
        finish_step(c)
    elif option == ACQUIRE:
        c.paying = True
        c.phase = PH_TAKE
    elif option == MAKE:
        c.by_master = kind == R.MASTER
        c.mod = ""
        c.phase = PH_MAKE
    elif option == HIRE:
        c.phase = PH_HIRE
    elif option == DEPUTE:
        c.money = put(c.money, p, c.money[p] + R.DEPUTE_MONEY[kind])
        c.inplay = False  # removed from the game
        finish_step(c)
    elif option == FUND:
        c.discount = 0
        c.phase = PH_FUND
    else:
        finish_step(c)


def take(c, seg: int, t: int) -> None:
    p = c.cur
    c.money = put(c.money, p, c.money[p] - (acquire_cost(c, seg)))
    s = list(c.ware[seg])
    s.remove(t)
    c.ware = put(c.ware, seg, tuple(s))
    c.pend = t
    c.pend_secret = False
    c.phase = PH_USE
    if c.tab.jewelry and c.paying and (R.TILES[t].bales[R.YELLOW] or R.TILES[t].bales[R.RED]):
        _task(c, 0, 1)  # journeyman's exam: an Apprentice acquires a yellow or red resource


def _task(c, side: int, bit: int) -> None:
    """Mark an exam task: the main action of a played Apprentice (journeyman's exam) or
    Journeyman (master's exam) while the player's exam card shows that side."""
    p = c.cur
    if c.stage == 0 and c.xside[p] == side and R.CARDS[c.card].kind == _EXAM_KIND[side]:
        c.xbits = put(c.xbits, p, c.xbits[p] | bit)


_EXAM_KIND = (R.APPRENTICE, R.JOURNEYMAN)


def stack_draw(c, t: int) -> None:
    c.tstack = ST.inc(c.tstack, t, -1)
    c.sdraws += ((c.ply, c.cur, t),)  # dropped again if the tile is converted (shown)
    c.pend = t
    c.pend_secret = True
    c.phase = PH_USE


def use(c, option: int) -> None:
    p, t = c.cur, c.pend
    if option == KEEP:
        if c.pend_secret:
            c.tsec = put(c.tsec, p, ST.inc(c.tsec[p], t))
        else:
            c.tpub = put(c.tpub, p, ST.inc(c.tpub[p], t))
    else:
        if option in (TO_YARN, TO_BOTH):
            c.yarn = put(c.yarn, p, c.yarn[p] + 1)
        if option in (TO_LACE, TO_BOTH):
            c.lace = put(c.lace, p, c.lace[p] + 1)
        c.tdisc = ST.inc(c.tdisc, t)
        if c.pend_secret:
            ST.forget_secret_tile(c, p, t)
        elif c.tab.jewelry:
            _task(c, 0, 2)  # journeyman's exam: convert a tile
    c.pend = -1
    c.pend_secret = False
    finish_step(c)


def make(c, w: int) -> None:
    p = c.cur
    d = R.DRESSES[c.windows[w]]
    c.dress = c.windows[w]
    c.windows = put(c.windows, w, -1)
    if c.mod != "sell":  # sell_dress_free makes the dress without the window cost
        c.money = put(c.money, p, c.money[p] - (c.cfg.window_costs[w]))
    c.yarn = put(c.yarn, p, c.yarn[p] - (d.yarn))
    c.lace = put(c.lace, p, c.lace[p] - (d.lace))
    c.need = reduced_need(d, c.mod)
    c.phase = PH_PLACE if need_met(c.need, c.mod) else PH_PAY


def pay(c, t: int) -> None:
    p = c.cur
    if c.tpub[p][t]:
        c.tpub = put(c.tpub, p, ST.inc(c.tpub[p], t, -1))
    else:
        c.tsec = put(c.tsec, p, ST.inc(c.tsec[p], t, -1))
        ST.forget_secret_tile(c, p, t)
    c.tdisc = ST.inc(c.tdisc, t)
    b = R.TILES[t].bales
    c.need = tuple(max(0, c.need[i] - b[i]) for i in range(4))
    if need_met(c.need, c.mod):
        c.phase = PH_PLACE


def place(c, g: int) -> None:
    p = c.cur
    d = R.DRESSES[c.dress]
    c.gown = put(c.gown, g, p)
    c.gdress = put(c.gdress, g, c.dress)
    c.dress = -1
    c.prestige = put(c.prestige, p, c.prestige[p] + d.festive)
    check_all_halls(c, p)
    if c.tab.jewelry:  # the jeweller is offered after the reward (finish_step)
        c.jmode = 1
        c.jcol = d.colour
        _task(c, 1, 1)  # master's exam: a Journeyman rents a dress
    kind, amount = c.cfg.guests[g].reward
    if kind == R.R_LIVRE:
        c.money = put(c.money, p, c.money[p] + amount)
    elif kind == R.R_YARN:
        c.yarn = put(c.yarn, p, c.yarn[p] + 1)
    elif kind == R.R_LACE:
        c.lace = put(c.lace, p, c.lace[p] + 1)
    elif kind == R.R_TILE and any(c.ware):
        c.paying = False
        c.phase = PH_TAKE
        return
    finish_step(c)


def sell(c) -> None:
    p = c.cur
    c.money = put(c.money, p, c.money[p] + R.DRESSES[c.dress].money)
    c.ddisc = ST.inc(c.ddisc, c.dress)
    c.dress = -1
    if c.tab.jewelry:
        _task(c, 1, 2)  # master's exam: a Journeyman sells a dress
    finish_step(c)


def hire(c, card: int) -> None:
    p = c.cur
    if card in c.spec:  # a specialised apprentice from the open row (Jewelry Box)
        c.money = put(c.money, p, c.money[p] - R.SPECIALIST_PRICE)
        c.spec = tuple(k for k in c.spec if k != card)
        c.prestige = put(c.prestige, p, c.prestige[p] + R.SPECIALIST[card][2])
        c.hand = put(c.hand, p, ST.inc(c.hand[p], card))
        c.known = put(c.known, p, ST.inc(c.known[p], card))
        finish_step(c)
        return
    if card not in c.display:
        raise ValueError("that card is not displayed")
    cost = R.HIRE_COST[len(c.display) - 1]
    if cost > c.money[p]:
        raise ValueError("not enough Livre to hire")
    c.money = put(c.money, p, c.money[p] - (cost))
    rest = list(c.display)
    rest.remove(card)
    c.display = tuple(rest)
    c.hand = put(c.hand, p, ST.inc(c.hand[p], card))
    c.known = put(c.known, p, ST.inc(c.known[p], card))
    finish_step(c)


def fund(c, d: int) -> None:
    p = c.cur
    c.money = put(c.money, p, c.money[p] - (fund_price(c, d)))
    c.deco = put(c.deco, d, p)
    c.discount = 0
    if c.tab.jewelry:
        _task(c, c.xside[p], 4)  # either exam: fund a decoration
    if c.cfg.decos[d].kind == R.MUSICIAN:
        check_all_halls(c, p)
    finish_step(c)


def check_all_halls(c, p: int) -> None:
    """Place a marker on the best free All-halls space once present in every hall."""
    if p in c.allh or -1 not in c.allh:
        return
    if len(ST.present_halls(c, p)) == R.NUM_HALLS:
        c.allh = put(c.allh, c.allh.index(-1), p)
