"""Rococo's round frame: preparation (phase 1), hand selection (phase 2), turn order
(phase 3), income (phase 4) and the final terrace moves.

Each function advances a `Core` in place and leaves it at the next decision or
chance node (``c.phase``).
"""

from __future__ import annotations

from spiel_games.rococo import rules as R
from spiel_games.rococo.state import (
    PH_DRESSFILL,
    PH_END,
    PH_JEWELFILL,
    PH_PLAY,
    PH_REVEAL,
    PH_SELECT,
    PH_TERRACE,
    PH_WAREFILL,
    Core,
    add,
    inc,
    own_decos,
    own_dresses,
    put,
)

_JEWEL_INCOME = R.RULES["jewelry.income_per_piece"]


# ----- round preparation -------------------------------------------------------------------
def start_round(c: Core) -> None:
    """Phase 1: favor -> start player, new display, warehouse and workshop refills."""
    if c.favor >= 0:
        c.start = c.favor
        c.favor = -1
    c.display = ()
    c.need_sel = min(c.cfg.display, sum(len(lv) for lv in c.emp))
    if c.need_sel > 0:
        c.phase = PH_REVEAL
        return
    prep_warehouse(c)


def reveal(c: Core, card: int) -> None:
    level = c.emp[0]
    rest = list(level)
    if card in level:
        rest.remove(card)
    else:  # a card of an exam pool from a reserved slot (Jewelry Box)
        i = next((i for i in (0, 1) if card in c.xpool[i] and R.RESERVED[i] in level), -1)
        if i < 0:
            raise ValueError(f"card {card} is not on top of the employee stack")
        rest.remove(R.RESERVED[i])
        c.xpool = put(c.xpool, i, tuple(k for k in c.xpool[i] if k != card))
    c.emp = ((tuple(rest),) if rest else ()) + c.emp[1:]
    c.display = tuple(sorted(c.display + (card,)))
    c.need_sel -= 1
    if c.need_sel == 0:
        prep_warehouse(c)


def _ware_gap(c: Core) -> int:
    for s, seg in enumerate(c.ware):
        if len(seg) < c.cfg.segment_size:
            return s
    return -1


def ensure_tile_stack(c: Core) -> bool:
    """Reshuffle the discarded tiles into the stack when it is empty; False if none."""
    if sum(c.tstack) == 0:
        if sum(c.tdisc) == 0:
            return False
        c.tstack = c.tdisc
        c.tdisc = (0,) * R.NUM_TILES
    return True


def prep_warehouse(c: Core) -> None:
    if _ware_gap(c) >= 0 and ensure_tile_stack(c):
        c.phase = PH_WAREFILL
        return
    prep_workshop(c)


def ware_fill(c: Core, t: int) -> None:
    c.tstack = inc(c.tstack, t, -1)
    s = _ware_gap(c)
    c.ware = put(c.ware, s, tuple(sorted(c.ware[s] + (t,))))
    prep_warehouse(c)


def _window_gap(c: Core) -> int:
    for w in range(len(c.windows) - 1, -1, -1):
        if c.windows[w] < 0:
            return w
    return -1


def _ensure_bag(c: Core) -> bool:
    if sum(c.bag) == 0:
        if sum(c.ddisc) == 0:
            return False
        c.bag = c.ddisc
        c.ddisc = (0,) * R.NUM_DRESSES
    return True


def prep_workshop(c: Core) -> None:
    """Discard the 2 rightmost dresses, slide the rest right, then refill from the bag."""
    w = c.windows
    for i in range(max(0, len(w) - 2), len(w)):
        if w[i] >= 0:
            c.ddisc = inc(c.ddisc, w[i])
    left = [d for d in w[: max(0, len(w) - 2)] if d >= 0]
    c.windows = (-1,) * (len(w) - len(left)) + tuple(left)
    if _window_gap(c) >= 0 and _ensure_bag(c):
        c.phase = PH_DRESSFILL
        return
    prep_jeweller(c)


def dress_fill(c: Core, d: int) -> None:
    c.bag = inc(c.bag, d, -1)
    c.windows = put(c.windows, _window_gap(c), d)
    if _window_gap(c) >= 0 and _ensure_bag(c):
        return
    prep_jeweller(c)


def prep_jeweller(c: Core) -> None:
    """Jewelry Box: fill empty jeweller spaces from the face-down jewellery, one draw each."""
    if c.tab.jewelry and c.jdisp and c.jdisp[0] < 0 and sum(c.jstack):
        c.phase = PH_JEWELFILL
        return
    start_select(c)


def jewel_fill(c: Core, kind: int) -> None:
    """The drawn piece goes face up on the cheapest empty space (the display is packed
    to the cheap end, so the empty spaces are the dearest ones)."""
    c.jstack = inc(c.jstack, kind, -1)
    c.jdisp = put(c.jdisp, c.jdisp.count(-1) - 1, kind)
    prep_jeweller(c)


# ----- phase 2: hand selection ---------------------------------------------------------------
def start_select(c: Core) -> None:
    c.sel_done = 0
    c.sels = ()
    c.sspent = ()
    _begin_select(c, c.start)


def _begin_select(c: Core, p: int) -> None:
    """Take cards automatically where the rules leave no choice; else ask player p."""
    n = c.cfg.players
    while True:
        c.cur = p
        hs = c.cfg.hand_size
        sup = sum(c.supply[p])
        need = hs
        if sup <= hs:
            # Fewer than (or exactly) hand-size cards left: take them all. Only when
            # fewer is the discard pile turned into the new supply.
            c.hand = put(c.hand, p, add(c.hand[p], c.supply[p]))
            c.known = put(c.known, p, add(c.known[p], c.supply[p]))
            c.supply = put(c.supply, p, (0,) * c.tab.num_cards)
            need = 0
            if sup < hs:
                c.supply = put(c.supply, p, c.discard[p])
                c.discard = put(c.discard, p, (0,) * c.tab.num_cards)
                need = min(hs - sup, sum(c.supply[p]))
        if need > 0 and need >= sum(c.supply[p]):
            c.hand = put(c.hand, p, add(c.hand[p], c.supply[p]))
            c.known = put(c.known, p, add(c.known[p], c.supply[p]))
            c.supply = put(c.supply, p, (0,) * c.tab.num_cards)
            need = 0
        if need > 0:
            c.need_sel = need
            c.phase = PH_SELECT
            return
        c.sel_done += 1
        if c.sel_done == n:
            start_actions(c)
            return
        p = (p + 1) % n


def select(c: Core, card: int) -> None:
    p = c.cur
    if c.supply[p][card] <= 0:
        raise ValueError("that card is not in the supply")
    c.supply = put(c.supply, p, inc(c.supply[p], card, -1))
    c.hand = put(c.hand, p, inc(c.hand[p], card))
    c.sels += ((c.ply, p),)
    c.need_sel -= 1
    if c.need_sel > 0:
        return
    c.sel_done += 1
    if c.sel_done == c.cfg.players:
        start_actions(c)
    else:
        _begin_select(c, (p + 1) % c.cfg.players)


# ----- phase 3 frame and phase 4 ---------------------------------------------------------------
def start_actions(c: Core) -> None:
    c.cur = c.start
    c.need_sel = 0
    if sum(c.hand[c.cur]) == 0:
        _next_player(c)
        return
    c.phase = PH_PLAY


def _next_player(c: Core) -> None:
    n = c.cfg.players
    for k in range(1, n + 1):
        p = (c.cur + k) % n
        if sum(c.hand[p]):
            c.cur = p
            c.phase = PH_PLAY
            return
    income(c)


def end_turn(c: Core) -> None:
    p = c.cur
    if c.inplay:
        c.discard = put(c.discard, p, inc(c.discard[p], c.card))
    c.inplay = False
    c.card = -1
    c.bcard = -1
    c.stage = 0
    _next_player(c)


def income(c: Core) -> None:
    base = R.RULES["game.income"]
    cfg = c.cfg
    for p in range(cfg.players):
        gain = base
        for d, o in enumerate(c.deco):
            if o == p:
                kind = cfg.decos[d].kind
                if kind == R.FOUNTAIN_UP:
                    gain += own_decos(c, p)
                elif kind == R.FOUNTAIN_LOW:
                    gain += len(own_dresses(c, p))
        if c.tab.jewelry:
            gain += sum(c.jewels[p]) * _JEWEL_INCOME
        c.money = put(c.money, p, c.money[p] + gain)
    if c.round >= cfg.rounds:
        start_terrace(c)
        return
    c.round += 1
    start_round(c)


# ----- final terrace moves ------------------------------------------------------------------------
def terrace_moves(c: Core, p: int) -> list[int]:
    """Guest spaces of p's dresses in the King's hall that may move to a free own terrace space."""
    cfg = c.cfg
    fw = c.tab.fireworks
    if not any(c.deco[d] == p and c.terr[i] < 0 for i, d in enumerate(fw)):
        return []
    moved = set(c.terr)
    return [
        g
        for g, gs in enumerate(cfg.guests)
        if gs.hall == R.KINGS_HALL and c.gown[g] == p and g not in moved
    ]


def start_terrace(c: Core) -> None:
    n = c.cfg.players
    c.terr_left = tuple((c.start + k) % n for k in range(n))
    next_terrace(c)


def next_terrace(c: Core) -> None:
    while c.terr_left:
        p = c.terr_left[0]
        if terrace_moves(c, p):
            c.cur = p
            c.phase = PH_TERRACE
            return
        c.terr_left = c.terr_left[1:]
    c.phase = PH_END


def move_to_terrace(c: Core, g: int) -> None:
    """Move the dress on guest space g to the player's free terrace space with the best multiplier."""
    p = c.cur
    if g not in terrace_moves(c, p):
        raise ValueError("that dress cannot move to the terrace")
    fw = c.tab.fireworks
    free = [i for i, d in enumerate(fw) if c.deco[d] == p and c.terr[i] < 0]
    best = max(free, key=lambda i: (c.cfg.terrace_mult[i], i))
    c.terr = put(c.terr, best, g)
    next_terrace(c)
