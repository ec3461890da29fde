"""Bruxelles 1893 phases: the engine's hooks for every phase, and the phase table.

- chance.py: ``outcomes_<phase>`` / ``apply_<phase>`` of the chance phases (setup strips
  and compass tiles, works of art, figures, bonus cards, stock cards);
- turn.py: ``legal_<phase>`` / ``apply_<phase>`` of the turn itself (shield, neutral
  assistants, the main choice, bid, performing the action, Park, won bonus cards);
- works.py: the same for the five Art Nouveau actions' decisions.

Every decision applies its effect and then either asks the next sub-choice or lets the
rules run on (``rounds.advance``). The engine refuses an illegal action before any hook
runs, and notes every move in the game's move log first (``state.log_move``).
"""

from __future__ import annotations

from operator import attrgetter

from spiel_games.bruxelles.phases import chance, turn, works
from spiel_games.bruxelles.state import CHANCE_PHASES, Phase, log_move
from spiel_games.common.engine import phase_table

TABLE = phase_table(
    Phase,
    [chance, turn, works],
    chance=CHANCE_PHASES,
    end=Phase.END,
    actor=attrgetter("actor"),
    record=log_move,
)
