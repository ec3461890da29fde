"""Die Staufer's phases (`Phase`), the mutable core of a state, its primitive edits and
the setup step list.

All mutable integers of a state live in ONE flat list ``v`` (so a clone copies one
list); a few rarely-changing tuples (board order, tiles), the refill queue and the record
of the last round's scoring are shared until replaced. Layout of ``v`` (offsets of the
arrays are in ``Tables``):

| slice            | size     | meaning                                                     |
|------------------|----------|-------------------------------------------------------------|
| scalars          | 21       | CUR, STEP, KING, ROUND, TI, PEND_POS, PEND_SEAT, PEND_OCC, ESCORT, GIFT, PRIV_PENDING, NSUP, NDEP, VPLEFT, SCORED_A, SCORED_B, TAKE_E, TAKE_N, NOB_LEFT, NOB_CUR, NOB_AT |
| order            | F        | this round's family-member order (F = players x actions)   |
| sup / dep        | F each   | supply / deployment track, in placement order (NSUP/NDEP)  |
| seat             | R*K      | -1 free, else player*2 + is_noble (index pos*K + k, k=0 leftmost) |
| chest            | R*K      | chest kind under each seat, -1 none                         |
| supc             | S*9      | chests of each kind under each supply space                 |
| pay              | R*N*2    | payment areas: (pos*N + player)*2 + is_noble                |
| court / prov     | N*2 each | court / province figures: player*2 + is_noble               |
| vp, brown, vpp   | N each   | VP track, brown chests, VP-privilege points                 |
| tq               | N*3      | turquoise chests held (escort, gift, levy)                  |
| privs            | N*11     | privileges held per slot                                    |
| bag              | 9        | chests left in the face-down stacks, per kind               |
| piles            | 11       | privilege cards left per kind                               |
| jobs             | N*3      | job card ids (-1 until dealt)                               |

Board indexing: regions sit at board positions 0..R-1 clockwise; ``region_at[pos]`` is
the region id there and ``pos_of[rid]`` its position.
"""

from __future__ import annotations

import enum

from spiel_games.common.engine import install_copier
from spiel_games.staufer import rules as R


class Phase(enum.IntEnum):
    SETUP = 0  # chance: regions, point tiles, jobs, round tiles
    REFILL = 1  # chance: a chest for the next empty chest space
    TURN = 2  # player: supply space, deploy region, or use a turquoise chest
    SEAT = 3  # player: which seat of the target region
    OCCUPANT = 4  # player: envoy or noble on the seat
    PAYMENT = 5  # player: how many nobles among the paid figures
    PRIVILEGE = 6  # player: which privilege a purple chest buys
    END = 7
    NOBLE = 8  # player: which payment region receives the next paying noble
    TAKE = 9  # player: which payment area supplies the next figure the province lacks
    AFTER = 10  # player: use a levy after the action, or end the turn


SETUP, REFILL, TURN, SEAT, OCCUPANT, PAYMENT, PRIVILEGE, END, NOBLE, TAKE, AFTER = (
    int(p) for p in Phase
)
CHANCE_PHASES = frozenset((SETUP, REFILL))
PLAYER_PHASES = frozenset((TURN, SEAT, OCCUPANT, PAYMENT, PRIVILEGE, NOBLE, TAKE, AFTER))

# Scalar slots of v.
(
    CUR,
    STEP,
    KING,
    ROUND,
    TI,
    PEND_POS,
    PEND_SEAT,
    PEND_OCC,
    ESCORT,
    GIFT,
    PRIV_PENDING,
    NSUP,
    NDEP,
    VPLEFT,
    SCORED_A,
    SCORED_B,
    TAKE_E,  # envoys the province lacked, still to take from payment areas this turn
    TAKE_N,  # nobles the province lacked, likewise
    NOB_LEFT,  # paying nobles still to place (NOBLE phase)
    NOB_CUR,  # index (in payment_groups order) of the region the last noble went to
    NOB_AT,  # nobles placed in that region so far
) = range(21)
NSCALAR = 21

# Setup step kinds.
ST_REGION, ST_TILE, ST_JOB, ST_A, ST_B, ST_C = range(6)


def setup_steps(cfg: R.Config) -> tuple[tuple[int, int], ...]:
    steps = [(ST_REGION, pos) for pos in range(1, cfg.regions)]
    steps += [(ST_TILE, pos) for pos in range(cfg.regions)]
    steps += [(ST_JOB, p * 3 + t) for p in range(cfg.players) for t in range(cfg.job_types)]
    steps += [(ST_A, i) for i in range(cfg.rounds + 1)]  # the last one places the king
    steps += [(ST_B, i) for i in range(cfg.rounds)]
    steps += [(ST_C, i) for i in range(cfg.rounds - 1)]  # round 5 has no clean-up
    return tuple(steps)


class Tables:
    """Per-configuration constants and the offsets of the arrays in ``v``."""

    # Offsets of the arrays in ``v``, set by the loop in __init__ (one per name in `sizes`).
    order: int
    sup: int
    dep: int
    seat: int
    chest: int
    supc: int
    pay: int
    court: int
    prov: int
    vp: int
    brown: int
    vpp: int
    tq: int
    privs: int
    bag: int
    piles: int
    jobs: int
    sizes: dict[str, int]

    def __init__(self, cfg: R.Config):
        self.cfg = cfg
        self.n = n = cfg.players
        self.r = r = cfg.regions
        self.K = k = max(len(s) for s in cfg.seats)
        self.S = s = len(cfg.supply)
        self.F = f = cfg.turns_per_round
        self.steps = setup_steps(cfg)
        self.nseats = tuple(len(x) for x in cfg.seats)  # per region id
        off = NSCALAR
        sizes = (
            ("order", f),
            ("sup", f),
            ("dep", f),
            ("seat", r * k),
            ("chest", r * k),
            ("supc", s * R.CHEST_KINDS),
            ("pay", r * n * 2),
            ("court", n * 2),
            ("prov", n * 2),
            ("vp", n),
            ("brown", n),
            ("vpp", n),
            ("tq", n * 3),
            ("privs", n * R.PRIV_KINDS),
            ("bag", R.CHEST_KINDS),
            ("piles", R.PRIV_KINDS),
            ("jobs", n * 3),
        )
        for name, size in sizes:
            setattr(self, name, off)
            off += size
        self.size = off
        self.sizes = dict(sizes)  # capacity of each array


class Core:
    # Slot types: the annotations are the slots (``__slots__`` is built from them below).
    t: Tables  # shared per-configuration constants
    v: list[int]  # every mutable integer (layout in the module docstring), copied with the core
    region_at: tuple[int, ...]  # region id at each board position, -1 not yet placed
    pos_of: tuple[int, ...]  # board position of each region id, -1 not yet placed
    tile_at: tuple[int, ...]  # point tile at each board position, -1 none
    a_tiles: tuple[int, ...]  # round tiles A dealt so far: region ids (the last one: the king)
    b_tiles: tuple[int, ...]  # round tiles B dealt so far: condition ids
    c_tiles: tuple[int, ...]  # round tiles C dealt so far: king moves
    refill: tuple[int, ...]  # chest spaces still to refill (supply spaces, then S + seat)
    # The last round end's scoring as it happened (a scoring.RoundScoring, set once per
    # round end by rounds._end_round, for the log's round summary); None before the first.
    scoring: tuple | None
    # The engine's slots (spiel_games.common.engine); ``cache`` also holds the public
    # tensor block (observer.py):
    phase: int  # a Phase, kept as a plain int
    mover: int
    ply: int
    returns: tuple[float, ...] | None
    owned: bool
    cache: dict | list | None

    __slots__ = tuple(__annotations__)

    # Readable accessors (not used on the per-move hot path).
    @property
    def cfg(self) -> R.Config:
        return self.t.cfg

    def arr(self, name: str) -> list[int]:
        """A copy of one array of v (for strings, tensors and tests)."""
        t = self.t
        start = getattr(t, name)
        if name == "sup":  # the tracks are filled up to their live lengths
            size = self.v[NSUP]
        elif name == "dep":
            size = self.v[NDEP]
        else:
            size = t.sizes[name]
        return self.v[start : start + size]

    def seat_def(self, pos: int, k: int) -> tuple[int, bool]:
        return self.t.cfg.seats[self.region_at[pos]][k]

    def seats_in(self, pos: int) -> int:
        return self.t.nseats[self.region_at[pos]]

    def vp_pile(self) -> tuple[int, ...]:
        return self.t.cfg.vp_pile[: self.v[VPLEFT]]


install_copier(Core, lists=("v",))


def initial_core(cfg: R.Config) -> Core:
    t = Tables(cfg)
    n, r = t.n, t.r
    v = [0] * t.size
    v[PEND_POS] = v[PEND_SEAT] = v[PEND_OCC] = -1
    v[SCORED_A] = v[SCORED_B] = -1
    v[VPLEFT] = len(cfg.vp_pile)
    v[t.order : t.order + t.F] = cfg.first_order()
    v[t.seat : t.seat + r * t.K] = [-1] * (r * t.K)
    v[t.chest : t.chest + r * t.K] = [-1] * (r * t.K)
    ce, cn = R.RULES["figures.court_envoys"], R.RULES["figures.court_nobles"]
    te, tn = R.RULES["figures.envoys_per_colour"], R.RULES["figures.nobles_per_colour"]
    v[t.court : t.court + 2 * n] = [ce, cn] * n
    v[t.prov : t.prov + 2 * n] = [te - ce, tn - cn] * n
    v[t.bag : t.bag + R.CHEST_KINDS] = cfg.bag
    v[t.piles : t.piles + R.PRIV_KINDS] = cfg.priv_piles
    v[t.jobs : t.jobs + 3 * n] = [-1] * (3 * n)
    c = Core.__new__(Core)
    c.t = t
    c.v = v
    c.region_at = (0,) + (-1,) * (r - 1)
    c.pos_of = (0,) + (-1,) * (r - 1)
    c.tile_at = (-1,) * r
    c.a_tiles = c.b_tiles = c.c_tiles = ()
    c.refill = ()
    c.scoring = None
    c.phase = SETUP
    return c


# ----- primitive edits (used by the phases and by region scoring) -------------------------


def gain(c: Core, p: int, envoys: int, nobles: int) -> tuple[int, int]:
    """Outside a turn (region bonuses): take figures of colour p from the province; when it
    runs short, from payment areas clockwise from the king's region; a noble that exists
    nowhere becomes an envoy. During a turn the player chooses (see ``gain_in_turn``).
    Returns the envoys and nobles taken (fewer when none is left anywhere)."""
    got_nobles = 0
    for _ in range(nobles):
        if _take_one(c, p, 1):
            got_nobles += 1
        else:
            envoys += 1
    got_envoys = sum(_take_one(c, p, 0) for _ in range(envoys))
    return got_envoys, got_nobles


def _take_one(c: Core, p: int, noble: int) -> bool:
    v = c.v
    t = c.t
    i = p * 2 + noble
    if v[t.prov + i] > 0:
        v[t.prov + i] -= 1
        v[t.court + i] += 1
        return True
    for step in range(t.r):
        pos = (v[KING] + step) % t.r
        j = t.pay + pos * t.n * 2 + i
        if v[j] > 0:
            v[j] -= 1
            v[t.court + i] += 1
            return True
    return False


def gain_in_turn(c: Core, p: int, envoys: int, nobles: int) -> None:
    """During p's turn: take what the province has; the figures it lacks are queued in
    TAKE_E / TAKE_N for p to take from payment areas of their choice (phases.resolve_take)."""
    v = c.v
    i = c.t.prov + p * 2
    got = min(nobles, v[i + 1])
    v[i + 1] -= got
    v[c.t.court + p * 2 + 1] += got
    v[TAKE_N] += nobles - got
    got = min(envoys, v[i])
    v[i] -= got
    v[c.t.court + p * 2] += got
    v[TAKE_E] += envoys - got


def take_vp_privilege(c: Core, p: int) -> None:
    v = c.v
    t = c.t
    v[t.vpp + p] += t.cfg.vp_pile[v[VPLEFT] - 1]  # the top card is the highest left
    v[VPLEFT] -= 1
    v[t.privs + p * R.PRIV_KINDS + R.VP_PRIV] += 1
