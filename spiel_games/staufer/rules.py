"""Die Staufer rules data and configuration from game parameters.

Everything numeric comes from rules.toml (published facts cite their source,
designed ones are marked ``assumed``). ``make_config`` validates the OpenSpiel
game parameters (the one parameter table, ``PARAMS``: name, default and meaning, written
only here) and raises ``ConfigError`` (a ValueError) with a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.common.params import ParamDoc, defaults
from spiel_games.common.rules_data import load_rules
from spiel_games.common.utility import ConfigError, check_mode

RULES = load_rules("spiel_games.staufer")

REGION_NAMES: tuple[str, ...] = tuple(RULES["regions.names"])
MAX_REGIONS = len(REGION_NAMES)
REGION_BONUS: tuple[str, ...] = tuple(RULES["regions.bonus"])
POINT_TILES: tuple[tuple[int, int, int], ...] = tuple(tuple(t) for t in RULES["point_tiles.values"])

# Chest kinds (chance outcome ids of a chest draw).
O2VP, O3VP, OENVOY, ONOBLE, ESCORT, GIFT, LEVY, PURPLE, BROWN = range(9)
CHEST_KINDS = 9
TURQUOISE = (ESCORT, GIFT, LEVY)
BROWN_TABLE: tuple[int, ...] = tuple(RULES["chests.brown_table"])
LEVY_ENVOYS: int = RULES["chests.levy_envoys"]

# Privilege slots: 0 = a VP privilege (from the sorted pile), 1..5 blue kinds, 6..10 red kinds.
VP_PRIV = 0
COURIER, SAFE_CONDUCT, ROYAL_FAVOUR, TREASURER, STEWARD = 1, 2, 3, 4, 5
PATRON, HERALD, CHEST_KEEPER, MAJORDOMO, PILGRIM = 6, 7, 8, 9, 10
PRIV_KINDS = 11
PRIV_NAMES = ("vp",) + tuple(RULES["privileges.blue_kinds"]) + tuple(RULES["privileges.red_kinds"])

# Job types and cards. Card id = type * JOB_POOL_MAX + index.
JOB_REGION, JOB_DESIGN, JOB_OFFICE = 0, 1, 2
JOB_POOL_MAX: int = RULES["jobs.per_type"]
DESIGN_JOBS: tuple[tuple[str, int], ...] = tuple((n, v) for n, v in RULES["jobs.design"])
OFFICE_JOBS: tuple[tuple[str, int], ...] = tuple((n, v) for n, v in RULES["jobs.office"])
REGION_JOB_VP: int = RULES["jobs.region_vp"]

B_CONDITIONS: tuple[str, ...] = tuple(RULES["round_tiles.b_conditions"])
C_MOVES: tuple[int, ...] = tuple(RULES["round_tiles.c_moves"])
NOBLE_WEIGHT: int = RULES["scoring.noble_weight"]

# The one parameter table: name, default, meaning (spiel_games.common.params).
PARAMS = (
    ParamDoc("players", 4, "number of players, 2-5 (2 uses the two-player sides)"),
    ParamDoc("rounds", RULES["game.rounds"], "rounds, 1-5 (needs rounds + 1 <= regions)"),
    ParamDoc(
        "actions",
        RULES["game.actions_per_round"],
        "actions (family members) per player per round, 1-3",
    ),
    ParamDoc(
        "regions",
        RULES["game.regions"],
        "regions in play, 2-6 (the first ones of Milan, Augsburg, Nijmegen, Aachen, "
        "Strasbourg, Palermo)",
    ),
    ParamDoc(
        "seats",
        0,
        "seats per region; 0 = by player count, k = leftmost k seats of the 3-5 player side",
    ),
    ParamDoc("supply_spaces", 0, "supply-table spaces; 0 = by player count, k = the first k"),
    ParamDoc(
        "chests", "english", "english (10 purple + 18 brown), german (18 violet + 10 brown) or none"
    ),
    ParamDoc("jobs", 3, "job types dealt: 0-3 (region, design, office in that order)"),
    ParamDoc("job_pool", JOB_POOL_MAX, "job cards per type in play (players..6)"),
    ParamDoc("privileges", "blue", "blue (first-game piles) or red (red-seal piles replace them)"),
    ParamDoc(
        "utility",
        "rank",
        "rank (zero-sum rank difference), score (raw score) or win (1 split among winners)",
    ),
)
DEFAULTS = defaults(PARAMS)


def _parse_seat(text: str) -> tuple[int, bool]:
    return int(text.rstrip("N")), text.endswith("N")


@dataclass(frozen=True)
class Config:
    players: int
    rounds: int
    actions: int
    regions: int  # regions in play: ids 0..regions-1
    seats: tuple[
        tuple[tuple[int, bool], ...], ...
    ]  # per region id: (value, noble_only) left to right
    supply: tuple[tuple[int, int], ...]  # per space: (envoys, nobles)
    bag: tuple[int, ...]  # chest counts per kind
    job_types: int  # 0-3 types dealt (region, design, office in that order)
    job_pool: tuple[int, ...]  # cards in play per job type
    priv_piles: tuple[int, ...]  # copies per privilege kind (index 0 unused: VP pile)
    vp_pile: tuple[int, ...]  # VP privilege values, bottom to top (top = last = highest)
    utility: str
    chests: str

    @property
    def turns_per_round(self) -> int:
        return self.players * self.actions

    def first_order(self) -> tuple[int, ...]:
        """Round 1: family members placed 1..N, then N..1 (repeated) for the further actions."""
        n = self.players
        order = list(range(n))
        for _ in range(self.actions - 1):
            order.extend(range(n - 1, -1, -1))
        return tuple(order)

    def min_score(self) -> int:
        return 0

    def max_score(self) -> int:
        """An honest upper bound on any player's final score."""
        r = self.regions
        seats_total = sum(len(s) for s in self.seats)
        best_tile = max(t[0] for t in POINT_TILES[: self.regions])
        presence = RULES["regions.bonus_presence_vp"] * r
        bonus = max(RULES["regions.bonus_vp"], presence)
        rounds_vp = self.rounds * 2 * (best_tile + bonus)
        orange = 2 * self.bag[O2VP] + 3 * self.bag[O3VP]
        brown = BROWN_TABLE[-1]
        vp_privs = sum(self.vp_pile)
        moves = self.rounds * self.actions
        seats_vp = RULES["privileges.treasurer_vp"] * moves
        patron = RULES["privileges.patron_vp"] * moves
        figures = RULES["figures.envoys_per_colour"] + RULES["figures.nobles_per_colour"]
        steward = figures // RULES["privileges.steward_figures_per_vp"]
        pilgrim = RULES["privileges.pilgrim_vp"] * r
        max_val = max(v for s in self.seats for v, _ in s)
        jobs = 0
        if self.job_types >= 1:
            jobs += REGION_JOB_VP
        if self.job_types >= 2:
            jobs += max(v * max(r, seats_total, figures) for _, v in DESIGN_JOBS)
        if self.job_types >= 3:
            jobs += max(v * seats_total * max_val for _, v in OFFICE_JOBS)
        return rounds_vp + orange + brown + vp_privs + seats_vp + patron + steward + pilgrim + jobs


def _seats(p: dict, n: int, r: int) -> tuple:
    """(value, noble only) of every seat of each region in play."""
    side = "seats_2" if n == 2 else "seats_3to5"
    seats_k = int(p["seats"])
    if seats_k < 0 or seats_k > 5:
        raise ConfigError(f"seats must be 0 (by player count) or 1-5, got {seats_k}")
    if seats_k == 0:
        return tuple(tuple(_parse_seat(x) for x in row) for row in RULES[f"regions.{side}"][:r])
    return tuple(
        tuple(_parse_seat(x) for x in row[:seats_k]) for row in RULES["regions.seats_3to5"][:r]
    )


def _chest_bag(chests: str) -> tuple[int, ...]:
    """Chests of each kind in the face-down stacks."""
    if chests not in ("english", "german", "none"):
        raise ConfigError(f"chests must be 'english', 'german' or 'none', got {chests!r}")
    bag = [0] * CHEST_KINDS
    if chests != "none":
        for i, (_, c) in enumerate(RULES["chests.orange_kinds"]):
            bag[O2VP + i] = c
        for i, (_, c) in enumerate(RULES["chests.turquoise_kinds"]):
            bag[ESCORT + i] = c
        bag[PURPLE] = RULES[f"chests.purple_{chests}"]
        bag[BROWN] = RULES[f"chests.brown_{chests}"]
        assert sum(bag[:ESCORT]) == RULES["chests.orange"]
        assert sum(bag[ESCORT:PURPLE]) == RULES["chests.turquoise"]
    return tuple(bag)


def _privilege_piles(priv: str) -> tuple[int, ...]:
    if priv not in ("blue", "red"):
        raise ConfigError(f"privileges must be 'blue' or 'red', got {priv!r}")
    piles = [0] * PRIV_KINDS
    if priv == "blue":
        for kind in range(COURIER, STEWARD + 1):
            piles[kind] = RULES["privileges.blue_copies"]
    else:
        for kind in range(PATRON, PILGRIM + 1):
            piles[kind] = RULES["privileges.red_copies"]
    return tuple(piles)


def make_config(params: dict) -> Config:
    p = {**DEFAULTS, **params}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown Staufer parameter(s): {', '.join(sorted(unknown))}")
    n = int(p["players"])
    if not 2 <= n <= 5:
        raise ConfigError(f"Die Staufer takes 2-5 players, got {n}")
    rounds = int(p["rounds"])
    if not 1 <= rounds <= RULES["game.rounds"]:
        raise ConfigError(f"rounds must be 1-{RULES['game.rounds']}, got {rounds}")
    actions = int(p["actions"])
    if not 1 <= actions <= RULES["game.actions_per_round"]:
        raise ConfigError(f"actions must be 1-{RULES['game.actions_per_round']}, got {actions}")
    r = int(p["regions"])
    if not 2 <= r <= MAX_REGIONS:
        raise ConfigError(f"regions must be 2-{MAX_REGIONS}, got {r}")
    if rounds + 1 > r:
        raise ConfigError(
            f"{rounds} rounds need {rounds + 1} region tiles (A tiles + king), only {r} regions"
        )
    seats = _seats(p, n, r)
    spaces = [tuple(x) for x in RULES["supply.spaces_2" if n == 2 else "supply.spaces_3to5"]]
    k = int(p["supply_spaces"])
    if k < 0 or k > len(spaces):
        raise ConfigError(f"supply_spaces must be 0 (by player count) or 1-{len(spaces)}, got {k}")
    if k:
        spaces = spaces[:k]
    chests = p["chests"]
    bag = _chest_bag(chests)
    job_types = int(p["jobs"])
    if not 0 <= job_types <= 3:
        raise ConfigError(f"jobs must be 0-3 job types, got {job_types}")
    pool = int(p["job_pool"])
    if not n <= pool <= JOB_POOL_MAX:
        raise ConfigError(f"job_pool must be {n}-{JOB_POOL_MAX} (one card per player), got {pool}")
    job_pool = (min(pool, r), pool, pool)
    if job_types >= 1 and job_pool[0] < n:
        raise ConfigError(f"region jobs need one region per player: {r} regions < {n} players")
    piles = _privilege_piles(p["privileges"])
    used = RULES["privileges.vp_used"][n]
    vp_pile = tuple(sorted(RULES["privileges.vp_values"])[-used:])  # lowest removed; top = last
    return Config(
        players=n,
        rounds=rounds,
        actions=actions,
        regions=r,
        seats=seats,
        supply=tuple(spaces),
        bag=bag,
        job_types=job_types,
        job_pool=job_pool,
        priv_piles=piles,
        vp_pile=vp_pile,
        utility=check_mode(p["utility"]),
        chests=chests,
    )
