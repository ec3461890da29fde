"""Rococo configuration from game parameters, and pure scoring helpers.

`make_config` validates the OpenSpiel game parameters (clear `ConfigError`, a
ValueError) and builds the immutable `Config` of one game. The component tables
live in `tables.py` and are re-exported here, so the engine reads everything
through ``rules`` (imported as ``R``).
"""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.common.utility import ConfigError, check_mode
from spiel_games.rococo.tables import (  # noqa: F401  (re-exported for the engine)
    ACQUIRE_COST,
    APPRENTICE,
    BASE_LETTERS,
    BASE_TILE_COUNTS,
    BLUE,
    BONUS,
    BONUS_NAMES,
    BONUS_TEXT,
    CARDS,
    CROWNS,
    DECO_KIND_NAMES,
    DEPUTE_MONEY,
    DEPUTE_MONEY_BONUS,
    DRESSES,
    FANCY_TILE_COUNTS,
    FIREWORKS,
    FOUNTAIN_LOW,
    FOUNTAIN_UP,
    GREEN,
    HALL_NAMES,
    HIRE_COST,
    KINGS_HALL,
    MASTER,
    MUSICIAN,
    N_BASE_DRESSES,
    N_FANCY_DRESSES,
    NUM_CARDS,
    NUM_DRESSES,
    NUM_HALLS,
    NUM_TILES,
    R_LACE,
    R_LIVRE,
    R_TILE,
    R_YARN,
    RED,
    RULES,
    SEGMENTS,
    STATUE,
    TILES,
    YELLOW,
    Deco,
    Dress,
    Guest,
    parse_reward,
)

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
    utility: str

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
        """Turns in the whole game: every selected card plus every card hired."""
        hires = min(self.stack_size, self.rounds * self.display)
        return self.rounds * self.players * self.hand_size + hires

    def max_money(self) -> int:
        """An upper bound on the Livre any one player can gain in a game."""
        g = self.num_guests
        best_reward = max(
            (gr.reward[1] for gr in self.guests if gr.reward[0] == R_LIVRE), default=0
        )
        best_sale = max(DRESSES[d].money for d in range(NUM_DRESSES) if self.dress_counts[d])
        n_decos = self.num_decos
        main = max(best_sale + best_reward, DEPUTE_MONEY[0], RULES["actions.favor_money"])
        bonus = max(14, 2 * g, n_decos, DEPUTE_MONEY_BONUS[0], 2)
        income = RULES["game.income"] + 2 * (n_decos + g)
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
        per_turn = max(g, self.num_decos, tile_bales) + 1
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
        tuple(c for c in range(4, NUM_CARDS) if CARDS[c].level == lv) for lv in range(1, levels + 1)
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
        utility=utility,
    )


def _bool(v, name: str) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.lower() in ("true", "false", "1", "0"):
        return v.lower() in ("true", "1")
    raise ConfigError(f"{name} must be true or false, got {v!r}")


# ----- pure scoring helpers --------------------------------------------------------------
def statue_points(colour_counts, statues: int) -> int:
    """Prestige for `statues` sets of distinct colours; a dress counts in one set only."""
    per = RULES["actions.statue_per_colour"]
    return per * sum(min(c, statues) for c in colour_counts)


def hall_awards(counts, masters, musician_owner: int, values, two_player: bool) -> list[int]:
    """Hall majority: most dresses gets values[0], second values[1].

    Ties: more dresses on Master guest spaces, then the owner of the hall's Musician;
    players still tied all get the value of the place they tie for and the next
    place is not awarded. At two players only first place scores.
    """
    n = len(counts)
    out = [0] * n
    keys = {p: (counts[p], masters[p], int(musician_owner == p)) for p in range(n) if counts[p] > 0}
    place = 0
    while keys and place < (1 if two_player else len(values)):
        best = max(keys.values())
        group = [p for p, k in keys.items() if k == best]
        for p in group:
            out[p] = values[place]
            del keys[p]
        if len(group) > 1:
            break
        place += 1
    return out


def fireworks_awards(counts, best_space, values, two_player: bool) -> list[int]:
    """Fireworks majority; ties go to the player holding the dearer (further right) space."""
    n = len(counts)
    out = [0] * n
    order = sorted(
        (p for p in range(n) if counts[p] > 0),
        key=lambda p: (counts[p], best_space[p]),
        reverse=True,
    )
    for place, p in enumerate(order[: 1 if two_player else len(values)]):
        out[p] = values[place]
    return out


def tiles_prestige(bales) -> int:
    """Level-5 bonus: 1 per blue bale, 1 per red bale, 1 per two green/yellow bales."""
    return bales[BLUE] + bales[RED] + (bales[YELLOW] + bales[GREEN]) // 2


def assumptions() -> list[str]:
    return RULES.assumptions()
