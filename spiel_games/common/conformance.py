"""Checks every registered game must pass, written once for all games.

Each function raises AssertionError with a precise message on failure. The test
suite (tests/test_conformance.py) runs them for every GameSpec and each of its
test configurations; game authors can run them directly while developing.
"""

from __future__ import annotations

import math
import pickle
import random

import numpy as np
import pyspiel

from spiel_games.common.chance import UniformSampler, sample_chance

_INFO = pyspiel.GameType.Information


# tests/games import the sampler under this name
_sample_chance = sample_chance


def random_playout(game, rng: random.Random, keep: bool = False):
    """Play one random game; return the terminal state (and the states along the way)."""
    state = game.new_initial_state()
    trail = []
    while not state.is_terminal():
        if keep:
            trail.append(state.clone())
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
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
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    # Also play on from a mid-game clone: the original must not move.
    mid = kept[len(kept) // 2][0]
    snapshot = str(mid)
    branch = mid.clone()
    while not branch.is_terminal():
        if branch.is_chance_node():
            branch.apply_action(sample_chance(branch, rng))
        else:
            branch.apply_action(rng.choice(branch.legal_actions()))
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


def sampled_states(game, seed: int, every: int, choose=None, include_terminal: bool = False):
    """Clones of every `every`-th state (chance and player nodes) of one random game.

    ``choose(state, rng) -> action`` picks player moves (uniform by default), e.g. to steer
    play towards rare secrets. The terminal state is yielded last when asked for.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    ply = 0
    while not state.is_terminal():
        if ply % every == 0:
            yield state.clone()
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif choose is not None:
            state.apply_action(choose(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        ply += 1
    if include_terminal:
        yield state


def check_view_leak(states, perturb, seed: int = 7) -> tuple[int, int]:
    """``render_view(j)`` never changes when another player's secret changes.

    Returns (views compared, perturbations that changed the owner's own view); callers
    assert both are positive so the check cannot pass vacuously.
    """
    rng = random.Random(seed)
    compared = own_changed = 0
    for state in states:
        n = state.num_players()
        views = [state.render_view(j) for j in range(n)]
        for i in range(n):
            other = perturb(state, i, rng)
            if other is None:
                continue
            for j in range(n):
                if j != i:
                    assert other.render_view(j) == views[j], (
                        f"P{j}'s view changed with P{i}'s secret"
                    )
                    compared += 1
            own_changed += other.render_view(i) != views[i]
    return compared, own_changed


def check_view_resample(states, seed: int = 3) -> int:
    """A state resampled for the player to move looks the same to that player."""
    rng = random.Random(seed)
    checked = 0
    for state in states:
        if state.is_chance_node() or state.is_terminal():
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, rng.random)
        assert world.render_view(p) == state.render_view(p), "resampling changed P's own view"
        checked += 1
    return checked


def _views(state, player: int):
    return (
        state.information_state_string(player),
        np.asarray(state.information_state_tensor(player)),
        state.observation_string(player),
        np.asarray(state.observation_tensor(player)),
    )


def check_info_leak(game, perturb, num_games: int = 3, seed: int = 0) -> int:
    """Changing player i's secret never changes what player j != i sees.

    Returns how many perturbations were checked (0 when the game has no secrets).
    It also asserts the perturbation changed player i's own view at least once, so
    a perturbation that does nothing cannot make the test pass vacuously.
    """
    if perturb is None:
        assert game.get_type().information == _INFO.PERFECT_INFORMATION, (
            "an imperfect-information game must provide perturb_secret for the leak test"
        )
        return 0
    rng = random.Random(seed)
    n = game.num_players()
    checked = 0
    own_changed = 0
    for _ in range(num_games):
        _, trail = random_playout(game, rng, keep=True)
        for state in trail[:: max(1, len(trail) // 20)]:
            for i in range(n):
                other = perturb(state, i, rng)
                if other is None:
                    continue
                checked += 1
                if other.information_state_string(i) != state.information_state_string(i):
                    own_changed += 1
                for j in range(n):
                    if j == i:
                        continue
                    a, b = _views(state, j), _views(other, j)
                    assert a[0] == b[0], f"P{j} info state string changed with P{i}'s secret"
                    assert np.array_equal(a[1], b[1]), f"P{j} info tensor leaked P{i}'s secret"
                    assert a[2] == b[2], f"P{j} observation string leaked P{i}'s secret"
                    assert np.array_equal(a[3], b[3]), f"P{j} observation leaked P{i}'s secret"
    if checked:
        assert own_changed > 0, "perturb_secret never changed the perturbed player's own view"
    return checked


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
                    r.apply_action(
                        sample_chance(r, rng)
                        if r.is_chance_node()
                        else rng.choice(r.legal_actions())
                    )
            checked += 1
    return checked


def _private_to(a, b) -> int:
    """The one player whose information state differs between `a` and `b`, else -1."""
    differ = [
        p
        for p in range(a.num_players())
        if a.information_state_string(p) != b.information_state_string(p)
    ]
    return differ[0] if len(differ) == 1 else -1


def _options(state) -> list[int]:
    if state.is_chance_node():
        return [o for o, _p in state.chance_outcomes()]
    return state.legal_actions()


def check_private_event_symmetry(
    game, num_games: int = 2, seed: int = 0, pairs: int = 30, plies: int = 60
) -> int:
    """(a) Two histories that differ only in what player i alone has seen look the same to
    every other player j, and offer the same decision points, from there on.

    Along random games, a chance outcome or a move whose two alternatives leave every
    player but one (i) with the same information state is a private event of i (a secret
    draw, a secret choice). Both continuations are then played in lockstep for up to
    ``plies`` moves, the others' moves and the public chance outcomes identical, i's moves
    chosen among those legal in both: at every non-terminal step the player to move must
    be the same, and each j != i must have the same information state and (when j moves)
    the same legal actions, until a move of i's own shows the secret (playing a card,
    discarding a tile face up), where following stops. A decision that appears in one
    history only tells the others what i saw. Returns how many private events were
    followed.
    """
    if game.get_type().information == _INFO.PERFECT_INFORMATION:
        return 0
    rng = random.Random(seed)
    followed = 0
    for _ in range(num_games):
        _, trail = random_playout(game, rng, keep=True)
        rng.shuffle(trail)
        found = 0
        for node in trail:
            if found >= pairs:
                break
            options = _options(node)
            if len(options) < 2:
                continue
            x1, x2 = rng.sample(options, 2)
            a, b = node.child(x1), node.child(x2)
            i = _private_to(a, b)
            if i < 0:
                continue
            found += 1
            mover = node.current_player()
            names = (node.action_to_string(mover, x1), node.action_to_string(mover, x2))
            _follow_in_lockstep(a, b, i, rng, plies, names)
        followed += found
    return followed


def _follow_in_lockstep(a, b, i: int, rng: random.Random, plies: int, names) -> None:
    n = a.num_players()
    by_i = False  # whether the last move applied was i's own
    for step in range(plies):
        where = f"P{i + 1}'s private {names[0]!r} vs {names[1]!r}, {step} moves later"
        if a.is_terminal() or b.is_terminal():
            assert a.is_terminal() and b.is_terminal(), f"one history ended first ({where})"
            return
        pa, pb = a.current_player(), b.current_player()
        assert pa == pb, f"player to move differs: {pa} vs {pb} ({where})"
        for j in range(n):
            if j != i and a.information_state_string(j) != b.information_state_string(j):
                # i's own move may show the secret (a card played, a tile discarded face
                # up): a reveal by its owner, not a leak; the two histories part there.
                assert by_i, f"P{j + 1}'s information state differs ({where})"
                return
        if a.is_chance_node():
            common = {o for o, _p in b.chance_outcomes()}
            choices = [o for o, _p in a.chance_outcomes() if o in common]
        else:
            la, lb = a.legal_actions(), b.legal_actions()
            if pa != i:
                assert la == lb, f"P{pa + 1}'s legal actions differ: {la} vs {lb} ({where})"
            choices = [x for x in la if x in set(lb)]
        if not choices:
            return  # i's knowledge steers his own moves apart: nothing more to compare
        action = rng.choice(choices)
        by_i = pa == i
        a.apply_action(action)
        b.apply_action(action)


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
