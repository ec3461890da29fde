"""Rococo's phases: what may be done at each decision and chance node, and doing it.

- table.py: the phase table, one legal/apply pair per phase (chance included);
- checks.py: feasibility and option lists (no state changes), shared by the legal
  lists, the heuristic and the abstraction;
- turn.py: applying the steps of phase 3 (a played card's main action and bonus).

Rounds, refills, selection flow and turn order are in rounds.py (below this package).
"""
