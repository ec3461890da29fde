"""One registry turns agent spec strings into agents.

    make_agent("mcts(sims=800,uct_c=1.4)", game, seed=3)

Each kind declares its parameters (type, default, meaning); unknown kinds and
parameters get a one-line AgentSpecError naming what is valid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solvers.base import Agent
from solvers.spec import AgentSpecError, format_spec, parse_spec


@dataclass(frozen=True)
class Param:
    name: str
    type: type
    default: object
    meaning: str


@dataclass(frozen=True)
class AgentKind:
    name: str
    summary: str
    params: tuple[Param, ...]
    # factory(game, params: dict with every param filled, seed: int) -> Agent
    factory: Callable[..., Agent]

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


KINDS: dict[str, AgentKind] = {}


def register_kind(kind: AgentKind) -> AgentKind:
    KINDS[kind.name] = kind
    return kind


def _load_kinds() -> None:
    # Import the modules that register kinds (kept here so `import solvers` stays light).
    from solvers import baselines, policy_file, search  # noqa: F401


def resolve(spec: str) -> tuple[AgentKind, dict[str, object]]:
    """Parse and validate a spec; return its kind and the full parameter dict."""
    _load_kinds()
    name, raw = parse_spec(spec)
    if name not in KINDS:
        raise AgentSpecError(
            f"unknown agent kind {name!r}; valid kinds: {', '.join(sorted(KINDS))}"
        )
    kind = KINDS[name]
    params = {p.name: p.default for p in kind.params}
    for key, value in raw.items():
        try:
            p = kind.param(key)
        except KeyError:
            valid = ", ".join(p.name for p in kind.params) or "none"
            raise AgentSpecError(
                f"unknown parameter {key!r} for agent {name!r}; valid parameters: {valid}"
            ) from None
        params[key] = _coerce(name, p, value)
    return kind, params


def _coerce(kind: str, p: Param, value):
    if p.type is bool:
        if isinstance(value, bool):
            return value
    elif p.type is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif p.type is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif p.type is str:
        return str(value)
    raise AgentSpecError(
        f"parameter {p.name!r} of agent {kind!r} must be {p.type.__name__}, got {value!r}"
    )


def canonical_spec(spec: str) -> str:
    """The spec with every parameter spelled out, sorted: stable for hashing agent ids."""
    kind, params = resolve(spec)
    return format_spec(kind.name, params)


def make_agent(spec: str, game, seed: int = 0) -> Agent:
    kind, params = resolve(spec)
    agent = kind.factory(game, params, seed)
    agent.spec = spec
    return agent


def all_kinds() -> list[AgentKind]:
    _load_kinds()
    return [KINDS[k] for k in sorted(KINDS)]
