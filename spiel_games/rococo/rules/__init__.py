"""Rococo's rules data.

Component tables are loaded once from rules.toml: employee cards and their
bonuses, resource tiles, dress tiles, board constants and the small record types.
Ids are stable: card ids 0-3 are the base cards (Master, Journeyman, the two
Apprentices), 4-31 the hireable cards level by level; tile and dress ids follow
the order of rules.toml (base, then Fancy, then Festivity dresses).

The parameter table and the configuration built from the parameters are in
``rules.config``.
"""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.common.rules_data import load_rules

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


def deck_bracket(size: int) -> int:
    """Index into the 5-6 / 7-8 / 9-10 / 11+ tables (a 4-card deck uses the first)."""
    if size <= 6:
        return 0
    if size <= 8:
        return 1
    if size <= 10:
        return 2
    return 3


def assumptions() -> list[str]:
    return RULES.assumptions()
