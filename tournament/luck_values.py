"""What the value functions of luck share: their error and the values at a game's end."""

from __future__ import annotations

import numpy as np

from spiel_games.common.errors import MeepleError
from tournament.batch import ranks_from


class LuckError(MeepleError):
    """Luck cannot be measured as asked (one line)."""


def terminal_values(state) -> tuple[np.ndarray, np.ndarray]:
    """(final scores, W) at the end of a game: W_ij is 1, 1/2 or 0 as i finished ahead."""
    scores = [float(x) for x in state.scores()]
    ranks = np.array(ranks_from(list(state.returns()), scores))
    w = np.where(ranks[:, None] < ranks[None, :], 1.0, 0.0)
    return np.array(scores), w + 0.5 * (ranks[:, None] == ranks[None, :])
