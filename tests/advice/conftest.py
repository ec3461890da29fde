"""Shared fixtures for the advice tests: a tiny analysing agent and fixed positions."""

from __future__ import annotations

import math
import random

import pytest

from solvers.base import Z95, Agent, Analysis, MoveStat
from solvers.registry import AgentKind, Param, register_kind

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
THREE = "python_coloretto(players=3)"
# Start cards, start player, then P1 draws a yellow card: P1 must place it.
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"


class FlatMonteCarlo(Agent):
    """Flat Monte Carlo over the state it is given (public pyspiel API only).

    It deliberately trusts the state it receives: any hidden card in that state
    changes its rollouts. That makes it a sharp probe for advice leaking hidden
    information: only the state advice hands it can keep it honest.
    """

    def __init__(self, game, rollouts: int, seed: int):
        self.rollouts = rollouts
        self.rng = random.Random(seed)

    def _rollout(self, state, player: int) -> float:
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(self.rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(self.rng.choice(state.legal_actions()))
        return state.returns()[player]

    def analyse(self, state) -> Analysis:
        p = state.current_player()
        moves = []
        for a in state.legal_actions():
            vals = []
            for _ in range(self.rollouts):
                child = state.clone()
                child.apply_action(a)
                vals.append(self._rollout(child, p))
            mean = sum(vals) / len(vals)
            var = sum((v - mean) ** 2 for v in vals) / max(len(vals) - 1, 1)
            half = Z95 * math.sqrt(var / len(vals))
            moves.append(
                MoveStat(a, state.action_to_string(p, a), len(vals), mean, mean - half, mean + half)
            )
        moves.sort(key=lambda m: (-m.value, m.action))
        return Analysis(player=p, moves=moves, budget={"rollouts": self.rollouts})

    def step(self, state) -> int:
        return self.analyse(state).moves[0].action


TEST_KIND = AgentKind(
    name="test_flatmc",
    summary="test-only flat Monte Carlo over the given state",
    params=(Param("rollouts", int, 8, "rollouts per legal move"),),
    factory=lambda game, params, seed: FlatMonteCarlo(game, params["rollouts"], seed),
)


@pytest.fixture(autouse=True)
def test_agent_kind():
    """Register the test-only agent kind for one test, and remove it afterwards."""
    from solvers.registry import KINDS, resolve

    resolve("random")  # load the real kinds first
    register_kind(TEST_KIND)
    yield TEST_KIND
    KINDS.pop(TEST_KIND.name, None)


@pytest.fixture
def opening():
    from tournament.advice.positions import position_from

    return position_from(THREE, history=OPENING)
