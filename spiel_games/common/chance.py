"""Sampling chance outcomes, written once for games, solvers, tournaments and tests.

Both functions take any random source with a ``random()`` method returning U[0, 1): a
``random.Random`` or a ``numpy.random.Generator``. Each draw consumes exactly one
``random()`` call, so a seeded stream gives the same outcomes wherever it is used.
"""

from __future__ import annotations

from typing import Protocol


class RandomSource(Protocol):
    def random(self) -> float: ...


def sample_chance(state, rng: RandomSource) -> int:
    """A chance outcome of ``state`` drawn with its exact probabilities."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if x < acc:
            return int(a)
    return int(outcomes[-1][0])


class UniformSampler:
    """What ``resample_from_infostate`` receives (as OpenSpiel's Python IS-MCTS passes one):
    a callable returning U[0, 1) from ``rng``."""

    __slots__ = ("rng",)

    def __init__(self, rng: RandomSource):
        self.rng = rng

    def __call__(self) -> float:
        return float(self.rng.random())
