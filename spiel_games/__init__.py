"""meeple-arena games. Importing this package registers every game with pyspiel.

    import spiel_games, pyspiel
    game = pyspiel.load_game("python_coloretto(players=4)")

Load games through ``spiel_games.load_game`` (one-line errors, one load per game string).
"""

from spiel_games import (
    bruxelles,  # noqa: F401
    coloretto,  # noqa: F401  (registers python_coloretto)
    rococo,  # noqa: F401
    staufer,  # noqa: F401
)
from spiel_games.common.registry import all_specs, get_spec, load_game

__all__ = ["all_specs", "get_spec", "load_game"]
