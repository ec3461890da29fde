"""The mutable core of a Die Staufer state, its phases and the setup step list.

All mutable facts live in one ``Core`` object with ``__slots__`` and its own
``__deepcopy__``: lists of ints are copied shallowly, tuples are shared.

Board indexing: regions sit at board positions 0..R-1 clockwise; ``region_at[pos]``
is the region id there and ``pos_of[rid]`` its position. Seats are a flat list
indexed ``pos * K + k`` (K = seats per region, k = 0 is the leftmost seat) holding
-1 (free) or ``player * 2 + is_noble``. Payment areas are a flat list indexed
``(pos * N + player) * 2 + is_noble``. Courts and provinces are ``player * 2 + is_noble``.
"""

from __future__ import annotations

import enum

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


CHANCE_PHASES = frozenset((Phase.SETUP, Phase.REFILL))
PLAYER_PHASES = frozenset((Phase.TURN, Phase.SEAT, Phase.OCCUPANT, Phase.PAYMENT, Phase.PRIVILEGE))

# Setup step kinds.
ST_REGION, ST_TILE, ST_JOB, ST_A, ST_B, ST_C = range(6)
STEP_NAMES = ("region", "point tile", "job", "A tile", "B tile", "C tile")


def setup_steps(cfg: R.Config) -> tuple[tuple[int, int], ...]:
    steps = [(ST_REGION, pos) for pos in range(1, cfg.regions)]
    steps += [(ST_TILE, pos) for pos in range(cfg.regions)]
    steps += [(ST_JOB, p * 3 + t) for p in range(cfg.players) for t in range(cfg.job_types)]
    steps += [(ST_A, i) for i in range(cfg.rounds + 1)]  # the last one places the king
    steps += [(ST_B, i) for i in range(cfg.rounds)]
    steps += [(ST_C, i) for i in range(cfg.rounds - 1)]  # round 5 has no clean-up
    return tuple(steps)


class Core:
    __slots__ = (
        "cfg", "steps", "phase", "cur", "step", "region_at", "pos_of", "tile_at", "a_tiles",
        "b_tiles", "c_tiles", "king", "round", "order", "ti", "sup_track", "dep_track",
        "seat", "seat_chest", "supply_chests", "pay", "court", "prov", "vp", "brown", "tq",
        "privs", "vpp", "bag", "vp_pile", "piles", "jobs", "refill", "pend_pos", "pend_seat",
        "pend_occ", "escort", "gift", "priv_pending", "scored", "returns",
    )

    def __deepcopy__(self, memo):
        c = Core.__new__(Core)
        c.cfg = self.cfg
        c.steps = self.steps
        c.phase = self.phase
        c.cur = self.cur
        c.step = self.step
        c.region_at = self.region_at
        c.pos_of = self.pos_of
        c.tile_at = self.tile_at
        c.a_tiles = self.a_tiles
        c.b_tiles = self.b_tiles
        c.c_tiles = self.c_tiles
        c.king = self.king
        c.round = self.round
        c.order = self.order
        c.ti = self.ti
        c.sup_track = self.sup_track
        c.dep_track = self.dep_track
        c.seat = self.seat[:]
        c.seat_chest = self.seat_chest[:]
        c.supply_chests = self.supply_chests[:]
        c.pay = self.pay[:]
        c.court = self.court[:]
        c.prov = self.prov[:]
        c.vp = self.vp[:]
        c.brown = self.brown[:]
        c.tq = self.tq[:]
        c.privs = self.privs[:]
        c.vpp = self.vpp[:]
        c.bag = self.bag[:]
        c.vp_pile = self.vp_pile
        c.piles = self.piles[:]
        c.jobs = self.jobs[:]
        c.refill = self.refill
        c.pend_pos = self.pend_pos
        c.pend_seat = self.pend_seat
        c.pend_occ = self.pend_occ
        c.escort = self.escort
        c.gift = self.gift
        c.priv_pending = self.priv_pending
        c.scored = self.scored
        c.returns = self.returns
        return c


def initial_core(cfg: R.Config) -> Core:
    n, r, k = cfg.players, cfg.regions, cfg.max_seats
    c = Core.__new__(Core)
    c.cfg = cfg
    c.steps = setup_steps(cfg)
    c.phase = Phase.SETUP
    c.cur = 0
    c.step = 0
    c.region_at = (0,) + (-1,) * (r - 1)
    c.pos_of = (0,) + (-1,) * (r - 1)
    c.tile_at = (-1,) * r
    c.a_tiles = ()
    c.b_tiles = ()
    c.c_tiles = ()
    c.king = 0
    c.round = 0
    c.order = cfg.first_order()
    c.ti = 0
    c.sup_track = ()
    c.dep_track = ()
    c.seat = [-1] * (r * k)
    c.seat_chest = [-1] * (r * k)
    c.supply_chests = [()] * len(cfg.supply)
    c.pay = [0] * (r * n * 2)
    ce, cn = R.RULES["figures.court_envoys"], R.RULES["figures.court_nobles"]
    te, tn = R.RULES["figures.envoys_per_colour"], R.RULES["figures.nobles_per_colour"]
    c.court = [ce, cn] * n
    c.prov = [te - ce, tn - cn] * n
    c.vp = [0] * n
    c.brown = [0] * n
    c.tq = [0] * (n * 3)
    c.privs = [0] * (n * R.PRIV_KINDS)
    c.vpp = [0] * n
    c.bag = list(cfg.bag)
    c.vp_pile = cfg.vp_pile
    c.piles = list(cfg.priv_piles)
    c.jobs = [-1] * (n * 3)
    c.refill = ()
    c.pend_pos = -1
    c.pend_seat = -1
    c.pend_occ = -1
    c.escort = False
    c.gift = False
    c.priv_pending = 0
    c.scored = ()
    c.returns = None
    if not c.steps:  # 2 regions, no jobs, 1 round still has A/B tiles, so never empty
        raise AssertionError("setup has no steps")
    return c


def seat_def(c: Core, pos: int, k: int) -> tuple[int, bool]:
    return c.cfg.seats[c.region_at[pos]][k]


def seats_in(c: Core, pos: int) -> int:
    return len(c.cfg.seats[c.region_at[pos]])
