"""A rule-based Rococo player that plays like a sensible casual human.

- Selection: keep Masters and the strongest hired cards; late in the game
  prefer cards whose bonus pays off now.
- Playing: play the card whose best main action is worth most right now.
- Main action, in order of preference: make the most valuable dress it can
  pay for; hire a high-level card early (Master only); take the Queen's favor
  when free; buy silk it lacks for the dresses on display; fund a decoration
  when rich (fountain early, fireworks and statues late); depute when short of
  money with a big deck; otherwise skip.
- Dresses are rented (where it helps a hall majority or pays a reward) unless
  money is short; silk is paid with the least waste; bonuses are always used.
- Terrace: the most prestigious King's-hall dress goes first.
- Jewelry Box: after renting, buy the piece worth most (income still to come, its
  prestige, a colour match) when it pays for itself and leaves a little money.
  Pass an exam as soon as it is offered and leaves 2 Livre; while the exam card lacks a
  task, steer the Apprentice's / Journeyman's main action toward it (acquire a yellow or
  red tile, convert it, fund; rent, sell, fund). Hire a specialised apprentice when its
  prestige beats the display; take the stronger exam card.
"""

from __future__ import annotations

import random

from spiel_games.rococo import rules as R
from spiel_games.rococo import state as ST
from spiel_games.rococo.actions import ACQUIRE, DEPUTE, FAVOR, FUND, HIRE, KEEP, MAKE, SKIP, TO_BOTH
from spiel_games.rococo.phases import checks as T
from spiel_games.rococo.state import (
    PH_BONUS,
    PH_BUY,
    PH_DEPUTE,
    PH_DISCARD,
    PH_EXAMPICK,
    PH_FUND,
    PH_HIRE,
    PH_JEWEL,
    PH_MAIN,
    PH_MAKE,
    PH_PAY,
    PH_PLACE,
    PH_PLAY,
    PH_SELECT,
    PH_TAKE,
    PH_TERRACE,
    PH_USE,
    PH_YARNLACE,
)

_TYPE_VALUE = (3.0, 2.0, 1.0)


_JEWEL_BONUSES = frozenset(
    R.BONUS[b] for b in ("money_jewel2", "prestige_jewel", "money_dress_jewel", "jewel_free")
)


def _card_value(c, k: int) -> float:
    if k in R.SPECIALIST:  # hiring one: its prestige at once, then a weak Apprentice
        return 1.0 + 0.6 * R.SPECIALIST[k][2]
    card = R.CARDS[k]
    v = _TYPE_VALUE[card.kind] + 0.4 * card.level
    if card.bonus in R.CROWNS:
        v -= 1.0
    if card.bonus in _JEWEL_BONUSES and sum(c.jewels[c.cur]) >= 2:
        v += 1.0
    return v


def _missing_task(c, side: int, bit: int) -> bool:
    """The played card may still tick this exam task with its main action."""
    p = c.cur
    if not c.tab.jewelry or c.stage or c.xside[p] != side or c.xbits[p] & bit:
        return False
    return R.CARDS[c.card].kind == (R.APPRENTICE, R.JOURNEYMAN)[side]


def _wanted_bales(c) -> list[int]:
    """Bales per colour needed by the dresses in the workshop (a demand signal)."""
    want = [0, 0, 0, 0]
    for d in c.windows:
        if d >= 0:
            for i, b in enumerate(R.DRESSES[d].bales):
                want[i] += b
    return want


def _tile_value(t: int, held: list[int], want: list[int]) -> float:
    """What tile type t is worth to a player holding ``held`` bales per colour
    (``ST.bales_held``), given the workshop's demand ``want`` (``_wanted_bales``)."""
    tile = R.TILES[t]
    v = sum(b * (1.0 if want[i] > held[i] else 0.3) for i, b in enumerate(tile.bales))
    if tile.lower:
        v += 1.0 if tile.lower == "y+l" else 0.6
    return v


def _dress_value(c, w: int) -> float:
    d = R.DRESSES[c.windows[w]]
    return 2.0 * (d.festive or d.prestige) + d.money / 4.0 - c.cfg.window_costs[w] / 2.0


def _final_prestige(d: int) -> int:
    """The dress's prestige at the end (a Festivity dress scored once, when made)."""
    return 0 if R.DRESSES[d].festive else R.DRESSES[d].prestige


def _main_choice(c, options: list[int]) -> int:
    p = c.cur
    late = c.round >= c.cfg.rounds - 1
    if _missing_task(c, 0, 1) and ACQUIRE in options and c.money[p] >= 3:
        return ACQUIRE
    exam_fund = _missing_task(c, 0, 4) or _missing_task(c, 1, 4)
    if exam_fund and FUND in options and c.money[p] >= 12:
        return FUND
    if MAKE in options:
        return MAKE
    if HIRE in options and c.round <= c.cfg.rounds - 2 and c.money[p] >= 8:
        return HIRE
    if FAVOR in options and c.round < c.cfg.rounds:
        return FAVOR
    if ACQUIRE in options and sum(ST.bales_held(c, p)) < 5 and not late:
        return ACQUIRE
    if FUND in options and (c.money[p] >= 14 or late):
        return FUND
    if DEPUTE in options and c.money[p] < 6 and ST.deck_size(c, p) >= 7:
        return DEPUTE
    if ACQUIRE in options and not late:
        return ACQUIRE
    if FUND in options:
        return FUND
    return SKIP


def _play_value(c, k: int) -> float:
    """How good playing card k is now: the value of its best main action."""
    p = c.cur
    kind = R.CARDS[k].kind
    v = 0.0
    if kind != R.APPRENTICE and T.makeable_windows(c, p, kind == R.MASTER, ""):
        v = 10.0
    elif kind == R.MASTER and c.display and R.HIRE_COST[len(c.display) - 1] <= c.money[p] - 3:
        v = 7.0
    elif kind != R.APPRENTICE and c.favor < 0:
        v = 5.0
    elif T.can_take(c, p, True):
        v = 3.0
    return v - 0.3 * _TYPE_VALUE[kind]  # keep flexible cards for later when equal


def _fund_value(c, d: int) -> float:
    x = c.cfg.decos[d]
    rounds_left = c.cfg.rounds - c.round
    v = x.prestige - T.fund_price(c, d) / 6.0
    if x.kind in (R.FOUNTAIN_UP, R.FOUNTAIN_LOW):
        v += 0.8 * rounds_left
    elif x.kind == R.FIREWORKS:
        v += 2.0
    elif x.kind == R.STATUE:
        v += 1.5 * min(4, len(ST.own_dresses(c, c.cur))) / 2
    elif x.kind == R.MUSICIAN:
        v += 1.0
    return v


def _hall_counts(c) -> list[list[int]]:
    """Dresses of each player in each hall."""
    cfg = c.cfg
    counts = [[0] * cfg.players for _ in range(R.NUM_HALLS)]
    guests = cfg.guests
    for i, o in enumerate(c.gown):
        if o >= 0:
            counts[guests[i].hall][o] += 1
    return counts


def _guest_value(c, g: int, counts: list[list[int]]) -> float:
    cfg = c.cfg
    p = c.cur
    gs = cfg.guests[g]
    here = counts[gs.hall]
    mine = here[p]
    best_other = max((k for q, k in enumerate(here) if q != p), default=0)
    v = cfg.hall_values[gs.hall][0] / 3.0 if mine <= best_other else 0.5
    kind, amount = gs.reward
    v += {R.R_LIVRE: amount / 2.0, R.R_YARN: 1.0, R.R_LACE: 1.0, R.R_TILE: 1.2}.get(kind, 0.0)
    if gs.master:
        v += 0.5
    if mine == 0:
        v += 0.7  # presence toward the All-halls bonus
    return v


def _jewel_value(c, j: int) -> float:
    """Livre-equivalent gain of buying the piece on jeweller space j now."""
    kind = c.jdisp[j]
    incomes = c.cfg.rounds - c.round + 1  # this round's income included
    v = incomes + 4.0 - c.tab.jprices[j]  # 1 prestige at the end, worth about 4 Livre
    if R.JEWEL_COLOUR[kind] == c.jcol:
        v += 2.0  # the free yarn or lace
    return v


def _take(c, lay, legal, p, jitter) -> int:
    held, want = ST.bales_held(c, p), _wanted_bales(c)

    def take_value(a: int) -> float:
        s, t = divmod(a - lay.take, R.NUM_TILES)
        cost = T.acquire_cost(c, s)
        exam = 1.0 if yellow_red(t) else 0.0
        return _tile_value(t, held, want) - 0.5 * cost + exam + 0.05 * jitter()

    exam_task = _missing_task(c, 0, 1) and c.paying

    def yellow_red(t: int) -> bool:
        return exam_task and bool(R.TILES[t].bales[R.YELLOW] or R.TILES[t].bales[R.RED])

    return max(legal, key=take_value)


def _use(c, lay, legal, p) -> int:
    options = [a - lay.use for a in legal]
    tile = R.TILES[c.pend]
    if _missing_task(c, 0, 2) and not c.pend_secret and len(options) > 1:
        return lay.use + max(o for o in options if o != KEEP)  # the exam's conversion
    if sum(tile.bales) >= 2 or not tile.lower:
        return lay.use + KEEP
    if TO_BOTH in options:
        return lay.use + TO_BOTH
    converts = [o for o in options if o != KEEP]
    if sum(tile.bales) == 0 or c.yarn[p] + c.lace[p] < 2:
        # take the scarcer marker
        return lay.use + min(converts, key=lambda o: (c.yarn[p] if o == 1 else c.lace[p], o))
    return lay.use + KEEP


def _pay(c, lay, legal) -> int:
    def waste(a: int) -> tuple:
        b = R.TILES[a - lay.pay].bales
        useful = sum(min(b[i], c.need[i]) for i in range(4))
        return (sum(b) - useful, -useful)

    return min(legal, key=waste)


def _place(c, lay, legal, p, jitter) -> int:
    rents = [a for a in legal if a != lay.sell]
    exam_sale = _missing_task(c, 1, 2) and c.xbits[p] & 1
    if lay.sell in legal and (
        exam_sale
        or not rents
        or c.money[p] < 4
        or c.round == c.cfg.rounds
        and R.DRESSES[c.dress].money >= 20
    ):
        return lay.sell
    counts = _hall_counts(c)
    return max(rents, key=lambda a: _guest_value(c, a - lay.place, counts) + 0.05 * jitter())


def _depute(c, lay, legal) -> int:
    def deputed(a: int) -> int:
        return lay.arg[a]

    # a hand card could still be played this round: depute it only as a last resort
    def from_hand(a: int) -> int:
        return int(lay.decode(a)[0] == "depute_hand")

    if c.depute_mode == "money":
        return min(legal, key=lambda a: (from_hand(a), _card_value(c, deputed(a)), a))
    useful = [
        a
        for a in legal
        if R.CARDS[deputed(a)].bonus not in R.CROWNS
        and R.CARDS[deputed(a)].bonus != R.BONUS["none"]
    ]
    pool = useful or legal
    return min(pool, key=lambda a: (from_hand(a), _TYPE_VALUE[R.CARDS[deputed(a)].kind], a))


def _jewel(c, lay, legal, p) -> int:
    buys = [a for a in legal if a != lay.nojewel]
    best = max(buys, key=lambda a: _jewel_value(c, a - lay.jewel))
    j = best - lay.jewel
    if lay.nojewel not in legal:  # a jewellery bonus: take the best piece
        return best
    if _jewel_value(c, j) > 0 and c.money[p] - c.tab.jprices[j] >= 3:
        return best
    return lay.nojewel


def _discard(c, lay, legal, p) -> int:
    tiles = [a for a in legal if a != lay.done]
    late = c.round == c.cfg.rounds
    if tiles and (late or not any(c.acc)):
        held, want = ST.bales_held(c, p), _wanted_bales(c)
        return min(tiles, key=lambda a: _tile_value(a - lay.discard, held, want))
    return lay.done if lay.done in legal else tiles[0]


def heuristic_action(state, rng=None) -> int:
    rng = rng or random.Random(0)
    c = state._s
    lay = c.lay
    legal = state._legal_actions(state.current_player())  # the game's own method: no bridge
    if len(legal) == 1:
        return legal[0]
    p = c.cur
    ph = c.phase
    jitter = rng.random
    if ph == PH_SELECT:
        return max(legal, key=lambda a: _card_value(c, lay.arg[a]) + 0.1 * jitter())
    if ph == PH_PLAY:
        return max(legal, key=lambda a: _play_value(c, lay.arg[a]) + 0.1 * jitter())
    if ph == PH_MAIN:
        if c.tab.jewelry and lay.exam in legal:
            if c.money[p] - R.EXAM_FEE[c.xside[p]] >= 2:
                return lay.exam
            legal = [a for a in legal if a != lay.exam]
        return lay.main + _main_choice(c, [a - lay.main for a in legal])
    if ph == PH_EXAMPICK:
        return max(legal, key=lambda a: (_card_value(c, a - lay.xpick), a))
    if ph == PH_TAKE:
        return _take(c, lay, legal, p, jitter)
    if ph == PH_USE:
        return _use(c, lay, legal, p)
    if ph == PH_MAKE:
        return max(legal, key=lambda a: _dress_value(c, a - lay.make))
    if ph == PH_PAY:
        return _pay(c, lay, legal)
    if ph == PH_PLACE:
        return _place(c, lay, legal, p, jitter)
    if ph == PH_HIRE:
        return max(legal, key=lambda a: _card_value(c, lay.arg[a]) + 0.1 * jitter())
    if ph == PH_FUND:
        return max(legal, key=lambda a: _fund_value(c, a - lay.fund) + 0.05 * jitter())
    if ph == PH_BONUS:
        return lay.bonus  # use it
    if ph == PH_YARNLACE:
        return lay.yarnlace + (1 if c.lace[p] < c.yarn[p] else 0)
    if ph == PH_DEPUTE:
        return _depute(c, lay, legal)
    if ph == PH_JEWEL:
        return _jewel(c, lay, legal, p)
    if ph == PH_BUY:
        keep = 0 if c.round == c.cfg.rounds else 8
        return lay.buy if c.money[p] - c.rate >= keep else lay.done
    if ph == PH_DISCARD:
        return _discard(c, lay, legal, p)
    if ph == PH_TERRACE:
        moves = [a for a in legal if a != lay.done]
        return max(moves, key=lambda a: (_final_prestige(c.gdress[a - lay.terrace]), -a))
    return legal[0]
