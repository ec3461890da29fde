"""A value function for luck by rollouts: ``V`` is each player's mean final score, and
``W_ij`` the share of i finishing ahead of j, over ``ROLLOUTS`` plays to the end of the
game by the seats' known strategies (``random``, ``noisy``, ``heuristic``; the heuristic
for a seat whose strategy is not known).

The rollouts of one chance event share their random numbers (common random numbers: the
same seeds for every outcome's rollouts), so the difference between two outcomes is
measured with little rollout noise. The seed is drawn apart from the moves played, so the
luck stays unbiased: given the seed, the luck of an outcome is ``V(s.o) - E_o V(s.o)``
exactly (or with ``MAX_OUTCOMES`` outcomes drawn independently of the one played: an
unbiased estimate of that expectation), whose mean over the outcomes is zero.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

import spiel_games
from solvers.baselines import NOISY
from solvers.spec import parse_spec
from spiel_games.common.chance import sample_chance
from spiel_games.common.registry import get_spec
from tournament.luck_values import LuckError, terminal_values

ROLLOUTS = 4  # plays to the end per state valued
MAX_OUTCOMES = 4  # outcomes drawn to estimate a chance event's expectation, when more
OPENING_SAMPLES = 1_000  # openings drawn for the opening's expectation
ROLLOUT_SALT = 0x5011

Policy = Callable[[Any, np.random.Generator], int]


def _uniform(state, rng) -> int:
    legal = state.legal_actions()
    return int(legal[int(rng.integers(len(legal)))])


def policy_for(spec: str, heuristic) -> Policy:
    """The rollout policy of a seat: its own strategy when known, else the heuristic."""
    kind, params = parse_spec(spec)
    if kind == "random":
        return _uniform
    if kind != "noisy":
        return lambda s, rng: int(heuristic(s, rng))
    eps = float(params.get("eps", NOISY.params[0].default))  # type: ignore[arg-type]

    def noisy(state, rng) -> int:
        return _uniform(state, rng) if rng.random() < eps else int(heuristic(state, rng))

    return noisy


@dataclass
class RolloutEvaluator:
    """V and W of a game by rollouts (the interface of ``tournament.luck.Evaluator``)."""

    game: Any
    heuristic: Callable[[Any, Any], Any]
    name: str
    policies: list[Policy] | None = None  # per seat; None: the heuristic everywhere
    rollouts: int = ROLLOUTS
    max_outcomes: int | None = MAX_OUTCOMES
    opening_samples: int = OPENING_SAMPLES

    def for_seats(self, specs: list[str]) -> RolloutEvaluator:
        return replace(self, policies=[policy_for(s, self.heuristic) for s in specs])

    def _play(self, state, rng) -> Any:
        s = state.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample_chance(s, rng))
                continue
            p = s.current_player()
            pol = self.policies[p] if self.policies else None
            s.apply_action(pol(s, rng) if pol else int(self.heuristic(s, rng)))
        return s

    def values(self, state, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        if state.is_terminal():
            return terminal_values(state)
        ends = [
            terminal_values(self._play(state, np.random.default_rng([ROLLOUT_SALT, seed, r])))
            for r in range(self.rollouts)
        ]
        return np.mean([v for v, _ in ends], axis=0), np.mean([w for _, w in ends], axis=0)


def rollout_evaluator(game_string: str, rollouts: int | None = None) -> RolloutEvaluator:
    rollouts = rollouts or ROLLOUTS
    spec = get_spec(game_string)
    if spec.heuristic is None:
        raise LuckError(f"{spec.short_name} has no heuristic to roll out with")
    name = f"{spec.short_name} rollouts by the seats' known strategies, {rollouts} per state"
    game = spiel_games.load_game(game_string)
    return RolloutEvaluator(
        game, spec.heuristic, name, None, rollouts, MAX_OUTCOMES, opening_samples=OPENING_SAMPLES
    )
