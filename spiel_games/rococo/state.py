"""Rococo's phases (`Phase`), the mutable state (`Core`) and its primitive edits.

`Core` holds every fact of a position in immutable tuples and ints, so a clone
copies a handful of list objects. The engine's ``cache`` slot keeps what is derived
from the position (legal ids, chance outcomes, observer outputs): a clone shares it,
every move drops it, and any other change must go through ``state.own_core()``.
Per-player count vectors are indexed by card id (employees), tile type (resources)
or dress type.

For the resampler, ``ply`` counts the actions applied (the history index of the
next one), ``sels`` records where this round's secret selections are in the
history and ``sdraws`` where the face-down tiles still held secretly were drawn.

Where each card of a player is: ``supply`` (face down, unknown to others),
``hand`` (selected; ``known`` counts the hand cards everyone has seen go there:
hired cards and cards taken automatically), ``discard`` (face up). A card being
played is ``card`` (``inplay`` while it still belongs to the deck).
"""

from __future__ import annotations

import enum
from functools import lru_cache
from operator import add as _plus

from spiel_games.common.engine import install_copier
from spiel_games.rococo import rules as R
from spiel_games.rococo.actions import ActionLayout
from spiel_games.rococo.rules.config import Config


class Phase(enum.IntEnum):
    START = 0  # chance: start player
    REVEAL = 1  # chance: an employee card for the display
    WAREFILL = 2  # chance: a tile for an empty warehouse space
    DRESSFILL = 3  # chance: a dress for an empty window
    STACKDRAW = 4  # chance: a face-down stack tile (secret to the drawing player)
    JEWELFILL = 5  # chance: a jewellery piece for an empty jeweller space (Jewelry Box)
    EXAMDRAW = 6  # chance: a card of an exam pool shown at an exam (Jewelry Box)
    SELECT = 7
    PLAY = 8
    MAIN = 9
    TAKE = 10
    USE = 11
    MAKE = 12
    PAY = 13
    PLACE = 14
    HIRE = 15
    FUND = 16
    BONUS = 17
    YARNLACE = 18
    DEPUTE = 19
    BUY = 20
    DISCARD = 21
    TERRACE = 22
    JEWEL = 23  # buy one piece of jewellery after renting a dress (Jewelry Box)
    EXAMPICK = 24  # take one of the two exam cards shown (Jewelry Box)
    END = 25


# The same ids as plain ints: the per-move code stores and compares these (an
# IntEnum member costs several times more to compare, hash and look up).
(
    PH_START,
    PH_REVEAL,
    PH_WAREFILL,
    PH_DRESSFILL,
    PH_STACKDRAW,
    PH_JEWELFILL,
    PH_EXAMDRAW,
    PH_SELECT,
    PH_PLAY,
    PH_MAIN,
    PH_TAKE,
    PH_USE,
    PH_MAKE,
    PH_PAY,
    PH_PLACE,
    PH_HIRE,
    PH_FUND,
    PH_BONUS,
    PH_YARNLACE,
    PH_DEPUTE,
    PH_BUY,
    PH_DISCARD,
    PH_TERRACE,
    PH_JEWEL,
    PH_EXAMPICK,
    PH_END,
) = range(26)
assert all(int(m) == globals()[f"PH_{m.name}"] for m in Phase)

CHANCE_PHASES = frozenset(
    (PH_START, PH_REVEAL, PH_WAREFILL, PH_DRESSFILL, PH_STACKDRAW, PH_JEWELFILL, PH_EXAMDRAW)
)


class Core:
    """Every fact of a Rococo position. Per-player and board vectors are tuples (updated
    with `put`), so a copy of the core shares them and allocates nothing but the core."""

    # Slot types: the annotations are the slots (``__slots__`` is built from them below).
    money: tuple[int, ...]  # per player
    yarn: tuple[int, ...]
    lace: tuple[int, ...]
    prestige: tuple[int, ...]  # gained during the game
    tpub: tuple[tuple[int, ...], ...]  # per player: silk tiles kept face up, by tile type
    tsec: tuple[tuple[int, ...], ...]  # per player: face-down stack tiles kept, by tile type
    supply: tuple[tuple[int, ...], ...]  # per player: count by card id
    hand: tuple[tuple[int, ...], ...]
    known: tuple[tuple[int, ...], ...]
    discard: tuple[tuple[int, ...], ...]
    ware: tuple[tuple[int, ...], ...]  # tile types in each warehouse segment (sorted)
    windows: tuple[int, ...]  # dress id per window, -1 empty
    gown: tuple[int, ...]  # owner per guest space, -1 free
    gdress: tuple[int, ...]  # dress id per guest space, -1 free
    deco: tuple[int, ...]  # owner per decoration space, -1 free
    allh: tuple[int, ...]  # owner per All-halls space, -1 free
    terr: tuple[int, ...]  # guest space moved beside each fireworks space, -1 none
    jdisp: tuple[int, ...]  # Jewelry Box: kind on each jeweller space or -1 (dearest first)
    jstack: tuple[int, ...]  # jewellery tiles left face down, per kind
    jewels: tuple[tuple[int, ...], ...]  # each player's jewellery, per kind
    xside: tuple[int, ...]  # each exam card's side (0 journeyman's, 1 master's exam)
    xbits: tuple[int, ...]  # each player's exam tasks done (3 bits)
    xpool: tuple[tuple[int, ...], ...]  # (journeyman's, master's) pool: ids no one has seen
    xoffer: tuple[int, ...]  # exam cards shown in the running exam
    spec: tuple[int, ...]  # specialised apprentices still in the open row
    cfg: Config
    lay: ActionLayout
    phase: int  # a Phase, kept as a plain int
    cur: int  # the player to move (or whose turn it is)
    round: int
    start: int  # start player
    stage: int  # 0 main action, 1 bonus
    emp: tuple[tuple[int, ...], ...]  # employee stack levels, top first (-2/-3 reserved slots)
    display: tuple[int, ...]  # card ids for hire (sorted)
    tstack: tuple[int, ...]  # face-down resource tiles by type
    tdisc: tuple[int, ...]  # discarded resource tiles by type
    bag: tuple[int, ...]  # dresses in the bag by type
    ddisc: tuple[int, ...]  # discarded dresses by type
    favor: int  # holder of the Queen's favor, -1 beside the board
    need_sel: int  # cards still to select (or to reveal for the display)
    sel_done: int  # players done selecting this round
    card: int  # card being played, -1 none
    inplay: bool  # the played card still belongs to the deck
    bcard: int  # card whose bonus is offered, -1 none
    by_master: bool  # the dress is made by a Master (thimble, Master guest spaces)
    dress: int  # dress being made, -1 none
    need: tuple[int, ...]  # silk bales still to hand in (yellow, green, red, blue)
    mod: str  # dress saving mode: "" none, "yg", "red", "sell" (sell_dress_free)
    discount: int  # Fund a Decoration discount of the running bonus
    pend: int  # tile being kept or converted, -1 none
    pend_secret: bool  # that tile was drawn face down
    paying: bool  # Acquire Resources costs Livre
    rate: int  # Livre per prestige of the running buy bonus
    acc: tuple[int, ...]  # bales discarded for prestige so far (per colour)
    yl_cost: int  # Livre for the yarn/lace choice
    terr_left: tuple[int, ...]  # players still to make terrace moves, in order
    depute_mode: str  # "use" or "money"
    jmode: int  # 1 while the dress just rented may take a piece of jewellery, else 0
    xneed: int  # exam cards still to show in the running exam
    jcol: int  # the colour of that dress (for the colour-match reward), -1 = none
    sels: tuple[tuple[int, int], ...]  # (ply, player) of this round's selections (secret)
    sspent: tuple[tuple[int, int], ...]  # (player, card) of selected cards shown since
    sdraws: tuple[tuple[int, int, int], ...]  # (ply, player, tile) of face-down tiles kept
    tab: Tables  # the configuration's precomputed tables (shared, read-only)
    # The engine's slots (spiel_games.common.engine):
    mover: int
    ply: int  # actions applied so far (the history index of the next action)
    returns: tuple[float, ...] | None
    owned: bool
    cache: dict | list | None  # legal ids, chance outcomes, observer outputs of this position

    __slots__ = tuple(__annotations__)


install_copier(Core)  # every slot holds an immutable value: the copy shares them


class Tables:
    """Facts of one configuration in the shape the per-move checks read them."""

    decos: tuple[tuple[int, int, int], ...]
    fountains: tuple[tuple[int, int], ...]
    min_deco_cost: int
    fireworks: tuple[int, ...]
    guest_master: tuple[bool, ...]
    window_costs: tuple[int, ...]
    jewelry: bool
    jprices: tuple[int, ...]
    num_cards: int

    __slots__ = (
        "decos",
        "fountains",
        "min_deco_cost",
        "fireworks",
        "guest_master",
        "window_costs",
        "jewelry",
        "jprices",
        "num_cards",
    )

    def __init__(self, cfg: Config):
        self.num_cards = cfg.num_cards
        self.jewelry = cfg.jewelry  # the one switch the per-move code reads
        self.jprices = cfg.jeweller_prices
        fountains = (R.FOUNTAIN_UP, R.FOUNTAIN_LOW)
        # (space id, cost, fountain row kind or -1) of every decoration space
        self.decos = tuple(
            (d, x.cost, x.kind if x.kind in fountains else -1) for d, x in enumerate(cfg.decos)
        )
        self.fountains = tuple((d, k) for d, _, k in self.decos if k >= 0)
        self.min_deco_cost = min((x.cost for x in cfg.decos), default=0)
        self.fireworks = cfg.fireworks
        self.guest_master = tuple(g.master for g in cfg.guests)
        self.window_costs = cfg.window_costs


def initial_core(cfg: Config, lay: ActionLayout) -> Core:
    n = cfg.players
    c = Core.__new__(Core)
    c.cfg = cfg
    c.lay = lay
    c.tab = Tables(cfg)
    c.phase = PH_START
    c.cur = 0
    c.round = 1
    c.start = 0
    c.stage = 0
    c.money = (cfg.start_money,) * n
    c.yarn = (cfg.start_yarn,) * n
    c.lace = (cfg.start_lace,) * n
    c.prestige = (0,) * n
    zt = (0,) * R.NUM_TILES
    zc = (0,) * cfg.num_cards
    c.tpub = (zt,) * n
    c.tsec = (zt,) * n
    c.supply = (cfg.base_deck + (0,) * (cfg.num_cards - 4),) * n
    c.hand = (zc,) * n
    c.known = (zc,) * n
    c.discard = (zc,) * n
    c.emp = tuple(tuple(lv) for lv in cfg.stack_levels if lv)
    c.display = ()
    c.tstack = cfg.tile_counts
    c.tdisc = zt
    c.ware = ((),) * R.SEGMENTS
    c.windows = (-1,) * cfg.num_windows
    c.bag = cfg.dress_counts
    c.ddisc = (0,) * R.NUM_DRESSES
    c.gown = (-1,) * cfg.num_guests
    c.gdress = (-1,) * cfg.num_guests
    c.deco = (-1,) * cfg.num_decos
    c.allh = (-1,) * len(cfg.all_halls)
    c.terr = (-1,) * len(cfg.terrace_mult)
    c.favor = -1
    c.need_sel = 0
    c.sel_done = 0
    c.card = -1
    c.inplay = False
    c.bcard = -1
    c.by_master = False
    c.dress = -1
    c.need = (0, 0, 0, 0)
    c.mod = ""
    c.discount = 0
    c.pend = -1
    c.pend_secret = False
    c.paying = True
    c.rate = 0
    c.acc = (0, 0, 0, 0)
    c.yl_cost = 0
    c.terr_left = ()
    c.depute_mode = ""
    c.jdisp = (-1,) * len(cfg.jeweller_prices)
    c.jstack = cfg.jewel_counts
    c.jewels = ((0,) * len(R.JEWEL_NAMES),) * n
    c.jmode = 0
    c.jcol = -1
    c.xside = (0,) * n
    c.xbits = (0,) * n
    c.xpool = cfg.exam_pools
    c.xoffer = ()
    c.xneed = 0
    c.spec = cfg.specialists
    c.sels = ()
    c.sspent = ()
    c.sdraws = ()
    return c


# ----- small vector helpers (tuples are immutable; each returns a new tuple) --------------
def put(t: tuple, i: int, v) -> tuple:
    """t with item i replaced by v."""
    return t[:i] + (v,) + t[i + 1 :]


def inc(t: tuple, i: int, k: int = 1) -> tuple:
    v = list(t)
    v[i] += k
    if v[i] < 0:
        raise ValueError("count would become negative")
    return tuple(v)


def add(a: tuple, b: tuple) -> tuple:
    """Item-wise sum of two count vectors of the same length."""
    return tuple(map(_plus, a, b))


def deck_size(c: Core, p: int) -> int:
    n = sum(c.supply[p]) + sum(c.hand[p]) + sum(c.discard[p])
    if c.inplay and p == c.cur:
        n += 1
    return n


def deck_counts(c: Core, p: int) -> tuple:
    return add(add(c.supply[p], c.hand[p]), c.discard[p])


def bales_held(c: Core, p: int) -> list[int]:
    """Silk bales (yellow, green, red, blue) on p's public and secret tiles."""
    return list(bales_of(c.tpub[p], c.tsec[p]))


@lru_cache(maxsize=16384)
def bales_of(pub: tuple, sec: tuple) -> tuple[int, int, int, int]:
    """Silk bales (yellow, green, red, blue) on these public and secret tile counts."""
    y = g = r = b = 0
    for counts in (pub, sec):
        for t, k in enumerate(counts):
            if k:
                ty, tg, tr, tb = _BALES[t]
                y += k * ty
                g += k * tg
                r += k * tr
                b += k * tb
    return (y, g, r, b)


_BALES = tuple(t.bales for t in R.TILES)


def forget_secret_tile(c: Core, p: int, t: int) -> None:
    """A face-down tile of type t left p's secret tiles (shown): drop its draw record."""
    for i in range(len(c.sdraws) - 1, -1, -1):
        e = c.sdraws[i]
        if e[1] == p and e[2] == t:
            c.sdraws = c.sdraws[:i] + c.sdraws[i + 1 :]
            return


def own_dresses(c: Core, p: int) -> list[int]:
    return [c.gdress[g] for g, o in enumerate(c.gown) if o == p]


def own_decos(c: Core, p: int) -> int:
    return sum(1 for o in c.deco if o == p)


def present_halls(c: Core, p: int) -> set[int]:
    """Halls where p is present: an own dress on a guest space or the hall's Musician."""
    cfg = c.cfg
    present = {cfg.guests[g].hall for g, o in enumerate(c.gown) if o == p}
    present |= {
        cfg.decos[d].index
        for d, o in enumerate(c.deco)
        if o == p and cfg.decos[d].kind == R.MUSICIAN
    }
    return present


def master_space_dresses(c: Core, p: int) -> int:
    master = c.tab.guest_master
    return sum(1 for g, o in enumerate(c.gown) if o == p and master[g])


def dress_colours(c: Core, p: int) -> int:
    """Distinct main colours among p's dresses on the board."""
    return len({R.DRESSES[c.gdress[g]].colour for g, o in enumerate(c.gown) if o == p})


def exam_stack(c: Core, side: int) -> int:
    """Cards left in an exam's face-down stack: its pool less the reserved stack slots."""
    slot = R.RESERVED[side]
    return len(c.xpool[side]) - sum(lv.count(slot) for lv in c.emp)
