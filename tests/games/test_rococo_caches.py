"""Rococo's per-position caches (legal actions, observer outputs) never go stale.

The state caches its legal action ids and its observer outputs on the core and
checks every action against the cached list once (the turn functions do not
check again). These tests pin the consequences: every id outside the legal list
raises without touching the state, the scenario setters and the resampler drop
the caches, and memoised strings and tensors equal freshly written ones.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from spiel_games.common.observer import PieceObserver
from spiel_games.rococo.scenario import (
    card,
    drop_caches,
    give,
    legal_strings,
    play,
    select_all,
    start,
)


def random_states(game, seed: int, every: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    ply = 0
    while not state.is_terminal():
        if ply % every == 0:
            yield state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        ply += 1


def test_every_id_outside_the_legal_list_raises_and_changes_nothing():
    game = pyspiel.load_game("python_rococo(players=3)")
    checked = 0
    for state in random_states(game, 4, every=23):
        if state.is_chance_node():
            possible = {a for a, _ in state.chance_outcomes()}
            ids = range(-1, game.max_chance_outcomes() + 1)
        else:
            possible = set(state.legal_actions())
            ids = range(-1, game.num_distinct_actions() + 1)
        before = str(state)
        for a in ids:
            if a in possible:
                continue
            with pytest.raises((ValueError, IndexError, pyspiel.SpielError)):
                state.clone().apply_action(a)
            checked += 1
        assert str(state) == before
    assert checked > 1000


def test_setting_up_holdings_recomputes_the_legal_actions():
    state = start(2, start_player=0)
    select_all(state)
    assert state.current_player() == 0
    before = legal_strings(state)  # computed and cached for this position
    give(state, 0, hand={card("gain1"): 1})
    after = legal_strings(state)
    assert after == ["play L1 Apprentice (gain1)"]
    assert after != before
    play(state, "play L1 Apprentice (gain1)")  # accepted by the (new) legal list


def test_resampled_worlds_and_their_origin_keep_their_own_observations():
    game = pyspiel.load_game("python_rococo(players=4,rounds=3)")
    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(9)
    differed = 0
    for state in random_states(game, 2, every=11):
        if state.is_chance_node():
            continue
        p = state.current_player()
        views = [state.information_state_string(q) for q in range(4)]  # memoised now
        world = state.resample_from_infostate(p, rng.random)
        for q in range(4):
            text = world.information_state_string(q)  # memoised on the world's core
            obs.set_from(world, q)
            tensor = obs.tensor.copy()
            assert obs.string_from(world, q) == text
            drop_caches(world)  # forget the memo: the next outputs are written afresh
            assert PieceObserver.string_from(obs, world, q) == text
            assert world.information_state_string(q) == text
            drop_caches(world)
            obs.set_from(world, q)
            np.testing.assert_array_equal(obs.tensor, tensor)
            differed += text != views[q]
        assert world.information_state_string(p) == views[p]
        assert [state.information_state_string(q) for q in range(4)] == views
    assert differed > 0  # others' secrets were re-dealt, and their strings show it
