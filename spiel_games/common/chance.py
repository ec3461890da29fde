"""Sampling chance outcomes, written once for games, solvers, tournaments and tests, and
what a chance node decides in a player's words (``chance_description``).

Both sampling functions take any random source with a ``random()`` method returning
U[0, 1): a ``random.Random`` or a ``numpy.random.Generator``. Each draw consumes exactly
one ``random()`` call, so a seeded stream gives the same outcomes wherever it is used.
"""

from __future__ import annotations

from typing import Protocol

# What a chance node decides, where its game says nothing more (see chance_description).
CHANCE_OUTCOME = "chance outcome"


def chance_description(state) -> str:
    """What the chance node ``state`` decides, in a few words a player understands
    ("P2's start card", "the strip for board row 3"): the game's own
    ``state.chance_description()`` where it has one (every meeple game, through the engine's
    ``chance_text`` hook), else ``CHANCE_OUTCOME`` (any other OpenSpiel game)."""
    describe = getattr(state, "chance_description", None)
    return CHANCE_OUTCOME if describe is None else str(describe())


def _words(text: str) -> set[str]:
    return {w.lower().removesuffix("'s").strip("():,") for w in text.split()}


def outcome_after(description: str, outcome: str) -> str:
    """A chance outcome's name shortened to follow its description, so that "the start
    player: P1" reads once (not "the start player: start player: P1"): the outcome's first
    words that the description already says are dropped ("start player:", "warehouse
    tile", "stack tile"), and then a card number before its printed name ("2 for P1:
    Nijmegen" -> "Nijmegen"). The outcome is kept whole where nothing would be left, or
    a bare number ("strip 2" after "the strip for board row 1")."""
    said = _words(description)
    words = outcome.split()
    k = 0
    while k < len(words) - 1 and not words[k][0].isdigit() and _words(words[k]) <= said:
        k += 1
    rest = " ".join(words[k:])
    head, sep, name = rest.partition(": ")
    if k and sep and head[:1].isdigit() and name:
        rest = name
    if k and rest.isdigit():  # "the strip for board row 1: 2" named no strip: keep "strip 2"
        return outcome
    return rest


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
