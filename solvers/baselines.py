"""Baseline agents: uniform random, and each game's rule-based heuristic."""

from __future__ import annotations

import numpy as np

from solvers.base import Agent, AgentKind
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
