"""Exhaustive checks on Rococo's smallest tiny configuration (the whole game tree)."""

from __future__ import annotations

import pyspiel

import spiel_games


def test_tiny_config_whole_tree_is_consistent_and_small_enough_for_exact_cfr():
    spec = spiel_games.get_spec("rococo")
    game = pyspiel.load_game(spec.tiny_configs[0])
    counts = {"states": 0, "terminals": 0}
    max_depth = 0

    def walk(state, depth):
        nonlocal max_depth
        counts["states"] += 1
        max_depth = max(max_depth, depth)
        if state.is_terminal():
            counts["terminals"] += 1
            assert abs(sum(state.returns())) < 1e-9
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            actions = [a for a, _ in outcomes]
        else:
            actions = state.legal_actions()
            names = [state.action_to_string(state.current_player(), a) for a in actions]
            assert len(set(names)) == len(names)
        assert actions
        for a in actions:
            walk(state.child(a), depth + 1)

    walk(game.new_initial_state(), 0)
    assert counts["states"] == 5929  # documented in docs/games/rococo.md
    assert max_depth <= game.max_game_length()
    assert counts["terminals"] > 100
