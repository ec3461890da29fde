"""The mutable facts of a Bruxelles 1893 position, in one cheap-to-copy object, and the
primitive edits every rule module makes through (pure queries are in queries.py).

``Core`` holds every fact in ``__slots__``. The few facts that change on most
moves (board occupancy and bids, money, VP, assistants) are lists, copied with
the core; everything else is an immutable tuple shared between copies and
replaced (``set_at``/``add_at``) when it changes. ``tasks`` is a tuple of pending
rule steps (see rounds.py): the engine pops them until a step needs a decision
(a player phase) or a random event (a chance phase). ``log`` is the move log as a
linked list of tokens (actions.py: player actions, public chance outcomes, hidden
draws).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, TypeAlias, TypedDict

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.common.engine import install_copier

if TYPE_CHECKING:  # numpy only types the cached tensor block; the per-move path never uses it
    import numpy as np
    from numpy.typing import NDArray


class Phase(enum.IntEnum):
    # chance
    C_STRIP = 0  # setup: which strip lies in the next row
    C_COMPASS = 1  # setup: which tile lies on the next compass position
    C_ART = 2  # a colour work of art is drawn (start works, workshop draws)
    C_FIGURE = 3  # a public figure card is revealed into the theater display
    C_BONUS = 4  # a bonus card is dealt onto the bonus strip
    C_STOCK = 5  # the round's stock exchange card is revealed
    # player decisions
    SHIELD = 6  # first player picks one of the card's two shields
    NEUTRAL = 7  # 2 players: place the neutral assistant
    MAIN = 8  # a turn: place on the Art Nouveau board, Brussels action, or pass
    BID = 9  # the bid under the assistant just placed
    DO = 10  # perform the space's action, or skip it
    PARK = 11  # Park: which Art Nouveau action
    KEEP_WORK = 12  # Workshop: which drawn work to keep
    SELL = 13  # Sale: which work to sell
    CURSOR = 14  # Sale: where to move the workshop cursor
    SLOT = 15  # Sale: which shop space receives the work
    THEATER = 16  # Royal Theater: which display card
    SOLVAY = 17  # Ernest Solvay: one cube, or swap a joker for two
    KEEP_FIG = 18  # keep the figure rotated, or discard it
    NOBLE = 19  # take one noble cube
    PAY = 20  # pay one construction unit
    NEEDLE = 21  # turn one compass needle
    BUILD = 22  # place the building tile
    ACTIVATE = 23  # activate an upright figure (Grand Place, theater secondary)
    BONUS = 24  # a won bonus card: use its power or tuck it
    END = 25


CHANCE_PHASES = frozenset(
    (Phase.C_STRIP, Phase.C_COMPASS, Phase.C_ART, Phase.C_FIGURE, Phase.C_BONUS, Phase.C_STOCK)
)

# A pending rule step: the task's name (a key of rounds._TASKS), then its int arguments.
Task = tuple[str, *tuple[int, ...]]
# The pending decision's arguments (their meaning depends on the phase).
Ctx = tuple[int | tuple[int, ...], ...]
# The move log, newest token first: (token, rest of the log), None when empty.
Log: TypeAlias = "tuple[int, Log] | None"


class Cache(TypedDict, total=False):
    """Facts computed from one exact position, shared by its copies (the engine drops the
    cache after every move; while it holds only the engine's options it is that list)."""

    options: list  # legal actions of the pending decision or chance outcomes (the engine)
    s: list[str]  # the public observation string pieces (observer.py)
    t: NDArray[np.float32]  # the public observation tensor block (observer.py)


class Core:
    # Slot types: the annotations are the slots (``__slots__`` is built from them below).
    # Per space of the Art Nouveau board (lists, copied with the core):
    occ: list[int]  # owner of the assistant on the space (n: the neutral one), -1 empty
    bids: list[int]  # the bid under that assistant
    # Per player (lists, copied with the core):
    money: list[int]
    vp: list[int]
    supply: list[int]  # assistants in the supply
    onboard: list[int]  # assistants on the Art Nouveau board
    # Shared between copies, replaced when they change:
    cfg: R.Config
    n: int  # players
    phase: int  # a Phase, or RUNNING while the engine runs tasks
    actor: int  # the deciding player, -1 at chance nodes
    ctx: Ctx
    tasks: tuple[Task, ...]  # pending rule steps, next first
    round: int
    first: int  # the first player of the round
    cur: int  # the player whose turn it is
    strips: tuple[int, ...]  # the strip in each board row
    acts: tuple[int, ...]  # the Art Nouveau action of each space
    compass: tuple[int, ...]  # the tile on each compass position
    needles: tuple[int, int]  # compass positions of the two needles
    stock_left: int  # bit k: stock exchange card k is still in the deck
    stock: int  # this round's stock exchange card, -1 none
    area: int  # bit sp: space sp lies in the neutral assistant's area
    cursor: tuple[int, int]  # the workshop cursor
    passed: int  # bit p: player p has passed this round
    first_passer: int  # -1 while nobody has passed
    log: Log
    bld: tuple[int, ...]  # per space: the owner of the building on it, -1 none
    fig_deck: tuple[int, ...]  # figure cards left per figure
    fig_disc: tuple[int, ...]  # discarded figure cards per figure
    display: tuple[int, ...]  # the theater display: figure per slot, -1 empty
    bonus_deck: tuple[int, ...]  # bonus cards left per kind
    strip_bonus: tuple[int, ...]  # the bonus card on each column's strip, -1 none
    art_stack: tuple[int, ...]  # works of art left per colour
    shop: tuple[int, int]  # the colour on each shop space, -1 empty
    shop_pile: tuple[int, ...]  # works sold to the shop per colour
    cube_supply: tuple[int, ...]  # noble cubes left per kind, then jokers
    uses: tuple[int, ...]  # assistants placed on each Brussels space
    # Per player (immutable tuples):
    hall: tuple[int, ...]  # Town Hall track position
    palace: tuple[int, ...]  # Royal Palace track position
    arch: tuple[int, ...]  # architect track position
    court: tuple[int, ...]  # assistants in the Courthouse
    onbrussels: tuple[int, ...]  # assistants on the Brussels spaces
    built: tuple[int, ...]  # buildings built
    exhib: tuple[int, ...]  # extra workshop draws (from passing first)
    mp: tuple[int, ...]  # Manneken Pis symbols this round
    works: tuple[tuple[int, ...], ...]  # works of art held per colour
    pub_works: tuple[tuple[int, ...], ...]  # the works others can see
    cubes: tuple[tuple[int, ...], ...]  # noble cubes held per kind, then jokers
    kept: tuple[int, ...]  # bit f: figure f is kept
    rot: tuple[int, ...]  # bit f: figure f is rotated (used)
    rows: tuple[tuple[int, ...], ...]  # VP symbols per bonus row
    tucked: tuple[int, ...]  # bit r: a bonus card was tucked into row r
    seen: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]  # (kept, others) per draw
    drawn_from: tuple[tuple[tuple[int, ...], ...], ...]  # colour stacks before each draw

    # The engine's slots (spiel_games.common.engine):
    mover: int
    ply: int
    returns: tuple[float, ...] | None
    owned: bool
    cache: Cache | list | None

    __slots__ = tuple(__annotations__)

    # ----- small derived facts ----------------------------------------------------------
    @property
    def neutral_id(self) -> int:
        return self.n  # the neutral colour's owner id on the board

    def upright(self, p: int) -> int:
        return self.kept[p] & ~self.rot[p]

    def owned_assistants(self, p: int) -> int:
        """Assistants not in the Courthouse (supply + on the boards)."""
        return self.supply[p] + self.onboard[p] + self.onbrussels[p]

    def total_works(self, p: int) -> int:
        return sum(self.works[p])

    def nobles(self, p: int) -> int:
        c = self.cubes[p]
        return c[0] + c[1] + c[2]

    def kept_list(self, p: int) -> tuple[int, ...]:
        m = self.kept[p]
        return tuple(f for f in range(len(R.FIGURES)) if (m >> f) & 1)


# The few facts that change on most moves are lists, copied with the core.
install_copier(Core, lists=("occ", "bids", "money", "vp", "supply", "onboard"))


def initial_core(cfg: R.Config) -> Core:
    n = cfg.players
    c = Core.__new__(Core)
    c.cfg = cfg
    c.n = n
    c.phase = Phase.C_STRIP
    c.actor = -1
    c.ctx = ()
    c.tasks = ()
    c.round = 1
    c.first = 0
    c.cur = 0
    c.strips = ()
    c.acts = ()
    c.compass = ()
    c.needles = R.NEEDLES_START
    c.stock_left = (1 << len(R.STOCK_VALUES)) - 1
    c.stock = -1
    c.area = (1 << cfg.spaces) - 1
    c.cursor = (3, 3)
    c.passed = 0
    c.first_passer = -1
    c.log = None
    sp = cfg.spaces
    c.occ = [-1] * sp
    c.bids = [0] * sp
    c.bld = (-1,) * sp
    c.fig_deck = tuple(R.FIG_COPIES)
    c.fig_disc = (0,) * len(R.FIGURES)
    c.display = (-1,) * len(R.THEATER_COSTS)
    c.bonus_deck = tuple(copies for *_, copies in R.BONUS)
    c.strip_bonus = (-1,) * cfg.board
    c.art_stack = (R.ART_PER_COLOUR,) * len(R.ART)
    c.shop = (-1, -1)
    c.shop_pile = (0,) * len(R.ART)
    c.cube_supply = (R.NOBLE_EACH,) * 3 + (R.JOKER_SUPPLY,)
    c.uses = (0,) * len(R.BRUSSELS)
    start_money = R.RULES["game.start_money"]
    c.money = [start_money[p] for p in range(n)]
    c.vp = [0] * n
    c.hall = (0,) * n
    c.palace = (0,) * n
    c.arch = (0,) * n
    c.supply = [cfg.assistants] * n
    c.court = (cfg.courthouse,) * n
    c.onboard = [0] * n
    c.onbrussels = (0,) * n
    c.built = (0,) * n
    c.exhib = (0,) * n
    c.mp = (0,) * n
    c.works = ((0,) * len(R.ART),) * n
    c.pub_works = c.works  # the works others can see (all of them unless private_works)
    c.cubes = ((0, 0, 0, 0),) * n
    c.kept = (1 << R.BRUGMANN,) * n  # every architect starts with Georges Brugmann
    c.rot = (0,) * n
    c.rows = ((1,) * R.BONUS_ROWS,) * n  # one built-in VP symbol per row
    c.tucked = (0,) * n
    c.seen = ((),) * n
    # the colour stack before each of those draws (parallel to seen; for the resampler)
    c.drawn_from = ((),) * n
    return c


# ----- primitive edits -------------------------------------------------------------------
RUNNING = -1  # phase while the engine is running tasks
J = R.JOKER


def decide(s, phase: Phase, actor: int, ctx: Ctx = ()) -> None:
    s.phase = phase
    s.actor = actor
    s.ctx = ctx


def set_chance(s, phase: Phase, ctx: Ctx = ()) -> None:
    s.phase = phase
    s.actor = -1
    s.ctx = ctx


def push(s, *tasks: Task) -> None:
    s.tasks = tasks + s.tasks


def set_at(tup: tuple, i: int, v) -> tuple:
    """A copy of `tup` with item i replaced (holdings are immutable tuples)."""
    return tup[:i] + (v,) + tup[i + 1 :]


def take_one(counts: tuple, kind: int) -> tuple:
    """Draw one card of `kind` from a count vector; raise if none is left."""
    if counts[kind] <= 0:
        raise ValueError(f"no card of type {kind} left to draw")
    return counts[:kind] + (counts[kind] - 1,) + counts[kind + 1 :]


def add_at(tup: tuple, i: int, k: int) -> tuple:
    lst = list(tup)
    lst[i] += k
    return tuple(lst)


def gain_cubes(s, p: int, kind: int, k: int) -> int:
    k = min(k, s.cube_supply[kind])
    if k > 0:
        s.cube_supply = add_at(s.cube_supply, kind, -k)
        s.cubes = set_at(s.cubes, p, add_at(s.cubes[p], kind, k))
    return k


def spend_cube(s, p: int, kind: int) -> None:
    if s.cubes[p][kind] <= 0:
        raise ValueError(f"P{p + 1} has no {R.CUBES[kind]} cube")
    s.cubes = set_at(s.cubes, p, add_at(s.cubes[p], kind, -1))
    s.cube_supply = add_at(s.cube_supply, kind, 1)


def advance_track(s, p: int, power: str) -> None:
    if power == "P":
        s.palace = set_at(s.palace, p, min(s.palace[p] + 1, len(R.PALACE) - 1))
    elif power == "H":
        s.hall = set_at(s.hall, p, min(s.hall[p] + 1, len(R.HALL) - 1))
    elif power == "A":
        s.arch = set_at(s.arch, p, min(s.arch[p] + 1, len(R.ARCHITECT) - 1))
    elif power == "C":
        if s.court[p] > 0:
            s.court = add_at(s.court, p, -1)
            s.supply[p] += 1
    else:
        raise ValueError(f"unknown power {power!r}")


def recycle_shop(s) -> None:
    """Empty stacks are rebuilt from the shop, leaving the two visible works."""
    for c in range(len(R.ART)):
        s.art_stack = add_at(s.art_stack, c, s.shop_pile[c])
        s.shop_pile = set_at(s.shop_pile, c, 0)


def set_stock(s, card: int) -> None:
    if not (s.stock_left >> card) & 1:
        raise ValueError(f"stock card {card} is not in the deck")
    s.stock_left &= ~(1 << card)
    s.stock = card


def log_move(s, action: int) -> None:
    """Note a move in the move log before it is applied (the engine's ``record`` hook):
    a player action as itself, a public chance outcome as a chance token, another
    player's hidden draw or private keep as that player's hidden token."""
    if s.phase in CHANCE_PHASES:
        hidden = s.phase == Phase.C_ART and s.ctx[3] == 1
        token = A.HIDDEN_TOKEN + s.ctx[0] if hidden else A.CHANCE_TOKEN + action
    elif s.phase == Phase.KEEP_WORK and s.cfg.private_works:
        token = A.HIDDEN_TOKEN + s.actor
    else:
        token = action
    s.log = (token, s.log)


def log_tokens(s) -> list[int]:
    """The move log, oldest first (tokens as in actions.py)."""
    out = []
    node = s.log
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out
