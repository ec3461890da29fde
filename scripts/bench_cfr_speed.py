"""The ``speed`` section of ``bench_cfr.py``: random playouts (plain, and with the
abstraction's keys and labels), MCCFR-OS and windowed ES traversals per CPU second."""

from __future__ import annotations

import gc
import random
import time

import pyspiel

import spiel_games
from solvers.fastpath import transition_functions
from solvers.mccfr import Traversals
from solvers.mccfr_tables import Tables
from solvers.train import ES_LEAVES, FULL_EPSILON
from spiel_games.common.chance import sample_chance

TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def game_string(name: str) -> str:
    return f"python_{name}(players=3)"


def _playout(game, apply, choices, rng) -> None:
    """A random playout; ``choices(state, player)`` gives the actions to pick from."""
    state = game.new_initial_state()
    while True:
        p = state.current_player()
        if p == TERMINAL:
            return
        if p < 0:
            apply(state, sample_chance(state, rng))
            continue
        actions = choices(state, p)
        apply(state, actions[rng.randrange(len(actions))])


def _abstracted(legal, trav):
    """The choices of a random playout that also computes, at every decision, what an OS
    traversal computes from the abstraction: the labels of the legal actions and, where
    more than one abstract action is left, the key (the traversal's tables and sampling
    left out)."""

    def choices(state, p):
        actions, _ = trav._choices(state, p, legal(state, p))
        if len(actions) > 1:
            trav.key(state, p)
        return actions

    return choices


def speed(name: str, seconds: float) -> dict:
    """Random playouts (plain, and with the abstraction's keys and labels), OS and windowed
    ES traversals per CPU second, interleaved. The cyclic garbage collector is paused in
    every slice, as the traversals pause it during a batch (``Traversals.run``)."""
    game = spiel_games.load_game(game_string(name))
    spec = spiel_games.get_spec(name)
    apply, legal = transition_functions(game)
    rng = random.Random(0)
    os_trav = Traversals(game, "os", spec.abstraction_name, FULL_EPSILON, "sampled", True)
    es_trav = Traversals(game, "es", spec.abstraction_name, es_leaves=ES_LEAVES)
    tables = Tables()
    for _ in range(5):  # warm-up: tables and the abstraction's caches
        view = tables.view()
        tables.apply(view, [os_trav.run(view, rng, [0, 1, 2] * 10).to_arrays()])
    kinds = ("playout", "abstraction", "os", "es")
    counts = {k: [0, 0.0] for k in kinds}
    end = time.process_time() + 3 * seconds
    collecting = gc.isenabled()
    while time.process_time() < end:
        for kind in kinds:
            gc.disable()
            t = time.process_time()
            n = 0
            view = tables.view()
            while time.process_time() - t < seconds / 3:
                if kind == "playout":
                    _playout(game, apply, legal, rng)
                elif kind == "abstraction":
                    _playout(game, apply, _abstracted(legal, os_trav), rng)
                elif kind == "os":
                    os_trav.run(view, rng, [n % 3])
                else:
                    es_trav.run(view, rng, [n % 3])
                n += 1
            counts[kind][0] += n
            counts[kind][1] += time.process_time() - t
            if collecting:
                gc.enable()
    rates = {k: n / s for k, (n, s) in counts.items()}
    return {
        "game": game_string(name),
        **{f"{k}_per_s": r for k, r in rates.items()},
        "os_ratio": rates["playout"] / rates["os"],
        "es_ratio": rates["playout"] / rates["es"],
        "abstraction_ratio": rates["playout"] / rates["abstraction"],
    }
