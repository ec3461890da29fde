"""Luck-adjusted results: each chance event's luck, measured with the game's evaluation.

For a chance event at state ``s`` with outcomes ``o`` (probabilities ``p_o``), the luck of
player ``i`` is ``V_i(s.o) - sum_o' p_o' V_i(s.o')``: the value after the outcome that
happened minus its expectation over the outcomes. A player's luck-adjusted score is the
final score minus the sum of its luck. The adjustment is unbiased whatever ``V`` is:
each event's luck has expectation zero given everything before it (the outcome is drawn
with exactly those probabilities), so the adjusted score has the raw score's expectation
(GNU Backgammon's luck-adjusted result, the chance terms of poker's AIVAT). How much it
removes depends on ``V``. A decision of an agent whose strategy is known (``random``,
``noisy``, ``heuristic``) is luck in the same sense and gets the same term, its
expectation taken over the strategy (AIVAT's action terms; ``tournament.luck_policies``).

``V`` here (``evaluator_for``; rollouts by the seats' known strategies are the other
choice, ``tournament.luck_rollouts``):

- ``V_i(s)``, each player's expected final score, is the game's evaluation
  (``GameSpec.evaluation.estimate``; the learned value model where ``eval=auto`` uses it).
  The evaluations read what players hold, not the cards on display or the deck, so a
  chance event that only turns up a card would show no luck at all; with ``lookahead``
  (the default) ``V`` is read after the game's heuristic has played every seat up to the
  next chance event (a fixed seed: ``V`` stays a function of the state), so a card's luck
  is what it is worth once someone takes it;
- for results by rank, ``W_ij(s) = Phi((V_i - V_j) / spread(s))``, the chance that i
  finishes ahead of j (``spread`` is the evaluation's standard deviation of a score
  difference); at the end of the game ``W_ij`` is the result itself (1, 1/2 or 0). The
  adjusted pairwise result ``1{i ahead of j} - sum of W_ij luck`` is unbiased for the
  probability of finishing ahead, which is what Elo models; `meeple ratings
  --luck-adjusted` rates on it;
- the opening (every chance event before the first decision: the deal, the setup) is
  one event; its expectation is the mean of ``V`` over ``OPENING_SAMPLES`` openings drawn
  with a fixed seed (the only estimated expectation: its standard error is reported);
- ratings subtract a share of the luck (``cross_fitted_scale``: the control variate's best
  coefficient, estimated on the other half of the duplicate sets), because with these
  evaluations the full luck adds more noise than it removes (docs/TOURNAMENTS-STATS.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import ndtr

import spiel_games
from solvers import value_model
from spiel_games.common.chance import sample_chance
from spiel_games.common.registry import get_spec
from tournament.luck_rollouts import rollout_evaluator
from tournament.luck_values import LuckError, terminal_values

OPENING_SAMPLES = 40_000  # its standard error is a bias shared by every game: keep it small
LOOKAHEAD_STEPS = 500  # decisions the heuristic plays at most before V is read
LUCK_VERSION = 3
BASELINE_SALT = 0x1BCE  # keeps the baselines' streams apart from every agent's


@dataclass
class Evaluator:
    """V and W of a game: expected final scores and finishing-ahead probabilities."""

    game: Any
    estimate: Callable[[Any], Any]
    spread: Callable[[Any], float]
    heuristic: Callable[[Any, Any], Any] | None  # plays every seat before V is read
    name: str
    opening_samples: int = OPENING_SAMPLES
    max_outcomes: int | None = None  # every chance outcome is valued

    def settle(self, state):
        """The state after the heuristic has played up to the next chance event."""
        if self.heuristic is None or state.is_terminal() or state.is_chance_node():
            return state
        s = state.clone()
        rng = np.random.default_rng(0)
        for _ in range(LOOKAHEAD_STEPS):
            if s.is_terminal() or s.is_chance_node():
                break
            s.apply_action(int(self.heuristic(s, rng)))
        return s

    def values(self, state, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(V per player, W per ordered pair) at ``state`` (``seed``: unused, V is a
        function of the state)."""
        s = self.settle(state)
        if s.is_terminal():
            return terminal_values(s)
        v = np.asarray(self.estimate(s), dtype=float)
        sd = max(float(self.spread(s)), 1e-6)
        return v, ndtr((v[:, None] - v[None, :]) / sd)


VALUES = ("lookahead", "evaluation", "rollouts")  # what ``evaluator_for`` builds


def evaluator_for(game_string: str, value: str = "lookahead"):
    """The value function luck is measured with (``VALUES``): the game's evaluation read
    after the heuristic plays to the next chance event, the evaluation as it stands, or
    rollouts by the seats' known strategies (``tournament.luck_rollouts``)."""
    if value not in VALUES:
        raise LuckError(f"unknown luck value {value!r}; choose from {', '.join(VALUES)}")
    if value == "rollouts":
        return rollout_evaluator(game_string)
    game = spiel_games.load_game(game_string)
    spec = get_spec(game_string)
    ev = spec.evaluation
    if ev is None:
        raise LuckError(f"{spec.short_name} has no evaluation to measure luck with")
    source, est, spread = "evaluation", ev.estimate, ev.spread
    if spec.search_defaults.eval_auto == "learned" and value_model.shipped_path(ev).exists():
        model = value_model.model_for(spec.short_name, ev)
        source, est, spread = "learned value model", model.estimate, model.spread
    heuristic = spec.heuristic if value == "lookahead" else None
    how = ", read after the heuristic plays to the next chance event" if heuristic else ""
    return Evaluator(game, est, spread, heuristic, f"{spec.short_name} {source}{how}")


@dataclass
class Opening:
    """Expectation of V and W over the opening (chance events before the first decision)."""

    v: np.ndarray
    w: np.ndarray
    v_se: np.ndarray  # standard error of each mean (the only estimated expectation)
    samples: int


def first_decision(state, rng):
    s = state
    while s.is_chance_node():
        s.apply_action(sample_chance(s, rng))
    return s


def opening(ev, samples: int | None = None, seed: int = 20) -> Opening:
    samples = samples or ev.opening_samples
    rng = np.random.default_rng(seed)
    vs, ws = [], []
    for k in range(samples):
        v, w = ev.values(first_decision(ev.game.new_initial_state(), rng), seed=k)
        vs.append(v)
        ws.append(w)
    v_arr = np.array(vs)
    return Opening(
        v_arr.mean(axis=0), np.mean(ws, axis=0), v_arr.std(axis=0) / math.sqrt(samples), samples
    )


@dataclass
class GameLuck:
    luck: np.ndarray  # per seat, score units (the opening included)
    pair_luck: np.ndarray  # [i, j]: luck in i's chance of finishing ahead of j
    events: int  # chance events measured (the opening counts as one)
    opening_luck: np.ndarray = field(default_factory=lambda: np.zeros(0))
    decisions: int = 0  # unforced decisions of known-policy seats measured


def _expected(ev, state, weighted: list[tuple[int, float]], played: int, seed: int):
    """(V, W) after the move or outcome played, and their expectation over ``weighted``;
    every child valued with the same ``seed`` (common random numbers)."""
    cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for a, _ in [*weighted, (played, 0.0)]:
        if a not in cache:
            child = state.clone()
            child.apply_action(a)
            cache[a] = ev.values(child, seed=seed)
    v = sum(p * cache[a][0] for a, p in weighted)
    w = sum(p * cache[a][1] for a, p in weighted)
    return cache[played], (v, w)


def _drawn(weighted: list[tuple[int, float]], m: int | None, rng) -> list[tuple[int, float]]:
    """``m`` outcomes drawn by their probabilities, at weight 1/m each (an unbiased estimate
    of the expectation, drawn apart from the outcome played), or all of them."""
    if m is None or len(weighted) <= m:
        return weighted
    p = np.array([q for _, q in weighted])
    picks = rng.choice(len(weighted), size=m, p=p / p.sum())
    return [(weighted[k][0], 1.0 / m) for k in picks]


def game_luck(
    ev, actions: list[int], start: Opening, baselines=None, seed: int = 0, opening_ev=None
) -> GameLuck:
    """The luck of every chance event of one game, replayed from its moves; with
    ``baselines`` (per seat, ``tournament.luck_policies``), also the luck of the decisions
    of the seats whose strategy is known (None: no term for that seat). ``seed``: the
    baselines' draws; give every game its own (the same draws in every game would make the
    estimated expectations err the same way in every game, which does not average out),
    the value function's seeds and the outcomes drawn where ``ev.max_outcomes`` caps them.
    ``opening_ev``: the value function ``start`` was measured with, when not ``ev`` (the
    opening's luck compares values of one function: rollouts by the seats' strategies
    value the game's later events, the opening keeps the one its expectation was taken
    with; each event's term is unbiased whatever function values it)."""
    state = ev.game.new_initial_state()
    i = 0
    while state.is_chance_node():
        state.apply_action(actions[i])
        i += 1
    draws = np.random.default_rng([BASELINE_SALT, seed, 1])  # V's seeds, drawn outcomes
    v, w = (opening_ev or ev).values(state, seed=int(draws.integers(2**62)))
    luck, pair = v - start.v, w - start.w
    opening_luck = luck.copy()
    events, decisions = 1, 0
    rng = np.random.default_rng([BASELINE_SALT, seed])  # independent of the moves played
    for a in actions[i:]:
        weighted = None
        if state.is_chance_node():
            weighted = [(int(o), float(p)) for o, p in state.chance_outcomes()]
            if all(o != a for o, _ in weighted):
                raise LuckError(f"chance outcome {a} is not among the outcomes")
            weighted = _drawn(weighted, ev.max_outcomes, draws)
            events += 1
        elif (
            baselines
            and state.current_player() >= 0  # a simultaneous node is no one seat's move
            and baselines[state.current_player()] is not None
            and len(state.legal_actions()) > 1
        ):
            weighted = baselines[state.current_player()](state, rng)
            decisions += 1
        if weighted and any(x != a for x, _ in weighted):
            now, mean = _expected(ev, state, weighted, a, int(draws.integers(2**62)))
            luck += now[0] - mean[0]
            pair += now[1] - mean[1]
        state.apply_action(a)
    return GameLuck(luck, pair, events, opening_luck, decisions)


def cross_fitted_scale(results, lucks, folds) -> np.ndarray:
    """The share ``beta`` of the luck to subtract, per item, as a control variate:
    ``result - beta * luck`` has the least variance at ``beta = Cov(result, luck) /
    Var(luck)``, and stays unbiased for any ``beta`` fixed apart from the item's own luck.
    So ``beta`` is estimated on the other fold (two folds, by duplicate set), clipped to
    [0, 1]: where the evaluation's luck is mostly noise, little of it is subtracted."""
    results, lucks, folds = (np.asarray(x, dtype=float) for x in (results, lucks, folds))
    out = np.zeros(len(results))
    for f in (0, 1):
        other = folds != f
        if other.sum() < 3 or np.var(lucks[other]) == 0:
            continue
        c = np.cov(results[other], lucks[other])
        out[folds == f] = min(max(c[0, 1] / c[1, 1], 0.0), 1.0)
    return out
