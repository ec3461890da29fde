"""Die Staufer: registers `python_staufer` with pyspiel and the meeple-arena registry."""

from spiel_games.common.registry import register
from spiel_games.staufer.game import SHORT_NAME, StauferGame, StauferState
from spiel_games.staufer.spec import SPEC

register(SPEC, StauferGame.game_type(), StauferGame)

__all__ = ["SHORT_NAME", "SPEC", "StauferGame", "StauferState"]
