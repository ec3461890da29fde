"""Conformance checks of the pyspiel API: random simulation, serialization, clones,
declared sizes, action strings, chance descriptions and the refusal of illegal actions."""

from __future__ import annotations

import math
import pickle
import random

import pyspiel

from spiel_games.common.chance import CHANCE_OUTCOME, chance_description, sample_chance

_INFO = pyspiel.GameType.Information


def random_step(state, rng: random.Random) -> None:
    """Apply a chance outcome with its probability, or a uniformly random legal action."""
    if state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def random_playout(game, rng: random.Random, keep: bool = False):
    """Play one random game; return the terminal state (and the states along the way)."""
    state = game.new_initial_state()
    trail = []
    while not state.is_terminal():
        if keep:
            trail.append(state.clone())
        random_step(state, rng)
    return (state, trail) if keep else state


def check_random_sim(game, num_sims: int = 3) -> None:
    pyspiel.random_sim_test(game, num_sims=num_sims, serialize=True, verbose=False)


def check_pickle_and_serialize(game, seed: int = 0) -> None:
    rng = random.Random(seed)
    g2 = pickle.loads(pickle.dumps(game))
    assert str(g2) == str(game), "game pickle round trip changed the game string"
    _, trail = random_playout(game, rng, keep=True)
    for state in trail[:: max(1, len(trail) // 12)]:
        s2 = pickle.loads(pickle.dumps(state))
        assert s2.history() == state.history(), "state pickle round trip lost history"
        assert str(s2) == str(state), "state pickle round trip changed the state"
        text = pyspiel.serialize_game_and_state(game, state)
        g3, s3 = pyspiel.deserialize_game_and_state(text)
        assert str(g3) == str(game)
        assert s3.history() == state.history() and str(s3) == str(state), (
            "serialize_game_and_state round trip changed the state"
        )


def check_clone_independence(game, seed: int = 0) -> None:
    """States kept along a playout never change when play continues from them."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    kept = []
    while not state.is_terminal():
        kept.append(
            (
                state.clone(),
                str(state),
                state.history(),
                state.legal_actions() if not state.is_chance_node() else None,
            )
        )
        random_step(state, rng)
    # Also play on from a mid-game clone: the original must not move.
    mid = kept[len(kept) // 2][0]
    snapshot = str(mid)
    branch = mid.clone()
    while not branch.is_terminal():
        random_step(branch, rng)
    assert str(mid) == snapshot, "playing on a clone changed the state it was cloned from"
    for clone, text, hist, legal in kept:
        assert str(clone) == text, "a kept clone changed after play continued"
        assert clone.history() == hist
        if legal is not None:
            assert clone.legal_actions() == legal


def check_declared_sizes(game, num_games: int = 5, seed: int = 0) -> None:
    rng = random.Random(seed)
    gtype = game.get_type()
    nda = game.num_distinct_actions()
    mco = game.max_chance_outcomes()
    n = game.num_players()
    lo, hi = game.min_utility(), game.max_utility()
    for _ in range(num_games):
        state = game.new_initial_state()
        length = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert 0 < len(outcomes) <= mco, f"{len(outcomes)} chance outcomes > {mco}"
                assert all(0 <= a < mco for a, _ in outcomes), "chance outcome id out of range"
                assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
                assert all(p > 0 for _, p in outcomes), "chance outcome with zero probability"
                ids = [a for a, _ in outcomes]
                assert ids == sorted(set(ids)), "chance outcomes must be sorted and distinct"
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                assert legal, "a player node without legal actions"
                assert legal == sorted(set(legal)), "legal actions must be sorted and distinct"
                assert all(0 <= a < nda for a in legal), f"action id out of [0, {nda})"
                state.apply_action(rng.choice(legal))
            length += 1
        assert length <= game.max_game_length(), (
            f"game length {length} exceeds max_game_length {game.max_game_length()}"
        )
        returns = state.returns()
        assert len(returns) == n
        assert all(lo - 1e-9 <= r <= hi + 1e-9 for r in returns), (
            f"returns {returns} outside [{lo}, {hi}]"
        )
        if gtype.utility == pyspiel.GameType.Utility.ZERO_SUM:
            assert abs(sum(returns)) < 1e-9, f"zero-sum game returned {returns}"
        if gtype.utility == pyspiel.GameType.Utility.CONSTANT_SUM:
            assert abs(sum(returns) - game.utility_sum()) < 1e-9


def check_action_strings(game, num_games: int = 3, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(num_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if state.is_chance_node():
                actions = [a for a, _ in state.chance_outcomes()]
            else:
                actions = state.legal_actions()
            names = [state.action_to_string(player, a) for a in actions]
            assert len(set(names)) == len(names), f"ambiguous action strings: {names}"
            for a, name in zip(actions, names, strict=True):
                if not state.is_chance_node():
                    back = state.string_to_action(name)
                    assert back == a, f"{name!r} parsed as {back}, expected {a}"
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(actions))


def check_chance_descriptions(game, num_games: int = 2, seed: int = 0) -> dict[str, str]:
    """Every chance node met in random playouts says what it decides in the game's own
    words (``chance_description``): one non-empty line, never the default
    "chance outcome", and the same in a world any player's resampler deals there (table
    mode prints it from a placeholder world, so it may rest on public facts only).
    Returns each description met with the string of one of its outcomes."""
    rng = random.Random(seed)
    met: dict[str, str] = {}
    for _ in range(num_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                random_step(state, rng)
                continue
            text = chance_description(state)
            at = state.history
            assert text and "\n" not in text, f"chance description {text!r} at {at()}"
            assert text != CHANCE_OUTCOME, f"the default chance description at {at()}"
            p = len(at()) % game.num_players()
            seen = chance_description(state.resample_from_infostate(p, rng.random))
            assert seen == text, f"P{p + 1}'s world describes {text!r} as {seen!r} at {at()}"
            a = sample_chance(state, rng)
            met.setdefault(text, state.action_to_string(state.current_player(), a))
            state.apply_action(a)
    return met


def check_illegal_actions_raise(game, num_games: int = 2, seed: int = 0, states: int = 8) -> int:
    """Every action id outside legal_actions() raises on apply; nothing is repaired.

    Returns how many illegal (state, action) pairs were tried.
    """
    rng = random.Random(seed)
    nda = game.num_distinct_actions()
    tried = 0
    for _ in range(num_games):
        _, trail = random_playout(game, rng, keep=True)
        decisions = [s for s in trail if not s.is_chance_node()]
        for state in rng.sample(decisions, min(states, len(decisions))):
            legal = set(state.legal_actions())
            before = str(state)
            for a in range(nda):
                if a in legal:
                    continue
                probe = state.clone()
                try:
                    probe.apply_action(a)
                except Exception:  # SpielError, ValueError, ...: any refusal is fine
                    tried += 1
                    assert str(probe) == before and probe.history() == state.history(), (
                        f"refusing illegal action {a} left the state changed"
                    )
                    continue
                raise AssertionError(
                    f"illegal action {a} ({state.action_to_string(state.current_player(), a)!r}) "
                    f"was applied at a state with legal actions {sorted(legal)}"
                )
            assert str(state) == before
    return tried
