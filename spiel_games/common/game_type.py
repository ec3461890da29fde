"""The one way meeple-arena games build their pyspiel.GameType.

Every game is sequential with explicit chance and terminal rewards, provides
information-state and observation strings and tensors, and takes its utility
type from the shared `utility` parameter (rank: zero-sum, win: constant-sum,
score: general-sum).
"""

from __future__ import annotations

import pyspiel

from spiel_games.common.utility import utility_type

_TYPES: dict[tuple, pyspiel.GameType] = {}


def make_game_type(
    short_name: str,
    long_name: str,
    *,
    perfect_information: bool,
    utility: str,
    min_players: int,
    max_players: int,
    parameters: dict,
) -> pyspiel.GameType:
    key = (short_name, utility)
    if key not in _TYPES:
        info = pyspiel.GameType.Information
        _TYPES[key] = pyspiel.GameType(
            short_name=short_name,
            long_name=long_name,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=info.PERFECT_INFORMATION
            if perfect_information
            else info.IMPERFECT_INFORMATION,
            utility=utility_type(utility),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=max_players,
            min_num_players=min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(parameters),
        )
    return _TYPES[key]
