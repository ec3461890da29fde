"""Monte Carlo tree search for every registered game: MCTS, IS-MCTS and PIMC, as small parts.

| module | responsibility |
|---|---|
| ``tree`` | the tree loop: edge statistics (``Node``), one simulation, backup, the budget loop |
| ``selection`` | choosing among a node's open moves: UCB1 with availability counts, on the returns' scale |
| ``expansion`` | whether a node opens a new move: all first, progressive widening, progressive unpruning |
| ``models`` | the game's heuristic inside the tree: the move prior and the opponent model |
| ``leaf`` | leaf evaluation: rollouts, the current scores, the game's or a learned estimate as soft returns |
| ``worlds`` | world sampling (determinizations) from the mover's information state |
| ``halving`` | root selection by sequential halving over paired samples |
| ``build`` | the parts chosen once from an agent's parameters (the one place options are read) |
| ``agents`` | the ``mcts``, ``ismcts`` and ``pimc`` agents and the move they play |
| ``params`` | the typed parameter declaration and ``auto`` per game |
| ``kinds`` | the agent kinds ``mcts``, ``ismcts``, ``pimc`` and their factory |
| ``analysis`` | per-move statistics with 95% intervals for advice; PIMC's merge over worlds |
| ``compare`` | advice's comparison phase: the listed moves on the same paired passes, in three units |

Why not OpenSpiel's bots: pyspiel's C++ ``MCTSBot``/``ISMCTSBot`` segfault on Python games,
and the Python bots key nodes by information-state strings and go through the pybind bridge
at every step. This engine calls the game's own Python methods (``_legal_actions``,
``_apply_action``) and keeps statistics on edges, which is several times faster (see
docs/BENCHMARKS.md). It relies on the STYLE.md rule that a state keeps every fact in its own
attributes (never in pyspiel's history).

Known simplification: tree edges are keyed by action ids, including chance outcomes and
hidden actions, so nodes *below* the root may separate worlds the root player cannot tell
apart. The root decision only ever uses what the root player knows (every simulation starts
from a resampled world).
"""

from solvers.search.agents import ISMCTSAgent, MCTSAgent, PIMCAgent, best_action
from solvers.search.analysis import merge_into, root_analysis
from solvers.search.build import PLAIN, build_parts, make_engine
from solvers.search.kinds import KINDS
from solvers.search.leaf import game_evaluation, learned_evaluation, soft_returns
from solvers.search.params import COMMON, resolve_auto
from solvers.search.tree import Node, Parts, SearchEngine
from solvers.search.worlds import has_hidden_information, world_sampler

__all__ = [
    "COMMON",
    "KINDS",
    "PLAIN",
    "ISMCTSAgent",
    "MCTSAgent",
    "Node",
    "PIMCAgent",
    "Parts",
    "SearchEngine",
    "best_action",
    "build_parts",
    "game_evaluation",
    "has_hidden_information",
    "learned_evaluation",
    "make_engine",
    "merge_into",
    "resolve_auto",
    "root_analysis",
    "soft_returns",
    "world_sampler",
]
