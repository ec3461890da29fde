"""Phase 3 of Rococo: playing a card, its main action and its bonus.

A turn is: PLAY a hand card -> MAIN action (or skip) -> the action's steps ->
BONUS (use or skip, offered only when the bonus can do something) -> the
bonus's steps -> end of turn. ``c.stage`` is 0 during the main action and 1
during the bonus; ``finish_step`` moves from one to the next.

Every action offered is completable: a main action or bonus is legal only when
at least one way to carry it out exists (e.g. a dress you can pay for).
"""

from __future__ import annotations

from spiel_games.rococo import engine as E
from spiel_games.rococo import rules as R
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
from spiel_games.rococo.engine import Phase, put

B = R.BONUS
_EXTRA_DRESS = {B["extra_dress_yg"]: "yg", B["extra_dress_red"]: "red"}
_EXTRA_FUND = {B[k]: v for k, v in R.RULES["employees.extra_fund_discount"].items()}
_BUY_RATE = {B[k]: v for k, v in R.RULES["employees.buy_prestige_rate"].items()}
FAVOR_MONEY = R.RULES["actions.favor_money"]
MIN_DEPUTE = R.RULES["game.min_deck_to_depute"]


# ----- feasibility ---------------------------------------------------------------------------------
def acquire_cost(c, seg: int) -> int:
    return R.ACQUIRE_COST[len(c.ware[seg]) - 1] if c.paying else 0


def can_take(c, p: int, paying: bool) -> bool:
    return any(seg and (not paying or R.ACQUIRE_COST[len(seg) - 1] <= c.money[p]) for seg in c.ware)


def reduced_need(d: R.Dress, mod: str) -> tuple[int, int, int, int]:
    need = list(d.bales)
    if mod == "yg":  # level 2: one yellow or green bale fewer (yellow first)
        if need[R.YELLOW]:
            need[R.YELLOW] -= 1
        elif need[R.GREEN]:
            need[R.GREEN] -= 1
    elif mod == "red":  # level 4: up to two red bales fewer
        need[R.RED] = max(0, need[R.RED] - 2)
    return tuple(need)


def free_guests(c, by_master: bool) -> list[int]:
    return [
        g for g, gs in enumerate(c.cfg.guests) if c.gown[g] < 0 and (by_master or not gs.master)
    ]


def can_make(c, p: int, w: int, by_master: bool, mod: str, held=None) -> bool:
    di = c.windows[w]
    if di < 0:
        return False
    d = R.DRESSES[di]
    if c.cfg.window_costs[w] > c.money[p] or d.yarn > c.yarn[p] or d.lace > c.lace[p]:
        return False
    if d.thimble and not by_master:
        return False
    need = reduced_need(d, mod)
    if any(need):
        if held is None:
            held = E.bales_held(c, p)
        if any(held[i] < need[i] for i in range(4)):
            return False
    # A Festivity dress cannot be sold, so it needs a free guest space.
    return d.sellable or bool(free_guests(c, by_master))


def makeable_windows(c, p: int, by_master: bool, mod: str) -> list[int]:
    held = E.bales_held(c, p)
    return [w for w in range(len(c.windows)) if can_make(c, p, w, by_master, mod, held)]


def fund_price(c, d: int) -> int:
    return max(0, c.cfg.decos[d].cost - c.discount)


def fundable(c, p: int, discount: int) -> list[int]:
    cfg = c.cfg
    rows = {cfg.decos[d].kind for d, o in enumerate(c.deco) if o == p}
    out = []
    for d, deco in enumerate(cfg.decos):
        if c.deco[d] >= 0 or max(0, deco.cost - discount) > c.money[p]:
            continue
        if deco.kind in (R.FOUNTAIN_UP, R.FOUNTAIN_LOW) and deco.kind in rows:
            continue  # at most one own marker per fountain row
        out.append(d)
    return out


def can_depute_from_deck(c, p: int) -> bool:
    return E.deck_size(c, p) >= MIN_DEPUTE and sum(c.supply[p]) + sum(c.discard[p]) > 0


def instant_bonus(c, p: int, b: int) -> tuple[int, int]:
    """(Livre, prestige) of a bonus that needs no decision."""
    dresses = E.own_dresses(c, p)
    colours = [R.DRESSES[d].colour for d in dresses]
    decos = E.own_decos(c, p)
    size = E.deck_size(c, p)
    if b == B["gain1"]:
        return 1, 0
    if b == B["gain2"]:
        return 2, 0
    if b == B["money_yellow_red"]:
        return colours.count(R.YELLOW) + 2 * colours.count(R.RED), 0
    if b in (B["prestige_deco2"],):
        return 0, decos // 2
    if b == B["money_deco"]:
        return decos, 0
    if b == B["prestige_dress3"]:
        return 0, len(dresses) // 3
    if b == B["money_deck"]:
        return R.RULES["employees.deck_money_big"][R.deck_bracket(size)], 0
    if b == B["money_deck_small"]:
        return R.RULES["employees.deck_money_small"][R.deck_bracket(size)], 0
    if b == B["green_blue"]:
        return 2 * colours.count(R.GREEN), colours.count(R.BLUE)
    if b == B["money_dress"]:
        return len(dresses), 0
    if b == B["prestige_dress2"]:
        return 0, len(dresses) // 2
    raise KeyError(b)


_INSTANT = frozenset(
    B[k]
    for k in (
        "gain1",
        "gain2",
        "money_yellow_red",
        "prestige_deco2",
        "money_deco",
        "prestige_dress3",
        "money_deck",
        "money_deck_small",
        "green_blue",
        "money_dress",
        "prestige_dress2",
    )
)


def bonus_usable(c, p: int, b: int) -> bool:
    if b in _INSTANT:
        return instant_bonus(c, p, b) != (0, 0)
    if b == B["extra_acquire"]:
        return can_take(c, p, True)
    if b == B["yarn_or_lace_pay1"] or b == B["stack_tile_pay1"]:
        if c.money[p] < 1:
            return False
        return b == B["yarn_or_lace_pay1"] or sum(c.tstack) + sum(c.tdisc) > 0
    if b == B["stack_tile_free"]:
        return sum(c.tstack) + sum(c.tdisc) > 0
    if b == B["yarn_or_lace_free"]:
        return True
    if b in (B["depute_use"], B["depute_money"]):
        return can_depute_from_deck(c, p)
    if b in _EXTRA_DRESS:
        return bool(makeable_windows(c, p, False, _EXTRA_DRESS[b]))
    if b in _EXTRA_FUND:
        return bool(fundable(c, p, _EXTRA_FUND[b]))
    if b in _BUY_RATE:
        return c.money[p] >= _BUY_RATE[b]
    if b == B["tiles_prestige"]:
        return any(discardable(c, p))
    return False  # no bonus, or a crown bonus (final scoring only)


def discardable(c, p: int) -> list[int]:
    return [
        t for t in range(R.NUM_TILES) if (c.tpub[p][t] or c.tsec[p][t]) and any(R.TILES[t].bales)
    ]


# ----- legal actions of each player phase (arguments, not ids) ------------------------------
def main_options(c) -> list[int]:
    p = c.cur
    kind = R.CARDS[c.card].kind
    out = []
    if kind != R.APPRENTICE and c.favor < 0:
        out.append(FAVOR)
    if can_take(c, p, True):
        out.append(ACQUIRE)
    if kind != R.APPRENTICE and makeable_windows(c, p, kind == R.MASTER, ""):
        out.append(MAKE)
    if kind == R.MASTER and c.display and R.HIRE_COST[len(c.display) - 1] <= c.money[p]:
        out.append(HIRE)
    if E.deck_size(c, p) >= MIN_DEPUTE:
        out.append(DEPUTE)
    if fundable(c, p, 0):
        out.append(FUND)
    out.append(SKIP)
    return out


def take_options(c) -> list[tuple[int, int]]:
    """(segment, tile type) pairs the current player may take."""
    p = c.cur
    out = []
    for s, seg in enumerate(c.ware):
        if seg and (not c.paying or R.ACQUIRE_COST[len(seg) - 1] <= c.money[p]):
            out.extend((s, t) for t in sorted(set(seg)))
    return out


def use_options(c) -> list[int]:
    lower = R.TILES[c.pend].lower
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


def can_sell(c) -> bool:
    return R.DRESSES[c.dress].sellable


def depute_options(c) -> list[int]:
    p = c.cur
    return [k for k in range(R.NUM_CARDS) if c.supply[p][k] or c.discard[p][k]]


# ----- applying ---------------------------------------------------------------------------------
def play(c, card: int) -> None:
    p = c.cur
    if c.hand[p][card] <= 0:
        raise ValueError("that card is not in the hand")
    c.hand = put(c.hand, p, E.inc(c.hand[p], card, -1))
    if c.known[p][card]:
        c.known = put(c.known, p, E.inc(c.known[p], card, -1))
    c.card = card
    c.inplay = True
    c.stage = 0
    c.phase = Phase.MAIN


def main_allowed(c, option: int) -> bool:
    p = c.cur
    kind = R.CARDS[c.card].kind
    if option == FAVOR:
        return kind != R.APPRENTICE and c.favor < 0
    if option == ACQUIRE:
        return can_take(c, p, True)
    if option == MAKE:
        return kind != R.APPRENTICE and bool(makeable_windows(c, p, kind == R.MASTER, ""))
    if option == HIRE:
        return (
            kind == R.MASTER and bool(c.display) and R.HIRE_COST[len(c.display) - 1] <= c.money[p]
        )
    if option == DEPUTE:
        return E.deck_size(c, p) >= MIN_DEPUTE
    if option == FUND:
        return bool(fundable(c, p, 0))
    return option == SKIP


def main(c, option: int) -> None:
    if not main_allowed(c, option):
        raise ValueError("that main action is not allowed now")
    p = c.cur
    kind = R.CARDS[c.card].kind
    if option == FAVOR:
        c.money = put(c.money, p, c.money[p] + FAVOR_MONEY)
        c.favor = p
        finish_step(c)
    elif option == ACQUIRE:
        c.paying = True
        c.phase = Phase.TAKE
    elif option == MAKE:
        c.by_master = kind == R.MASTER
        c.mod = ""
        c.phase = Phase.MAKE
    elif option == HIRE:
        c.phase = Phase.HIRE
    elif option == DEPUTE:
        c.money = put(c.money, p, c.money[p] + R.DEPUTE_MONEY[kind])
        c.inplay = False  # removed from the game
        finish_step(c)
    elif option == FUND:
        c.discount = 0
        c.phase = Phase.FUND
    else:
        finish_step(c)


def take(c, seg: int, t: int) -> None:
    if (seg, t) not in take_options(c):
        raise ValueError("that tile cannot be taken")
    p = c.cur
    c.money = put(c.money, p, c.money[p] - (acquire_cost(c, seg)))
    s = list(c.ware[seg])
    s.remove(t)
    c.ware = put(c.ware, seg, tuple(s))
    c.pend = t
    c.pend_secret = False
    c.phase = Phase.USE


def stack_draw(c, t: int) -> None:
    c.tstack = E.inc(c.tstack, t, -1)
    c.pend = t
    c.pend_secret = True
    c.phase = Phase.USE


def use(c, option: int) -> None:
    if option not in use_options(c):
        raise ValueError("that tile cannot be used that way")
    p, t = c.cur, c.pend
    if option == KEEP:
        if c.pend_secret:
            c.tsec = put(c.tsec, p, E.inc(c.tsec[p], t))
        else:
            c.tpub = put(c.tpub, p, E.inc(c.tpub[p], t))
    else:
        if option in (TO_YARN, TO_BOTH):
            c.yarn = put(c.yarn, p, c.yarn[p] + 1)
        if option in (TO_LACE, TO_BOTH):
            c.lace = put(c.lace, p, c.lace[p] + 1)
        c.tdisc = E.inc(c.tdisc, t)
    c.pend = -1
    c.pend_secret = False
    finish_step(c)


def make(c, w: int) -> None:
    p = c.cur
    if not can_make(c, p, w, c.by_master, c.mod):
        raise ValueError("that dress cannot be made")
    d = R.DRESSES[c.windows[w]]
    c.dress = c.windows[w]
    c.windows = put(c.windows, w, -1)
    c.money = put(c.money, p, c.money[p] - (c.cfg.window_costs[w]))
    c.yarn = put(c.yarn, p, c.yarn[p] - (d.yarn))
    c.lace = put(c.lace, p, c.lace[p] - (d.lace))
    c.need = reduced_need(d, c.mod)
    c.phase = Phase.PAY if any(c.need) else Phase.PLACE


def pay(c, t: int) -> None:
    if t not in pay_options(c):
        raise ValueError("that tile does not help pay for the dress")
    p = c.cur
    if c.tpub[p][t]:
        c.tpub = put(c.tpub, p, E.inc(c.tpub[p], t, -1))
    else:
        c.tsec = put(c.tsec, p, E.inc(c.tsec[p], t, -1))
    c.tdisc = E.inc(c.tdisc, t)
    b = R.TILES[t].bales
    c.need = tuple(max(0, c.need[i] - b[i]) for i in range(4))
    if not any(c.need):
        c.phase = Phase.PLACE


def place(c, g: int) -> None:
    if g not in place_options(c):
        raise ValueError("that guest space is not available")
    p = c.cur
    d = R.DRESSES[c.dress]
    c.gown = put(c.gown, g, p)
    c.gdress = put(c.gdress, g, c.dress)
    c.dress = -1
    c.prestige = put(c.prestige, p, c.prestige[p] + d.festive)
    check_all_halls(c, p)
    kind, amount = c.cfg.guests[g].reward
    if kind == R.R_LIVRE:
        c.money = put(c.money, p, c.money[p] + amount)
    elif kind == R.R_YARN:
        c.yarn = put(c.yarn, p, c.yarn[p] + 1)
    elif kind == R.R_LACE:
        c.lace = put(c.lace, p, c.lace[p] + 1)
    elif kind == R.R_TILE and any(c.ware):
        c.paying = False
        c.phase = Phase.TAKE
        return
    finish_step(c)


def sell(c) -> None:
    if not can_sell(c):
        raise ValueError("Festivity dresses cannot be sold")
    p = c.cur
    c.money = put(c.money, p, c.money[p] + R.DRESSES[c.dress].money)
    c.ddisc = E.inc(c.ddisc, c.dress)
    c.dress = -1
    finish_step(c)


def hire(c, card: int) -> None:
    p = c.cur
    if card not in c.display:
        raise ValueError("that card is not displayed")
    cost = R.HIRE_COST[len(c.display) - 1]
    if cost > c.money[p]:
        raise ValueError("not enough Livre to hire")
    c.money = put(c.money, p, c.money[p] - (cost))
    rest = list(c.display)
    rest.remove(card)
    c.display = tuple(rest)
    c.hand = put(c.hand, p, E.inc(c.hand[p], card))
    c.known = put(c.known, p, E.inc(c.known[p], card))
    finish_step(c)


def fund(c, d: int) -> None:
    p = c.cur
    if d not in fundable(c, p, c.discount):
        raise ValueError("that decoration space cannot be funded")
    c.money = put(c.money, p, c.money[p] - (fund_price(c, d)))
    c.deco = put(c.deco, d, p)
    c.discount = 0
    if c.cfg.decos[d].kind == R.MUSICIAN:
        check_all_halls(c, p)
    finish_step(c)


def check_all_halls(c, p: int) -> None:
    """Place a marker on the best free All-halls space once present in every hall."""
    if p in c.allh or -1 not in c.allh:
        return
    cfg = c.cfg
    present = {cfg.guests[g].hall for g, o in enumerate(c.gown) if o == p}
    present |= {
        cfg.decos[d].index
        for d, o in enumerate(c.deco)
        if o == p and cfg.decos[d].kind == R.MUSICIAN
    }
    if len(present) == R.NUM_HALLS:
        c.allh = put(c.allh, c.allh.index(-1), p)


def finish_step(c) -> None:
    """The main action (stage 0) or the bonus (stage 1) is complete."""
    if c.stage == 0:
        c.stage = 1
        offer_bonus(c, c.card)
    else:
        E.end_turn(c)


def offer_bonus(c, card: int) -> None:
    if bonus_usable(c, c.cur, R.CARDS[card].bonus):
        c.bcard = card
        c.phase = Phase.BONUS
    else:
        E.end_turn(c)


def bonus(c, use_it: bool) -> None:
    p = c.cur
    b = R.CARDS[c.bcard].bonus
    if not use_it:
        E.end_turn(c)
        return
    if not bonus_usable(c, p, b):
        raise ValueError("that bonus cannot be used now")
    if b in _INSTANT:
        money, prestige = instant_bonus(c, p, b)
        c.money = put(c.money, p, c.money[p] + money)
        c.prestige = put(c.prestige, p, c.prestige[p] + prestige)
        E.end_turn(c)
    elif b == B["extra_acquire"]:
        c.paying = True
        c.phase = Phase.TAKE
    elif b in (B["yarn_or_lace_pay1"], B["yarn_or_lace_free"]):
        c.yl_cost = 1 if b == B["yarn_or_lace_pay1"] else 0
        c.phase = Phase.YARNLACE
    elif b in (B["stack_tile_pay1"], B["stack_tile_free"]):
        if b == B["stack_tile_pay1"]:
            c.money = put(c.money, p, c.money[p] - (1))
        E.ensure_tile_stack(c)
        c.phase = Phase.STACKDRAW
    elif b in (B["depute_use"], B["depute_money"]):
        c.depute_mode = "use" if b == B["depute_use"] else "money"
        c.phase = Phase.DEPUTE
    elif b in _EXTRA_DRESS:
        c.by_master = False
        c.mod = _EXTRA_DRESS[b]
        c.phase = Phase.MAKE
    elif b in _EXTRA_FUND:
        c.discount = _EXTRA_FUND[b]
        c.phase = Phase.FUND
    elif b in _BUY_RATE:
        c.rate = _BUY_RATE[b]
        c.phase = Phase.BUY
    elif b == B["tiles_prestige"]:
        c.acc = (0, 0, 0, 0)
        c.phase = Phase.DISCARD
    else:
        raise AssertionError(f"unhandled bonus {R.BONUS_NAMES[b]}")


def yarn_or_lace(c, lace: bool) -> None:
    p = c.cur
    c.money = put(c.money, p, c.money[p] - (c.yl_cost))
    if lace:
        c.lace = put(c.lace, p, c.lace[p] + 1)
    else:
        c.yarn = put(c.yarn, p, c.yarn[p] + 1)
    E.end_turn(c)


def depute_card(c, card: int) -> None:
    p = c.cur
    if card not in depute_options(c):
        raise ValueError("that card is not in the supply or discard pile")
    if c.discard[p][card]:
        c.discard = put(c.discard, p, E.inc(c.discard[p], card, -1))
    else:
        c.supply = put(c.supply, p, E.inc(c.supply[p], card, -1))
    if c.depute_mode == "money":
        c.money = put(c.money, p, c.money[p] + R.DEPUTE_MONEY_BONUS[R.CARDS[card].kind])
        E.end_turn(c)
    else:
        offer_bonus(c, card)  # use the deputed card's bonus once (no money)


def buy(c) -> None:
    p = c.cur
    if c.money[p] < c.rate:
        raise ValueError("not enough Livre")
    c.money = put(c.money, p, c.money[p] - (c.rate))
    c.prestige = put(c.prestige, p, c.prestige[p] + 1)
    if c.money[p] < c.rate:
        E.end_turn(c)


def discard_tile(c, t: int) -> None:
    p = c.cur
    if t not in discardable(c, p):
        raise ValueError("no such silk tile to discard")
    if c.tpub[p][t]:
        c.tpub = put(c.tpub, p, E.inc(c.tpub[p], t, -1))
    else:
        c.tsec = put(c.tsec, p, E.inc(c.tsec[p], t, -1))
    c.tdisc = E.inc(c.tdisc, t)
    c.acc = E.add(c.acc, R.TILES[t].bales)
    if not discardable(c, p):
        end_discard(c)


def end_discard(c) -> None:
    p = c.cur
    c.prestige = put(c.prestige, p, c.prestige[p] + R.tiles_prestige(c.acc))
    c.acc = (0, 0, 0, 0)
    E.end_turn(c)
