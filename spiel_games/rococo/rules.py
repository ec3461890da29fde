"""Rococo's rules data and configuration.

Component tables are loaded once from rules.toml: employee cards and their
bonuses, resource tiles, dress tiles, board constants and the small record types.
Ids are stable: card ids 0-3 are the base cards (Master, Journeyman, the two
Apprentices), 4-31 the hireable cards level by level; tile and dress ids follow
the order of rules.toml (base, then Fancy, then Festivity dresses).

`make_config` validates the OpenSpiel game parameters (``DEFAULTS``, documented in
the parameter table of game.py) and raises a clear `ConfigError` (a ValueError);
it builds the immutable `Config` of one game.
"""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.common.rules_data import load_rules
from spiel_games.common.utility import ConfigError, check_mode

RULES = load_rules("spiel_games.rococo")

COLOURS: tuple[str, ...] = tuple(RULES["resources.colour_names"])  # yellow green red blue
YELLOW, GREEN, RED, BLUE = range(4)
LADY_COLOURS = frozenset(i for i, c in enumerate(COLOURS) if RULES["dresses.gender"][c] == "lady")
TYPES = ("M", "J", "A")  # Master, Journeyman, Apprentice
MASTER, JOURNEYMAN, APPRENTICE = range(3)

# Employee bonuses (ids are stable; names are the rules.toml keys).
BONUS_NAMES: tuple[str, ...] = (
    "none",
    "extra_acquire",
    "yarn_or_lace_pay1",
    "gain2",
    "gain1",
    "depute_use",
    "stack_tile_pay1",
    "stack_tile_free",
    "yarn_or_lace_free",
    "money_yellow_red",
    "extra_dress_yg",
    "depute_money",
    "prestige_deco2",
    "money_deco",
    "prestige_dress3",
    "extra_fund5",
    "money_deck",
    "money_deck_small",
    "extra_dress_red",
    "green_blue",
    "buy_prestige4",
    "money_dress",
    "tiles_prestige",
    "prestige_dress2",
    "buy_prestige3",
    "extra_fund10",
    "crown_deck",
    "crown_yarn_lace",
    "crown_master_spaces",
    "crown_pairs",
    # Jewelry Box: the new Journeymen (level 2) and Masters (level 5)
    "sell_dress_free",
    "money_jewel2",
    "jewel_buy",
    "acquire_free",
    "yarn_and_lace",
    "money_colours",
    "money_halls",
    "extra_fund3",
    "money_master_spaces",
    "prestige_jewel",
    "extra_dress_master",
    "prestige_halls2",
    "prestige_colours",
    "hire_extra",
    "prestige_master_spaces",
    "money_dress_jewel",
    "jewel_free",
    "extra_fund8",
)
BONUS = {name: i for i, name in enumerate(BONUS_NAMES)}
CROWNS = frozenset(
    BONUS[b] for b in ("crown_deck", "crown_yarn_lace", "crown_master_spaces", "crown_pairs")
)

# Decoration kinds.
FIREWORKS, MUSICIAN, STATUE, FOUNTAIN_UP, FOUNTAIN_LOW = range(5)

# Guest-space rewards: (kind, amount); kinds below.
R_NONE, R_LIVRE, R_YARN, R_LACE, R_TILE = range(5)


@dataclass(frozen=True)
class Card:
    name: str
    level: int  # 0 = base card
    kind: int  # MASTER / JOURNEYMAN / APPRENTICE
    bonus: int


@dataclass(frozen=True)
class Tile:
    code: str
    bales: tuple[int, int, int, int]
    lower: str  # "", "y", "l", "y+l", "y/l"


@dataclass(frozen=True)
class Dress:
    name: str
    colour: int
    bales: tuple[int, int, int, int]
    yarn: int
    lace: int
    money: int
    prestige: int
    thimble: bool
    festive: int  # one-time prestige of a Festivity dress (0 = ordinary dress)

    @property
    def sellable(self) -> bool:
        return self.festive == 0

    @property
    def lady(self) -> bool:
        return self.colour in LADY_COLOURS


@dataclass(frozen=True)
class Guest:
    hall: int
    master: bool
    reward: tuple[int, int]


@dataclass(frozen=True)
class Deco:
    kind: int
    cost: int
    prestige: int
    index: int  # position within its kind (fireworks: left to right; musician: hall)


def _cards() -> tuple[Card, ...]:
    base = RULES["employees.base"]
    names = {"M": "Master", "J": "Journeyman", "A": "Apprentice"}
    base_names = {
        "M": "base Master",
        "J": "base Journeyman",
        "a": "base Apprentice (yarn/lace)",
        "b": "base Apprentice (2 Livre)",
    }
    out = [Card(base_names[ch], 0, TYPES.index(base[ch][0]), BONUS[base[ch][1]]) for ch in "MJab"]
    for level, kind, bonus in RULES["employees.hireable"]:
        out.append(
            Card(f"L{level} {names[kind]} ({bonus})", level, TYPES.index(kind), BONUS[bonus])
        )
    # Jewelry Box (ids 32-59): the specialised apprentices, then the new Journeymen and Masters
    for name, _cond, _need, _prestige, bonus in RULES["jewelry.employees.specialists"]:
        out.append(Card(f"specialist {name}", 0, APPRENTICE, BONUS[bonus]))
    for level, kind, bonus in RULES["jewelry.employees.new_cards"]:
        out.append(
            Card(f"L{level} {names[kind]} ({bonus})", level, TYPES.index(kind), BONUS[bonus])
        )
    return tuple(out)


CARDS: tuple[Card, ...] = _cards()
NUM_CARDS = len(CARDS)  # every card id, the Jewelry Box's included
N_BASE_CARDS = 4 + len(RULES["employees.hireable"])  # ids 0-31: the card vectors without it
SPECIALIST_IDS = tuple(range(N_BASE_CARDS, N_BASE_CARDS + 10))
# id -> (condition, threshold, prestige when hired) of each specialised apprentice
SPECIALIST = {
    k: (cond, need, prestige)
    for k, (_n, cond, need, prestige, _b) in zip(
        SPECIALIST_IDS, RULES["jewelry.employees.specialists"], strict=True
    )
}
NEW_JOURNEYMEN = tuple(k for k in range(N_BASE_CARDS + 10, NUM_CARDS) if CARDS[k].level == 2)
NEW_MASTERS = tuple(k for k in range(N_BASE_CARDS + 10, NUM_CARDS) if CARDS[k].level == 5)
# The base cards that join each exam pool (level 2: the Journeymen, level 5: the Masters)
POOL_LEVEL = (2, 5)
POOL_KIND = (JOURNEYMAN, MASTER)
RESERVED = (-2, -3)  # employee-stack slot holding an unseen card of pool 0 / pool 1
EXAM_FEE = (RULES["jewelry.exams.fee"]["journeyman"], RULES["jewelry.exams.fee"]["master"])
SPECIALIST_PRICE: int = RULES["jewelry.employees.specialist_price"]
BASE_LETTERS = "MJab"


def _tiles() -> tuple[tuple[Tile, ...], tuple[int, ...], tuple[int, ...]]:
    tiles, base_counts, fancy_counts = [], [], []
    for code, count, y, g, r, b, lower in RULES["resources.tiles"]:
        tiles.append(Tile(code, (y, g, r, b), lower))
        base_counts.append(count)
        fancy_counts.append(0)
    for code, count, y, g, r, b, lower in RULES["resources.fancy_tiles"]:
        tiles.append(Tile(code, (y, g, r, b), lower))
        base_counts.append(0)
        fancy_counts.append(count)
    return tuple(tiles), tuple(base_counts), tuple(fancy_counts)


TILES, BASE_TILE_COUNTS, FANCY_TILE_COUNTS = _tiles()
NUM_TILES = len(TILES)


def _dresses() -> tuple[tuple[Dress, ...], int, int]:
    out = []
    seen: dict[str, int] = {}

    def add(row, festive: int, prefix: str) -> None:
        colour, y, g, r, b, yarn, lace, money, prestige, thimble = row[:10]
        seen[colour] = seen.get(colour, 0) + 1
        name = f"{prefix}{colour}-{seen[colour]}"
        out.append(
            Dress(
                name,
                COLOURS.index(colour),
                (y, g, r, b),
                yarn,
                lace,
                money,
                prestige,
                bool(thimble),
                festive,
            )
        )

    for row in RULES["dresses.tiles"]:
        add(row, 0, "")
    n_base = len(out)
    seen.clear()
    for row in RULES["dresses.fancy"]:
        add(row, 0, "fancy ")
    n_fancy = len(out) - n_base
    seen.clear()
    for row in RULES["dresses.festivity"]:
        add(row, row[10], "festive ")
    return tuple(out), n_base, n_fancy


DRESSES, N_BASE_DRESSES, N_FANCY_DRESSES = _dresses()
NUM_DRESSES = len(DRESSES)
HALL_NAMES: tuple[str, ...] = tuple(RULES["board.hall_names"])
NUM_HALLS = len(HALL_NAMES)
KINGS_HALL: int = RULES["board.kings_hall"]
SEGMENTS: int = RULES["board.warehouse_segments"]
ACQUIRE_COST: tuple[int, ...] = tuple(RULES["actions.acquire_cost"])
HIRE_COST: tuple[int, ...] = tuple(RULES["actions.hire_cost"])
DEPUTE_MONEY = tuple(RULES["actions.depute_money"][t] for t in TYPES)
DEPUTE_MONEY_BONUS = tuple(RULES["employees.depute_money_bonus"][t] for t in TYPES)
MAX_WINDOWS = max(len(v) for v in RULES["board.window_costs"].values())
MAX_GUESTS = max(len(h) * len(v) for v in RULES["board.guests"].values() for h in v[:1])
MAX_SEGMENT = max(RULES["board.warehouse_segment_size"].values())


def parse_reward(text: str) -> tuple[int, int]:
    if text == "":
        return (R_NONE, 0)
    if text.startswith("$"):
        return (R_LIVRE, int(text[1:]))
    return {"yarn": (R_YARN, 1), "lace": (R_LACE, 1), "tile": (R_TILE, 1)}[text]


# Jewelry Box: jewellery kinds (count vector index) and the silk colour of each.
JEWEL_NAMES: tuple[str, ...] = tuple(f"{c} {k}" for c, k in RULES["jewelry.jewel_kinds"])
JEWEL_COLOUR: tuple[int, ...] = tuple(COLOURS.index(c) for c, _ in RULES["jewelry.jewel_kinds"])

DEFAULTS: dict[str, object] = {
    "players": 4,
    "rounds": RULES["game.rounds"],
    "hand_size": RULES["game.hand_size"],
    "base_deck": RULES["game.base_deck"],
    "start_money": RULES["game.start_money"],
    "display": RULES["actions.display_size"],
    "levels": len(RULES["actions.hireable_levels"]),
    "windows": 0,
    "warehouse": 0,
    "guests": 0,
    "decorations": 0,
    "dresses": 0,
    "tiles": 0,
    "festivity": False,
    "fancy": False,
    "jewelry": False,
    "jeweller": 0,
    "jewels": 0,
    "specialists": 10,
    "exam_cards": 9,
    "utility": "rank",
}


def deck_bracket(size: int) -> int:
    """Index into the 5-6 / 7-8 / 9-10 / 11+ tables (a 4-card deck uses the first)."""
    if size <= 6:
        return 0
    if size <= 8:
        return 1
    if size <= 10:
        return 2
    return 3


@dataclass(frozen=True)
class Config:
    players: int
    rounds: int
    hand_size: int
    side: str  # "small" (2-3 players) or "large" (4-5 players)
    base_deck: tuple[int, ...]  # count per base card type (ids 0..3)
    start_money: int
    start_yarn: int
    start_lace: int
    display: int  # employee cards revealed per round
    stack_levels: tuple[tuple[int, ...], ...]  # card ids of each level used, level 1 first
    window_costs: tuple[int, ...]
    segment_size: int
    guests: tuple[Guest, ...]
    hall_values: tuple[tuple[int, int], ...]
    decos: tuple[Deco, ...]
    all_halls: tuple[int, ...]
    fireworks_majority: tuple[int, int]
    terrace_mult: tuple[int, ...]  # one per fireworks space (by fireworks index)
    tile_counts: tuple[int, ...]
    dress_counts: tuple[int, ...]
    festivity: bool
    fancy: bool
    jewelry: bool
    jeweller_prices: tuple[int, ...]  # price of each jeweller space, dearest first (() = off)
    jewel_counts: tuple[int, ...]  # jewellery tiles per kind (JEWEL_NAMES)
    utility: str
    num_cards: int = N_BASE_CARDS  # length of every card count vector (60 with the Jewelry Box)
    specialists: tuple[int, ...] = ()  # specialised apprentices in the open row (card ids)
    exam_pools: tuple[tuple[int, ...], ...] = ((), ())  # journeyman's / master's pool at set-up

    @property
    def num_guests(self) -> int:
        return len(self.guests)

    @property
    def num_decos(self) -> int:
        return len(self.decos)

    @property
    def num_windows(self) -> int:
        return len(self.window_costs)

    @property
    def fireworks(self) -> tuple[int, ...]:
        """Decoration ids of the fireworks spaces, left to right."""
        return tuple(d for d, x in enumerate(self.decos) if x.kind == FIREWORKS)

    @property
    def stack_size(self) -> int:
        return sum(len(lv) for lv in self.stack_levels)

    def max_turns(self) -> int:
        """Turns in the whole game: every selected card plus every card hired or taken at
        an exam (each gives one more turn)."""
        hires = min(self.stack_size, self.rounds * self.display)
        extra = len(self.specialists) + sum(len(pl) for pl in self.exam_pools)
        return self.rounds * self.players * self.hand_size + hires + extra

    def max_money(self) -> int:
        """An upper bound on the Livre any one player can gain in a game."""
        g = self.num_guests
        best_reward = max(
            (gr.reward[1] for gr in self.guests if gr.reward[0] == R_LIVRE), default=0
        )
        best_sale = max(DRESSES[d].money for d in range(NUM_DRESSES) if self.dress_counts[d])
        n_decos = self.num_decos
        main = max(best_sale + best_reward, DEPUTE_MONEY[0], RULES["actions.favor_money"])
        jw = sum(self.jewel_counts)
        bonus = max(14, 2 * g, n_decos, DEPUTE_MONEY_BONUS[0], 2, 2 * jw, g + jw, 2 * NUM_HALLS)
        income = RULES["game.income"] + 2 * (n_decos + g) + sum(self.jewel_counts)
        return (
            self.start_money
            + self.rounds * income
            + self.max_turns() * (main + bonus + best_reward)
        )

    def max_score(self) -> int:
        """An upper bound on a player's final prestige (used for `utility=score` bounds)."""
        money = self.max_money()
        g = self.num_guests
        n_tiles = sum(self.tile_counts)
        tile_bales = sum(sum(TILES[t].bales) * c for t, c in enumerate(self.tile_counts))
        yarn_lace = self.start_yarn + self.max_turns() * 3 + n_tiles * 2
        per_turn = max(g, self.num_decos, tile_bales, sum(self.jewel_counts)) + 1
        dress_p = max(
            (DRESSES[d].prestige + DRESSES[d].festive)
            for d in range(NUM_DRESSES)
            if self.dress_counts[d]
        )
        mult = max(self.terrace_mult, default=1)
        return (
            money // 3
            + money // 10
            + 11
            + 3 * yarn_lace
            + 3 * g
            + 2 * g
            + RULES["actions.favor_prestige"]
            + sum(v[0] for v in self.hall_values)
            + self.fireworks_majority[0]
            + 8 * len([d for d in self.decos if d.kind == STATUE])
            + sum(d.prestige for d in self.decos)
            + max(self.all_halls, default=0)
            + g * dress_p * mult
            + self.max_turns() * per_turn
            + sum(self.jewel_counts) * RULES["jewelry.prestige_per_piece"]
            + sum(SPECIALIST[k][2] for k in self.specialists)
        )


def _round_robin_subset(counts: list[int], groups: list[list[int]], limit: int) -> list[int]:
    """Keep `limit` items, taking one from each group in turn (a balanced small set)."""
    if limit <= 0:
        return counts
    kept = [0] * len(counts)
    left = list(counts)
    total = 0
    while total < limit and any(left[i] for grp in groups for i in grp):
        for grp in groups:
            for i in grp:
                if left[i] and total < limit:
                    left[i] -= 1
                    kept[i] += 1
                    total += 1
                    break
    return kept


def _int(p: dict, key: str) -> int:
    try:
        return int(p[key])
    except (TypeError, ValueError):
        raise ConfigError(f"parameter {key} must be an integer, got {p[key]!r}") from None


def make_config(params: dict) -> Config:
    p = {**DEFAULTS, **params}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown Rococo parameter(s): {', '.join(sorted(unknown))}")
    n = _int(p, "players")
    if not 2 <= n <= 5:
        raise ConfigError(f"Rococo takes 2-5 players, got {n}")
    side = "small" if n <= 3 else "large"
    rounds = _int(p, "rounds")
    if not 1 <= rounds <= RULES["game.rounds"]:
        raise ConfigError(f"rounds must be 1-{RULES['game.rounds']}, got {rounds}")
    hand = _int(p, "hand_size")
    if not 1 <= hand <= RULES["game.hand_size"]:
        raise ConfigError(f"hand_size must be 1-{RULES['game.hand_size']}, got {hand}")
    letters = str(p["base_deck"])
    if not letters or any(ch not in BASE_LETTERS for ch in letters):
        raise ConfigError(f"base_deck must be letters from {BASE_LETTERS!r}, got {letters!r}")
    if "M" not in letters:
        raise ConfigError("base_deck needs at least one Master (M)")
    if len(letters) < hand:
        raise ConfigError(f"base_deck has {len(letters)} cards, fewer than hand_size {hand}")
    base = tuple(letters.count(ch) for ch in BASE_LETTERS)
    money = _int(p, "start_money")
    if money < 0:
        raise ConfigError("start_money must be >= 0")
    display = _int(p, "display")
    if not 0 <= display <= RULES["actions.display_size"]:
        raise ConfigError(f"display must be 0-{RULES['actions.display_size']}, got {display}")
    levels = _int(p, "levels")
    level_sizes = RULES["actions.hireable_levels"]
    if not 0 <= levels <= len(level_sizes):
        raise ConfigError(f"levels must be 0-{len(level_sizes)}, got {levels}")
    stack = tuple(
        tuple(c for c in range(4, N_BASE_CARDS) if CARDS[c].level == lv)
        for lv in range(1, levels + 1)
    )
    costs = tuple(RULES["board.window_costs"][side])
    w = _int(p, "windows")
    if not 0 <= w <= len(costs):
        raise ConfigError(f"windows must be 0-{len(costs)}, got {w}")
    if w:
        costs = costs[-w:]
    seg = _int(p, "warehouse")
    side_seg = RULES["board.warehouse_segment_size"][side]
    if not 0 <= seg <= side_seg:
        raise ConfigError(f"warehouse (tiles per segment) must be 0-{side_seg}, got {seg}")
    seg = seg or side_seg
    halls = RULES["board.guests"][side]
    gph = _int(p, "guests")
    if not 0 <= gph <= len(halls[0]):
        raise ConfigError(f"guests (per hall) must be 0-{len(halls[0])}, got {gph}")
    gph = gph or len(halls[0])
    guests = tuple(
        Guest(h, i == 0, parse_reward(halls[h][i])) for h in range(NUM_HALLS) for i in range(gph)
    )
    dec_limit = _int(p, "decorations")
    if dec_limit < 0:
        raise ConfigError("decorations must be >= 0 (0 = the full board)")
    decos: list[Deco] = []
    for kind, key in (
        (FIREWORKS, "fireworks"),
        (MUSICIAN, "musician"),
        (STATUE, "statue"),
        (FOUNTAIN_UP, "fountain_upper"),
        (FOUNTAIN_LOW, "fountain_lower"),
    ):
        cost = RULES[f"board.{key}_cost"][side]
        prestige = RULES[f"board.{key}_prestige"][side]
        k = len(cost) if dec_limit == 0 else min(dec_limit, len(cost))
        decos.extend(Deco(kind, cost[i], prestige[i], i) for i in range(k))
    n_fw = sum(1 for d in decos if d.kind == FIREWORKS)
    mult = tuple(RULES["board.terrace_multiplier"][side][:n_fw])
    festivity = _bool(p["festivity"], "festivity")
    fancy = _bool(p["fancy"], "fancy")
    tile_counts = list(BASE_TILE_COUNTS)
    if fancy:
        tile_counts = [a + b for a, b in zip(tile_counts, FANCY_TILE_COUNTS, strict=True)]
    t_limit = _int(p, "tiles")
    if not 0 <= t_limit <= sum(tile_counts):
        raise ConfigError(f"tiles must be 0-{sum(tile_counts)}, got {t_limit}")
    tile_counts = _round_robin_subset(tile_counts, [[t] for t in range(NUM_TILES)], t_limit)
    dress_counts = [1] * N_BASE_DRESSES + [int(fancy)] * N_FANCY_DRESSES
    dress_counts += [int(festivity)] * (NUM_DRESSES - len(dress_counts))
    d_limit = _int(p, "dresses")
    if not 0 <= d_limit <= sum(dress_counts):
        raise ConfigError(f"dresses must be 0-{sum(dress_counts)}, got {d_limit}")
    by_colour = [[d for d in range(NUM_DRESSES) if DRESSES[d].colour == c] for c in range(4)]
    dress_counts = _round_robin_subset(dress_counts, by_colour, d_limit)
    jewelry = _bool(p["jewelry"], "jewelry")
    prices, jewel_counts = _jewelry(p, jewelry)
    specialists, pools, stack = _employees(p, jewelry, stack)
    utility = check_mode(p["utility"])
    return Config(
        players=n,
        rounds=rounds,
        hand_size=hand,
        side=side,
        base_deck=base,
        start_money=money,
        start_yarn=RULES["game.start_yarn"],
        start_lace=RULES["game.start_lace"],
        display=display,
        stack_levels=stack,
        window_costs=costs,
        segment_size=seg,
        guests=guests,
        hall_values=tuple(tuple(v) for v in RULES["board.hall_values"][side]),
        decos=tuple(decos),
        all_halls=tuple(RULES["board.all_halls"][side]),
        fireworks_majority=tuple(RULES["board.fireworks_majority"][side]),
        terrace_mult=mult,
        tile_counts=tuple(tile_counts),
        dress_counts=tuple(dress_counts),
        festivity=festivity,
        fancy=fancy,
        jewelry=jewelry,
        jeweller_prices=prices,
        jewel_counts=jewel_counts,
        utility=utility,
        num_cards=NUM_CARDS if jewelry else N_BASE_CARDS,
        specialists=specialists,
        exam_pools=pools,
    )


def _employees(p: dict, on: bool, stack: tuple) -> tuple:
    """The Jewelry Box's employees: the specialist row, the two exam pools and the
    employee stack whose levels 2 and 5 hold two reserved pool slots each (JEWELRY §2:
    the pool-type base cards of those levels join their pool)."""
    n_spec, n_exam = _int(p, "specialists"), _int(p, "exam_cards")
    if not on:
        for name, v in (("specialists", n_spec), ("exam_cards", n_exam)):
            if v != DEFAULTS[name]:
                raise ConfigError(f"{name} needs jewelry=true")
        return (), ((), ()), stack
    if not 0 <= n_spec <= len(SPECIALIST_IDS):
        raise ConfigError(f"specialists must be 0-{len(SPECIALIST_IDS)}, got {n_spec}")
    if not 0 <= n_exam <= len(NEW_JOURNEYMEN):
        raise ConfigError(f"exam_cards must be 0-{len(NEW_JOURNEYMEN)}, got {n_exam}")
    specialists = SPECIALIST_IDS[:n_spec]
    pools = []
    levels = [list(lv) for lv in stack]
    for i, new in enumerate((NEW_JOURNEYMEN, NEW_MASTERS)):
        lv, kind = POOL_LEVEL[i], POOL_KIND[i]
        pool = list(new[:n_exam])
        if lv <= len(levels):
            moved = [k for k in levels[lv - 1] if CARDS[k].kind == kind]
            pool = moved + pool
            levels[lv - 1] = [k for k in levels[lv - 1] if CARDS[k].kind != kind]
            levels[lv - 1] += [RESERVED[i]] * len(moved)
        pools.append(tuple(sorted(pool)))
    return specialists, tuple(pools), tuple(tuple(lv) for lv in levels)


def _jewelry(p: dict, on: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Jeweller space prices (the cheapest N) and jewellery counts of the Jewelry Box."""
    spaces, jewels = _int(p, "jeweller"), _int(p, "jewels")
    if not on:
        for name, v in (("jeweller", spaces), ("jewels", jewels)):
            if v:
                raise ConfigError(f"{name} needs jewelry=true")
        return (), (0,) * len(JEWEL_NAMES)
    prices = tuple(RULES["jewelry.jeweller_prices"])
    if not 0 <= spaces <= len(prices):
        raise ConfigError(f"jeweller (spaces) must be 0-{len(prices)}, got {spaces}")
    counts = list(RULES["jewelry.jewel_counts"])
    if not 0 <= jewels <= sum(counts):
        raise ConfigError(f"jewels must be 0-{sum(counts)}, got {jewels}")
    counts = _round_robin_subset(counts, [[k] for k in range(len(counts))], jewels)
    return prices[len(prices) - (spaces or len(prices)) :], tuple(counts)


def _bool(v, name: str) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.lower() in ("true", "false", "1", "0"):
        return v.lower() in ("true", "1")
    raise ConfigError(f"{name} must be true or false, got {v!r}")


def assumptions() -> list[str]:
    return RULES.assumptions()
