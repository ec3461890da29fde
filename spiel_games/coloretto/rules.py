"""Coloretto rules data, the parameter table (``PARAMS``: name, default, meaning, written
only here) and the configuration built from the game parameters."""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.common.params import ParamDoc, defaults
from spiel_games.common.rules_data import load_rules
from spiel_games.common.utility import ConfigError, check_mode

RULES = load_rules("spiel_games.coloretto")
MAX_COLOURS: int = RULES["deck.colours"]
PLUS2_VALUE: int = RULES["scoring.plus2_value"]

# The one parameter table: name, default, meaning (spiel_games.common.params).
PARAMS = (
    ParamDoc("players", 4, "number of players, 2-5 (2 uses the official two-player rules)"),
    ParamDoc("colors", 0, "colours in play; 0 = by the rules (5 at 2p, 6 at 3p, 7 at 4-5p)"),
    ParamDoc("cards_per_color", RULES["deck.cards_per_colour"], "cards of each colour"),
    ParamDoc("plus2", RULES["deck.plus2_cards"], "number of +2 cards"),
    ParamDoc(
        "edition",
        "classic",
        "classic (3 jokers, last-round card on 15) or new (2 jokers + golden joker, 16)",
    ),
    ParamDoc("jokers", -1, "plain jokers; -1 = by edition"),
    ParamDoc("last_round_depth", -1, "cards below the last-round card; -1 = by edition"),
    ParamDoc(
        "rows", 0, "number of rows; 0 = by the rules (one per player, or 3 rows of 1/2/3 at 2p)"
    ),
    ParamDoc("row_capacity", 0, "capacity of every row when rows or row_capacity is set; 0 = 3"),
    ParamDoc(
        "start_cards", -1, "start cards per player (all of distinct colours); -1 = by the rules"
    ),
    ParamDoc(
        "scoring",
        "standard",
        "standard (1/3/6/10/15/21) or alternative (1/4/8/7/6/5) scoring table",
    ),
    ParamDoc(
        "positive_colors",
        RULES["scoring.positive_colours"],
        "colours that score positive, at most colors (3; the seed's variant uses 2)",
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


def make_config(params: dict) -> Config:
    p = {**DEFAULTS, **params}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown Coloretto parameter(s): {', '.join(sorted(unknown))}")
    n = int(p["players"])
    if not 2 <= n <= 5:
        raise ConfigError(f"Coloretto takes 2-5 players, got {n}")
    edition = p["edition"]
    if edition not in ("classic", "new"):
        raise ConfigError(f"edition must be 'classic' or 'new', got {edition!r}")
    colours = int(p["colors"])
    if colours == 0:
        removed = {2: RULES["deck.removed_colours_2p"], 3: RULES["deck.removed_colours_3p"]}.get(
            n, 0
        )
        colours = MAX_COLOURS - removed
    if not 1 <= colours <= MAX_COLOURS:
        raise ConfigError(f"colors must be 1-{MAX_COLOURS}, got {colours}")
    jokers = int(p["jokers"])
    if jokers < 0:
        jokers = RULES["deck.jokers_new" if edition == "new" else "deck.jokers_classic"]
    golden = 1 if edition == "new" else 0
    depth = int(p["last_round_depth"])
    if depth < 0:
        depth = RULES[
            "deck.last_round_depth_new" if edition == "new" else "deck.last_round_depth_classic"
        ]
    rows, cap = int(p["rows"]), int(p["row_capacity"])
    if rows == 0 and cap == 0 and n == 2:
        capacities = tuple(RULES["rows.capacities_2p"])
    else:
        rows = rows or n
        cap = cap or RULES["rows.capacity"]
        capacities = (cap,) * rows
    if len(capacities) < n:
        raise ConfigError(f"need at least one row per player ({n}), got {len(capacities)}")
    if min(capacities) < 1:
        raise ConfigError("row_capacity must be at least 1")
    start = int(p["start_cards"])
    if start < 0:
        start = RULES["setup.start_cards_2p" if n == 2 else "setup.start_cards"]
    if n * start > colours:
        raise ConfigError(
            f"{n} players x {start} start cards need {n * start} distinct colours, have {colours}"
        )
    cpc, plus2 = int(p["cards_per_color"]), int(p["plus2"])
    if cpc < 1 or plus2 < 0 or jokers < 0:
        raise ConfigError("cards_per_color must be >= 1; plus2 and jokers >= 0")
    scoring = p["scoring"]
    if scoring not in ("standard", "alternative"):
        raise ConfigError(f"scoring must be 'standard' or 'alternative', got {scoring!r}")
    table = tuple(RULES[f"scoring.table_{scoring}"])
    positive = int(p["positive_colors"])
    if not 1 <= positive <= colours:
        raise ConfigError(f"positive_colors must be 1-{colours}, got {positive}")
    timing = p["joker_timing"]
    if timing not in ("end", "immediate"):
        raise ConfigError(f"joker_timing must be 'end' or 'immediate', got {timing!r}")
    utility = check_mode(p["utility"])
    cfg = Config(
        players=n,
        colours=colours,
        cards_per_colour=cpc,
        plus2=plus2,
        jokers=jokers,
        golden=golden,
        depth=depth,
        capacities=capacities,
        start_cards=start,
        table=table,
        positive=positive,
        immediate_jokers=timing == "immediate",
        utility=utility,
    )
    if not 0 <= depth < cfg.deck_size_after_setup():
        raise ConfigError(
            f"last_round_depth must be 0-{cfg.deck_size_after_setup() - 1} for this deck, got {depth}"
        )
    return cfg
