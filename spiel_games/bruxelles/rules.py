"""Bruxelles 1893 rules data, configuration from game parameters, and pure rule helpers.

Everything here is free of game state: the one parameter table (``PARAMS``: name,
default and meaning, written only here), board geometry (areas, shields), the
compass payment options, majorities, pass income and sale rewards. The rule modules
call these; scenario tests can call them directly. Final scoring is in scoring.py.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from spiel_games.common.params import ParamDoc, defaults
from spiel_games.common.rules_data import load_rules
from spiel_games.common.utility import ConfigError, check_mode

RULES = load_rules("spiel_games.bruxelles")

# ----- named constants ------------------------------------------------------------------
ACTIONS = ("workshop", "sale", "theater", "materials", "construction")
WORKSHOP, SALE, THEATER, MATERIALS, CONSTRUCTION = range(5)
BRUSSELS = ("market", "bourse", "park", "grandplace")
MARKET, BOURSE, PARK, GRANDPLACE = range(4)

STRIPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ACTIONS.index(a) for a in strip) for strip in RULES["board.strip_actions"]
)
MAX_BOARD = RULES["board.rows"]

ART = tuple(RULES["art.colours"])  # blue, pink, yellow, green, black
BLACK = 4
COLOURS = 4  # colour works (not black)
ART_PER_COLOUR: int = RULES["art.tiles_per_colour"]
DOTS: tuple[tuple[int, int], ...] = tuple(tuple(d) for d in RULES["art.cursor_dots"])
GRID = RULES["art.grid_size"]
MONEY_BY_ROW: tuple[int, ...] = tuple(RULES["art.money_by_row"])
VP_BY_COL: tuple[int, ...] = tuple(RULES["art.vp_by_column"])
CURSOR_MIN, CURSOR_MAX = 1, GRID - 2  # the 3x3 cursor's centre stays inside the grid

# Material kinds held by players and paid into construction.
WOOD, STONE, IRON, JOKER = range(4)
CUBES = ("wood", "stone", "iron", "joker")
NOBLE_EACH: int = RULES["materials.noble_each"]
JOKER_SUPPLY: int = RULES["materials.jokers"]

# Compass tiles and payment resources.
COMPASS = tuple(RULES["compass.tiles"])  # wood, stone, iron, noble, money, blank
T_NOBLE, T_MONEY, T_BLANK = 3, 4, 5
PAY = ("wood", "stone", "iron", "3BF", "joker")
P_MONEY, P_JOKER = 3, 4
BF_PER_UNIT: int = RULES["buildings.bf_per_money_unit"]
NEEDLES_START: tuple[int, int] = tuple(RULES["compass.needles_start"])
TIER_COSTS: tuple[int, ...] = tuple(RULES["buildings.tier_costs"])
BUILDINGS: int = RULES["buildings.per_player"]

FIGURES = tuple(RULES["figures.names"])
BRUGMANN, SOLVAY, BULS, ALBERT, VANDERVELDE, MAETERLINCK, EMPAIN, VANDEVELDE = range(8)
FIG_COPIES: tuple[int, ...] = tuple(RULES["figures.deck_copies"])
FIG_COST: tuple[int, ...] = tuple(RULES["figures.keep_cost"])
THEATER_COSTS: tuple[int, ...] = tuple(RULES["theater.costs"])

HALL: tuple[int, ...] = tuple(RULES["tracks.city_hall"])
PALACE: tuple[int, ...] = tuple(RULES["tracks.royal_palace"])
ARCHITECT: tuple[int, ...] = tuple(RULES["tracks.architect"])

# Bonus card types: (powers, vp symbols, manneken, copies). powers is a tuple of
# options; each option is a tuple of single powers (P, H, A or C).
BONUS: tuple[tuple[tuple[tuple[str, ...], ...], int, int, int], ...] = tuple(
    (
        tuple(tuple(opt) for opt in power.split("|")),
        vp,
        mp,
        copies,
    )
    for power, vp, mp, copies in RULES["bonus.cards"]
)
BONUS_NAMES = tuple(p for p, *_ in RULES["bonus.cards"])
BONUS_ROWS: int = RULES["bonus.rows"]

STOCK_VALUES: tuple[int, ...] = tuple(RULES["stock.values"])
STOCK_SHIELDS: dict[int, tuple[tuple[tuple[int, int], tuple[int, int]], ...]] = {
    n: tuple((tuple(a), tuple(b)) for a, b in RULES[f"stock.shields_{n}p"]) for n in range(2, 6)
}

MAX_BID = 800  # generous (most_money ~310); bid ids must end below actions.CHANCE_TOKEN

# The one parameter table: name, default, meaning (spiel_games.common.params).
PARAMS = (
    ParamDoc("players", 4, "number of players, 2-5 (2 uses the neutral-assistant rules)"),
    ParamDoc("rounds", RULES["game.rounds"], "rounds played, 1-5 (the rulebook plays 5)"),
    ParamDoc(
        "max_bid",
        RULES["bids.max_bid_default"],
        f"highest bid under one assistant, 1-{MAX_BID}; 0 = no cap (rulebook), a cap keeps "
        "tiny configurations small",
    ),
    ParamDoc(
        "board",
        MAX_BOARD,
        "Art Nouveau board size 2-5; below 5 the whole board is available every round",
    ),
    ParamDoc(
        "assistants",
        RULES["assistants.per_player"] - RULES["assistants.start_courthouse"],
        "assistants in each player's supply at the start (rulebook: 5)",
    ),
    ParamDoc(
        "courthouse",
        RULES["assistants.start_courthouse"],
        "each player's assistants in the Courthouse at the start (rulebook: 2)",
    ),
    ParamDoc(
        "brussels",
        True,
        "whether the Brussels board actions exist (false only for tiny configurations)",
    ),
    ParamDoc(
        "setup",
        "random",
        "random (rulebook shuffles) or fixed (deterministic setup for tiny configurations)",
    ),
    ParamDoc(
        "private_works",
        False,
        "false: kept works face up (rulebook); true: a work kept from the Workshop "
        "stays hidden from the others until it is sold (issue 4's reading)",
    ),
    ParamDoc(
        "utility",
        "rank",
        "rank (zero-sum rank difference), score (raw score) or win (1 split among winners)",
    ),
)
DEFAULTS = defaults(PARAMS)

_BRUSSELS_SLOTS_4P: int = RULES["assistants.brussels_slots_4p"]


@dataclass(frozen=True)
class Config:
    players: int
    rounds: int
    max_bid: int
    board: int  # the Art Nouveau board is board x board spaces
    assistants: int  # in supply at the start
    courthouse: int  # in the Courthouse at the start
    brussels: bool  # Brussels board actions available
    fixed_setup: bool  # deterministic setup (tiny configurations)
    private_works: bool  # works kept from the Workshop stay hidden until sold (issue 4)
    utility: str
    # The highest bid with an action id: max_bid, or with no cap (0, the rulebook) the
    # most money a player can ever hold (most_money); set by make_config.
    bid_cap: int = 0

    @property
    def spaces(self) -> int:
        return self.board * self.board

    @property
    def brussels_slots(self) -> int:
        return _BRUSSELS_SLOTS_4P if self.players >= 4 else 1

    @property
    def neutral(self) -> bool:
        return self.players == 2

    @property
    def total_assistants(self) -> int:
        return self.assistants + self.courthouse

    def most_money(self) -> int:
        """An upper bound on the BF one player holds at any time.

        Money comes only from the start purse, Sales (at most the grid's highest row),
        the Bourse (the highest stock card), Brugmann (once a round: activated figures
        rotate) and passing (1 BF per colour owned + the first passer's 1 BF); each
        Sale or Bourse takes one of the player's assistants.
        """
        per_action = max(MONEY_BY_ROW[-1], max(STOCK_VALUES) if self.brussels else 0)
        per_round = (
            self.total_assistants * per_action
            + RULES["figures.brugmann_money"]
            + len(ART)
            + RULES["pass.first_base"]
        )
        return max(RULES["game.start_money"][: self.players]) + self.rounds * per_round

    def max_score(self) -> int:
        """A loose but safe upper bound on a final score (utility=score)."""
        r, n = self.rounds, self.total_assistants
        # Per placement: the best sale (12 + 1 secondary per work), 5+5 construction,
        # a 5-VP Maeterlinck activation per palace level, building-owner secondaries.
        per_action = 2 * GRID + 5 * max(PALACE) + 10 + 30
        shields = (self.board - 1) ** 2 * max(HALL)
        ending = (
            BUILDINGS * max(ARCHITECT)
            + 3 * NOBLE_EACH
            + RULES["scoring.manneken_vp"]
            + (1 + 2 * r) * (200 // 4 + 30 + len(FIGURES) + n) * 3
        )
        return r * (n * per_action * 2 + shields) + ending

    def min_score(self) -> int:
        return -RULES["theater.unpaid_penalty"] * len(FIGURES)


def _flag(params: dict, name: str) -> bool:
    value = params[name]
    if isinstance(value, str):
        if value.lower() not in ("true", "false"):
            raise ConfigError(f"{name} must be true or false, got {value!r}")
        return value.lower() == "true"
    return bool(value)


def make_config(params: dict) -> Config:
    p = {**DEFAULTS, **params}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown Bruxelles parameter(s): {', '.join(sorted(unknown))}")
    n = int(p["players"])
    if not RULES["game.min_players"] <= n <= RULES["game.max_players"]:
        raise ConfigError(f"Bruxelles 1893 takes 2-5 players, got {n}")
    rounds = int(p["rounds"])
    if not 1 <= rounds <= RULES["game.rounds"]:
        raise ConfigError(f"rounds must be 1-{RULES['game.rounds']}, got {rounds}")
    max_bid = int(p["max_bid"])
    if not 0 <= max_bid <= MAX_BID:
        raise ConfigError(f"max_bid must be 0 (no cap) or 1-{MAX_BID}, got {max_bid}")
    board = int(p["board"])
    if not 2 <= board <= MAX_BOARD:
        raise ConfigError(f"board must be 2-{MAX_BOARD}, got {board}")
    total = RULES["assistants.per_player"]
    court = int(p["courthouse"])
    if not 0 <= court <= total - 1:
        raise ConfigError(f"courthouse must be 0-{total - 1}, got {court}")
    assistants = int(p["assistants"])
    if not 1 <= assistants <= total - court:
        raise ConfigError(
            f"assistants must be 1-{total - court} with courthouse={court} "
            f"({total} assistants in all), got {assistants}"
        )
    if p["setup"] not in ("random", "fixed"):
        raise ConfigError(f"setup must be 'random' or 'fixed', got {p['setup']!r}")
    brussels = _flag(p, "brussels")
    private_works = _flag(p, "private_works")
    utility = check_mode(p["utility"])
    cfg = Config(
        players=n,
        rounds=rounds,
        max_bid=max_bid,
        board=board,
        assistants=assistants,
        courthouse=court,
        brussels=bool(brussels),
        fixed_setup=p["setup"] == "fixed",
        private_works=private_works,
        utility=utility,
    )
    return dataclasses.replace(cfg, bid_cap=max_bid or cfg.most_money())


# ----- board geometry -------------------------------------------------------------------
def space_index(row: int, col: int, board: int = MAX_BOARD) -> int:
    return row * board + col


@cache
def bracket_area(shield_row: int, shield_col: int, board: int = MAX_BOARD) -> int:
    """Bitmask of the largest of the four areas cut by the lines through a shield.

    Shields are numbered 1..board-1 (row, column); shield (i, j) sits between
    rows i-1 and i and columns j-1 and j (0-based spaces).
    """
    if not (1 <= shield_row < board and 1 <= shield_col < board):
        raise ValueError(f"shield {shield_row}-{shield_col} is not on a {board}x{board} board")
    rows = max((range(0, shield_row), range(shield_row, board)), key=len)
    cols = max((range(0, shield_col), range(shield_col, board)), key=len)
    mask = 0
    for r in rows:
        for c in cols:
            mask |= 1 << space_index(r, c, board)
    return mask


@cache
def shields(board: int = MAX_BOARD) -> tuple[tuple[int, int, int, int], ...]:
    """The four spaces around every shield, shields in reading order."""
    out = []
    for i in range(1, board):
        for j in range(1, board):
            out.append(
                (
                    space_index(i - 1, j - 1, board),
                    space_index(i - 1, j, board),
                    space_index(i, j - 1, board),
                    space_index(i, j, board),
                )
            )
    return tuple(out)


def shield_scorers(owners: tuple[int, ...], neutral: int) -> list[int]:
    """Players scoring one full shield (4 assistants), given each space's owner.

    The players with most assistants score; when the neutral colour alone has
    the most, nobody scores (a tie with the neutral colour still scores).
    """
    counts: dict[int, int] = {}
    for o in owners:
        counts[o] = counts.get(o, 0) + 1
    best = max(counts.values())
    top = [o for o, k in counts.items() if k == best]
    return sorted(o for o in top if o != neutral)


# ----- compass and payment --------------------------------------------------------------
def _matches(resource: int, tile: int) -> bool:
    if tile < 3:
        return resource == tile
    if tile == T_NOBLE:
        return resource < 3
    if tile == T_MONEY:
        return resource == P_MONEY
    return False


def payment_ok(counts: tuple[int, ...], tile_x: int, tile_y: int) -> bool:
    """Whether a payment (counts of wood, stone, iron, 3BF, joker) satisfies two needles."""
    only_x = only_y = 0
    for res in range(P_JOKER):
        k = counts[res]
        if not k:
            continue
        mx, my = _matches(res, tile_x), _matches(res, tile_y)
        if not (mx or my):
            return False
        if mx and not my:
            only_x += k
        elif my and not mx:
            only_y += k
    if tile_x == T_BLANK or tile_y == T_BLANK:
        return True
    total = sum(counts)
    # Fails only if every unit can serve just one of the two needles.
    return not (only_x == total or only_y == total)


@cache
def payment_options(tile_x: int, tile_y: int, cost: int) -> tuple[tuple[int, ...], ...]:
    """Every valid payment multiset (counts of wood, stone, iron, 3BF, joker)."""
    out = []
    for combo in combinations_with_replacement(range(len(PAY)), cost):
        counts = [0] * len(PAY)
        for r in combo:
            counts[r] += 1
        if payment_ok(tuple(counts), tile_x, tile_y):
            out.append(tuple(counts))
    return tuple(out)


def affordable(counts: tuple[int, ...], money: int, cubes: tuple[int, ...]) -> bool:
    return (
        counts[WOOD] <= cubes[WOOD]
        and counts[STONE] <= cubes[STONE]
        and counts[IRON] <= cubes[IRON]
        and counts[P_JOKER] <= cubes[JOKER]
        and counts[P_MONEY] * BF_PER_UNIT <= money
    )


# ----- income, tracks, scoring ------------------------------------------------------------
def art_colours(works: tuple[int, ...]) -> int:
    return sum(1 for k in works if k)


def pass_income(works: tuple[int, ...], first: bool) -> int:
    """1 BF per colour of work owned (black counts), +1 BF for the first passer."""
    return art_colours(works) + (RULES["pass.first_base"] if first else 0)


def sale_reward(cursor: tuple[int, int], colour: int) -> tuple[int, int]:
    """(money, VP) of the cursor dot of `colour`."""
    dr, dc = DOTS[colour]
    return MONEY_BY_ROW[cursor[0] + dr], VP_BY_COL[cursor[1] + dc]


def new_first_player(manneken: list[int], current_first: int) -> int:
    """Most Manneken Pis this round; ties go to the first tied seat from the current first."""
    n = len(manneken)
    best = max(manneken)
    for k in range(n):
        p = (current_first + k) % n
        if manneken[p] == best:
            return p
    raise AssertionError("unreachable")
