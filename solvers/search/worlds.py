"""World sampling: the determinizations a search starts from on hidden-information games.

Every world is drawn from what the player to move knows, so the search never peeks. The
sampler feeds the game U[0, 1) draws from the agent's own stream.
"""

from __future__ import annotations

import pyspiel

from spiel_games.common.chance import UniformSampler
from spiel_games.common.registry import get_spec


def has_hidden_information(game) -> bool:
    return game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION


def _resample(state, player: int, sampler):
    return state.resample_from_infostate(player, sampler)


def world_sampler(game):
    """How search draws a world from an information state: the game's ``world_sampler``
    (which may leave ``history()`` as the real game's: search never reads it), else
    OpenSpiel's ``resample_from_infostate``."""
    try:
        spec = get_spec(game.get_type().short_name)
    except KeyError:  # a game outside the registry (e.g. kuhn_poker)
        return _resample
    return spec.world_sampler or _resample


class Worlds:
    """``draw(state, player)``: a world consistent with what ``player`` knows at ``state``."""

    def __init__(self, game, rng):
        self.sample = world_sampler(game)
        self.sampler = UniformSampler(rng)

    def draw(self, state, player: int):
        return self.sample(state, player, self.sampler)
