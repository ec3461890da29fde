"""The three search agents: MCTS, IS-MCTS and PIMC, one engine each, built once per agent.

Each move draws a fresh heuristic stream from the agent's stream and searches a new tree;
the move played is the most visited root move.
"""

from __future__ import annotations

import random
import time

from solvers.base import Agent, Analysis, Compare
from solvers.search.analysis import compared_analysis, merge_into, root_analysis
from solvers.search.build import build_parts
from solvers.search.tree import Node, SearchEngine
from solvers.search.worlds import has_hidden_information


def best_action(root: Node, legal) -> int:
    """Most visited legal move; ties broken by mean value, then by the lower id."""

    def key(a):
        ch = root.children.get(a)
        if ch is None or ch.n == 0:
            return (0, -1.0, -a)
        return (ch.n, ch.w / ch.n, -a)

    return max(legal, key=key)


class _SearchAgent(Agent):
    # whether each simulation starts from its own determinization (IS-MCTS)
    determinizes = False
    compares = True

    def __init__(self, game, params: dict, seed: int):
        self.game = game
        self.params = params
        self.seed = seed
        self.rng = random.Random(seed)
        self.hidden = has_hidden_information(game)
        self.last_sims = 0
        parts = build_parts(game, params, self.rng)
        self.engine = SearchEngine(game, parts, self.determinizes and self.hidden)
        self.live = Node()  # the root being searched (for partial answers)
        self.world = None  # the world MCTS searched this move (hidden-information games)

    def _budget(self) -> dict:
        if self.params.get("time", 0.0) > 0:
            return {"seconds": self.params["time"]}
        return {"sims": self.params["sims"]}

    def _root(self, state) -> Node:
        """The searched root of this move (the engine's streams renewed first)."""
        raise NotImplementedError

    def _prepare(self, state) -> SearchEngine:
        """Before a search: the opponent model sees the real state (the inferred model
        learns from the moves made since), then a fresh heuristic stream."""
        eng = self.engine
        eng.opponents.observe(state, state.current_player())
        eng.streams.renew()
        return eng

    def analyse(self, state, compare: Compare | None = None) -> Analysis:
        """The searched root's statistics; with ``compare``, the listed moves compared on
        paired passes after the search (``solvers.search.compare``)."""
        root = self._root(state)
        budget = self._budget()
        budget["sims_done"] = self.last_sims
        if compare is None:
            return root_analysis(state, root, self.engine.lo, self.engine.span, budget)
        choice = best_action(root, state.legal_actions())
        return compared_analysis(self.engine, state, root, self._draw, compare, budget, choice)

    def halt(self) -> bool:
        self.engine.halted = True  # read by the budget loops and the comparison passes
        return True

    def partial(self, state) -> Analysis:
        """The statistics of the search running now (``analyse`` from another thread)."""
        budget = self._budget()
        return root_analysis(state, self.live, self.engine.lo, self.engine.span, budget)

    def _draw(self, state, player: int):
        """The world of a comparison pass: a fresh one where the search draws one per
        simulation, else the world the search ran on."""
        if not self.hidden:
            return state.clone()
        if self.world is not None:
            return self.world.clone()
        return self.engine.worlds.draw(state, player)

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return best_action(self._root(state), legal)


class MCTSAgent(_SearchAgent):
    """UCT on the true state. On a game with hidden information it searches one
    world sampled from the mover's information state per move (it never peeks)."""

    def _root(self, state) -> Node:
        eng = self._prepare(state)
        world = state
        if self.hidden:
            world = self.world = eng.worlds.draw(state, state.current_player())
        self.live = Node()
        root = eng.search(world, self.params["sims"], self.params["time"], self.live)
        self.last_sims = eng.sims_done
        return root


class ISMCTSAgent(_SearchAgent):
    """Single-observer IS-MCTS: every simulation starts from a fresh determinization."""

    determinizes = True

    def _root(self, state) -> Node:
        eng = self._prepare(state)
        self.live = Node()
        root = eng.search(state, self.params["sims"], self.params["time"], self.live)
        self.last_sims = eng.sims_done
        return root


class PIMCAgent(_SearchAgent):
    """Perfect-information Monte Carlo: sample `worlds` determinizations, run UCT in
    each (always the UCB root: the vote is the visits summed over worlds).

    With ``time`` the budget is a deadline for the whole move: each world gets the time
    left shared over the worlds left (at least one simulation), and no further world is
    drawn once it has passed, so fewer than ``worlds`` worlds may be searched. A halt
    (``halt``) stops between two simulations: no further world is drawn either."""

    last_worlds = 0  # worlds searched so far in the current (or last) move

    def _budget(self) -> dict:
        done = {"worlds_done": self.last_worlds}
        if self.params["time"] > 0:
            return {"seconds": self.params["time"], "worlds": self.params["worlds"], **done}
        return {"worlds": self.params["worlds"], "sims": self.params["sims"], **done}

    def _root(self, state) -> Node:
        eng = self._prepare(state)
        worlds, seconds = self.params["worlds"], self.params["time"]
        end = time.perf_counter() + seconds if seconds > 0 else None
        total = self.live = Node()
        sims = self.last_worlds = 0
        player = state.current_player()
        for i in range(worlds):
            if eng.halted:
                break
            per_world = 0.0
            if end is not None:
                left = end - time.perf_counter()
                if left <= 0 and self.last_worlds:
                    break
                per_world = max(left, 1e-9) / (worlds - i)  # > 0: still a time budget
            world = eng.worlds.draw(state, player) if self.hidden else state
            root = eng.search(world, self.params["sims"], per_world)
            sims += eng.sims_done
            self.last_worlds += 1
            merge_into(total.children, root)
        self.last_sims = sims
        return total
