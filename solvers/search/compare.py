"""The comparison phase of advice: every listed move on the same worlds and chance draws.

Root selection (sequential halving, or UCB) spends the budget unevenly: a move dropped
early keeps the mean of a few samples, so its value cannot be ranked against the winner's.
After the selection, ``compare`` runs ``passes`` *paired passes*: each draws one world
from the advised player's information state and simulates every listed move on a copy of
it with the random streams rewound (as a sequential-halving pass does), so every move gets
the same number of samples, on the same hidden cards, chance draws and opponent-model
draws (common random numbers). The samples go through the searched tree, so they are the
search's values, and they grow the tree as any simulation does. A deadline (advice's `time`
budget) ends the passes early, after ``MIN_PASSES``.

Each sample is read in three units, from the state the simulation ended in (the end of
the game, or the leaf the search evaluated):

- ``value``: the search's return for the advised player (the game's utility, a rank score
  in [-1, 1] by default);
- ``margin``: the advised player's final score minus the best other player's (points; at
  a leaf the game's estimate of final scores, else the current scores);
- ``first``: the chance to finish first (ties share it; at a leaf the estimate's
  logistic chance that the player's final score is the highest).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from solvers.search.leaf import EstimateEvaluation, soft_returns
from solvers.search.tree import TERMINAL, Node, SearchEngine

UNITS = ("value", "margin", "first")
MIN_PASSES = 2  # passes run past a deadline: a move's interval needs two samples


@dataclass
class Samples:
    """One move's paired samples, one entry per pass in each unit."""

    value: list[float] = field(default_factory=list)
    margin: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)

    def unit(self, name: str) -> np.ndarray:
        return np.asarray(getattr(self, name), dtype=float)


def passes_for(sims: int, moves: int) -> int:
    """Paired passes for a selection phase of ``sims`` simulations over ``moves`` listed
    moves: half the selection budget again, at least 32 passes."""
    return max(32, sims // (2 * max(moves, 1)))


def end_units(engine: SearchEngine, state, me: int) -> tuple[float, float]:
    """(margin, first) for ``me`` at the state a simulation ended in."""
    evaluation = engine.leaf.evaluation
    if state.current_player() != TERMINAL and isinstance(evaluation, EstimateEvaluation):
        est = [float(x) for x in evaluation.estimator.estimate(state)]
        spread = float(evaluation.estimator.spread(state))
        first = soft_returns("win", est, spread, 0.0, 1.0)[me]
        return est[me] - max(x for i, x in enumerate(est) if i != me), first
    scores = [float(x) for x in state.scores()]
    best_other = max(x for i, x in enumerate(scores) if i != me)
    top = max(scores)
    first = 1.0 / scores.count(top) if scores[me] == top else 0.0
    return scores[me] - best_other, first


def compare(
    engine: SearchEngine,
    state,
    root: Node,
    moves: Sequence[int],
    passes: int,
    draw: Callable,
    deadline: float | None = None,
) -> dict[int, Samples]:
    """``passes`` paired passes over ``moves`` from ``state`` (``draw(state, player)`` gives
    each pass's world); the samples per move. Stops early when ``engine.halted``, and at
    ``deadline`` (a ``time.perf_counter()`` time) after ``MIN_PASSES`` passes."""
    me = state.current_player()
    engine.root_player = me
    out = {a: Samples() for a in moves}
    streams = engine.streams
    rng, np_rng = streams.py, streams.np
    for k in range(passes):
        if engine.halted:
            break
        if deadline is not None and k >= MIN_PASSES and time.perf_counter() >= deadline:
            break
        world = draw(state, me)
        stream = random.Random(rng.getrandbits(64))
        np_stream = np.random.default_rng(rng.getrandbits(63))
        saved, np_saved = stream.getstate(), np_stream.bit_generator.state
        streams.py, streams.np = stream, np_stream
        try:
            for a in moves:
                stream.setstate(saved)
                np_stream.bit_generator.state = np_saved
                end = world.clone()
                ret = engine.simulate(root, end, a)
                margin, first = end_units(engine, end, me)
                s = out[a]
                s.value.append(float(ret[me]))
                s.margin.append(margin)
                s.first.append(first)
        finally:
            streams.py, streams.np = rng, np_rng
        engine.tick()
    return out


def principal_variation(engine: SearchEngine, world, root: Node, first: int, depth: int = 8):
    """The expected continuation after ``first``: at each step the most visited move in
    the tree (chance outcomes and modelled opponents' moves included), on one world."""
    s = world.clone()
    player = s.current_player()
    line = [s.action_to_string(player, first)]
    s.apply_action(first)
    node = root.children.get(first)
    while node is not None and len(line) < depth and not s.is_terminal():
        legal = s.legal_actions() if not s.is_chance_node() else [o for o, _ in s.chance_outcomes()]
        kids = [(a, node.children[a]) for a in legal if a in node.children]
        kids = [(a, ch) for a, ch in kids if _weight(ch) > 0]
        if not kids:
            break
        a, node = max(kids, key=lambda k: (_weight(k[1]), -k[0]))
        p = s.current_player()
        line.append(s.action_to_string(p, a) if p >= 0 else f"chance: {s.action_to_string(p, a)}")
        s.apply_action(a)
    return line


def _weight(node: Node, depth: int = 3) -> int:
    """Simulations through an edge: its count, or for an edge without statistics (a chance
    outcome, a modelled opponent's move) the counts just below it."""
    if node.n or depth == 0:
        return node.n
    return sum(_weight(ch, depth - 1) for ch in node.children.values())


def mean_interval(x: np.ndarray, z: float, floor: float = 0.0) -> tuple[float, float, float]:
    """(mean, low, high): ``mean +- z * sqrt(se^2 + floor^2)``, ``se`` the standard error.
    Fewer than two samples have no standard error: the bounds are then NaN, "no interval"
    (advice shows them as null; an infinite half-width would reach JSON as Infinity)."""
    n = len(x)
    m = float(x.mean())
    if n < 2:
        return m, math.nan, math.nan
    se = float(x.std(ddof=1)) / math.sqrt(n)
    half = z * math.hypot(se, floor)
    return m, m - half, m + half
