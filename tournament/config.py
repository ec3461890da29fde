"""Tournament configuration: one TOML file merged with command-line overrides, validated in one step.

    [tournament]
    game = "python_coloretto(players=3)"
    seeds_per_lineup = 10        # chance seeds per line-up, each played under every seat rotation
    seed = 7                     # master seed; every game seed is derived from it
    schedule = "round-robin"     # "round-robin", "gauntlet" (needs focus) or "ladder"
    focus = "greedy"             # gauntlet: the agent that meets the field
    self_play = false            # round robin: allow line-ups with one agent in several seats
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
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

SCHEDULES = ("round-robin", "gauntlet", "ladder")
FAILURE_POLICIES = ("rank-last", "void")

_TOURNAMENT_KEYS = {
    "game": str,
    "seeds_per_lineup": int,
    "seed": int,
    "schedule": str,
    "focus": str,
    "self_play": bool,
    "failure_policy": str,
    "time_limit": float,
    "batch_size": int,
}
_LADDER_KEYS = {"agent": str, "param": str, "values": list}
_SECTIONS = ("tournament", "agents", "ladder")


class ConfigError(ValueError):
    """A bad tournament configuration; the message is one line naming the key."""


@dataclass(frozen=True)
class AgentEntry:
    name: str
    spec: str
    canonical: str
    agent_id: str
    budget: float | None = None  # ladder agents: the growing parameter's value


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    seeds_per_lineup: int
    seed: int
    schedule: str
    agents: tuple[AgentEntry, ...]
    focus: str = ""
    self_play: bool = False
    failure_policy: str = "rank-last"
    time_limit: float = 0.0
    batch_size: int = 0
    ladder: dict = field(default_factory=dict)

    @property
    def num_players(self) -> int:
        import pyspiel

        import spiel_games  # noqa: F401

        return pyspiel.load_game(self.game).num_players()

    def agent(self, name: str) -> AgentEntry:
        for a in self.agents:
            if a.name == name:
                return a
        raise KeyError(name)

    def identity(self) -> dict:
        """Everything that decides which games are played and how; batch_size is excluded."""
        d = asdict(self)
        d.pop("batch_size")
        return d

    @property
    def config_hash(self) -> str:
        blob = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    @property
    def run_id(self) -> str:
        return self.config_hash[:16]


def code_version(game: str | None = None) -> str:
    """A hash of the package version and the source an agent's behaviour depends on.

    That is ``solvers/``, ``spiel_games/common/`` and, when ``game`` is given, the package of
    that game (its rules, heuristic and abstraction). Part of every agent id, so an agent whose
    code changed never inherits an old rating, while edits to other games leave it alone.
    """
    import sys

    import solvers
    import spiel_games

    roots = [Path(str(solvers.__file__)).parent, Path(str(spiel_games.__file__)).parent / "common"]
    if game is None:
        roots = [Path(str(solvers.__file__)).parent, Path(str(spiel_games.__file__)).parent]
    else:
        import pyspiel

        module = sys.modules[type(pyspiel.load_game(game)).__module__]
        roots.append(Path(str(module.__file__)).parent)
    h = hashlib.sha256(_package_version().encode())
    for root in roots:
        for path in sorted(root.rglob("*.py")) + sorted(root.rglob("*.toml")):
            h.update(f"{root.name}/{path.relative_to(root)}".encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("meeple-arena")
    except PackageNotFoundError:
        return "0+unknown"


def agent_id(canonical: str, code: str) -> str:
    return hashlib.sha256(f"{canonical}|{code}".encode()).hexdigest()[:12]


def load_toml(path: str | Path) -> dict:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file {str(p)!r} does not exist")
    try:
        return tomllib.loads(p.read_text())
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: invalid TOML: {e}") from None


def parse_override(text: str) -> tuple[str, object]:
    """'tournament.seeds_per_lineup=4' or 'seeds_per_lineup=4' -> (dotted key, value)."""
    from solvers.spec import parse_value

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
        if key not in _TOURNAMENT_KEYS:
            raise ConfigError(
                f"unknown key tournament.{key}; valid keys: {', '.join(_TOURNAMENT_KEYS)}"
            )
        _check_type(f"tournament.{key}", value, _TOURNAMENT_KEYS[key])
    if "game" not in t:
        raise ConfigError("missing key tournament.game")
    game = _check_game(t["game"])
    spl = t.get("seeds_per_lineup", 10)
    if spl < 1:
        raise ConfigError(f"tournament.seeds_per_lineup must be >= 1, got {spl}")
    schedule = t.get("schedule", "round-robin")
    if schedule not in SCHEDULES:
        raise ConfigError(
            f"tournament.schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}"
        )
    policy = t.get("failure_policy", "rank-last")
    if policy not in FAILURE_POLICIES:
        raise ConfigError(
            f"tournament.failure_policy must be one of {', '.join(FAILURE_POLICIES)}, got {policy!r}"
        )
    time_limit = float(t.get("time_limit", 0.0))
    if time_limit < 0:
        raise ConfigError(f"tournament.time_limit must be >= 0, got {time_limit}")
    if t.get("seed", 0) < 0:
        raise ConfigError(f"tournament.seed must be >= 0, got {t['seed']}")
    batch_size = t.get("batch_size", 0)
    if batch_size < 0:
        raise ConfigError(f"tournament.batch_size must be >= 0, got {batch_size}")

    code = code_version(game)
    agents = [
        _agent("agents." + name, name, spec, code) for name, spec in data.get("agents", {}).items()
    ]
    ladder = data.get("ladder", {})
    if schedule == "ladder":
        agents += _ladder_agents(ladder, code)
    elif ladder:
        raise ConfigError('[ladder] is only used with tournament.schedule = "ladder"')
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise ConfigError(f"agents: duplicate agent name in {names}")
    ids = [a.agent_id for a in agents]
    if len(set(ids)) != len(ids):
        raise ConfigError("agents: two names share the same spec; give each agent a distinct spec")
    focus = t.get("focus", "")
    if schedule == "gauntlet":
        if not focus:
            raise ConfigError('tournament.focus is required with schedule = "gauntlet"')
        if focus not in names:
            raise ConfigError(
                f"tournament.focus {focus!r} is not an agent; agents: {', '.join(names)}"
            )
    elif focus:
        raise ConfigError('tournament.focus is only used with schedule = "gauntlet"')
    cfg = TournamentConfig(
        game=game,
        seeds_per_lineup=spl,
        seed=t.get("seed", 0),
        schedule=schedule,
        agents=tuple(agents),
        focus=focus,
        self_play=t.get("self_play", False),
        failure_policy=policy,
        time_limit=time_limit,
        batch_size=batch_size,
        ladder=dict(ladder),
    )
    n = _num_players(game)
    need = 1 if cfg.self_play else n
    if len(agents) < max(need, 2):
        raise ConfigError(
            f"agents: {len(agents)} agent(s) cannot fill a {n}-player game "
            f"(need at least {max(need, 2)}{'' if cfg.self_play else '; or set tournament.self_play = true'})"
        )
    from tournament.schedule import lineups

    if not lineups(cfg, n):
        raise ConfigError(f"agents: the {schedule} schedule has no line-up for a {n}-player game")
    return cfg


def _check_type(key: str, value, typ) -> None:
    ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        ok = True
    if not ok:
        raise ConfigError(f"{key} must be {typ.__name__}, got {value!r}")


def _check_game(game: str) -> str:
    import pyspiel

    import spiel_games

    try:
        spiel_games.get_spec(game)
        g = pyspiel.load_game(game)
    except KeyError as e:
        raise ConfigError(f"tournament.game: {e.args[0]}") from None
    except Exception as e:
        raise ConfigError(
            f"tournament.game: cannot load {game!r}: {str(e).strip().splitlines()[0]}"
        ) from None
    return str(g)


def _num_players(game: str) -> int:
    import pyspiel

    return pyspiel.load_game(game).num_players()


def _agent(key: str, name: str, spec, code: str, budget: float | None = None) -> AgentEntry:
    from solvers.registry import canonical_spec
    from solvers.spec import AgentSpecError

    if not isinstance(spec, str):
        raise ConfigError(f"{key} must be an agent spec string, got {spec!r}")
    try:
        canonical = canonical_spec(spec)
    except AgentSpecError as e:
        raise ConfigError(f"{key}: {e}") from None
    return AgentEntry(name, spec, canonical, agent_id(canonical, code), budget)


def _ladder_agents(ladder: dict, code: str) -> list[AgentEntry]:
    from solvers.spec import format_spec, parse_spec

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
        out.append(_agent("ladder.agent", f"{kind}@{v}", spec, code, budget=float(v)))
    return out


def config_to_toml_dict(cfg: TournamentConfig) -> dict:
    """The validated config in the TOML layout (what manifest.json records)."""
    t = {
        "game": cfg.game,
        "seeds_per_lineup": cfg.seeds_per_lineup,
        "seed": cfg.seed,
        "schedule": cfg.schedule,
        "self_play": cfg.self_play,
        "failure_policy": cfg.failure_policy,
        "time_limit": cfg.time_limit,
    }
    if cfg.focus:
        t["focus"] = cfg.focus
    out: dict = {"tournament": t}
    if cfg.schedule == "ladder":
        out["ladder"] = dict(cfg.ladder)
        out["agents"] = {a.name: a.spec for a in cfg.agents if a.budget is None}
    else:
        out["agents"] = {a.name: a.spec for a in cfg.agents}
    return out
