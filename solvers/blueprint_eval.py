"""The training progress figure of a blueprint: its share of finishes ahead of the heuristic.

On a fixed set of deals (match seeds 0..deals-1, the same at every report), the blueprint
(with the heuristic as its fallback, playing as the ``blueprint`` agent does by default)
plays every seat in turn against the game's
heuristic in the others. ``ahead`` is the share of (blueprint, heuristic) pairs of a game
in which the blueprint finished ahead (by returns, then raw score; ties count half);
``coverage`` the share of the blueprint's decisions played from its table. Training is
never tuned on these deals: they only show where a run stands, and with few deals
loosely: ``ahead_low`` .. ``ahead_high`` is a 95% Wilson interval over the games (each
game's share of its pairs counted as one trial; a share varies no more than a win or a
loss of the same mean, so the interval is if anything wide).
"""

from __future__ import annotations

import random

import pyspiel

from solvers.base import Agent
from solvers.baselines import HeuristicAgent
from solvers.blueprint import Blueprint, BlueprintAgent
from solvers.intervals import wilson
from spiel_games.common.chance import sample_chance


def _play(game, agents, seed: int) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(agents[state.current_player()].step(state))
    scores = state.scores() if callable(getattr(state, "scores", None)) else state.returns()
    return list(state.returns()), [float(x) for x in scores]


def evaluate(game, blueprint: Blueprint, deals: int, seed: int = 0) -> dict[str, float]:
    """{"ahead", "ahead_low", "ahead_high", "coverage", "games"} over ``deals`` x every
    seat."""
    n = game.num_players()
    # as the blueprint agent plays by default: its most likely action where nothing is hidden
    sample = game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION
    ahead = pairs = 0.0
    decisions = from_table = 0
    for deal in range(deals):
        for seat in range(n):
            base = 1000 * (seed + deal) + 10 * seat
            agents: list[Agent] = [HeuristicAgent(game, base + p) for p in range(n)]
            bp = BlueprintAgent(blueprint, HeuristicAgent(game, base + 9), base + 8, sample)
            agents[seat] = bp
            returns, scores = _play(game, agents, 1000 * (seed + deal))
            mine = (returns[seat], scores[seat])
            for p in range(n):
                if p != seat:
                    other = (returns[p], scores[p])
                    ahead += 1.0 if mine > other else 0.5 if mine == other else 0.0
                    pairs += 1
            decisions += bp.decisions
            from_table += bp.from_table
    share = ahead / pairs if pairs else float("nan")
    low, high = wilson(share, deals * n) if pairs else (share, share)
    return {
        "ahead": share,
        "ahead_low": low,
        "ahead_high": high,
        "coverage": from_table / decisions if decisions else float("nan"),
        "games": float(deals * n),
    }
