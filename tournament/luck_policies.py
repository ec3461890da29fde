"""Known policies: the decision terms of AIVAT for agents whose strategy is known.

A chance event's luck has zero mean because the outcome is drawn with known
probabilities. The same holds for a decision drawn from a *known* strategy: ``random``
draws uniformly, ``noisy(eps)`` plays a uniformly random move with probability ``eps``
and the heuristic's move otherwise, ``heuristic`` plays the game's heuristic (which
breaks some ties at random). For such a decision the term ``V(s.a) - E_pi[V(s.a')]``
has expectation zero given the past, so subtracting it from the result keeps the result
unbiased while removing the noise of the agent's own dice (poker's AIVAT does this for the
bot's own actions). The expectation may itself be estimated by draws independent of the
move played (a fresh heuristic move, ``SAMPLES`` uniform moves): an unbiased estimate of
``E_pi`` keeps the term's mean at zero. Search agents' strategies are not known in closed
form, so their decisions carry no term.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solvers.baselines import NOISY
from solvers.spec import parse_spec
from spiel_games.common.registry import get_spec

KNOWN_VERSION = 2  # part of the luck cache key: a change here measures luck again
SAMPLES = 4  # uniform moves drawn to estimate the mean over the legal moves

# (state, rng) -> [(action, weight)], weights summing to 1: an unbiased estimate of E_pi
Baseline = Callable[[object, np.random.Generator], list[tuple[int, float]]]


def uniform(state, rng, weight: float = 1.0) -> list[tuple[int, float]]:
    """Every legal move at equal weight, or SAMPLES of them drawn uniformly."""
    legal = state.legal_actions()
    if len(legal) <= SAMPLES:
        return [(int(a), weight / len(legal)) for a in legal]
    picks = rng.integers(len(legal), size=SAMPLES)
    return [(int(legal[k]), weight / SAMPLES) for k in picks]


def noisy(heuristic, eps: float) -> Baseline:
    """The heuristic's move (a fresh draw of its tie-breaks) at weight 1 - eps, uniform
    moves for the rest."""

    def baseline(state, rng):
        out = [(int(heuristic(state, rng)), 1.0 - eps)]
        return out + uniform(state, rng, eps) if eps > 0 else out

    return baseline


def baseline_for(spec: str, game_string: str) -> Baseline | None:
    """The baseline of an agent spec whose strategy is known, else None."""
    kind, params = parse_spec(spec)
    if kind == "random":
        return uniform
    heuristic = get_spec(game_string).heuristic
    if heuristic is None or kind not in ("heuristic", "noisy"):
        return None
    eps = params.get("eps", NOISY.params[0].default) if kind == "noisy" else 0.0
    return noisy(heuristic, float(eps))  # type: ignore[arg-type]
