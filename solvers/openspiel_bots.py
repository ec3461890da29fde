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
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from solvers.base import MAX_COUNT, Agent, AgentKind, Param
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

    def _apply_tree_policy(self, root, state):  # once per simulation, before it
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


OPENSPIEL_ISMCTS = AgentKind(
    name="openspiel-ismcts",
    summary="OpenSpiel's own Python IS-MCTS bot (random rollouts, no game knowledge): an outside"
    " reference",
    params=(
        Param("sims", int, 100, "simulations per decision", range=(1, MAX_COUNT)),
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
