"""Coloretto: registers `python_coloretto` with pyspiel and the meeple-arena registry."""

from spiel_games.coloretto.game import SHORT_NAME, ColorettoGame, ColorettoState
from spiel_games.coloretto.spec import SPEC
from spiel_games.common.registry import register

register(SPEC, ColorettoGame.game_type(), ColorettoGame)

__all__ = ["ColorettoGame", "ColorettoState", "SHORT_NAME", "SPEC"]
