"""The tree search itself: statistics on edges, one simulation, the budget loop.

A simulation starts from a *world* (the real state, or a determinization for IS-MCTS) and
walks down the tree. Chance outcomes are sampled with their exact probabilities and
modelled opponents play their model's move: both become edges without statistics. At the
mover's own decisions a node opens a new move while its expansion rule allows (the
heuristic's move first under the prior), else the selection rule picks among the moves it
has. The first new move is evaluated (``leaf``), and every player's return is backed up
along the path: each edge stores the value for the player who chose it, normalised to
[0, 1] with the game's utility bounds, so 3-5 player games are searched correctly.

The variable parts (world sampling, opponent model, prior, expansion and selection rules,
leaf evaluation, root selection) are objects chosen once from the agent's parameters
(``solvers.search.build``); this loop never reads an option.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np
import pyspiel

from solvers.fastpath import transition_functions
from spiel_games.common.chance import sample_chance

if TYPE_CHECKING:
    import random

TERMINAL = int(pyspiel.PlayerId.TERMINAL)
TICK = 32  # simulations between two calls of ``on_tick``


class Node:
    """Statistics of one edge (the action that leads here) and its children."""

    __slots__ = ("n", "w", "w2", "avail", "visits", "children", "hint")

    def __init__(self) -> None:
        self.hint = -2  # the heuristic's move at this decision node; -2 = not asked yet
        self.n = 0
        self.visits = 0  # times reached as a decision while it had untried moves (expansion)
        self.w = 0.0  # sum of normalised returns for the player who chose the edge
        self.w2 = 0.0
        self.avail = 0  # simulations in which this edge was legal at its parent
        self.children: dict[int, Node] = {}


class Streams:
    """The random streams of a search, read at every use: ``py`` (chance outcomes, random
    moves, tie-breaks) and ``np`` (what the game's heuristic draws from). Sequential halving
    swaps in a pass's own pair and rewinds it for every move it compares."""

    __slots__ = ("py", "np")

    def __init__(self, rng: random.Random):
        self.py = rng
        self.np: np.random.Generator = np.random.default_rng(0)  # replaced by renew()

    def renew(self) -> None:
        """A fresh heuristic stream for the next move, drawn from the agent's stream."""
        self.np = np.random.default_rng(self.py.getrandbits(63))


Policy = Callable[..., int]  # (state, numpy stream) -> action


class ModelPart(Protocol):
    """The prior or the opponent model: a policy for the player to move, or None."""

    @property
    def policy(self) -> Policy | None: ...


class OpponentsPart(ModelPart, Protocol):
    def observe(self, state, me: int) -> None:
        """Before a search: the real state (an inferred model learns from the moves since)."""


class ExpansionPart(Protocol):
    def start(self, sims: int) -> None: ...

    def opens(self, node: Node, legal, untried, at_root: bool) -> bool: ...


class SelectionPart(Protocol):
    select: Callable[[dict[int, Node], list[int], int], tuple[Node, int]]


class LeafPart(Protocol):
    """A new leaf's returns; ``lo`` and ``span``: the utility bounds returns are normalised by."""

    @property
    def lo(self) -> float: ...

    @property
    def span(self) -> float: ...

    @property
    def evaluation(self) -> object: ...  # what values the leaves (solvers.search.leaf)

    def value(self, state, mover: int = -1) -> list[float]: ...


class RootPart(Protocol):
    def run(self, engine: SearchEngine, state, root: Node, sims: int, seconds: float) -> int: ...


class WorldsPart(Protocol):
    def draw(self, state, player: int): ...


class WarmupPart(Protocol):
    heuristic: Policy

    def start(self, sims: int) -> int: ...


@dataclass(frozen=True)
class Parts:
    """The pieces of one search, as the tree loop reads them (``solvers.search.build``
    chooses and assembles them from the agent's parameters)."""

    streams: Streams
    worlds: WorldsPart
    opponents: OpponentsPart
    prior: ModelPart
    expansion: ExpansionPart
    selection: SelectionPart
    leaf: LeafPart
    root: RootPart
    warmup: WarmupPart | None = None
    tree_depth: int = 0  # searched decisions on a path before its position is evaluated; 0: none


class SearchEngine:
    """UCT / SO-IS-MCTS over one game; ``search(state)`` returns the root node."""

    def __init__(self, game, parts: Parts, determinize: bool = False):
        self.game = game
        self.parts = parts
        self.streams = parts.streams
        self.opponents = parts.opponents
        self.prior = parts.prior
        self.expansion = parts.expansion
        self.selection = parts.selection
        self.leaf = parts.leaf
        self.root_policy = parts.root
        self.worlds = parts.worlds
        # every simulation from a fresh determinization (IS-MCTS), else from a copy
        self.start_world = parts.worlds.draw if determinize else _copy
        self.lo, self.span = parts.leaf.lo, parts.leaf.span
        self._apply, self._legal = transition_functions(game)
        self.warmup = parts.warmup
        self.tree_depth = parts.tree_depth
        self.warm_until = 0  # T of opp_until in the current search (0: off)
        self.root_player = -1
        self.sims_done = 0
        # an advice client may stop a search (``halted``) and watch it (``on_tick(root)``,
        # called about every TICK simulations): both are read by the budget loops only
        self.halted = False
        self.on_tick: Callable[[], None] | None = None

    def tick(self) -> None:
        if self.on_tick is not None:
            self.on_tick()

    def search(self, state, sims: int, seconds: float = 0.0, root: Node | None = None) -> Node:
        """Run ``sims`` simulations (or ``seconds`` when > 0) from ``state``."""
        root = root or Node()
        self.root_player = state.current_player()
        self.expansion.start(sims)  # with a time budget `sims` still sets the scale
        if self.warmup is not None:
            self.warm_until = self.warmup.start(sims)
        self.sims_done = self.root_policy.run(self, state, root, sims, seconds)
        return root

    def simulations(self, state, root: Node, sims: int, seconds: float) -> int:
        """The plain budget loop: each simulation from a fresh world, the root's moves
        chosen like every other node's. Returns the simulations run."""
        player = self.root_player
        t_end = time.perf_counter() + seconds if seconds > 0 else None
        done = 0
        while not self.halted:
            if t_end is not None:
                if done > 0 and time.perf_counter() >= t_end:
                    break
            elif done >= sims:
                break
            self.simulate(root, self.start_world(state, player))
            done += 1
            if not done % TICK:
                self.tick()
        return done

    def simulate(self, root: Node, state, first: int = -1) -> list[float]:
        """One simulation from ``state`` (at ``root``); ``first`` >= 0 forces the root player's
        first move (halving's paired samples). Returns every player's return."""
        streams = self.streams
        rng = streams.py
        apply, legal_moves = self._apply, self._legal
        opponent, prior = self.opponents.policy, self.prior.policy
        opens, select = self.expansion.opens, self.selection.select
        until = self.warm_until
        cap = self.tree_depth or -1
        me = self.root_player
        path: list[tuple[Node, int]] = []
        node, ret = root, None
        if first >= 0:
            node, ret = self._forced(root, state, first, path)
        while ret is None:
            p = state.current_player()
            if p == TERMINAL:
                ret = state.returns()
                break
            # a move that is not searched: a chance outcome or a modelled opponent's
            a = -1
            if p < 0:
                a = sample_chance(state, rng)
            elif p != me:
                if opponent is not None:
                    a = opponent(state, streams.np)
                if a < 0 and node.visits < until:  # a searched decision, still warming up
                    node.visits += 1
                    a = self.warmup.heuristic(state, streams.np)  # type: ignore[union-attr]
            if a >= 0:
                apply(state, a)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = Node()
                node = child
                continue
            if len(path) == cap:  # the tree_depth limit: evaluate this position
                ret = self.leaf.value(state, path[-1][1])
                break
            legal = legal_moves(state, p)
            children = node.children
            if len(legal) == 1:
                a = legal[0]
                child = children.get(a)
                if child is None:
                    child = children[a] = Node()
                child.avail += 1
            else:
                hint = -1
                if prior is not None:
                    hint = node.hint
                    if hint == -2:
                        hint = node.hint = prior(state, streams.np)
                untried = [b for b in legal if b not in children]
                if untried and opens(node, legal, untried, node is root):
                    if hint >= 0 and hint not in children:
                        a = hint
                    else:
                        a = untried[rng.randrange(len(untried))]
                    child = children[a] = Node()
                    for b in legal:
                        ch = children.get(b)
                        if ch is not None:
                            ch.avail += 1
                    path.append((child, p))
                    apply(state, a)
                    ret = self.leaf.value(state, p)
                    break
                if len(untried) == len(legal) - 1 and hint in children and hint in legal:
                    # only the prior's move is open (as unpruning keeps nodes): UCB's pick
                    a, child = hint, children[hint]
                    child.avail += 1
                else:
                    child, a = select(children, legal, hint)
            path.append((child, p))
            apply(state, a)
            node = child
        self._backup(path, ret)
        return ret

    def _forced(self, root: Node, state, a: int, path: list) -> tuple[Node, list | None]:
        """The root player's forced first move; the leaf's returns when it was new."""
        p = state.current_player()
        if a not in self._legal(state, p):
            raise RuntimeError("the world's resampler changed the mover's legal moves")
        # (no availability counts: the root's moves are never chosen by UCB here)
        new = a not in root.children
        child = root.children[a] = Node() if new else root.children[a]
        path.append((child, p))
        self._apply(state, a)
        return child, (self.leaf.value(state, p) if new else None)

    def _backup(self, path: list[tuple[Node, int]], ret) -> None:
        lo, span = self.lo, self.span
        for ch, p in path:
            v = (ret[p] - lo) / span
            ch.n += 1
            ch.w += v
            ch.w2 += v * v


def _copy(state, player: int):
    return state.clone()


class UCBRoot:
    """The root's moves are chosen by UCB like every other node's; the move played is the
    most visited."""

    def run(self, engine: SearchEngine, state, root: Node, sims: int, seconds: float) -> int:
        return engine.simulations(state, root, sims, seconds)
