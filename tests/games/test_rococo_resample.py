"""Rococo's resampler worlds are real games: their history rebuilds them (issue 13, 3b/3c)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from spiel_games.common.conformance import sampled_states


def _rebuilt(world):
    game = world.get_game()
    again = game.new_initial_state()
    for a in world.history():
        again.apply_action(a)
    return again


CONFIGS = ["python_rococo(players=2)", "python_rococo(players=4,rounds=3)"]


@pytest.mark.parametrize("config", CONFIGS)
def test_resampled_world_history_replays_to_the_same_world_for_every_player(config):
    """Old code re-dealt hands and face-down tiles in the core only: the history still
    held the real selections and draws, so replaying it rebuilt the original world."""
    game = pyspiel.load_game(config)
    rng = random.Random(4)
    differed = checked = 0
    for state in sampled_states(game, seed=2, every=7):
        if state.is_chance_node():
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, rng.random)
        again = _rebuilt(world)
        assert str(again) == str(world)
        for q in range(game.num_players()):
            assert again.information_state_string(q) == world.information_state_string(q)
            np.testing.assert_array_equal(
                again.information_state_tensor(q), world.information_state_tensor(q)
            )
        assert world.information_state_string(p) == state.information_state_string(p)
        differed += str(world) != str(state)
        checked += 1
    assert checked > 20 and differed > 0


def test_resampled_world_redeals_face_down_tiles_in_the_history():
    """A face-down stack tile of another player is re-dealt in the history too."""
    game = pyspiel.load_game("python_rococo(players=3)")
    rng = random.Random(1)
    tiles_changed = 0
    for seed in range(6):
        for state in sampled_states(game, seed=seed, every=5):
            if state.is_chance_node():
                continue
            p = state.current_player()
            others = [q for q in range(3) if q != p and sum(state.holdings(q)["secret_tiles"])]
            if not others:
                continue
            world = state.resample_from_infostate(p, rng.random)
            assert str(_rebuilt(world)) == str(world)
            tiles_changed += any(
                world.holdings(q)["secret_tiles"] != state.holdings(q)["secret_tiles"]
                for q in others
            )
    assert tiles_changed > 0


def test_resampling_a_terminal_state_changes_nothing():
    """Old code re-dealt the face-down tiles still held at the end."""
    game = pyspiel.load_game("python_rococo(players=3)")
    for seed in range(3):
        *_, end = sampled_states(game, seed=seed, every=10_000, include_terminal=True)
        assert end.is_terminal()
        for p in range(3):
            world = end.resample_from_infostate(p, random.Random(p).random)
            assert str(world) == str(end)
            assert world.history() == end.history()
            assert world.returns() == end.returns()
            for q in range(3):
                assert world.information_state_string(q) == end.information_state_string(q)
