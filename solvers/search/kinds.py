"""The agent kinds ``mcts``, ``ismcts`` and ``pimc``: their budget parameters beside the
common search parameters (``solvers.search.params``), and the factory that resolves
``auto`` and refuses settings that depend on several parameters or on the game."""

from __future__ import annotations

import pyspiel

from solvers.base import MAX_COUNT, AgentKind, Param
from solvers.search.agents import ISMCTSAgent, MCTSAgent, PIMCAgent
from solvers.search.checks import refuse
from solvers.search.params import COMMON, resolve_auto
from solvers.spec import AgentSpecError


def _factory(cls, kind):
    def make(game, params, seed):
        if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise AgentSpecError(f"agent {kind!r} needs a sequential game")
        params = dict(params)
        if kind == "pimc":
            # PIMC votes with the visits summed over its worlds; halving's visits say how
            # long a move survived, not that it won, so its worlds keep the UCB root
            if params["root"] == "halving":
                raise AgentSpecError(
                    "agent 'pimc' votes by visits over its worlds: root=halving is for "
                    "mcts and ismcts"
                )
            params["root"] = "ucb"
        params = resolve_auto(game, params)
        refuse(kind, game, params)
        return cls(game, params, seed)

    return make


MCTS = AgentKind(
    name="mcts",
    summary="UCT with sampled chance nodes and multi-player returns, for games without "
    "private information (on hidden-information games: one sampled world per move)",
    params=(Param("sims", int, 800, "simulations per move", range=(1, MAX_COUNT)), *COMMON),
    factory=_factory(MCTSAgent, "mcts"),
)
ISMCTS = AgentKind(
    name="ismcts",
    summary="single-observer information-set MCTS: each simulation starts from a world "
    "resampled from the mover's information state (plain UCT on perfect-information games)",
    params=(Param("sims", int, 2000, "simulations per move", range=(1, MAX_COUNT)), *COMMON),
    factory=_factory(ISMCTSAgent, "ismcts"),
)
PIMC = AgentKind(
    name="pimc",
    summary="perfect-information Monte Carlo: sample worlds, run UCT in each, vote by visits",
    params=(
        Param("worlds", int, 16, "determinizations sampled per move", range=(1, MAX_COUNT)),
        Param("sims", int, 200, "simulations per world", range=(1, MAX_COUNT)),
        *COMMON,
    ),
    factory=_factory(PIMCAgent, "pimc"),
)
KINDS = (MCTS, ISMCTS, PIMC)
