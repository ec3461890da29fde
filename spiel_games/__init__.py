"""meeple-arena games. Importing this package registers every game with pyspiel.

    import spiel_games, pyspiel
    game = pyspiel.load_game("python_coloretto(players=4)")
"""

from spiel_games import (
    bruxelles,  # noqa: F401
    coloretto,  # noqa: F401  (registers python_coloretto)
    rococo,  # noqa: F401
    staufer,  # noqa: F401
)
from spiel_games.common.registry import all_specs, get_spec

__all__ = ["all_specs", "get_spec"]
