"""Rococo: registers `python_rococo` with pyspiel and the meeple-arena registry."""

from spiel_games.common.registry import register
from spiel_games.rococo.game import SHORT_NAME, RococoGame, RococoState
from spiel_games.rococo.spec import SPEC

register(SPEC, RococoGame.game_type(), RococoGame)

__all__ = ["SHORT_NAME", "SPEC", "RococoGame", "RococoState"]
