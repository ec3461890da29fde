"""Exact CFR, CFR+ and DCFR through OpenSpiel, for small (tiny) configurations.

The solvers are OpenSpiel's Python ones (``cfr.CFRSolver``, ``cfr.CFRPlusSolver``,
``discounted_cfr.DCFRSolver``) because their tables can be written to a Parquet
checkpoint and read back (the C++ solvers only offer pickling, which meeple files
never use). NashConv is computed by the C++ ``pyspiel.nash_conv`` on the average
policy. Every information state is a key (abstraction ``none``).
"""

from __future__ import annotations

import pyspiel

EXACT_SOLVERS = ("cfr", "cfr+", "dcfr")


def make_exact_solver(game, solver: str):
    from open_spiel.python.algorithms import cfr, discounted_cfr

    if solver == "cfr":
        return cfr.CFRSolver(game)
    if solver == "cfr+":
        return cfr.CFRPlusSolver(game)
    if solver == "dcfr":
        return discounted_cfr.DCFRSolver(game)
    raise ValueError(f"unknown exact solver {solver!r}; valid: {', '.join(EXACT_SOLVERS)}")


def average_policy_table(solver) -> dict[str, dict[int, float]]:
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


def exact_nash_conv(game, solver) -> float:
    return float(pyspiel.nash_conv(game, tabular_pyspiel_policy(average_policy_table(solver))))


def solver_rows(solver):
    for key, node in solver._info_state_nodes.items():
        for a in node.legal_actions:
            yield key, a, node.cumulative_regret.get(a, 0.0), node.cumulative_policy.get(a, 0.0)


def load_solver_rows(solver, rows, iteration: int) -> None:
    nodes = solver._info_state_nodes
    for key, a, r, s in rows:
        node = nodes.get(key)
        if node is None:
            raise ValueError(f"checkpoint key {key!r} is not an information state of this game")
        node.cumulative_regret[a] = r
        node.cumulative_policy[a] = s
    solver._iteration = iteration
    # The current policy is derived from the regrets; rebuild it for the next iteration.
    from open_spiel.python.algorithms.cfr import _update_current_policy

    _update_current_policy(solver._current_policy, nodes)


def policy_nash_conv(game, py_policy) -> float:
    """NashConv of any python ``policy.Policy`` (Python implementation; small games only)."""
    from open_spiel.python.algorithms import exploitability

    return float(exploitability.nash_conv(game, py_policy))
