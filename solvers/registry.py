"""Agent kinds, and agent specs resolved against them.

Every built-in kind is listed here (``BUILTIN``), as ``spiel_games/__init__.py`` lists the
games; the modules that implement them never import this one. ``register_kind`` adds a
kind at run time (tests use it for agents that misbehave on purpose).

A spec string (``mcts(sims=800)``, see ``solvers.spec``) is parsed and validated once, at
the edge, into an :class:`AgentSpec`; everything below works with that value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from solvers import baselines, blueprint, cfr_search, openspiel_bots, policy_file, search
from solvers.base import Agent, AgentKind, Param
from solvers.spec import AgentSpecError, format_spec, is_single_value, parse_spec
from spiel_games.common.errors import MeepleError, one_line

__all__ = [
    "KINDS",
    "AgentKind",
    "AgentSpec",
    "Param",
    "all_kinds",
    "canonical_spec",
    "make_agent",
    "register_kind",
    "resolve",
]


def _make_policy(game, params, seed) -> Agent:
    fallback = resolve(params["fallback"])
    if fallback.kind.name == "policy":
        raise AgentSpecError("agent 'policy': the fallback cannot itself be a policy")
    return policy_file.PolicyAgent(game, params["path"], lambda s: fallback.make(game, s), seed)


POLICY = AgentKind(
    name="policy",
    summary="plays a trained policy file (meeple solve --out), sampling its probabilities",
    params=(
        Param("path", str, "", "Parquet policy file written by `meeple solve`", required=True),
        Param(
            "fallback",
            str,
            "heuristic",
            "agent spec used on keys the file does not cover (counted as fallbacks)",
            agent=True,
        ),
    ),
    factory=_make_policy,
)


def _make_blueprint(game, params, seed) -> Agent:
    fallback = resolve(params["fallback"])
    if fallback.kind.name in ("policy", "blueprint"):
        raise AgentSpecError("agent 'blueprint': the fallback cannot itself be a table agent")
    return blueprint.make_blueprint_agent(
        game, params["path"], lambda s: fallback.make(game, s), seed, params["play"]
    )


BLUEPRINT = blueprint.blueprint_kind(_make_blueprint)

BUILTIN: tuple[AgentKind, ...] = (
    baselines.RANDOM,
    baselines.HEURISTIC,
    baselines.NOISY,
    *search.KINDS,
    POLICY,
    BLUEPRINT,
    cfr_search.CFR_SEARCH,
    openspiel_bots.OPENSPIEL_ISMCTS,
)
KINDS: dict[str, AgentKind] = {k.name: k for k in BUILTIN}


def register_kind(kind: AgentKind) -> AgentKind:
    KINDS[kind.name] = kind
    return kind


@dataclass(frozen=True, eq=False)
class AgentSpec:
    """A validated agent spec: its kind and every parameter filled in."""

    kind: AgentKind
    params: Mapping[str, object]
    text: str  # as written by the user (what agents report as their spec)

    @property
    def canonical(self) -> str:
        """Every parameter spelled out, sorted: stable for hashing agent ids."""
        return format_spec(self.kind.name, dict(self.params))

    @property
    def deal_key(self) -> str:
        """The parameters that differ from their declared defaults, sorted: what a
        tournament's deals hash, so adding a parameter (with a default that keeps the old
        behaviour) leaves every configuration's deals as they were."""
        defaults = {p.name: p.default for p in self.kind.params}
        changed = {k: v for k, v in self.params.items() if defaults.get(k, object()) != v}
        return format_spec(self.kind.name, changed)

    def __str__(self) -> str:
        return self.text

    def with_params(self, overrides: Mapping[str, object] | None) -> AgentSpec:
        """This spec with some parameters replaced (e.g. {"time": 0.5}), validated."""
        if not overrides:
            return self
        for key, value in overrides.items():
            if not is_single_value(value):
                raise AgentSpecError(f"parameter {key!r}: {value!r} is not a single value")
        name, raw = parse_spec(self.text)
        return resolve(format_spec(name, {**raw, **overrides}))

    def make(self, game, seed: int = 0) -> Agent:
        self.kind.check(self.params)
        agent = self.kind.factory(game, dict(self.params), seed)
        agent.spec = self.text
        return agent

    def check(self, game) -> None:
        """Validate this spec fully for ``game``, before any game is played.

        The agent is built once: its parameter declarations refuse a value outside their
        range or choices (``sims >= 1``, ``rollout`` in its enum), its factory what depends
        on the game (a heuristic the game has), and a policy agent reads its file and checks
        it was trained for this game. Any problem becomes one :class:`AgentSpecError` line
        naming the spec."""
        try:
            self.make(game, 0)
        except (MeepleError, OSError) as e:
            msg = one_line(e)
            if isinstance(e, AgentSpecError) and self.text in msg:
                raise
            raise AgentSpecError(f"{self.text}: {msg}") from None


def resolve(spec: str | AgentSpec) -> AgentSpec:
    """Parse and validate a spec string (an AgentSpec is returned as it is)."""
    if isinstance(spec, AgentSpec):
        return spec
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
    kind.check(params)  # ranges and choices need no game: refused while parsing
    for p in kind.params:  # a fallback spec too (was: refused only once built, exit 1)
        if p.agent:
            try:
                resolve(str(params[p.name]))
            except AgentSpecError as e:
                raise AgentSpecError(f"parameter {p.name!r} of agent {name!r}: {e}") from None
    return AgentSpec(kind, params, spec)


def _coerce(kind: str, p: Param, value):
    if p.type is bool:
        if isinstance(value, bool):
            return value
    elif p.type is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:  # an int too large for a float: refused as inf would be
                raise AgentSpecError(
                    f"parameter {p.name!r} of agent {kind!r} must be a finite number, got {value!r}"
                ) from None
    elif p.type is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif p.type is str:
        return str(value)
    raise AgentSpecError(
        f"parameter {p.name!r} of agent {kind!r} must be {p.type.__name__}, got {value!r}"
    )


def canonical_spec(spec: str | AgentSpec) -> str:
    return resolve(spec).canonical


def make_agent(spec: str | AgentSpec, game, seed: int = 0) -> Agent:
    return resolve(spec).make(game, seed)


def all_kinds() -> list[AgentKind]:
    return [KINDS[k] for k in sorted(KINDS)]
