"""Bruxelles 1893: registers `python_bruxelles` with pyspiel and the meeple-arena registry."""

from spiel_games.bruxelles.game import SHORT_NAME, BruxellesGame, BruxellesState
from spiel_games.bruxelles.spec import SPEC
from spiel_games.common.registry import register

register(SPEC, BruxellesGame.game_type(), BruxellesGame)

__all__ = ["BruxellesGame", "BruxellesState", "SHORT_NAME", "SPEC"]
