"""The game's heuristic inside the tree: the move prior and the opponent model.

Each is chosen once per agent and hands the tree loop (once per simulation) a
``policy(state, rng) -> action`` for the player to move, or None when it plays no part. The
loop calls it with the search's numpy stream as it is at that moment (sequential halving
swaps it). The policy is the heuristic itself, so the loop pays one call per use, as it
would calling the heuristic directly: a method wrapping it ran Bruxelles' default search
0.7-1.0% slower (it asks the opponent model every few tree steps; measured in one process,
alternating, two runs of 10 pairs).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from solvers.search.worlds import Worlds

if TYPE_CHECKING:
    from solvers.search.tree import Streams

Policy = Callable[..., int]


class NoPrior:
    """No move is preferred: a node opens its untried moves in random order."""

    policy: Policy | None = None


class HeuristicPrior:
    """Progressive bias (Chaslot et al. 2008): at each decision node the heuristic's move
    (asked once per node, on the first world that reaches it, and kept as ``Node.hint``) is
    opened first and gets a bias ``prior_w / (n + 1)`` from the selection rule. At the root
    sequential halving asks it on the state the agent was given (as the heuristic agent
    itself is asked: it reads only what the mover may see)."""

    def __init__(self, heuristic: Policy):
        self.heuristic = heuristic

    @property
    def policy(self) -> Policy | None:
        return self.heuristic


class SearchedOpponents:
    """Every player's decisions are searched, each on its own returns."""

    policy: Policy | None = None

    def observe(self, state, me: int) -> None:
        """The real state before a search (only the inferred model learns from it)."""


class HeuristicOpponents:
    """The other players' decisions inside the tree are the heuristic's moves, kept as edges
    without statistics (like chance outcomes), so the budget goes to the root player's own
    decisions."""

    def __init__(self, heuristic: Policy):
        self.heuristic = heuristic

    @property
    def policy(self) -> Policy | None:
        return self.heuristic

    def observe(self, state, me: int) -> None:
        pass


class NoisyOpponents(HeuristicOpponents):
    """The heuristic opponent model, but each modelled decision is a uniformly random legal
    move with probability ``eps`` (robustness to players who are not the heuristic)."""

    def __init__(self, heuristic: Policy, streams: Streams, eps: float, legal: Callable):
        super().__init__(heuristic)
        self.streams = streams
        self.eps = eps
        self.legal = legal

    @property
    def policy(self) -> Policy | None:
        return self.move

    def move(self, state, np_rng) -> int:
        rng = self.streams.py
        if rng.random() < self.eps:
            legal = self.legal(state, state.current_player())
            return legal[rng.randrange(len(legal))]
        return self.heuristic(state, np_rng)


class BlueprintPolicy:
    """A blueprint's move for the player to move (``solvers.blueprint.Blueprint.policy``:
    keyed by the mover's own abstraction key, so it reads only what the mover knows):
    sampled from its average strategy (``sample``) or its most likely action; where the
    blueprint has no row, the ``fallback`` policy (the game's heuristic), else a uniformly
    random legal move. Draws come from the numpy stream the loop hands it."""

    def __init__(self, blueprint, fallback: Policy | None, legal: Callable, sample: bool):
        self.blueprint = blueprint
        self.fallback = fallback
        self.legal = legal
        self.sample = sample

    def __call__(self, state, np_rng) -> int:
        p = state.current_player()
        found = self.blueprint.policy(state, p)
        if found is None:
            if self.fallback is not None:
                return self.fallback(state, np_rng)
            legal = self.legal(state, p)
            return legal[int(np_rng.integers(len(legal)))]
        acts, probs = found
        if not self.sample:
            return acts[max(range(len(acts)), key=lambda j: (probs[j], -acts[j]))]
        x = float(np_rng.random())
        for a, q in zip(acts, probs, strict=True):
            x -= q
            if x < 0.0:
                return a
        return acts[-1]


class BlueprintPrior:
    """``prior=blueprint``: the progressive bias of ``HeuristicPrior`` on the blueprint's most
    likely move at each node (the node's ``hint``; the heuristic where it has no row)."""

    def __init__(self, policy: BlueprintPolicy):
        self.policy: Policy | None = policy


class BlueprintOpponents:
    """``opponents=blueprint``: the other players' decisions inside the tree are sampled
    from the blueprint's average strategy (a mixed strategy, not one fixed reply), kept as
    edges without statistics like ``HeuristicOpponents``."""

    def __init__(self, policy: BlueprintPolicy):
        self.policy: Policy | None = policy

    def observe(self, state, me: int) -> None:
        pass


class Warmup:
    """``opp_until``: a searched opponent decision is the heuristic's move in the simulated
    world (an edge without statistics) until its node has been reached ``T = share * sims``
    times (counted in ``Node.visits``), then it is searched like any other. Without it a
    searched opponent node that is reached a few times tries its moves in turn, so deep in
    the tree the other players play almost at random; with it they play like the heuristic
    holding that world's cards where the search has too few samples to do better, and are
    searched where it has them (near the root)."""

    def __init__(self, heuristic: Policy, share: float):
        self.heuristic = heuristic
        self.share = share

    def start(self, sims: int) -> int:
        """T for a search of ``sims`` simulations."""
        return max(1, round(self.share * sims))


class InferredOpponents:
    """A mixture of the two opponent models, its weight learned from the game so far: each
    other player's decision inside the tree is the heuristic's move with probability
    ``q[p]`` (an edge without statistics, as under ``HeuristicOpponents``), else it is
    searched on that player's own returns (as under ``SearchedOpponents``).

    ``q[p]`` is the posterior mean of a Beta-Bernoulli model of "player p plays the
    heuristic's move": a prior worth ``weight`` observations with mean ``share``, updated by
    every decision p has made so far in this game (``observe``). A decision is scored by
    how often the heuristic, asked in ``samples`` worlds drawn from the *observer's*
    information state at that moment, makes a move that looks to the observer exactly
    like the move p made (the observer's information state after it), so a move the
    observer cannot see counts as a match, and the other players' secrets are never read.
    Against the heuristic q tends to 1 (the heuristic model, cheap and exact); against a
    player unlike it, towards the share of its moves the heuristic would have made.
    """

    def __init__(
        self, game, heuristic: Policy, streams: Streams, prior: tuple, seed: int, fit="match"
    ):
        self.game = game
        self.heuristic = heuristic
        self.streams = streams
        self.share, self.weight = prior
        self.fit = MixtureFit(self.share, self.weight) if fit == "mixture" else None
        self.seed = seed
        self.samples = 4
        self.n = game.num_players()
        self.worlds = Worlds(game, random.Random(seed))
        self._start()

    def _start(self) -> None:
        """Forget the game so far: the prior for every player, replay from the start."""
        self.matches = [0.0] * self.n
        self.seen = [0.0] * self.n
        self.q = [self.share] * self.n
        self.loglik = [np.zeros(GRID.size) for _ in range(self.n)]
        self.worlds.sampler.rng = random.Random(self.seed)
        self.np = np.random.default_rng(self.seed)
        self.history: list[int] = []
        self.replay = self.game.new_initial_state()
        self.me = -1

    @property
    def policy(self) -> Policy | None:
        return self.move

    def move(self, state, np_rng) -> int:
        """The heuristic's move with probability q of the player to move, else -1 (the
        tree searches the decision)."""
        if self.streams.py.random() < self.q[state.current_player()]:
            return self.heuristic(state, np_rng)
        return -1

    def observe(self, state, me: int) -> None:
        """Update q from the moves made since the last call (the whole game on a new game
        or a new seat): the real state is replayed only to draw worlds from ``me``'s
        information state at each decision of another player."""
        history = state.history()
        k = len(self.history)
        if me != self.me or len(history) < k or history[:k] != self.history:
            self._start()
            self.me, k = me, 0
        replay = self.replay
        for a in history[k:]:
            p = replay.current_player()
            if p >= 0 and p != me:
                self._score(replay, p, a)
            replay.apply_action(a)
        self.history = list(history)

    def _score(self, state, p: int, action: int) -> None:
        after = state.clone()
        after.apply_action(action)
        seen = after.information_state_string(self.me)
        hits = valid = 0
        spread = 0.0
        for _ in range(self.samples):
            world = self.worlds.draw(state, self.me)
            legal = world.legal_actions()
            if len(legal) < 2:
                continue  # a forced move (or none in this world) says nothing
            if self.fit is not None and not valid and _hidden_choice(world, legal, self.me):
                return  # every move looks alike to the observer: no evidence either way
            valid += 1
            if self.fit is not None:
                spread += 1.0 / len(legal)
            h = self.heuristic(world, self.np)
            world.apply_action(h)
            hits += world.information_state_string(self.me) == seen
        if not valid:
            return
        self.seen[p] += 1.0
        if self.fit is not None:
            self.q[p] = self.fit.update(self.loglik[p], hits, valid, spread / valid)
            return
        self.matches[p] += hits / valid
        self.q[p] = (self.share * self.weight + self.matches[p]) / (self.weight + self.seen[p])


GRID = np.linspace(0.0125, 0.9875, 40)  # the mixture weights the posterior is kept on


def _hidden_choice(world, legal: list[int], me: int) -> bool:
    """Whether two of the mover's moves look the same to ``me`` (then, as a rule of the
    game's observations, none of its moves can be told apart: a secret choice)."""
    a, b = world.clone(), world.clone()
    a.apply_action(legal[0])
    b.apply_action(legal[-1])
    return a.information_state_string(me) == b.information_state_string(me)


class MixtureFit:
    """``opp_fit=mixture``: each decision of a player is the heuristic's with probability q,
    else a uniformly random legal move; q's posterior (a Beta prior worth ``weight``
    decisions with mean ``share``, times the likelihood of every decision seen) is kept on
    ``GRID`` and its mean returned. A decision's likelihood under the heuristic is the
    share of sampled worlds in which the heuristic's move looks like the move made
    (smoothed, so that four misses are strong but not certain evidence); under the
    alternative, one over the number of legal moves. Unlike ``match`` (the posterior of
    the share of matching moves), a player who is the heuristic drives q towards 1 even
    where the heuristic's move depends on what the observer cannot see, and a player who
    matches the heuristic no more often than a random player drives it towards 0."""

    def __init__(self, share: float, weight: float):
        self.prior = (share * weight - 1.0) * np.log(GRID) + (
            (1.0 - share) * weight - 1.0
        ) * np.log1p(-GRID)

    def update(self, loglik: np.ndarray, hits: int, valid: int, uniform: float) -> float:
        heur = (hits + 0.5) / (valid + 1.0)
        loglik += np.log(GRID * heur + (1.0 - GRID) * uniform)
        post = self.prior + loglik
        w = np.exp(post - post.max())
        return float((w * GRID).sum() / w.sum())
