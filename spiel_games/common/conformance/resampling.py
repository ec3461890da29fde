"""Conformance checks of the resampler contract (OpenSpiel's ``resample_from_infostate``):
for every player at every node, a world that player cannot tell from the real one, whose
history replays to it."""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from spiel_games.common.chance import UniformSampler
from spiel_games.common.conformance.basics import random_playout, random_step

_INFO = pyspiel.GameType.Information


def check_resampler(game, num_games: int = 3, seed: int = 0, resample=None) -> int:
    """A resampled state gives the resampling player the same information state, and
    plays on legally to the end.

    `resample(state, player, sampler)` defaults to ``resample_from_infostate``; a game's
    search-only ``world_sampler`` is checked with the same function.
    """
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    sampler = UniformSampler(np_rng)
    checked = 0
    for _ in range(num_games):
        _, trail = random_playout(game, rng, keep=True)
        for state in trail[:: max(1, len(trail) // 25)]:
            if state.is_chance_node() or state.is_terminal():
                continue
            p = state.current_player()
            if resample is None:
                r = state.resample_from_infostate(p, sampler)
            else:
                r = resample(state, p, sampler)
            assert r.information_state_string(p) == state.information_state_string(p), (
                "resampled state changed the player's information state"
            )
            assert np.array_equal(
                np.asarray(r.information_state_tensor(p)),
                np.asarray(state.information_state_tensor(p)),
            )
            assert r.legal_actions() == state.legal_actions()
            assert r.current_player() == p
            if checked % 5 == 0:  # the world is a real position: it plays to the end
                while not r.is_terminal():
                    random_step(r, rng)
            checked += 1
    return checked


def check_resample_replays(game, num_games: int = 2, seed: int = 0, per_game: int = 25) -> int:
    """(b) A resampled world is consistent with its own history: replaying its
    ``history()`` from a new initial state rebuilds it (every player's information state,
    the player to move, and the returns at the end), and it keeps the resampling player's
    information state. Returns how many resampled worlds were replayed."""
    if game.get_type().information == _INFO.PERFECT_INFORMATION:
        return 0
    rng = random.Random(seed)
    sampler = UniformSampler(np.random.default_rng(seed))
    n = game.num_players()
    checked = 0
    for _ in range(num_games):
        _, trail = random_playout(game, rng, keep=True)
        for state in trail[:: max(1, len(trail) // per_game)]:
            if state.is_chance_node():
                continue
            p = state.current_player()
            world = state.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == state.information_state_string(p)
            replay = game.new_initial_state()
            for action in world.history():
                replay.apply_action(action)
            assert replay.current_player() == world.current_player()
            if world.is_terminal():
                assert list(replay.returns()) == list(world.returns())
            for j in range(n):
                assert replay.information_state_string(j) == world.information_state_string(j), (
                    f"replaying the resampled world's history gives P{j + 1} another "
                    f"information state (resampled for P{p + 1} at move {len(world.history())})"
                )
            checked += 1
    return checked


def check_resample_terminal(game, num_games: int = 2, seed: int = 0) -> int:
    """(c) Resampling a terminal state changes nothing: every secret is out at the end.
    Returns how many (terminal state, player) pairs were checked."""
    if game.get_type().information == _INFO.PERFECT_INFORMATION:
        return 0
    rng = random.Random(seed)
    sampler = UniformSampler(np.random.default_rng(seed))
    n = game.num_players()
    checked = 0
    for _ in range(num_games):
        end = random_playout(game, rng)
        for p in range(n):
            world = end.resample_from_infostate(p, sampler)
            assert world.is_terminal(), "a resampled terminal state is not terminal"
            assert world.history() == end.history(), "resampling a terminal state changed history"
            assert list(world.returns()) == list(end.returns()), "resampling changed the returns"
            assert str(world) == str(end), f"resampling the final state for P{p + 1} changed it"
            for j in range(n):
                assert world.information_state_string(j) == end.information_state_string(j), (
                    f"resampling the final state for P{p + 1} changed P{j + 1}'s information state"
                )
            checked += 1
    return checked


def samplers(seed: int) -> list[tuple[str, object]]:
    """Several samplers (callables returning U[0, 1)), as OpenSpiel's IS-MCTS passes one:
    a numpy stream, a ``random`` stream and the two extremes, which take the first and the
    last option of every re-dealt draw."""
    return [
        ("numpy", UniformSampler(np.random.default_rng(seed))),
        ("random", random.Random(seed).random),
        ("low", lambda: 0.0),
        ("high", lambda: 1.0 - 1e-12),
    ]


def _replays_to(world, game) -> bool:
    replay = game.new_initial_state()
    for action in world.history():
        replay.apply_action(action)
    return replay.current_player() == world.current_player() and all(
        replay.information_state_string(j) == world.information_state_string(j)
        for j in range(game.num_players())
    )


def _check_world(state, world, p: int, where: str) -> None:
    assert world.information_state_string(p) == state.information_state_string(p), (
        f"the resampled world changed P{p + 1}'s information state ({where})"
    )
    assert world.current_player() == state.current_player(), f"mover changed ({where})"
    assert world.is_terminal() == state.is_terminal(), f"the end changed ({where})"
    if not state.is_terminal() and state.current_player() == p:
        assert world.legal_actions() == state.legal_actions(), f"legal changed ({where})"


def check_resample_everywhere(
    game,
    num_games: int = 1,
    seed: int = 0,
    replay_every: int = 15,
    all_samplers=False,
    resample=None,
) -> int:
    """OpenSpiel's resampler contract at every node: for every player at every node (chance,
    decision and terminal) of ``num_games`` random playouts, a world resampled for that
    player with a sampler taken in turn from ``samplers`` (all of them with
    ``all_samplers``), and once more with the first of them and the fallback forced
    (``tries=0``: the re-deal a game falls back on when its fresh draws keep failing),
    shows that player exactly what the real state shows: information state, player to
    move, the end, and the legal actions when it is theirs to move. Every
    ``replay_every``-th node (1: every node) the worlds of the first sampler there must
    replay from their ``history()``. ``resample(state, player, sampler)``, a game's
    search-only world sampler, is checked the same way, without tries or replays (it may
    leave the history as it was). Returns how many worlds were checked."""
    rng = random.Random(seed)
    pool = samplers(seed)
    n = game.num_players()
    checked = 0
    for g in range(num_games):
        state = game.new_initial_state()
        ply = 0
        while True:
            for p in range(n):
                picks = pool if all_samplers else [pool[(ply + p) % len(pool)]]
                for k, (name, sampler) in enumerate(picks):
                    # the fallback forced with the first sampler of the node (each node
                    # another one: the samplers are taken in turn)
                    for tries in (None, 0) if resample is None and k == 0 else (None,):
                        where = f"game {g}, move {ply}, P{p + 1}, sampler {name}, tries {tries}"
                        if resample is not None:
                            world = resample(state, p, sampler)
                        elif tries is None:
                            world = state.resample_from_infostate(p, sampler)
                        else:
                            world = state.resample_from_infostate(p, sampler, tries=tries)
                        _check_world(state, world, p, where)
                        if resample is None and k == 0 and ply % replay_every == 0:
                            assert _replays_to(world, game), f"history does not replay ({where})"
                        checked += 1
            if state.is_terminal():
                break
            random_step(state, rng)
            ply += 1
    return checked
