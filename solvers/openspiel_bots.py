"""OpenSpiel's own Python IS-MCTS bot as an agent kind: an outside reference in the pool.

``openspiel-ismcts`` runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (Cowling et al.'s
single-observer IS-MCTS as OpenSpiel implements it) unchanged, with OpenSpiel's random
rollout evaluator: nodes keyed by information-state strings, every decision searched (no
opponent model), no game knowledge. OpenSpiel's IS-MCTS refuses perfect-information games
(Coloretto: the deck is a chance node, nothing is private); there the kind runs OpenSpiel's
Python ``MCTSBot`` with the same evaluator, which is what IS-MCTS reduces to when every
player sees everything. It shares no code with this project's search, which is why the
strength benchmark seats it: a yardstick that was not tuned here.

Two adaptations, neither inside the bot: its world samples come from the game's
``resample_from_infostate`` driven by a generator seeded from the agent's seed (the bot's
default sampler is an unseeded C++ stream, so games would not replay), and its numpy
random state is seeded the same way. Every call goes through the pybind bridge, so it is
several times slower per simulation than the project's own search (docs/STRENGTH.md gives
its seconds per decision).

The advice engine can stop a search (``halt``, its ``terminate``): the bots are OpenSpiel's
classes with one check added before each simulation (the method their loop calls once per
simulation), which, once the root has been visited, ends the search with the move the bot
would pick from its tree as it stands. Without a halt they run exactly as OpenSpiel's.

For advice (``analyse``) the agent runs the same search as ``step`` and reads the bot's
root: each move's simulations and mean return for the player to move, most visited first,
the bot's own pick as ``choice``; no interval (OpenSpiel keeps no squared sums), and the
fields that do not apply are declared in ``Analysis.units`` (``solvers.units``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from solvers import units
from solvers.base import MAX_COUNT, Agent, AgentKind, Analysis, MoveStat, Param
from solvers.spec import AgentSpecError


class _Halted(Exception):
    """A halted search's end (OpenSpiel's loops have no other exit), with its move."""

    def __init__(self, action: int):
        super().__init__(action)
        self.action = int(action)


class _ISMCTSBot(ismcts.ISMCTSBot):
    halted: Callable[[], bool] = staticmethod(lambda: False)

    def sample_root_state(self, state):  # once per simulation, before it
        if self.halted() and self._root_node.total_visits > 0:
            actions, probs = zip(*self.get_final_policy(state, self._root_node), strict=True)
            raise _Halted(self._random_state.choice(actions, p=probs))  # as step() picks
        return super().sample_root_state(state)


class _MCTSBot(mcts.MCTSBot):
    halted: Callable[[], bool] = staticmethod(lambda: False)

    root = None  # the tree of the search running or last run (analyse reads it)

    def _apply_tree_policy(self, root, state):  # once per simulation, before it
        self.root = root
        if self.halted() and any(child.explore_count for child in root.children):
            raise _Halted(root.best_child().action)  # as step() picks
        return super()._apply_tree_policy(root, state)


class OpenSpielISMCTSAgent(Agent):
    def __init__(self, game, params: dict, seed: int):
        # (sims and rollouts are refused below 1 by their declarations; a Param's range is
        # inclusive, so the strict bound on uct_c stays here)
        if params["uct_c"] <= 0:
            raise AgentSpecError(
                f"parameter 'uct_c' of agent 'openspiel-ismcts' must be > 0, got {params['uct_c']}"
            )
        self.game = game
        self.params = dict(params)
        self.seed = seed
        self.halted = False  # set by halt (another thread): the search ends early
        self.reset()

    def reseed(self, seed: int) -> None:
        """The bot's streams restart from ``seed`` (they live in the bot: rebuilt)."""
        self.seed = seed
        self.reset()

    def reset(self) -> None:
        np_state = np.random.RandomState(self.seed % 2**32)
        sampler = random.Random(self.seed)
        p = self.params
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=p["rollouts"], random_state=np_state)
        info = self.game.get_type().information
        if info == pyspiel.GameType.Information.PERFECT_INFORMATION:
            self.bot = _MCTSBot(
                self.game,
                p["uct_c"],
                p["sims"],
                evaluator,
                solve=False,
                random_state=np_state,
            )
            self.bot.halted = lambda: self.halted
            return
        self.bot = _ISMCTSBot(
            self.game,
            evaluator,
            uct_c=p["uct_c"],
            max_simulations=p["sims"],
            max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=np_state,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            use_observation_string=False,
            allow_inconsistent_action_sets=False,
            child_selection_policy=ismcts.ChildSelectionPolicy.UCT,
        )
        self.bot.set_resampler(
            lambda state, player: state.resample_from_infostate(player, sampler.random)
        )
        self.bot.halted = lambda: self.halted

    def halt(self) -> bool:
        self.halted = True
        return True

    def step(self, state) -> int:
        try:
            return int(self.bot.step(state))
        except _Halted as stop:
            return stop.action

    def analyse(self, state) -> Analysis:
        """The bot's search as ``step`` runs it (same random streams, same move: ``choice``),
        then its root's statistics: per move the simulations through it and their mean
        return for the player to move (OpenSpiel keeps no squared sums: no interval).
        Most visited first, then by value; moves the search never tried are listed last
        with no value."""
        p = state.current_player()
        legal = state.legal_actions()
        stats: dict[int, tuple[int, float]] = {}
        done = 0
        if len(legal) == 1:
            pick = legal[0]
        elif isinstance(self.bot, _MCTSBot):
            try:
                root = self.bot.mcts_search(state)
                pick = root.best_child().action
            except _Halted as stop:
                root, pick = self.bot.root, stop.action
            stats = {c.action: (c.explore_count, c.total_reward) for c in root.children}
            done = int(root.explore_count)  # every simulation passes the root
        else:
            try:
                actions, probs = zip(*self.bot.run_search(state), strict=True)
                pick = self.bot._random_state.choice(actions, p=probs)
            except _Halted as stop:
                pick = stop.action
            root = self.bot._root_node
            stats = {a: (c.visits, c.return_sum) for a, c in root.child_info.items()}
            # the first simulation evaluates the root and passes no child (was: one short)
            done = int(sum(c.visits for c in root.child_info.values())) + (root.total_visits >= 0)
        moves = []
        for a in legal:
            n, total = stats.get(a, (0, 0.0))
            n = int(n)
            value = float(total) / n if n else float("nan")
            moves.append(MoveStat(a, state.action_to_string(p, a), n, value))
        moves.sort(key=lambda m: (-m.visits, -(m.value if m.visits else -math.inf), m.action))
        return Analysis(
            p,
            moves,
            {"sims": self.params["sims"], "sims_done": done},
            int(pick),
            0,
            units.OPENSPIEL_ISMCTS,
        )


OPENSPIEL_ISMCTS = AgentKind(
    name="openspiel-ismcts",
    summary="OpenSpiel's own Python IS-MCTS bot (random rollouts, no game knowledge): an outside"
    " reference",
    params=(
        # at least 2: OpenSpiel's first simulation only evaluates the root, and a move needs
        # one through a child (sims=1 failed with "max() arg is an empty sequence")
        Param("sims", int, 100, "simulations per decision (>= 2)", range=(2, MAX_COUNT)),
        Param(
            "uct_c",
            float,
            2.0,
            "UCT exploration constant (> 0)",
            range=(0.0, 1000.0),  # the strict > 0 is checked when the agent is built
            tunable=True,
            tune=(0.05, 5.0),
            log=True,
        ),
        Param("rollouts", int, 1, "random rollouts per leaf evaluation", range=(1, MAX_COUNT)),
    ),
    factory=lambda game, params, seed: OpenSpielISMCTSAgent(game, params, seed),
)
