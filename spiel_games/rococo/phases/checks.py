"""Feasibility checks and option lists for Rococo's action phase (no state changes).

Every main action and bonus is offered only when at least one way to carry it
out exists; decisions.py turns these checks into each player phase's legal ids.
"""

from __future__ import annotations

from spiel_games.rococo import rules as R
from spiel_games.rococo import state as ST

B = R.BONUS
EXTRA_DRESS = {B["extra_dress_yg"]: "yg", B["extra_dress_red"]: "red"}
EXTRA_FUND = {B[k]: v for k, v in R.RULES["employees.extra_fund_discount"].items()}
EXTRA_FUND.update({B[k]: v for k, v in R.RULES["jewelry.employees.extra_fund_discount"].items()})
BUY_RATE = {B[k]: v for k, v in R.RULES["employees.buy_prestige_rate"].items()}
FAVOR_MONEY = R.RULES["actions.favor_money"]
MIN_DEPUTE = R.RULES["game.min_deck_to_depute"]


# ----- feasibility ---------------------------------------------------------------------------------
def acquire_cost(c, seg: int) -> int:
    return R.ACQUIRE_COST[len(c.ware[seg]) - 1] if c.paying else 0


def can_take(c, p: int, paying: bool) -> bool:
    return any(seg and (not paying or R.ACQUIRE_COST[len(seg) - 1] <= c.money[p]) for seg in c.ware)


def reduced_need(d: R.Dress, mod: str) -> tuple[int, ...]:
    """The silk bales to hand in. The level-2 saving ("yg") is not subtracted here: the
    dress is complete when at most one yellow or green bale is still missing (need_met),
    so the player's tiles decide which of the two colours is saved."""
    need = list(d.bales)
    if mod == "red":  # level 4: up to two red bales fewer
        need[R.RED] = max(0, need[R.RED] - 2)
    return tuple(need)


def need_met(need, mod: str) -> bool:
    """Whether the silk handed in completes the dress (level 2: one yellow/green bale short)."""
    if mod == "yg":
        return not need[R.RED] and not need[R.BLUE] and need[R.YELLOW] + need[R.GREEN] <= 1
    return not any(need)


def free_guests(c, by_master: bool) -> list[int]:
    gown = c.gown
    if by_master:
        return [g for g, o in enumerate(gown) if o < 0]
    master = c.tab.guest_master
    return [g for g, o in enumerate(gown) if o < 0 and not master[g]]


# Per dress id: (yarn, lace, needs a Master (thimble), sellable) and, per saving mode
# ("" none, "yg" level 2, "red" level 4), the silk bales still to hand in.
_DRESS_REQ = tuple((d.yarn, d.lace, d.thimble, d.sellable) for d in R.DRESSES)
_NEED = {mod: tuple(reduced_need(d, mod) for d in R.DRESSES) for mod in ("", "yg", "red", "sell")}


def makeable_windows(c, p: int, by_master: bool, mod: str, first: bool = False) -> list[int]:
    """Windows whose dress p can make now (`first`: stop at the first one found): the
    window cost, the yarn and lace, a Master for a thimble dress, the silk bales still
    needed after the saving `mod`, and a free guest space for a dress that cannot be
    sold (Festivity)."""
    money, yarn, lace = c.money[p], c.yarn[p], c.lace[p]
    costs = c.tab.window_costs
    needs = _NEED[mod]
    held = None
    free = None
    out = []
    free_window = mod == "sell"  # Jewelry Box sell_dress_free: no window cost, must be sold
    for w, di in enumerate(c.windows):
        if di < 0 or (costs[w] > money and not free_window):
            continue
        d_yarn, d_lace, thimble, sellable = _DRESS_REQ[di]
        if d_yarn > yarn or d_lace > lace or (thimble and not by_master):
            continue
        if free_window and not sellable:
            continue
        ny, ng, nr, nb = needs[di]
        if ny or ng or nr or nb:
            if held is None:
                held = ST.bales_held(c, p)
            if held[2] < nr or held[3] < nb:
                continue
            short = max(0, ny - held[0]) + max(0, ng - held[1])
            if short > (1 if mod == "yg" else 0):
                continue
        if not sellable:
            if free is None:
                free = bool(free_guests(c, by_master))
            if not free:
                continue
        out.append(w)
        if first:
            break
    return out


def fund_price(c, d: int) -> int:
    return max(0, c.cfg.decos[d].cost - c.discount)


def fundable(c, p: int, discount: int, first: bool = False) -> list[int]:
    """Free decoration spaces p can pay for (cost less `discount`), at most one own
    marker per fountain row (`first`: stop at the first one found)."""
    budget = c.money[p] + discount  # max(0, cost - discount) <= money, as money >= 0
    tab = c.tab
    if budget < tab.min_deco_cost:
        return []
    deco = c.deco
    out = []
    rows = None
    for d, cost, fountain in tab.decos:
        if deco[d] >= 0 or cost > budget:
            continue
        if fountain >= 0:
            if rows is None:
                rows = {k for e, k in tab.fountains if deco[e] == p}
            if fountain in rows:
                continue
        out.append(d)
        if first:
            break
    return out


def can_depute_from_deck(c, p: int) -> bool:
    """The Employee deck is supply + hand + discard pile (RULEBOOK setup 6)."""
    return (
        ST.deck_size(c, p) >= MIN_DEPUTE
        and sum(c.supply[p]) + sum(c.hand[p]) + sum(c.discard[p]) > 0
    )


def instant_bonus(c, p: int, b: int) -> tuple[int, int]:
    """(Livre, prestige) of a bonus that needs no decision."""
    if b >= _FIRST_NEW:
        return _new_instant(c, p, b)
    dresses = ST.own_dresses(c, p)
    colours = [R.DRESSES[d].colour for d in dresses]
    decos = ST.own_decos(c, p)
    size = ST.deck_size(c, p)
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


_FIRST_NEW = B["sell_dress_free"]


def _new_instant(c, p: int, b: int) -> tuple[int, int]:
    """The Jewelry Box's instant bonuses (rules.toml [jewelry.employees] new_cards)."""
    jw = sum(c.jewels[p])
    if b == B["money_jewel2"]:
        return 2 * jw, 0
    if b == B["money_colours"]:
        return 2 * ST.dress_colours(c, p), 0
    if b == B["money_halls"]:
        return len(ST.present_halls(c, p)), 0
    if b == B["money_master_spaces"]:
        return 2 * ST.master_space_dresses(c, p), 0
    if b == B["prestige_jewel"]:
        return 0, jw
    if b == B["prestige_halls2"]:
        return 0, len(ST.present_halls(c, p)) // 2
    if b == B["prestige_colours"]:
        return 0, ST.dress_colours(c, p)
    if b == B["prestige_master_spaces"]:
        return 0, ST.master_space_dresses(c, p)
    if b == B["money_dress_jewel"]:
        return len(ST.own_dresses(c, p)) + jw, 0
    raise KeyError(b)


INSTANT = frozenset(
    B[k]
    for k in (
        "money_jewel2",
        "money_colours",
        "money_halls",
        "money_master_spaces",
        "prestige_jewel",
        "prestige_halls2",
        "prestige_colours",
        "prestige_master_spaces",
        "money_dress_jewel",
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
    if b in INSTANT:
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
    if b in EXTRA_DRESS:
        return bool(makeable_windows(c, p, False, EXTRA_DRESS[b], first=True))
    if b in EXTRA_FUND:
        return bool(fundable(c, p, EXTRA_FUND[b], first=True))
    if b in BUY_RATE:
        return c.money[p] >= BUY_RATE[b]
    if b == B["tiles_prestige"]:
        return bool(discardable(c, p))  # tile ids: YY-y/l is id 0
    if b >= _FIRST_NEW:
        return _new_usable(c, p, b)
    return False  # no bonus, or a crown bonus (final scoring only)


def _new_usable(c, p: int, b: int) -> bool:
    if b == B["yarn_and_lace"]:
        return True
    if b == B["sell_dress_free"]:
        return bool(makeable_windows(c, p, False, "sell", first=True))
    if b == B["extra_dress_master"]:
        return bool(makeable_windows(c, p, True, "", first=True))
    if b == B["acquire_free"]:
        return can_take(c, p, False)
    if b == B["hire_extra"]:
        return can_hire(c, p)
    if b == B["jewel_buy"]:
        return bool(jewel_spaces(c, p, True))
    if b == B["jewel_free"]:
        return bool(jewel_spaces(c, p, False))
    return False


def can_hire(c, p: int) -> bool:
    """A displayed card is affordable or a specialised apprentice can be hired."""
    if c.display and R.HIRE_COST[len(c.display) - 1] <= c.money[p]:
        return True
    return bool(c.spec) and bool(hireable_specialists(c, p))


def specialist_measure(c, p: int, cond: str) -> int:
    """What a specialised apprentice's condition counts (rules.toml specialists)."""
    if cond == "bales":
        return sum(ST.bales_held(c, p))
    if cond == "yarn_lace":
        return c.yarn[p] + c.lace[p]
    if cond == "livre":
        return c.money[p]
    if cond == "dresses":
        return len(ST.own_dresses(c, p))
    if cond == "halls":
        return len(ST.present_halls(c, p))
    if cond == "decorations":
        return ST.own_decos(c, p)
    if cond == "jewellery":
        return sum(c.jewels[p])
    if cond == "colours":
        return ST.dress_colours(c, p)
    if cond == "master_spaces":
        return ST.master_space_dresses(c, p)
    if cond == "deck":
        return ST.deck_size(c, p)
    raise KeyError(cond)


def hireable_specialists(c, p: int) -> list[int]:
    """Specialists in the row whose condition p meets and whose price p can pay."""
    if c.money[p] < R.SPECIALIST_PRICE:
        return []
    out = []
    for k in c.spec:
        cond, need, _ = R.SPECIALIST[k]
        if specialist_measure(c, p, cond) >= need:
            out.append(k)
    return out


def can_exam(c, p: int) -> bool:
    """Trade in the played card: its type fits the exam side, 3 tasks done, fee, a card."""
    side = c.xside[p]
    return (
        c.xbits[p] == 7
        and R.CARDS[c.card].kind == (R.APPRENTICE, R.JOURNEYMAN)[side]
        and c.money[p] >= R.EXAM_FEE[side]
        and ST.exam_stack(c, side) > 0
    )


def discardable(c, p: int) -> list[int]:
    return [
        t for t in range(R.NUM_TILES) if (c.tpub[p][t] or c.tsec[p][t]) and any(R.TILES[t].bales)
    ]


def jewel_spaces(c, p: int, paying: bool = True) -> list[int]:
    """Jeweller spaces whose piece p can pay for (every piece when free)."""
    money = c.money[p] if paying else 1 << 30
    prices = c.tab.jprices
    return [j for j, k in enumerate(c.jdisp) if k >= 0 and prices[j] <= money]
