"""OpenSpiel's Python exact solvers on the game itself: the reference for solvers/efg_cfr.py.

``meeple solve --solver cfr|cfr+|dcfr`` runs OpenSpiel's solvers on a C++ EFG copy
of the game (solvers/efg_cfr.py). These helpers build OpenSpiel's Python
``cfr.CFRSolver``, ``cfr.CFRPlusSolver`` and ``discounted_cfr.DCFRSolver`` on the
Python game and read their average policies, for the cross-check that both routes
agree, and turn any {key: {action: prob}} table into a ``pyspiel.TabularPolicy``
for the C++ ``pyspiel.nash_conv`` on the game itself."""

from __future__ import annotations

import pyspiel
from open_spiel.python.algorithms import cfr, discounted_cfr

EXACT_SOLVERS = ("cfr", "cfr+", "dcfr")


def make_exact_solver(game, solver: str):
    if solver == "cfr":
        return cfr.CFRSolver(game)
    if solver == "cfr+":
        return cfr.CFRPlusSolver(game)
    if solver == "dcfr":
        return discounted_cfr.DCFRSolver(game)
    raise ValueError(f"unknown exact solver {solver!r}; valid: {', '.join(EXACT_SOLVERS)}")


def average_policy_table(solver) -> dict[str, dict[int, float]]:
    """{information state: {action: prob}} of an OpenSpiel Python CFR solver's average policy."""
    out: dict[str, dict[int, float]] = {}
    for key, node in solver._info_state_nodes.items():
        cum = node.cumulative_policy
        total = sum(cum.get(a, 0.0) for a in node.legal_actions)
        if total > 0:
            out[key] = {a: cum.get(a, 0.0) / total for a in node.legal_actions}
        else:
            out[key] = {a: 1.0 / len(node.legal_actions) for a in node.legal_actions}
    return out


def tabular_pyspiel_policy(table: dict[str, dict[int, float]]):
    return pyspiel.TabularPolicy({k: list(v.items()) for k, v in table.items()})
