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

from collections.abc import Callable
from typing import TYPE_CHECKING

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


class HeuristicOpponents:
    """The other players' decisions inside the tree are the heuristic's moves, kept as edges
    without statistics (like chance outcomes), so the budget goes to the root player's own
    decisions."""

    def __init__(self, heuristic: Policy):
        self.heuristic = heuristic

    @property
    def policy(self) -> Policy | None:
        return self.heuristic


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
