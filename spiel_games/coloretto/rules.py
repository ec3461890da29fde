"""Coloretto rules data, the parameter table (``PARAMS``: name, default, meaning, written
only here) and the configuration built from the game parameters."""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.common.params import ParamDoc, defaults, int_param, int_param_in, int_param_or
from spiel_games.common.rules_data import load_rules
from spiel_games.common.utility import ConfigError, check_mode

RULES = load_rules("spiel_games.coloretto")
MAX_COLOURS: int = RULES["deck.colours"]
PLUS2_VALUE: int = RULES["scoring.plus2_value"]

# Upper bounds of the numeric parameters: generous (about twice the published game or
# more) but finite, so that a typo such as cards_per_color=100000 is refused instead of
# building a game that runs for hours. Published: 9 cards per colour, 10 +2 cards,
# 3 jokers (2 + the golden one in the newer edition), one row of 3 per player (at most 5).
MAX_CARDS_PER_COLOUR = 20
MAX_PLUS2 = 20
MAX_JOKERS = 10
MAX_ROWS = 10
MAX_ROW_CAPACITY = 10

# The one parameter table: name, default, meaning (spiel_games.common.params).
PARAMS = (
    ParamDoc("players", 4, "number of players, 2-5 (2 uses the official two-player rules)"),
    ParamDoc(
        "colors",
        0,
        f"colours in play, 1-{MAX_COLOURS}; 0 = by the rules (5 at 2p, 6 at 3p, 7 at 4-5p)",
    ),
    ParamDoc(
        "cards_per_color",
        RULES["deck.cards_per_colour"],
        f"cards of each colour, 1-{MAX_CARDS_PER_COLOUR}",
    ),
    ParamDoc("plus2", RULES["deck.plus2_cards"], f"number of +2 cards, 0-{MAX_PLUS2}"),
    ParamDoc(
        "edition",
        "classic",
        "classic (3 jokers, last-round card on 15) or new (2 jokers + golden joker, 16)",
    ),
    ParamDoc("jokers", -1, f"plain jokers, 0-{MAX_JOKERS}; -1 = by edition"),
    ParamDoc(
        "last_round_depth",
        -1,
        "cards below the last-round card, 0 to the deck size after setup - 1; -1 = by edition",
    ),
    ParamDoc(
        "rows",
        0,
        f"number of rows, from the player count to {MAX_ROWS}; 0 = by the rules (one per player, or 3 rows of "
        "1/2/3 at 2p)",
    ),
    ParamDoc(
        "row_capacity",
        0,
        f"capacity of every row when rows or row_capacity is set, 1-{MAX_ROW_CAPACITY}; 0 = 3",
    ),
    ParamDoc(
        "start_cards",
        -1,
        "start cards per player (all of distinct colours), 0 to colors / players; "
        "-1 = by the rules",
    ),
    ParamDoc(
        "scoring",
        "standard",
        "standard (1/3/6/10/15/21) or alternative (1/4/8/7/6/5) scoring table",
    ),
    ParamDoc(
        "positive_colors",
        RULES["scoring.positive_colours"],
        "colours that score positive, at most colors (3; the founding summary SEED-004 plays a variant with 2)",
    ),
    ParamDoc(
        "joker_timing",
        "end",
        "end (best assignment at scoring) or immediate (owner picks a colour on taking)",
    ),
    ParamDoc(
        "utility",
        "rank",
        "rank (zero-sum rank difference), score (raw score) or win (1 split among winners)",
    ),
)
DEFAULTS = defaults(PARAMS)


@dataclass(frozen=True)
class Config:
    players: int
    colours: int
    cards_per_colour: int
    plus2: int
    jokers: int
    golden: int  # 0 or 1 golden joker (newer edition)
    depth: int  # cards below the last-round card
    capacities: tuple[int, ...]  # one per row
    start_cards: int
    table: tuple[int, ...]  # index = cards of a colour (capped)
    positive: int
    immediate_jokers: bool
    utility: str

    # Card types: colours 0..C-1, then +2, joker, golden joker.
    @property
    def plus2_type(self) -> int:
        return self.colours

    @property
    def joker_type(self) -> int:
        return self.colours + 1

    @property
    def golden_type(self) -> int:
        return self.colours + 2

    @property
    def num_types(self) -> int:
        return self.colours + 3

    @property
    def rows(self) -> int:
        return len(self.capacities)

    def initial_deck(self) -> list[int]:
        return [self.cards_per_colour] * self.colours + [self.plus2, self.jokers, self.golden]

    def deck_size_after_setup(self) -> int:
        return sum(self.initial_deck()) - self.players * self.start_cards

    def max_score(self) -> int:
        return self.positive * self.table[-1] + PLUS2_VALUE * self.plus2

    def min_score(self) -> int:
        return -max(0, self.colours - self.positive) * self.table[-1]


def _colours(p: dict, n: int) -> int:
    colours = int_param_or(p, "colors", 0, "by the rules", 1, MAX_COLOURS)
    if colours == 0:
        removed = {2: RULES["deck.removed_colours_2p"], 3: RULES["deck.removed_colours_3p"]}
        colours = MAX_COLOURS - removed.get(n, 0)
    return colours


def _capacities(p: dict, n: int) -> tuple[int, ...]:
    rows = int_param_or(p, "rows", 0, "by the rules", n, MAX_ROWS)
    cap = int_param_or(p, "row_capacity", 0, "3 per row", 1, MAX_ROW_CAPACITY)
    if rows == 0 and cap == 0 and n == 2:
        return tuple(RULES["rows.capacities_2p"])
    return (cap or RULES["rows.capacity"],) * (rows or n)


def _start_cards(p: dict, n: int, colours: int) -> int:
    start = int_param_or(p, "start_cards", -1, "by the rules", 0, colours // n)
    if start < 0:
        start = RULES["setup.start_cards_2p" if n == 2 else "setup.start_cards"]
    if n * start > colours:
        raise ConfigError(
            f"{n} players x {start} start cards need {n * start} distinct colours, have {colours}"
        )
    return start


def _edition_number(p: dict, key: str, edition: str, rules_key: str, hi: int) -> int:
    """A parameter whose -1 means 'by edition' (the rules value ``rules_key``_classic/_new)."""
    v = int_param_or(p, key, -1, "by edition", 0, hi)
    return RULES[f"{rules_key}_{edition}"] if v < 0 else v


def make_config(params: dict) -> Config:
    p = {**DEFAULTS, **params}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown Coloretto parameter(s): {', '.join(sorted(unknown))}")
    n = int_param(p, "players")
    if not 2 <= n <= 5:
        raise ConfigError(f"Coloretto takes 2-5 players, got {n}")
    edition = p["edition"]
    if edition not in ("classic", "new"):
        raise ConfigError(f"edition must be 'classic' or 'new', got {edition!r}")
    colours = _colours(p, n)
    jokers = _edition_number(p, "jokers", edition, "deck.jokers", MAX_JOKERS)
    depth = int_param(p, "last_round_depth")  # checked against the deck below
    if depth == -1:
        depth = RULES[f"deck.last_round_depth_{edition}"]
    capacities = _capacities(p, n)
    start = _start_cards(p, n, colours)
    cpc = int_param_in(p, "cards_per_color", 1, MAX_CARDS_PER_COLOUR)
    plus2 = int_param_in(p, "plus2", 0, MAX_PLUS2)
    scoring = p["scoring"]
    if scoring not in ("standard", "alternative"):
        raise ConfigError(f"scoring must be 'standard' or 'alternative', got {scoring!r}")
    positive = int_param(p, "positive_colors")
    if not 1 <= positive <= colours:
        raise ConfigError(f"positive_colors must be 1-{colours}, got {positive}")
    timing = p["joker_timing"]
    if timing not in ("end", "immediate"):
        raise ConfigError(f"joker_timing must be 'end' or 'immediate', got {timing!r}")
    cfg = Config(
        players=n,
        colours=colours,
        cards_per_colour=cpc,
        plus2=plus2,
        jokers=jokers,
        golden=1 if edition == "new" else 0,
        depth=depth,
        capacities=capacities,
        start_cards=start,
        table=tuple(RULES[f"scoring.table_{scoring}"]),
        positive=positive,
        immediate_jokers=timing == "immediate",
        utility=check_mode(p["utility"]),
    )
    left = cfg.deck_size_after_setup()
    if left <= 0:
        raise ConfigError(
            f"this deck is too small for any last_round_depth: its {sum(cfg.initial_deck())} "
            f"cards are all dealt at setup ({n} players x {start} start card{'' if start == 1 else 's'})"
        )
    if not 0 <= depth < left:
        raise ConfigError(
            f"last_round_depth must be -1 (by edition) or 0-{left - 1} for this deck, got {depth}"
        )
    return cfg
