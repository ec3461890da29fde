"""Conformance checks of hidden information: what each player sees never depends on
another player's secret (information states, observations, views), and private events
leave the others the same decisions."""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from spiel_games.common.chance import sample_chance
from spiel_games.common.conformance.basics import random_playout

_INFO = pyspiel.GameType.Information


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
