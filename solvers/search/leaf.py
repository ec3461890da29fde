"""Leaf evaluation: the rollout from a new leaf and the returns of the position it reaches.

A rollout plays chance outcomes with their exact probabilities and moves by its policy
(uniformly random, or the game's heuristic with ``epsilon`` random moves) for ``depth``
moves (-1: to the end), lets the heuristic finish the mover's pending turn (``settle``),
then evaluates: ``ScoreEvaluation`` applies the game's utility to the current scores
(under ``utility=score`` shifted by the players' expected remaining gain),
``EstimateEvaluation`` turns an estimate of final scores (the game's evaluation module, or
a learned value model bound to its features) into expected returns (``soft_returns``).
The estimates are fitted on score differences and have no level: under ``utility=score``
each player's return is their estimate's difference from the players' mean estimate plus
the evaluation's ``level`` (the players' mean final score expected from the position,
``spiel_games.common.level``), so an evaluated leaf is in the same units as a terminal one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from solvers import value_model
from solvers.search.tree import TERMINAL
from spiel_games.common.registry import get_spec
from spiel_games.common.utility import returns_from_keys

if TYPE_CHECKING:
    from solvers.search.tree import Streams

SETTLE_STEPS = 6  # at most this many heuristic moves to finish a turn at the cut-off


class Estimator(Protocol):
    def estimate(self, state) -> list[float]: ...

    def spread(self, state) -> float: ...

    def level(self, state) -> float: ...


class ScoreEvaluation:
    """As if the game ended now: the utility mode applied to ``state.scores()``. Under
    ``utility=score`` the scores are shifted by what the players are still expected to
    gain (the game evaluation's ``level`` minus their mean score now, where the game has
    one), so a cut-off leaf is a final score as a terminal one is."""

    def __init__(self, utility: str, game=None, bounds: tuple[float, float] | None = None):
        self.utility = utility
        self.level = None
        if utility == "score" and game is not None:
            evaluation = getattr(_registered(game), "evaluation", None)
            self.level = getattr(evaluation, "level", None)
        self.lo, self.hi = bounds or (-math.inf, math.inf)

    def returns(self, state) -> list[float]:
        scores = state.scores()
        if self.level is None:
            return returns_from_keys(self.utility, scores)
        shift = self.level(state) - sum(scores) / max(1, len(scores))
        return [min(self.hi, max(self.lo, float(s) + shift)) for s in scores]


def _registered(game):
    """The game's registry spec, None for a game outside the registry."""
    try:
        return get_spec(game.get_type().short_name)
    except KeyError:
        return None


class EstimateEvaluation:
    """Expected returns from an estimate of every player's final score and its spread."""

    def __init__(self, estimator: Estimator, utility: str, lo: float, hi: float):
        self.estimator = estimator
        self.utility = utility
        self.lo, self.hi = lo, hi

    def returns(self, state) -> list[float]:
        return estimate_returns(self.estimator, self.utility, state, self.lo, self.hi)


def estimate_returns(est: Estimator, utility: str, state, lo: float, hi: float) -> list[float]:
    """``soft_returns`` of ``est``'s estimate of ``state`` (its level read only under
    ``utility=score``)."""
    level = est.level(state) if utility == "score" else None
    return soft_returns(utility, est.estimate(state), est.spread(state), lo, hi, level)


class Rollout:
    """The value of a new leaf: play on from it, then evaluate (see the module docstring).
    ``lo`` and ``span`` are the utility bounds the tree normalises returns with."""

    def __init__(
        self,
        streams: Streams,
        transitions: tuple[Callable, Callable],
        evaluation: ScoreEvaluation | EstimateEvaluation,
        depth: int,
        policy: Callable | None = None,
        epsilon: float = 0.0,
        settle: Callable | None = None,
        bounds: tuple[float, float] = (0.0, 1.0),
    ):
        self.streams = streams
        self.apply, self.legal = transitions
        self.evaluation = evaluation
        self.depth = depth
        self.policy = policy  # the heuristic or a blueprint's, None: uniformly random moves
        self.epsilon = epsilon
        self.settle = settle
        self.lo, self.span = bounds

    def value(self, state, mover: int = -1) -> list[float]:
        """Returns after playing on from ``state``; ``mover`` made the last tree move."""
        rand = self.streams.py.random
        apply, legal_fn, depth = self.apply, self.legal, self.depth
        h, eps, finish = self.policy, self.epsilon, self.settle
        settle = SETTLE_STEPS if finish is not None else 0
        steps = 0
        while True:
            p = state.current_player()
            if p < 0:
                if p == TERMINAL:
                    return state.returns()
                x = rand()
                acc = 0.0
                outcomes = state.chance_outcomes()
                a = outcomes[-1][0]
                for o, q in outcomes:
                    acc += q
                    if x < acc:
                        a = o
                        break
                apply(state, a)
                continue
            if 0 <= depth <= steps:
                if p != mover or settle <= 0 or finish is None:
                    return self.evaluation.returns(state)
                # the mover's turn is unfinished (a sub-choice is pending): the
                # heuristic completes it, so the evaluation sees a whole turn
                settle -= 1
                apply(state, finish(state, self.streams.np))
                continue
            if h is not None and (eps <= 0.0 or rand() >= eps):
                a = h(state, self.streams.np)
            else:
                legal = legal_fn(state, p)
                a = legal[int(rand() * len(legal))]
            apply(state, a)
            steps += 1


def soft_returns(
    mode: str, est, spread: float, lo: float, hi: float, level: float | None = None
) -> list[float]:
    """Expected returns when final scores are ``est`` plus independent noise.

    Player i beats j with probability sigmoid(1.7 (est_i - est_j) / spread), the
    logistic approximation of a normal difference. ``rank``: the expected rank
    return; ``win``: pairwise win chances multiplied, normalised to sum 1;
    ``score``: each estimate's difference from their mean plus ``level`` (the
    players' mean final score expected), clipped to the utility bounds.
    """
    n = len(est)
    if mode == "score":
        if level is None:
            raise ValueError("utility=score needs the level of the final scores")
        mean = sum(float(e) for e in est) / max(1, n)
        return [min(hi, max(lo, float(e) - mean + level)) for e in est]
    k = 1.7 / max(spread, 1e-9)
    exp = math.exp
    beat = [[0.5] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            d = k * (est[i] - est[j])
            q = 1.0 / (1.0 + exp(-d)) if d > -50.0 else 0.0
            beat[i][j] = q
            beat[j][i] = 1.0 - q
    if mode == "win":
        w = []
        for i in range(n):
            x = 1.0
            for j in range(n):
                if j != i:
                    x *= beat[i][j]
            w.append(x)
        total = sum(w) or 1.0
        return [x / total for x in w]
    if n == 1:
        return [0.0]
    return [sum(2.0 * beat[i][j] - 1.0 for j in range(n) if j != i) / (n - 1) for i in range(n)]


def game_evaluation(game):
    """The game's evaluation (``GameSpec.evaluation``, its evaluation module).

    It provides ``estimate(state) -> list[float]``, each player's expected final
    score (fitted on differences: no level), ``spread(state) -> float``, the standard
    deviation of a difference between two players' final scores given the position
    (large early, small late), and ``level(state) -> float``, the players' mean final
    score expected (read under ``utility=score``).
    """
    name = game.get_type().short_name
    evaluation = getattr(_registered(game), "evaluation", None)  # None outside the registry
    if evaluation is None:
        raise ValueError(f"{name} has no evaluation for evaluation=game")
    return evaluation


def learned_evaluation(game, path: str = ""):
    """The learned value model of ``eval=learned`` (``path``, or the game's shipped one),
    bound to the game's evaluation module's features (``solvers.value_model``)."""
    return value_model.model_for(game.get_type().short_name, game_evaluation(game), path)
