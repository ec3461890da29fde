"""Whole games for tests: every seat the game's heuristic, chance drawn by its odds."""

from __future__ import annotations

import random

import numpy as np

import spiel_games


def heuristic_game(game_string: str, seed: int, limit: int = 10_000):
    """(the state after at most ``limit`` moves, the action ids played)."""
    game = spiel_games.load_game(game_string)
    heuristic = spiel_games.get_spec(game_string).heuristic
    rng, np_rng = random.Random(seed), np.random.default_rng(seed)
    state, actions = game.new_initial_state(), []
    while not state.is_terminal() and len(actions) < limit:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            a = rng.choices(outcomes, probs)[0]
        else:
            a = heuristic(state, np_rng)
        state.apply_action(a)
        actions.append(int(a))
    return state, actions
