"""The game's heuristic inside the tree: the move prior and the opponent model.

Both call the heuristic with the search's numpy stream as it is at that moment (sequential
halving swaps it), as ``heuristic(state, rng) -> action`` for the player to move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solvers.search.tree import Node, Streams


class NoPrior:
    """No move is preferred: a node opens its untried moves in random order."""

    def hint(self, node: Node, state) -> int:
        return -1

    def root_hint(self, state) -> int:
        return -1


class HeuristicPrior:
    """Progressive bias (Chaslot et al. 2008): at each decision node the heuristic's move
    (asked once per node, on the first world that reaches it) is opened first and gets a
    bias ``prior_w / (n + 1)`` from the selection rule."""

    def __init__(self, heuristic: Callable, streams: Streams):
        self.heuristic = heuristic
        self.streams = streams

    def hint(self, node: Node, state) -> int:
        hint = node.hint
        if hint == -2:
            hint = node.hint = self.heuristic(state, self.streams.np)
        return hint

    def root_hint(self, state) -> int:
        """The heuristic's move on the state the agent was given (as the heuristic agent
        itself is asked: it reads only what the mover may see)."""
        return self.heuristic(state, self.streams.np)


class SearchedOpponents:
    """Every player's decisions are searched, each on its own returns."""

    def move(self, state, player: int, root_player: int) -> int:
        return -1


class HeuristicOpponents:
    """The other players' decisions inside the tree are the heuristic's moves, kept as edges
    without statistics (like chance outcomes), so the budget goes to the root player's own
    decisions. ``move`` is -1 for the root player (searched)."""

    def __init__(self, heuristic: Callable, streams: Streams):
        self.heuristic = heuristic
        self.streams = streams

    def move(self, state, player: int, root_player: int) -> int:
        if player == root_player:
            return -1
        return self.heuristic(state, self.streams.np)


class NoisyOpponents(HeuristicOpponents):
    """The heuristic opponent model, but each modelled decision is a uniformly random legal
    move with probability ``eps`` (robustness to players who are not the heuristic)."""

    def __init__(self, heuristic: Callable, streams: Streams, eps: float, legal: Callable):
        super().__init__(heuristic, streams)
        self.eps = eps
        self.legal = legal

    def move(self, state, player: int, root_player: int) -> int:
        if player == root_player:
            return -1
        rng = self.streams.py
        if rng.random() < self.eps:
            legal = self.legal(state, player)
            return legal[rng.randrange(len(legal))]
        return self.heuristic(state, self.streams.np)
