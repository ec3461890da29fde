"""Die Staufer phases: the engine's hooks for every phase, and the phase table.

- chance.py: ``outcomes_<phase>`` / ``apply_<phase>`` of the setup steps and the chest
  refills;
- turn.py: ``legal_<phase>`` / ``apply_<phase>`` of the player phases (TURN, SEAT,
  OCCUPANT, PAYMENT, NOBLE, TAKE, AFTER, PRIVILEGE);
- deploy.py: what a deployment costs and where its figures go;
- chests.py: chests, missing figures, privileges, supply actions and the end of an action.

Turn order and the end of a round and of the game are in rounds.py (below this package).
"""

from __future__ import annotations

from operator import itemgetter

from spiel_games.common.engine import phase_table
from spiel_games.staufer.phases import chance, turn
from spiel_games.staufer.state import CHANCE_PHASES, CUR, END, Phase

_cur = itemgetter(CUR)


def _actor(c) -> int:
    """The player whose turn it is decides every player phase."""
    return _cur(c.v)


TABLE = phase_table(Phase, [chance, turn], chance=CHANCE_PHASES, end=END, actor=_actor)
