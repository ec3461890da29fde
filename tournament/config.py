"""Tournament configuration: one TOML file merged with command-line overrides, validated in one step.

    [tournament]
    game = "python_coloretto(players=3)"
    seeds_per_lineup = 10        # chance seeds per line-up, each played under every seating
                                 # (balanced: under the rotations of one order of play)
    seating = "rotations"        # or "permutations": every seat order, not only the rotations;
                                 # or "balanced": each seed one order of play, in turn
    seed = 7                     # master seed; every game seed is derived from it
    schedule = "round-robin"     # "round-robin", "gauntlet" (needs focus), "ladder" or "fixed"
    focus = "greedy"             # gauntlet: the agent that meets the field
    tables = [["greedy", "greedy", "random"]]  # fixed: the line-ups, one agent name per seat
    self_play = false            # allow line-ups with one agent in several seats (fixed: a
                                 # table may seat one agent only, as `meeple train` does)
    failure_policy = "rank-last" # or "void": what an agent crash/timeout/illegal move means
    time_limit = 5.0             # seconds per move; 0 = none
    batch_size = 0               # games per task; 0 = chosen from the workload
    record_moves = false         # store each game's move list (replays then read it)

    [agents]
    random = "random"
    greedy = "heuristic"

    [ladder]                     # only with schedule = "ladder"
    agent = "mcts"               # the spec kind (or spec) whose budget grows
    param = "sims"
    values = [10, 30, 100, 300]

Every problem is a :class:`ConfigError` whose message is one line naming the key.
``TOURNAMENT_KEYS`` is the one table of ``[tournament]`` keys: the validator, the TOML writer
(``config_to_toml_dict``) and the command line's override options all read it.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from solvers.identity import code_version
from solvers.spec import parse_value
from spiel_games.common.errors import ConfigError
from spiel_games.common.files import lookup_problem
from tournament.config_checks import (
    AgentEntry,
    adaptive_keys,
    agent_entry,
    check_agent_names,
    checked_focus,
    checked_tournament,
    fixed_tables,
    get,
    ladder_agents,
    merged_sections,
)
from tournament.keys import ADAPTIVE_KEYS, ADAPTIVE_RULE, TOURNAMENT_KEYS
from tournament.seating import cyclic_orders

__all__ = [
    "TOURNAMENT_KEYS",
    "AgentEntry",
    "ConfigError",
    "TournamentConfig",
    "build_config",
    "config_to_toml_dict",
    "lineups",
    "load_toml",
    "num_games",
    "num_orders",
    "parse_override",
]

MAX_ORDERS = 127  # seat orders per line-up: the ledger's ``rotation`` column is int8
# Games one ledger may schedule: the schedule, the manifest's seed lists and the ratings
# all hold every game in memory (10^6 games: ~20 s to schedule, ~100 MB); past this, split
# the tournament into several ledgers (different seeds) and rate them jointly.
MAX_GAMES = 1_000_000
# what tomllib cannot read: int() refuses text of over 4,300 digits (sys.get_int_max_str_digits)
TOO_MANY_DIGITS = "a number of more than 4,300 digits"


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    seeds_per_lineup: int
    seed: int
    schedule: str
    agents: tuple[AgentEntry, ...]
    focus: str = ""
    tables: tuple[tuple[str, ...], ...] = ()  # schedule = "fixed": sorted line-ups
    seating: str = "rotations"
    self_play: bool = False
    failure_policy: str = "rank-last"
    time_limit: float = 0.0
    batch_size: int = 0
    record_moves: bool = False  # not part of the identity: which games, not what is kept
    ladder: dict = field(default_factory=dict)
    confidence: float = 0.95  # adaptive only (ADAPTIVE_KEYS)
    top: int = 3
    min_seeds: int = 2
    tie_elo: float = 0.0
    # Resolved while validating, not part of the identity: the game's player count and the
    # code version of the game and all solvers (the manifest's; agent ids hash their kind's).
    num_players: int = field(default=0, compare=False)
    code_version: str = field(default="", compare=False)

    def agent(self, name: str) -> AgentEntry:
        for a in self.agents:
            if a.name == name:
                return a
        raise KeyError(name)

    def identity(self) -> dict:
        """Everything that decides which games are played and how; batch_size and
        record_moves are excluded
        (and tables where unset, seating where it is the default rotations, so the ledgers
        written before these keys existed keep their hash)."""
        out = {
            "game": self.game,
            "seeds_per_lineup": self.seeds_per_lineup,
            "seed": self.seed,
            "schedule": self.schedule,
            "agents": [a.identity() for a in self.agents],
            "focus": self.focus,
            "self_play": self.self_play,
            "failure_policy": self.failure_policy,
            "time_limit": self.time_limit,
            "ladder": dict(self.ladder),
        }
        if self.tables:
            out["tables"] = [list(t) for t in self.tables]
        if self.seating != "rotations":
            out["seating"] = self.seating
        if self.schedule == "adaptive":
            out.update({k: getattr(self, k) for k in ADAPTIVE_KEYS})
            if not self.tie_elo:  # the ledgers of runs before the key keep their hash
                del out["tie_elo"]
            out["adaptive_rule"] = ADAPTIVE_RULE
        return out

    @property
    def config_hash(self) -> str:
        blob = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    @property
    def run_id(self) -> str:
        return self.config_hash[:16]


def load_toml(path: str | Path) -> dict:
    p = Path(path)
    if why := lookup_problem(p):  # a name over 255 bytes (Path.is_file raises)
        raise ConfigError(f"config file {str(p)!r}: {why}")
    if not p.is_file():
        what = (
            "is a directory, not a TOML file"
            if p.is_dir()
            else "is not a regular file"
            if p.exists()
            else "does not exist"
        )
        raise ConfigError(f"config file {str(p)!r} {what}")
    try:
        return tomllib.loads(p.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p}: not UTF-8 text (byte {e.start}); TOML files are UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: invalid TOML: {e}") from None
    except ValueError:  # tomllib's int() of a number over 4,300 digits (a traceback)
        raise ConfigError(f"{p}: invalid TOML: {TOO_MANY_DIGITS}") from None
    except RecursionError:  # [[[...]]] deeper than Python's recursion limit (a traceback)
        raise ConfigError(f"{p}: invalid TOML: nested too deeply") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read ({e.strerror or e})") from None


def parse_override(text: str) -> tuple[str, object]:
    """'tournament.seeds_per_lineup=4' or 'seeds_per_lineup=4' -> (dotted key, value).

    The value is read as a TOML value, as in the file (``ladder.values=[5,10,20]``,
    ``tables=[["a","b","c"]]``, ``agents.m='mcts(sims=5)'``); what is not one (a bare
    word: ``game=python_coloretto(players=3)``, ``agents.m=heuristic``) is read as before:
    true/false, a number, or the text."""
    if "=" not in text:
        raise ConfigError(f"override {text!r}: expected key=value")
    key, value = text.split("=", 1)
    key = key.strip()
    if "." not in key:
        key = f"tournament.{key}"
    return key, _toml_value(key, value)


def _toml_value(key: str, text: str) -> object:
    """``text`` as a TOML value, or ``parse_value(text)`` when it is not exactly one (a
    bare word, a second line holding another key) or is a date or time (no key takes one);
    ConfigError for a number of over 4,300 digits or a value nested too deeply (was a
    traceback)."""
    try:
        doc = tomllib.loads(f"v = {text}")
    except tomllib.TOMLDecodeError:
        return parse_value(text)
    except ValueError:  # tomllib's int() of a number over 4,300 digits
        raise ConfigError(f"override {key}: {TOO_MANY_DIGITS}") from None
    except RecursionError:  # [[[...]]] deeper than Python's recursion limit
        raise ConfigError(f"override {key}: nested too deeply") from None
    value = doc.get("v")
    if set(doc) != {"v"} or isinstance(value, datetime.date | datetime.time):
        return parse_value(text)
    return value


def build_config(raw: dict, overrides: dict[str, object] | None = None) -> TournamentConfig:
    """Merge ``overrides`` (dotted keys: 'tournament.seed', 'agents.x') into ``raw`` and validate."""
    data = merged_sections(raw, overrides)
    t = data.get("tournament", {})
    loaded, checked = checked_tournament(t)
    schedule, spl = checked["schedule"], checked["seeds_per_lineup"]
    code = code_version(loaded)
    agents = [
        agent_entry("agents." + name, name, spec, loaded)
        for name, spec in data.get("agents", {}).items()
    ]
    ladder = data.get("ladder", {})
    if schedule == "ladder":
        agents += ladder_agents(ladder, loaded)
    elif ladder:
        raise ConfigError('[ladder] is only used with tournament.schedule = "ladder"')
    names = check_agent_names(agents)
    cfg = TournamentConfig(
        game=str(loaded),
        agents=tuple(agents),
        focus=checked_focus(t, schedule, names),
        tables=fixed_tables(
            get(t, "tables"), schedule, names, loaded.num_players(), get(t, "self_play")
        ),
        self_play=get(t, "self_play"),
        record_moves=get(t, "record_moves"),
        ladder=dict(ladder),
        **checked,
        **adaptive_keys(t, schedule, spl),
        num_players=loaded.num_players(),
        code_version=code,
    )
    _check_size(cfg)
    return cfg


def _check_size(cfg: TournamentConfig) -> None:
    """Enough agents for a table, at least one line-up, and a schedule the ledger can hold."""
    n, schedule, spl = cfg.num_players, cfg.schedule, cfg.seeds_per_lineup
    need = 1 if cfg.self_play or cfg.tables else n
    least = 1 if cfg.self_play and cfg.tables else max(need, 2)
    if len(cfg.agents) < least:
        raise ConfigError(
            f"agents: {len(cfg.agents)} agent(s) cannot fill a {n}-player game "
            f"(need at least {least}{'' if cfg.self_play else '; or set tournament.self_play = true'})"
        )
    if not lineups(cfg):
        raise ConfigError(f"agents: the {schedule} schedule has no line-up for a {n}-player game")
    if cfg.seating != "rotations" and max(num_orders(lu) for lu in lineups(cfg)) > MAX_ORDERS:
        raise ConfigError(
            f'tournament.seating = "{cfg.seating}" gives a line-up of this {n}-player game '
            f'more than {MAX_ORDERS} seat orders (the ledger\'s limit); use "rotations"'
        )
    if num_games(cfg) > MAX_GAMES:
        raise ConfigError(
            f"tournament.seeds_per_lineup = {spl} schedules {num_games(cfg):,} games, over the "
            f"limit of {MAX_GAMES:,} per ledger; split it into ledgers with different seeds "
            "(meeple ratings rates them jointly)"
        )


def num_games(cfg: TournamentConfig) -> int:
    """How many games the schedule holds (line-ups x seatings x seeds), without building it."""
    if cfg.seating == "rotations":
        return len(lineups(cfg)) * cfg.num_players * cfg.seeds_per_lineup
    if cfg.seating == "balanced":
        total = 0
        for lu in lineups(cfg):
            sizes = [len(g) for g in cyclic_orders(lu)]
            full, rest = divmod(cfg.seeds_per_lineup, len(sizes))
            total += full * sum(sizes) + sum(sizes[:rest])
        return total
    return sum(num_orders(lu) for lu in lineups(cfg)) * cfg.seeds_per_lineup


def num_orders(lineup: tuple[str, ...]) -> int:
    """Distinct seat orders of a line-up: n! over the factorial of each name's seat count."""
    out = math.factorial(len(lineup))
    for name in set(lineup):
        out //= math.factorial(lineup.count(name))
    return out


def config_to_toml_dict(cfg: TournamentConfig) -> dict:
    """The validated config in the TOML layout (what manifest.json records)."""
    # every key but batch_size (not part of the identity), focus and tables only when set,
    # seating only when not the default, record_moves only when on
    t = {
        k.name: getattr(cfg, k.name)
        for k in TOURNAMENT_KEYS
        if k.name != "batch_size"
        and (k.name != "record_moves" or cfg.record_moves)
        and (k.name != "focus" or cfg.focus)
        and (k.name != "tables" or cfg.tables)
        and (k.name != "seating" or cfg.seating != "rotations")
        and (k.name not in ADAPTIVE_KEYS or cfg.schedule == "adaptive")
    }
    if cfg.tables:
        t["tables"] = [list(x) for x in cfg.tables]
    out: dict = {"tournament": t}
    if cfg.schedule == "ladder":
        out["ladder"] = dict(cfg.ladder)
        out["agents"] = {a.name: a.spec for a in cfg.agents if a.budget is None}
    else:
        out["agents"] = {a.name: a.spec for a in cfg.agents}
    return out


def lineups(cfg: TournamentConfig, num_players: int | None = None) -> list[tuple[str, ...]]:
    """Every set of agents that meets at one table (agent names, one per seat)."""
    n = cfg.num_players if num_players is None else num_players
    names = [a.name for a in cfg.agents]
    if cfg.schedule == "gauntlet":
        field = [x for x in names if x != cfg.focus]
        if cfg.self_play:
            rest = list(itertools.combinations_with_replacement(field + [cfg.focus], n - 1))
        else:
            rest = list(itertools.combinations(field, n - 1))
        return [(cfg.focus, *r) for r in rest]
    if cfg.schedule == "fixed":
        return list(cfg.tables)
    # round-robin, ladder and adaptive: every combination of n agents
    if cfg.self_play:
        combos = itertools.combinations_with_replacement(names, n)
        return [c for c in combos if len(set(c)) > 1]
    return list(itertools.combinations(names, n))
