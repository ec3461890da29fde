"""The agent interface every solver and baseline implements, and the description of an
agent kind (its parameters and factory) that ``solvers.registry`` lists."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class MoveStat:
    """One candidate move in an analysis (used by move advice)."""

    action: int
    action_str: str
    visits: float  # simulations or iterations that back the value
    value: float  # mean value for the player to move
    ci_low: float | None = None
    ci_high: float | None = None
    prob: float | None = None  # policy probability (CFR policies)


@dataclass
class Analysis:
    player: int
    moves: list[MoveStat]  # best first
    budget: dict = field(default_factory=dict)  # e.g. {"sims": 800} or {"seconds": 0.5}


class Agent:
    """A player. ``step`` returns the action for ``state.current_player()``.

    Agents are deterministic given the seed they were built with; they own their
    RNG stream (never the match's chance stream). ``reset`` is called before each
    new game. Agents must only use what the player to move may know: search agents
    go through the game's information state / resampler.
    """

    spec: str = ""

    def step(self, state) -> int:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget per-game memory (trees, caches) before a new game."""

    def analyse(self, state) -> Analysis | None:
        """Per-move statistics for advice, for agents that search; None otherwise."""
        return None

    def coverage(self) -> float | None:
        """For agents that play from a table (blueprint, policy file): the share of this
        game's decisions played from it (the rest went to a fallback); None otherwise.
        Recorded per seat in the ledger."""
        return None


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
