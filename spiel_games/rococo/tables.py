"""Rococo's component tables, loaded once from rules.toml: employee cards and their
bonuses, resource tiles, dress tiles, board constants and the small record types.

Ids are stable: card ids 0-3 are the base cards (Master, Journeyman, the two
Apprentices), 4-31 the hireable cards level by level; tile and dress ids follow
the order of rules.toml (base, then Fancy, then Festivity dresses).
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
)
BONUS = {name: i for i, name in enumerate(BONUS_NAMES)}
CROWNS = frozenset(
    BONUS[b] for b in ("crown_deck", "crown_yarn_lace", "crown_master_spaces", "crown_pairs")
)
BONUS_TEXT = {
    "none": "no bonus",
    "extra_acquire": "one more Acquire Resources",
    "yarn_or_lace_pay1": "pay 1 Livre for 1 yarn or 1 lace",
    "gain2": "gain 2 Livre",
    "gain1": "gain 1 Livre",
    "depute_use": "depute a deck card and use its bonus",
    "stack_tile_pay1": "pay 1 Livre for a face-down stack tile",
    "stack_tile_free": "a free face-down stack tile",
    "yarn_or_lace_free": "1 yarn or 1 lace",
    "money_yellow_red": "1 Livre per own yellow, 2 per own red dress",
    "extra_dress_yg": "one more Make a Dress, 1 yellow/green bale less",
    "depute_money": "depute a deck card for 8/5/2 Livre",
    "prestige_deco2": "1 prestige per 2 own decorations",
    "money_deco": "1 Livre per own decoration",
    "prestige_dress3": "1 prestige per 3 own dresses",
    "extra_fund5": "one more Fund a Decoration, 5 Livre less",
    "money_deck": "2/6/10/14 Livre by deck size",
    "money_deck_small": "1/3/5/7 Livre by deck size",
    "extra_dress_red": "one more Make a Dress, up to 2 red bales less",
    "green_blue": "2 Livre per own green dress, 1 prestige per own blue dress",
    "buy_prestige4": "1 prestige per 4 Livre paid",
    "money_dress": "1 Livre per own dress",
    "tiles_prestige": "discard tiles for prestige",
    "prestige_dress2": "1 prestige per 2 own dresses",
    "buy_prestige3": "1 prestige per 3 Livre paid",
    "extra_fund10": "one more Fund a Decoration, 10 Livre less",
    "crown_deck": "end: 2/5/8/11 prestige by deck size",
    "crown_yarn_lace": "end: 3 prestige per yarn+lace pair",
    "crown_master_spaces": "end: 3 prestige per 2 dresses on Master spaces",
    "crown_pairs": "end: 2 prestige per lady+man dress pair",
}

# Decoration kinds.
FIREWORKS, MUSICIAN, STATUE, FOUNTAIN_UP, FOUNTAIN_LOW = range(5)
DECO_KIND_NAMES = ("fireworks", "musician", "statue", "fountain-upper", "fountain-lower")

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
    return tuple(out)


CARDS: tuple[Card, ...] = _cards()
NUM_CARDS = len(CARDS)
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
