"""Checks every registered game must pass, written once for all games.

Each function raises AssertionError with a precise message on failure. The test suite
(tests/test_conformance.py) runs them for every GameSpec and each of its test
configurations; game authors can run them directly while developing.

- basics: the pyspiel API (random simulation, serialization, clones, declared sizes,
  action strings, chance descriptions, illegal actions refused);
- hidden: what each player sees (information leaks, views, private events);
- resampling: the resampler contract, for every player at every node.
"""

from spiel_games.common.conformance.basics import (
    check_action_strings,
    check_chance_descriptions,
    check_clone_independence,
    check_declared_sizes,
    check_illegal_actions_raise,
    check_pickle_and_serialize,
    check_random_sim,
    random_playout,
)
from spiel_games.common.conformance.hidden import (
    check_info_leak,
    check_private_event_symmetry,
    check_view_leak,
    check_view_resample,
    sampled_states,
)
from spiel_games.common.conformance.resampling import (
    check_resample_everywhere,
    check_resample_replays,
    check_resample_terminal,
    check_resampler,
    samplers,
)

__all__ = [
    "check_action_strings",
    "check_chance_descriptions",
    "check_clone_independence",
    "check_declared_sizes",
    "check_illegal_actions_raise",
    "check_info_leak",
    "check_pickle_and_serialize",
    "check_private_event_symmetry",
    "check_random_sim",
    "check_resample_everywhere",
    "check_resample_replays",
    "check_resample_terminal",
    "check_resampler",
    "check_view_leak",
    "check_view_resample",
    "random_playout",
    "sampled_states",
    "samplers",
]
