"""Rococo's phases: the engine's hooks for every phase, and the phase table.

- chance.py: ``outcomes_<phase>`` / ``apply_<phase>`` of the chance phases;
- decisions.py: ``legal_<phase>`` / ``apply_<phase>`` of the player phases;
- checks.py: feasibility and option lists (no state changes), shared by the legal
  lists, the heuristic and the abstraction;
- turn.py: playing a card and the steps of its main action; bonus.py: the end of a
  step, the bonus and its steps, exams and the jeweller.

Rounds, refills, selection flow, turn order and the end of the game are in rounds.py
(below this package).
"""

from __future__ import annotations

from operator import attrgetter

from spiel_games.common.engine import phase_table
from spiel_games.rococo.phases import chance, decisions
from spiel_games.rococo.state import CHANCE_PHASES, PH_END, Phase

TABLE = phase_table(
    Phase, [chance, decisions], chance=CHANCE_PHASES, end=PH_END, actor=attrgetter("cur")
)
