"""Rococo's parameter table (``PARAMS``: name, default, meaning, written only here) and the
configuration of one game.

`make_config` validates the OpenSpiel game parameters and raises a clear `ConfigError`
(a ValueError); it builds the immutable `Config` of one game.
"""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.common.params import ParamDoc, defaults, flag, int_param, int_param_in
from spiel_games.common.utility import ConfigError, check_mode
from spiel_games.rococo.rules import (
    BASE_LETTERS,
    BASE_TILE_COUNTS,
    CARDS,
    DEPUTE_MONEY,
    DEPUTE_MONEY_BONUS,
    DRESSES,
    FANCY_TILE_COUNTS,
    FIREWORKS,
    FOUNTAIN_LOW,
    FOUNTAIN_UP,
    JEWEL_NAMES,
    MUSICIAN,
    N_BASE_CARDS,
    N_BASE_DRESSES,
    N_FANCY_DRESSES,
    NEW_JOURNEYMEN,
    NEW_MASTERS,
    NUM_CARDS,
    NUM_DRESSES,
    NUM_HALLS,
    NUM_TILES,
    POOL_KIND,
    POOL_LEVEL,
    R_LIVRE,
    RESERVED,
    RULES,
    SPECIALIST,
    SPECIALIST_IDS,
    STATUE,
    TILES,
    Deco,
    Guest,
    parse_reward,
)

_SPEC = "needs jewelry=true"
# Generous but finite (the rulebook gives 15 Livre and 5 cards): a typo is refused, not played.
MAX_START_MONEY = 100
MAX_BASE_DECK = 20
_DECO_KINDS = (
    (FIREWORKS, "fireworks"),
    (MUSICIAN, "musician"),
    (STATUE, "statue"),
    (FOUNTAIN_UP, "fountain_upper"),
    (FOUNTAIN_LOW, "fountain_lower"),
)
# The most spaces of one decoration kind on either board side (the Musician's 5).
MAX_DECORATIONS = max(len(c) for _, k in _DECO_KINDS for c in RULES[f"board.{k}_cost"].values())
PARAMS = (
    ParamDoc(
        "players", 4, "number of players, 2-5 (2-3 use the small board side, 4-5 the large one)"
    ),
    ParamDoc("rounds", RULES["game.rounds"], "rounds played, 1-7 (7 in the full game)"),
    ParamDoc("hand_size", RULES["game.hand_size"], "employee cards selected each round, 1-3"),
    ParamDoc(
        "base_deck",
        RULES["game.base_deck"],
        f"starting cards as 1-{MAX_BASE_DECK} letters: M Master, J Journeyman, a/b the Apprentices",
    ),
    ParamDoc(
        "start_money",
        RULES["game.start_money"],
        f"Livre each player starts with, 0-{MAX_START_MONEY}",
    ),
    ParamDoc(
        "display", RULES["actions.display_size"], "employee cards revealed for hire each round, 0-4"
    ),
    ParamDoc(
        "levels", len(RULES["actions.hireable_levels"]), "employee levels in the hire stack, 0-6"
    ),
    ParamDoc("windows", 0, "workshop windows; 0 = the board side's, else the rightmost N"),
    ParamDoc("warehouse", 0, "tiles per warehouse segment; 0 = by board side (3 or 4)"),
    ParamDoc("guests", 0, "guest spaces per hall; 0 = by board side (4 or 6)"),
    ParamDoc(
        "decorations",
        0,
        f"at most N spaces of each decoration kind, 1-{MAX_DECORATIONS}; 0 = the full board",
    ),
    ParamDoc("dresses", 0, "dress tiles in the bag; 0 = all, else N spread over the colours"),
    ParamDoc("tiles", 0, "resource tiles; 0 = all, else N spread over the tile types"),
    ParamDoc("festivity", False, "add the 4 Festivity Dresses (cannot be sold, one-time prestige)"),
    ParamDoc("fancy", False, "add the 4 Fancy Dresses and 5 extra resource tiles"),
    ParamDoc("jewelry", False, "the Jewelry Box: jeweller and jewellery, exams, 28 new employees"),
    ParamDoc("jeweller", 0, f"jeweller spaces, 1-4 (the cheapest N); 0 = all 4; {_SPEC}"),
    ParamDoc("jewels", 0, f"jewellery tiles; 0 = all 24, else N spread over the 4 kinds; {_SPEC}"),
    ParamDoc("specialists", 10, f"specialised apprentices in the open row, 0-10; {_SPEC}"),
    ParamDoc("exam_cards", 9, f"new cards in each exam pool, 0-9; {_SPEC}"),
    ParamDoc(
        "utility",
        "rank",
        "rank (zero-sum rank difference), score (raw prestige) or win (1 split among winners)",
    ),
)
DEFAULTS = defaults(PARAMS)


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

    def min_score(self) -> int:
        return 0

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


def _base_deck(p: dict, hand: int) -> tuple[int, ...]:
    letters = str(p["base_deck"])
    if len(letters) > MAX_BASE_DECK:  # before the letters: the error does not echo them
        raise ConfigError(f"base_deck has {len(letters)} cards, more than {MAX_BASE_DECK}")
    if not letters or any(ch not in BASE_LETTERS for ch in letters):
        raise ConfigError(f"base_deck must be letters from {BASE_LETTERS!r}, got {letters!r}")
    if "M" not in letters:
        raise ConfigError("base_deck needs at least one Master (M)")
    if len(letters) < hand:
        raise ConfigError(f"base_deck has {len(letters)} cards, fewer than hand_size {hand}")
    return tuple(letters.count(ch) for ch in BASE_LETTERS)


def _employee_stack(p: dict) -> tuple[tuple[int, ...], ...]:
    levels = int_param_in(p, "levels", 0, len(RULES["actions.hireable_levels"]))
    return tuple(
        tuple(c for c in range(4, N_BASE_CARDS) if CARDS[c].level == lv)
        for lv in range(1, levels + 1)
    )


def _board(p: dict, side: str) -> dict:
    """Windows, warehouse, guest spaces, decorations and terrace of one board side."""
    costs = tuple(RULES["board.window_costs"][side])
    w = int_param_in(p, "windows", 0, len(costs))
    side_seg = RULES["board.warehouse_segment_size"][side]
    seg = int_param_in(p, "warehouse", 0, side_seg, "warehouse (tiles per segment)")
    halls = RULES["board.guests"][side]
    gph = int_param_in(p, "guests", 0, len(halls[0]), "guests (per hall)") or len(halls[0])
    dec_limit = int_param_in(p, "decorations", 0, MAX_DECORATIONS)
    decos: list[Deco] = []
    for kind, key in _DECO_KINDS:
        cost = RULES[f"board.{key}_cost"][side]
        prestige = RULES[f"board.{key}_prestige"][side]
        k = len(cost) if dec_limit == 0 else min(dec_limit, len(cost))
        decos.extend(Deco(kind, cost[i], prestige[i], i) for i in range(k))
    n_fw = sum(1 for d in decos if d.kind == FIREWORKS)
    return {
        "window_costs": costs[-w:] if w else costs,
        "segment_size": seg or side_seg,
        "guests": tuple(
            Guest(h, i == 0, parse_reward(halls[h][i]))
            for h in range(NUM_HALLS)
            for i in range(gph)
        ),
        "hall_values": tuple(tuple(v) for v in RULES["board.hall_values"][side]),
        "decos": tuple(decos),
        "all_halls": tuple(RULES["board.all_halls"][side]),
        "fireworks_majority": tuple(RULES["board.fireworks_majority"][side]),
        "terrace_mult": tuple(RULES["board.terrace_multiplier"][side][:n_fw]),
    }


def _components(p: dict, festivity: bool, fancy: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Resource tile and dress counts (expansions in, then cut down to `tiles` / `dresses`)."""
    tile_counts = list(BASE_TILE_COUNTS)
    if fancy:
        tile_counts = [a + b for a, b in zip(tile_counts, FANCY_TILE_COUNTS, strict=True)]
    t_limit = int_param_in(p, "tiles", 0, sum(tile_counts))
    tile_counts = _round_robin_subset(tile_counts, [[t] for t in range(NUM_TILES)], t_limit)
    dress_counts = [1] * N_BASE_DRESSES + [int(fancy)] * N_FANCY_DRESSES
    dress_counts += [int(festivity)] * (NUM_DRESSES - len(dress_counts))
    d_limit = int_param_in(p, "dresses", 0, sum(dress_counts))
    by_colour = [[d for d in range(NUM_DRESSES) if DRESSES[d].colour == c] for c in range(4)]
    dress_counts = _round_robin_subset(dress_counts, by_colour, d_limit)
    return tuple(tile_counts), tuple(dress_counts)


def make_config(params: dict) -> Config:
    p = {**DEFAULTS, **params}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown Rococo parameter(s): {', '.join(sorted(unknown))}")
    n = int_param(p, "players")
    if not 2 <= n <= 5:
        raise ConfigError(f"Rococo takes 2-5 players, got {n}")
    side = "small" if n <= 3 else "large"
    hand = int_param_in(p, "hand_size", 1, RULES["game.hand_size"])
    money = int_param_in(p, "start_money", 0, MAX_START_MONEY)
    festivity = flag(p["festivity"], "festivity")
    fancy = flag(p["fancy"], "fancy")
    tile_counts, dress_counts = _components(p, festivity, fancy)
    jewelry = flag(p["jewelry"], "jewelry")
    prices, jewel_counts = _jewelry(p, jewelry)
    specialists, pools, stack = _employees(p, jewelry, _employee_stack(p))
    return Config(
        players=n,
        rounds=int_param_in(p, "rounds", 1, RULES["game.rounds"]),
        hand_size=hand,
        side=side,
        base_deck=_base_deck(p, hand),
        start_money=money,
        start_yarn=RULES["game.start_yarn"],
        start_lace=RULES["game.start_lace"],
        display=int_param_in(p, "display", 0, RULES["actions.display_size"]),
        stack_levels=stack,
        tile_counts=tile_counts,
        dress_counts=dress_counts,
        festivity=festivity,
        fancy=fancy,
        jewelry=jewelry,
        jeweller_prices=prices,
        jewel_counts=jewel_counts,
        utility=check_mode(p["utility"]),
        num_cards=NUM_CARDS if jewelry else N_BASE_CARDS,
        specialists=specialists,
        exam_pools=pools,
        **_board(p, side),
    )


def _employees(p: dict, on: bool, stack: tuple) -> tuple:
    """The Jewelry Box's employees: the specialist row, the two exam pools and the
    employee stack whose levels 2 and 5 hold two reserved pool slots each (JEWELRY §2:
    the pool-type base cards of those levels join their pool)."""
    n_spec, n_exam = int_param(p, "specialists"), int_param(p, "exam_cards")
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
    spaces, jewels = int_param(p, "jeweller"), int_param(p, "jewels")
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
