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

import hashlib
import itertools
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import spiel_games
from solvers.identity import agent_id, code_version
from solvers.registry import AgentSpec, resolve
from solvers.spec import AgentSpecError, format_spec, parse_spec, parse_value
from spiel_games.common.errors import ConfigError, GameStringError
from tournament.keys import ADAPTIVE_KEYS, TOURNAMENT_KEYS
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

SCHEDULES = ("round-robin", "gauntlet", "ladder", "fixed", "adaptive")
SEATINGS = ("rotations", "permutations", "balanced")
MAX_ORDERS = 127  # seat orders per line-up: the ledger's ``rotation`` column is int8
# Games one ledger may schedule: the schedule, the manifest's seed lists and the ratings
# all hold every game in memory (10^6 games: ~20 s to schedule, ~100 MB); past this, split
# the tournament into several ledgers (different seeds) and rate them jointly.
MAX_GAMES = 1_000_000
FAILURE_POLICIES = ("rank-last", "void")


_KEYS = {k.name: k for k in TOURNAMENT_KEYS}
_LADDER_KEYS = {"agent": str, "param": str, "values": list}
_SECTIONS = ("tournament", "agents", "ladder")


@dataclass(frozen=True)
class AgentEntry:
    name: str
    spec: str
    canonical: str
    agent_id: str
    budget: float | None = None  # ladder agents: the growing parameter's value
    # the spec, resolved once when the config is built
    resolved: AgentSpec | None = field(default=None, compare=False, repr=False)

    def identity(self) -> dict:
        return {
            "name": self.name,
            "spec": self.spec,
            "canonical": self.canonical,
            "agent_id": self.agent_id,
            "budget": self.budget,
        }


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
    ladder: dict = field(default_factory=dict)
    confidence: float = 0.95  # adaptive only (ADAPTIVE_KEYS)
    top: int = 3
    min_seeds: int = 2
    # Resolved while validating, not part of the identity: the game's player count and the
    # code version in every agent id (so a run loads its game and hashes its code once).
    num_players: int = field(default=0, compare=False)
    code_version: str = field(default="", compare=False)

    def agent(self, name: str) -> AgentEntry:
        for a in self.agents:
            if a.name == name:
                return a
        raise KeyError(name)

    def identity(self) -> dict:
        """Everything that decides which games are played and how; batch_size is excluded
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
    if not p.is_file():
        raise ConfigError(f"config file {str(p)!r} does not exist")
    try:
        return tomllib.loads(p.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p}: not UTF-8 text (byte {e.start}); TOML files are UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: invalid TOML: {e}") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read ({e.strerror or e})") from None


def parse_override(text: str) -> tuple[str, object]:
    """'tournament.seeds_per_lineup=4' or 'seeds_per_lineup=4' -> (dotted key, value)."""
    if "=" not in text:
        raise ConfigError(f"override {text!r}: expected key=value")
    key, value = text.split("=", 1)
    key = key.strip()
    if "." not in key:
        key = f"tournament.{key}"
    return key, parse_value(value)


def build_config(raw: dict, overrides: dict[str, object] | None = None) -> TournamentConfig:
    """Merge ``overrides`` (dotted keys: 'tournament.seed', 'agents.x') into ``raw`` and validate."""
    data = {k: dict(v) if isinstance(v, dict) else v for k, v in raw.items()}
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.partition(".")
        if section not in _SECTIONS or not key:
            raise ConfigError(f"unknown key {dotted!r}; sections are {', '.join(_SECTIONS)}")
        data.setdefault(section, {})[key] = value
    for section in data:
        if section not in _SECTIONS:
            raise ConfigError(f"unknown section [{section}]; valid: {', '.join(_SECTIONS)}")
        if not isinstance(data[section], dict):
            raise ConfigError(f"[{section}] must be a table")
    t = data.get("tournament", {})
    for key, value in t.items():
        if key not in _KEYS:
            raise ConfigError(f"unknown key tournament.{key}; valid keys: {', '.join(_KEYS)}")
        _check_type(f"tournament.{key}", value, _KEYS[key].type)
    if "game" not in t:
        raise ConfigError("missing key tournament.game")
    loaded = _check_game(t["game"])
    game = str(loaded)
    spl = _get(t, "seeds_per_lineup")
    if spl < 1:
        raise ConfigError(f"tournament.seeds_per_lineup must be >= 1, got {spl}")
    schedule = _get(t, "schedule")
    if schedule not in SCHEDULES:
        raise ConfigError(
            f"tournament.schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}"
        )
    seating = _get(t, "seating")
    if seating not in SEATINGS:
        raise ConfigError(
            f"tournament.seating must be one of {', '.join(SEATINGS)}, got {seating!r}"
        )
    policy = _get(t, "failure_policy")
    if policy not in FAILURE_POLICIES:
        raise ConfigError(
            f"tournament.failure_policy must be one of {', '.join(FAILURE_POLICIES)}, got {policy!r}"
        )
    time_limit = float(_get(t, "time_limit"))
    if time_limit < 0:
        raise ConfigError(f"tournament.time_limit must be >= 0, got {time_limit}")
    if _get(t, "seed") < 0:
        raise ConfigError(f"tournament.seed must be >= 0, got {t['seed']}")
    batch_size = _get(t, "batch_size")
    if batch_size < 0:
        raise ConfigError(f"tournament.batch_size must be >= 0, got {batch_size}")

    code = code_version(loaded)
    agents = [
        _agent("agents." + name, name, spec, code, loaded)
        for name, spec in data.get("agents", {}).items()
    ]
    ladder = data.get("ladder", {})
    if schedule == "ladder":
        agents += _ladder_agents(ladder, code, loaded)
    elif ladder:
        raise ConfigError('[ladder] is only used with tournament.schedule = "ladder"')
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise ConfigError(f"agents: duplicate agent name in {names}")
    ids = [a.agent_id for a in agents]
    if len(set(ids)) != len(ids):
        raise ConfigError("agents: two names share the same spec; give each agent a distinct spec")
    focus = _get(t, "focus")
    if schedule == "gauntlet":
        if not focus:
            raise ConfigError('tournament.focus is required with schedule = "gauntlet"')
        if focus not in names:
            raise ConfigError(
                f"tournament.focus {focus!r} is not an agent; agents: {', '.join(names)}"
            )
    elif focus:
        raise ConfigError('tournament.focus is only used with schedule = "gauntlet"')
    tables = _tables(_get(t, "tables"), schedule, names, loaded.num_players(), _get(t, "self_play"))
    adaptive = _adaptive(t, schedule, spl)
    cfg = TournamentConfig(
        game=game,
        seeds_per_lineup=spl,
        seed=_get(t, "seed"),
        schedule=schedule,
        agents=tuple(agents),
        focus=focus,
        tables=tables,
        seating=seating,
        self_play=_get(t, "self_play"),
        failure_policy=policy,
        time_limit=time_limit,
        batch_size=batch_size,
        ladder=dict(ladder),
        **adaptive,
        num_players=loaded.num_players(),
        code_version=code,
    )
    n = cfg.num_players
    need = 1 if cfg.self_play or cfg.tables else n
    least = 1 if cfg.self_play and cfg.tables else max(need, 2)
    if len(agents) < least:
        raise ConfigError(
            f"agents: {len(agents)} agent(s) cannot fill a {n}-player game "
            f"(need at least {least}{'' if cfg.self_play else '; or set tournament.self_play = true'})"
        )
    if not lineups(cfg):
        raise ConfigError(f"agents: the {schedule} schedule has no line-up for a {n}-player game")
    if seating != "rotations" and max(num_orders(lu) for lu in lineups(cfg)) > MAX_ORDERS:
        raise ConfigError(
            f'tournament.seating = "{seating}" gives a line-up of this {n}-player game '
            f'more than {MAX_ORDERS} seat orders (the ledger\'s limit); use "rotations"'
        )
    if num_games(cfg) > MAX_GAMES:
        raise ConfigError(
            f"tournament.seeds_per_lineup = {spl} schedules {num_games(cfg):,} games, over the "
            f"limit of {MAX_GAMES:,} per ledger; split it into ledgers with different seeds "
            "(meeple ratings rates them jointly)"
        )
    return cfg


def _adaptive(t: dict, schedule: str, seeds: int) -> dict:
    """The adaptive schedule's keys, checked (only that schedule may set them)."""
    given = [k for k in ADAPTIVE_KEYS if k in t]
    if schedule != "adaptive":
        if given:
            raise ConfigError(f'tournament.{given[0]} is only used with schedule = "adaptive"')
        return {}
    out = {k: _get(t, k) for k in ADAPTIVE_KEYS}
    out["confidence"] = float(out["confidence"])
    if not 0.5 < out["confidence"] < 1.0:
        raise ConfigError(f"tournament.confidence must be in (0.5, 1), got {out['confidence']}")
    if out["top"] < 0:
        raise ConfigError(f"tournament.top must be >= 0, got {out['top']}")
    if not 1 <= out["min_seeds"] <= seeds:
        raise ConfigError(
            f"tournament.min_seeds must be in 1..seeds_per_lineup ({seeds}), got {out['min_seeds']}"
        )
    return out


def _tables(raw: list, schedule: str, names: list[str], n: int, self_play: bool = False) -> tuple:
    """The fixed schedule's line-ups, validated and sorted (seat order comes from rotation)."""
    if schedule != "fixed":
        if raw:
            raise ConfigError('tournament.tables is only used with schedule = "fixed"')
        return ()
    if not raw:
        raise ConfigError('tournament.tables is required with schedule = "fixed"')
    out = []
    for i, table in enumerate(raw):
        key = f"tournament.tables[{i}]"
        if not isinstance(table, list) or not all(isinstance(x, str) for x in table):
            raise ConfigError(f"{key} must be a list of agent names, got {table!r}")
        if len(table) != n:
            raise ConfigError(f"{key} has {len(table)} seats; the game has {n} players")
        unknown = [x for x in table if x not in names]
        if unknown:
            raise ConfigError(f"{key}: {unknown[0]!r} is not an agent; agents: {', '.join(names)}")
        if len(set(table)) < 2 and not self_play:
            raise ConfigError(
                f"{key} seats one agent only; a line-up needs two agents (or set "
                "tournament.self_play = true for self-play games, which nothing rates)"
            )
        line = tuple(sorted(table))
        if line in out:
            raise ConfigError(f"{key} repeats an earlier table (seat order comes from rotation)")
        out.append(line)
    idle = [x for x in names if not any(x in line for line in out)]
    if idle:
        raise ConfigError(f"agents.{idle[0]} sits at none of tournament.tables")
    return tuple(out)


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


def _check_type(key: str, value, typ) -> None:
    ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        ok = True
    if not ok:
        raise ConfigError(f"{key} must be {typ.__name__}, got {value!r}")


def _get(t: dict, key: str):
    return t.get(key, _KEYS[key].default)


def _check_game(game: str):
    try:
        return spiel_games.load_game(game)
    except GameStringError as e:
        raise ConfigError(f"tournament.game: {e}") from None


def _agent(key: str, name: str, spec, code: str, game, budget: float | None = None) -> AgentEntry:
    """One validated agent: its spec parsed, then built once for ``game`` (ranges, choices,
    policy files), so a bad agent stops the run before anything is written."""
    if not isinstance(spec, str):
        raise ConfigError(f"{key} must be an agent spec string, got {spec!r}")
    try:
        resolved = resolve(spec)
        resolved.check(game)
    except AgentSpecError as e:
        raise ConfigError(f"{key}: {e}") from None
    canonical = resolved.canonical
    return AgentEntry(name, spec, canonical, agent_id(canonical, code), budget, resolved)


def _ladder_agents(ladder: dict, code: str, game) -> list[AgentEntry]:
    for key, value in ladder.items():
        if key not in _LADDER_KEYS:
            raise ConfigError(f"unknown key ladder.{key}; valid keys: {', '.join(_LADDER_KEYS)}")
        _check_type(f"ladder.{key}", value, _LADDER_KEYS[key])
    for key in _LADDER_KEYS:
        if key not in ladder:
            raise ConfigError(f'missing key ladder.{key} (schedule = "ladder")')
    values = ladder["values"]
    if len(values) < 2 or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
    ):
        raise ConfigError("ladder.values must list at least two numbers")
    if sorted(values) != list(values) or len(set(values)) != len(values):
        raise ConfigError("ladder.values must be strictly increasing")
    try:
        kind, params = parse_spec(ladder["agent"])
    except ValueError as e:
        raise ConfigError(f"ladder.agent: {e}") from None
    out = []
    for v in values:
        spec = format_spec(kind, {**params, ladder["param"]: v})
        out.append(_agent("ladder.agent", f"{kind}@{v}", spec, code, game, budget=float(v)))
    return out


def config_to_toml_dict(cfg: TournamentConfig) -> dict:
    """The validated config in the TOML layout (what manifest.json records)."""
    # every key but batch_size (not part of the identity), focus and tables only when set,
    # seating only when not the default
    t = {
        k.name: getattr(cfg, k.name)
        for k in TOURNAMENT_KEYS
        if k.name != "batch_size"
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
