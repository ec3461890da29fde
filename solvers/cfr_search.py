"""Online CFR (``cfr-search``): a depth-limited subgame solved at every decision.

At each decision of player p the agent builds a subgame (Brown and Sandholm's
depth-limited solving, as in Modicum, at this machine's scale):

- its root is a chance node over ``worlds`` states drawn from p's information state
  through the game's resampler (``solvers.search.world_sampler``): never the true hidden
  state, so the agent cannot peek;
- from each world the game is played for ``depth`` further decisions (positions with more
  than one legal move, whoever makes them); chance is sampled with its own
  probabilities; then the game's heuristic plays ``rollout`` more decisions (0: none),
  and the game's evaluation (``GameSpec.evaluation``, or the learned value
  model where the game uses it) turns the position into expected returns
  (``solvers.search.soft_returns``; under ``utility=score`` each estimate's difference from
  the players' mean plus the evaluation's ``level``), as IS-MCTS does at its cut-off;
- information sets: p's root decision is ONE information set across every world (so the
  strategy there is a single mixed strategy, which is what matters at secret
  simultaneous choices); below it, a decision of player q is keyed by its depth, q and
  the game's abstraction key for q (built only from what q knows), so nobody's decision
  in the subgame reads a secret that is not theirs.

The subgame is solved by external-sampling MCCFR with CFR+'s regret matching+ (regrets
floored at zero) and linearly weighted averaging: per iteration one world and one
traverser (in turn). The move is sampled from the root's average strategy (a mixed
strategy); ``analyse`` reports it with each move's mean sampled value.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from solvers import units, value_model
from solvers.base import MAX_COUNT, MAX_SECONDS, Agent, AgentKind, Analysis, MoveStat, Param
from solvers.fastpath import transition_functions
from solvers.mccfr_sampling import pick
from solvers.search import game_evaluation, learned_evaluation, world_sampler
from solvers.search.leaf import estimate_returns
from solvers.spec import AgentSpecError
from spiel_games.common import level
from spiel_games.common.chance import UniformSampler, sample_chance
from spiel_games.common.registry import get_spec

TERMINAL = int(pyspiel.PlayerId.TERMINAL)
ROOT = ("root",)


class _Info:
    """Regrets (floored at 0) and the weighted average strategy of one information set."""

    __slots__ = ("actions", "regret", "avg")

    def __init__(self, actions: list[int]):
        self.actions = actions
        self.regret = [0.0] * len(actions)
        self.avg = [0.0] * len(actions)

    def strategy(self) -> list[float]:
        total = sum(self.regret)
        n = len(self.regret)
        return [r / total for r in self.regret] if total > 0 else [1.0 / n] * n

    def average(self) -> list[float]:
        total = sum(self.avg)
        n = len(self.avg)
        return [x / total for x in self.avg] if total > 0 else [1.0 / n] * n


class SubgameSolver:
    """External-sampling CFR+ over a depth-limited subgame of sampled worlds."""

    def __init__(
        self,
        game,
        rng: random.Random,
        depth: int,
        evaluation,
        prior=None,
        prior_w=0.0,
        branches=1,
        rollout=0,
        heuristic=None,
    ):
        self.game = game
        self.rollout, self.heuristic = rollout, heuristic  # its decisions past the depth limit
        self.rng = rng
        self.depth = depth
        self.branches = branches
        self.est = evaluation
        self.players = game.num_players()
        self.utility = str(game.get_parameters().get("utility", "rank"))
        if self.utility == "score":
            level.prepare(game)  # a table its rules need is measured now, not mid-search
        self.lo = float(game.min_utility())
        self.hi = float(game.max_utility())
        self.apply, self.legal = transition_functions(game)
        key = get_spec(game.get_type().short_name).abstraction
        if key is None:
            raise AgentSpecError("agent 'cfr-search' needs a game with an abstraction")
        self.key = key
        self.infos: dict[tuple, _Info] = {}
        # Warm start: a new information set's regret starts at prior_w on the prior's move
        # (the heuristic's), so CFR+ starts from it and leaves it as regrets accrue.
        self.prior = prior
        self.prior_w = prior_w
        self.np_rng = np.random.default_rng(rng.getrandbits(63))
        self.root_values: list[float] = []
        self.root_counts: list[int] = []
        self.iterations = 0
        self.halted: Callable[[], bool] = lambda: False  # the agent's halt (another thread)

    def _new_info(self, state, legal: list[int]) -> _Info:
        info = _Info(list(legal))
        if self.prior is not None and self.prior_w > 0:
            a = self.prior(state, self.np_rng)
            if a in legal:
                info.regret[legal.index(a)] = self.prior_w
        return info

    def solve(self, worlds: list, root_actions: list[int], iterations: int, seconds: float):
        """Iterate until the budget is spent, or ``halted()`` (checked between iterations,
        after the first) says stop."""
        self.infos[ROOT] = self._new_info(worlds[0].clone(), list(root_actions))
        self.root_values = [0.0] * len(root_actions)
        self.root_counts = [0] * len(root_actions)
        end = time.perf_counter() + seconds if seconds > 0 else None
        while True:
            if end is None and self.iterations >= iterations:
                break
            if self.iterations > 0 and (
                (end is not None and time.perf_counter() >= end) or self.halted()
            ):
                break
            world = worlds[self.rng.randrange(len(worlds))].clone()
            traverser = self.iterations % self.players
            self.iterations += 1
            self._walk(world, traverser, 0, self.branches)
        return self.infos[ROOT]

    def _value(self, state) -> list[float]:
        steps = self.rollout
        while steps > 0 and not state.is_terminal():
            p = state.current_player()
            if p < 0:
                self.apply(state, sample_chance(state, self.rng))
                continue
            self.apply(state, int(self.heuristic(state, self.np_rng)))
            steps -= 1
        if state.is_terminal():
            return list(state.returns())
        return estimate_returns(self.est, self.utility, state, self.lo, self.hi)

    def _walk(self, state, traverser: int, depth: int, branches: int) -> float:
        """The traverser's sampled value of ``state``; it branches on every action at its
        next ``branches`` decisions and follows its current strategy after them."""
        apply, legal_fn = self.apply, self.legal
        while True:
            p = state.current_player()
            if p == TERMINAL:
                return state.returns()[traverser]
            if p < 0:
                apply(state, sample_chance(state, self.rng))
                continue
            legal = legal_fn(state, p)
            if len(legal) == 1 and depth > 0:  # the root (depth 0) is a decision: advice
                apply(state, legal[0])  # reads its statistics even for its one legal move
                continue
            if depth >= self.depth:
                return self._value(state)[traverser]
            info = self._info(state, p, legal, depth)
            sigma = info.strategy()
            depth += 1
            if p != traverser or branches == 0:
                if p != traverser:
                    weight = float(self.iterations)  # linear averaging (CFR+)
                    for j, q in enumerate(sigma):
                        info.avg[j] += weight * q
                apply(state, legal[pick(self.rng.random(), sigma)])
                continue
            values = []
            for j, a in enumerate(legal):
                child = state.clone() if j < len(legal) - 1 else state
                apply(child, a)
                values.append(self._walk(child, traverser, depth, branches - 1))
            v = sum(q * x for q, x in zip(sigma, values, strict=True))
            for j, x in enumerate(values):
                info.regret[j] = max(0.0, info.regret[j] + x - v)  # regret matching+
            if depth == 1:
                for j, x in enumerate(values):
                    self.root_values[j] += x
                    self.root_counts[j] += 1
            return v

    def _info(self, state, p: int, legal: list[int], depth: int) -> _Info:
        key = ROOT if depth == 0 else (depth, p, self.key(state, p))
        info = self.infos.get(key)
        if info is None or info.actions != legal:
            key = key if info is None else (*key, tuple(legal))
            info = self.infos.get(key)
            if info is None:
                info = self.infos[key] = self._new_info(state, list(legal))
        return info


class CFRSearchAgent(Agent):
    def __init__(self, game, params: dict, seed: int, evaluation):
        self.game = game
        self.params = params
        self.rng = random.Random(seed)
        self.sampler = UniformSampler(self.rng)
        self.world = world_sampler(game)
        self.hidden = (
            game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION
        )
        self.evaluation = evaluation
        heuristic = get_spec(game.get_type().short_name).heuristic
        self.prior = heuristic if params["prior"] == "heuristic" else None
        if params["rollout"] > 0 and heuristic is None:
            raise AgentSpecError("parameter 'rollout' of agent 'cfr-search' needs a heuristic")
        self.heuristic = heuristic
        # play the root's average strategy (a mixed strategy), or its most likely move
        mode = params["play"]
        self.sample = mode == "sample" or (mode == "auto" and self.hidden)
        self.last_iterations = 0
        self.halted = False  # set by halt (another thread): the solve stops early

    def halt(self) -> bool:
        self.halted = True
        return True

    def _solve(self, state) -> tuple[list[int], list[float], SubgameSolver]:
        p = state.current_player()
        legal = list(state.legal_actions(p))
        n = self.params["worlds"] if self.hidden else 1
        worlds = [self.world(state, p, self.sampler) if self.hidden else state for _ in range(n)]
        solver = SubgameSolver(
            self.game,
            self.rng,
            self.params["depth"],
            self.evaluation,
            self.prior,
            self.params["prior_w"],
            self.params["branches"],
            self.params["rollout"],
            self.heuristic,
        )
        solver.halted = lambda: self.halted
        info = solver.solve(worlds, legal, self.params["iterations"], self.params["time"])
        self.last_iterations = solver.iterations
        return legal, info.average(), solver

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        actions, probs, _ = self._solve(state)
        if self.sample:
            return actions[pick(self.rng.random(), probs)]
        return actions[max(range(len(actions)), key=lambda j: (probs[j], -actions[j]))]

    def analyse(self, state) -> Analysis:
        p = state.current_player()
        actions, probs, solver = self._solve(state)
        moves = []
        for j, a in enumerate(actions):
            n = solver.root_counts[j]
            value = solver.root_values[j] / n if n else float("nan")
            moves.append(MoveStat(a, state.action_to_string(p, a), n, value, prob=probs[j]))
        moves.sort(key=lambda m: (-(m.prob or 0.0), m.action))
        budget = {"iterations": self.params["iterations"], "iterations_done": solver.iterations}
        if self.params["time"] > 0:
            budget = {"seconds": self.params["time"], "iterations_done": solver.iterations}
        return Analysis(player=p, moves=moves, budget=budget, units=units.CFR_SEARCH)


def _evaluation(game, choice: str):
    name = game.get_type().short_name
    try:
        spec = get_spec(name)
    except KeyError:
        raise AgentSpecError(f"agent 'cfr-search' needs a meeple game, not {name}") from None
    if spec.evaluation is None or spec.abstraction is None:
        raise AgentSpecError(f"agent 'cfr-search': {name} has no evaluation or abstraction")
    if choice == "auto":
        shipped = value_model.shipped_path(spec.evaluation).exists()
        choice = "learned" if spec.search_defaults.eval_auto == "learned" and shipped else "game"
    if choice == "learned":
        return learned_evaluation(game)
    if choice == "game":
        return game_evaluation(game)
    raise AgentSpecError("parameter 'eval' of agent 'cfr-search' must be auto, game or learned")


def _make(game, params: dict, seed: int) -> Agent:
    """The ranges and choices are checked by the typed parameters before this runs."""
    return CFRSearchAgent(game, params, seed, _evaluation(game, params["eval"]))


# Upper bounds of the subgame's shape. A traversal's leaves multiply by the legal moves (up
# to about 30 on Rococo and Bruxelles 1893) at each of the traverser's first ``branches``
# decisions, and each leaf walks up to ``depth`` + ``rollout`` decisions, so one iteration
# costs about moves**branches * (depth + rollout) steps (a large branches with a large
# depth would be plain external sampling, an iteration that never ends). With all three at
# these bounds an iteration took up to about 1 CPU second on Bruxelles 1893, the slowest
# game (under 0.1 s on Rococo and Coloretto), so the default 400 iterations stay within
# minutes on one core and a ``time`` budget, checked between iterations, is overrun by
# about a second at most.
MAX_DEPTH = 20
MAX_ROLLOUT = 40
MAX_BRANCHES = 3

CFR_SEARCH = AgentKind(
    name="cfr-search",
    summary="online CFR: a depth-limited subgame over worlds sampled from the player's "
    "information state, solved by external-sampling CFR+; plays the root's mixed strategy",
    params=(
        Param(
            "iterations",
            int,
            400,
            "CFR iterations per decision (one world, one traverser)",
            range=(1, MAX_COUNT),
        ),
        Param(
            "time",
            float,
            0.0,
            "seconds per decision; when > 0 it replaces iterations",
            range=(0.0, MAX_SECONDS),
            special=((0.0, "the iterations budget"),),
        ),
        Param(
            "worlds",
            int,
            16,
            "worlds drawn from the information state per decision",
            range=(1, MAX_COUNT),
        ),
        Param(
            "depth",
            int,
            6,
            "decisions below the root before the evaluation (bounded: every leaf of a "
            "traversal walks them)",
            range=(1, MAX_DEPTH),
        ),
        Param(
            "rollout",
            int,
            0,
            "decisions the game's heuristic plays after the depth limit, before the evaluation "
            "(bounded: every leaf of a traversal plays them)",
            range=(0, MAX_ROLLOUT),
        ),
        Param(
            "branches",
            int,
            1,
            "a traversal tries every action at the traverser's first N decisions and follows "
            "its strategy after them (bounded: each one multiplies a traversal's leaves by "
            "the legal moves there, up to about 30)",
            range=(1, MAX_BRANCHES),
        ),
        Param(
            "eval",
            str,
            "auto",
            "evaluation at the depth limit (auto: the game's measured choice, as ismcts)",
            choices=("auto", "game", "learned"),
        ),
        Param(
            "prior",
            str,
            "heuristic",
            "warm start of every information set",
            choices=("heuristic", "none"),
        ),
        Param(
            "prior_w",
            float,
            0.05,
            "initial regret of the prior's move (return units)",
            range=(0.0, 1e6),  # past any game's return range, and finite when summed
        ),
        Param(
            "play",
            str,
            "auto",
            "sample the root's mixed strategy, or play its most likely move (best); auto: "
            "sample where the game has hidden information",
            choices=("auto", "sample", "best"),
        ),
    ),
    factory=_make,
)
