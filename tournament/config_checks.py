"""The checks behind ``tournament.config.build_config``: each section and key validated, each
problem one :class:`ConfigError` line naming the key."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import spiel_games
from solvers.identity import agent_id, kind_version
from solvers.registry import AgentSpec, resolve
from solvers.spec import AgentSpecError, format_spec, parse_spec
from spiel_games.common.errors import ConfigError, GameStringError
from tournament.keys import ADAPTIVE_KEYS, TOURNAMENT_KEYS

SCHEDULES = ("round-robin", "gauntlet", "ladder", "fixed", "adaptive")
SEATINGS = ("rotations", "permutations", "balanced")
FAILURE_POLICIES = ("rank-last", "void")


KEYS = {k.name: k for k in TOURNAMENT_KEYS}
LADDER_KEYS = {"agent": str, "param": str, "values": list}
SECTIONS = ("tournament", "agents", "ladder")


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


def merged_sections(raw: dict, overrides: dict[str, object] | None) -> dict:
    """``raw`` with the dotted ``overrides`` applied, every section a known table."""
    data = {k: dict(v) if isinstance(v, dict) else v for k, v in raw.items()}
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.partition(".")
        if section not in SECTIONS or not key:
            raise ConfigError(f"unknown key {dotted!r}; sections are {', '.join(SECTIONS)}")
        data.setdefault(section, {})[key] = value
    for section in data:
        if section not in SECTIONS:
            raise ConfigError(f"unknown section [{section}]; valid: {', '.join(SECTIONS)}")
        if not isinstance(data[section], dict):
            raise ConfigError(f"[{section}] must be a table")
    return data


def _one_of(t: dict, key: str, choices: tuple[str, ...]) -> str:
    value = get(t, key)
    if value not in choices:
        raise ConfigError(f"tournament.{key} must be one of {', '.join(choices)}, got {value!r}")
    return value


def checked_tournament(t: dict) -> tuple:
    """The loaded game and the ``[tournament]`` scalars, typed and in range."""
    for key, value in t.items():
        if key not in KEYS:
            raise ConfigError(f"unknown key tournament.{key}; valid keys: {', '.join(KEYS)}")
        check_type(f"tournament.{key}", value, KEYS[key].type)
    if "game" not in t:
        raise ConfigError("missing key tournament.game")
    loaded = check_game(t["game"])
    out = {
        "seeds_per_lineup": get(t, "seeds_per_lineup"),
        "schedule": _one_of(t, "schedule", SCHEDULES),
        "seating": _one_of(t, "seating", SEATINGS),
        "failure_policy": _one_of(t, "failure_policy", FAILURE_POLICIES),
        "time_limit": float(get(t, "time_limit")),
        "seed": get(t, "seed"),
        "batch_size": get(t, "batch_size"),
    }
    for key, least in (("seeds_per_lineup", 1), ("time_limit", 0), ("seed", 0), ("batch_size", 0)):
        if not least <= out[key] < math.inf:  # NaN and inf too
            raise ConfigError(f"tournament.{key} must be >= {least} and finite, got {out[key]}")
    return loaded, out


def check_agent_names(agents: list[AgentEntry]) -> list[str]:
    """The agents' names, each name and each agent id used once."""
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise ConfigError(f"agents: duplicate agent name in {names}")
    first: dict[str, AgentEntry] = {}
    for a in agents:
        other = first.setdefault(a.agent_id, a)
        if other is not a:  # was: "two names share the same spec", naming neither
            raise ConfigError(
                f"agents: {other.name} ({other.spec!r}) and {a.name} ({a.spec!r}) are the same "
                f"agent ({a.canonical}); give each agent a distinct spec"
            )
    return names


def checked_focus(t: dict, schedule: str, names: list[str]) -> str:
    """The gauntlet's focus agent (required there, refused elsewhere)."""
    focus = get(t, "focus")
    if schedule == "gauntlet":
        if not focus:
            raise ConfigError('tournament.focus is required with schedule = "gauntlet"')
        if focus not in names:
            raise ConfigError(
                f"tournament.focus {focus!r} is not an agent; agents: {', '.join(names)}"
            )
    elif focus:
        raise ConfigError('tournament.focus is only used with schedule = "gauntlet"')
    return focus


def adaptive_keys(t: dict, schedule: str, seeds: int) -> dict:
    """The adaptive schedule's keys, checked (only that schedule may set them)."""
    given = [k for k in ADAPTIVE_KEYS if k in t]
    if schedule != "adaptive":
        if given:
            raise ConfigError(f'tournament.{given[0]} is only used with schedule = "adaptive"')
        return {}
    out = {k: get(t, k) for k in ADAPTIVE_KEYS}
    out["confidence"] = float(out["confidence"])
    if not 0.5 < out["confidence"] < 1.0:
        raise ConfigError(f"tournament.confidence must be in (0.5, 1), got {out['confidence']}")
    out["tie_elo"] = float(out["tie_elo"])
    if not 0.0 <= out["tie_elo"] < 1000.0:
        raise ConfigError(f"tournament.tie_elo must be in [0, 1000), got {out['tie_elo']}")
    if out["top"] < 0:
        raise ConfigError(f"tournament.top must be >= 0, got {out['top']}")
    if not 1 <= out["min_seeds"] <= seeds:
        raise ConfigError(
            f"tournament.min_seeds must be in 1..seeds_per_lineup ({seeds}), got {out['min_seeds']}"
        )
    return out


def fixed_tables(
    raw: list, schedule: str, names: list[str], n: int, self_play: bool = False
) -> tuple:
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


def check_type(key: str, value, typ) -> None:
    ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        ok = True
    if not ok:
        raise ConfigError(f"{key} must be {typ.__name__}, got {value!r}")


def get(t: dict, key: str):
    return t.get(key, KEYS[key].default)


def check_game(game: str):
    try:
        return spiel_games.load_game(game)
    except GameStringError as e:
        raise ConfigError(f"tournament.game: {e}") from None


def agent_entry(key: str, name: str, spec, game, budget: float | None = None) -> AgentEntry:
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
    code = kind_version(game, resolved.kind)  # the code its kind's behaviour imports
    return AgentEntry(name, spec, canonical, agent_id(canonical, code), budget, resolved)


def ladder_agents(ladder: dict, game) -> list[AgentEntry]:
    for key, value in ladder.items():
        if key not in LADDER_KEYS:
            raise ConfigError(f"unknown key ladder.{key}; valid keys: {', '.join(LADDER_KEYS)}")
        check_type(f"ladder.{key}", value, LADDER_KEYS[key])
    for key in LADDER_KEYS:
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
        out.append(agent_entry("ladder.agent", f"{kind}@{v}", spec, game, budget=float(v)))
    return out
