"""Sampling helpers shared by the MCCFR traversals, ``cfr-search`` and the blueprint agent."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pyspiel

from solvers.fastpath import transition_functions
from spiel_games.common.chance import sample_chance

TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def pick(x: float, probs: list[float]) -> int:
    """The index that the uniform draw ``x`` selects from ``probs`` (the last one when the
    probabilities sum to a little under ``x``)."""
    acc = 0.0
    for i, p in enumerate(probs):
        acc += p
        if x < acc:
            return i
    return len(probs) - 1


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused (and restored after): traversals build lists and
    tuples that reference counting frees, while the collector's passes walk every
    long-lived object (the tables' maps); measured in one process, pausing it makes an OS
    traversal about a tenth cheaper (Coloretto, Rococo)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def first_per_label(legal, labels) -> tuple[list[int], list[int]]:
    """(actions, labels): one action per distinct label, the first in legal order (what
    ``solvers.policy_file.choices`` gives for these labels)."""
    first: dict[int, int] = {}
    for a, label in zip(legal, labels, strict=True):
        if label not in first:
            first[label] = a
    return list(first.values()), list(first)


def model_seats(rng: random.Random, players: int, traverser: int, share: float) -> list[bool]:
    """The seats that play the opponent model for a whole traversal: each other seat with
    probability ``share`` (a restricted Nash response, Johanson, Zinkevich and Bowling
    2007). No draw at all when ``share`` is 0, so plain self-play samples as before."""
    if share <= 0.0:
        return [False] * players
    return [q != traverser and rng.random() < share for q in range(players)]


def count_decisions(game, playouts: int = 20) -> int:
    """Most real decisions (more than one legal action) one player made in random playouts
    (the range of windowed external sampling's window start)."""
    apply, legal_fn = transition_functions(game)
    rng = random.Random(0)
    most = 1
    for _ in range(playouts):
        state = game.new_initial_state()
        count = [0] * game.num_players()
        while True:
            p = state.current_player()
            if p == TERMINAL:
                break
            if p < 0:
                apply(state, sample_chance(state, rng))
                continue
            legal = legal_fn(state, p)
            if len(legal) > 1:
                count[p] += 1
            apply(state, legal[rng.randrange(len(legal))])
        most = max(most, *count)
    return most
