"""Baseline agents: uniform random, each game's rule-based heuristic, and the heuristic
with random moves mixed in (``noisy``: varied self-play games for ``meeple train``)."""

from __future__ import annotations

import numpy as np

from solvers.base import Agent, AgentKind, Param
from solvers.spec import AgentSpecError
from spiel_games.common.registry import get_spec


class RandomAgent(Agent):
    def __init__(self, seed: int):
        self._seed = seed
        self.rng = np.random.default_rng(seed)

    def step(self, state) -> int:
        legal = state.legal_actions()
        return int(legal[self.rng.integers(len(legal))])


class HeuristicAgent(Agent):
    """Delegates to the game's own heuristic (GameSpec.heuristic)."""

    def __init__(self, game, seed: int):
        spec = get_spec(game.get_type().short_name)
        if spec.heuristic is None:
            raise AgentSpecError(f"{spec.short_name} has no heuristic baseline")
        self._fn = spec.heuristic
        self.rng = np.random.default_rng(seed)

    def step(self, state) -> int:
        return int(self._fn(state, self.rng))


class NoisyHeuristicAgent(HeuristicAgent):
    """The heuristic, but a uniformly random legal move with probability ``eps``."""

    def __init__(self, game, seed: int, eps: float):
        super().__init__(game, seed)
        self.eps = eps

    def step(self, state) -> int:
        if self.eps > 0 and self.rng.random() < self.eps:
            legal = state.legal_actions()
            return int(legal[self.rng.integers(len(legal))])
        return int(self._fn(state, self.rng))


RANDOM = AgentKind(
    name="random",
    summary="uniformly random legal moves",
    params=(),
    factory=lambda game, params, seed: RandomAgent(seed),
)
HEURISTIC = AgentKind(
    name="heuristic",
    summary="the game's rule-based baseline, as a sensible casual human plays",
    params=(),
    factory=lambda game, params, seed: HeuristicAgent(game, seed),
)
NOISY = AgentKind(
    name="noisy",
    summary="the game's heuristic playing a uniformly random legal move with probability eps "
    "(varied self-play games for `meeple train`)",
    params=(
        Param(
            "eps",
            float,
            0.1,
            "probability of a random legal move instead of the heuristic's",
            range=(0.0, 1.0),
        ),
    ),
    factory=lambda game, params, seed: NoisyHeuristicAgent(game, seed, params["eps"]),
)
