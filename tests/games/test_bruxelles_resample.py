"""Bruxelles 1893 resampler findings: positions where re-dealing for another player failed.

Each test builds its position from real moves (``setup=fixed``), so the resampled world's
history replays.
"""

from __future__ import annotations

import random

import pytest

import spiel_games  # noqa: F401
from spiel_games.bruxelles.scenario import legal_strings, play, start


def _second_workshop_keep(private_works: str):
    """P1 drew two works at a Workshop and kept one (round 2), then draws two more at a
    second Workshop and is choosing which to keep."""
    state = start(3, open_board=False, private_works=private_works)
    play(state, "pass", "pass", "pass", "figure Solvay", "shield 1")  # P1 passes first: 2 draws
    play(state, "place r3c4", "bid 1", "perform", "art pink", "art pink", "keep pink")
    play(state, "pass", "pass")
    play(state, "place r2c3", "bid 1", "perform", "art yellow", "art blue")
    assert state.current_player() == 0 and legal_strings(state) == ["keep blue", "keep yellow"]
    return state


def _replays(world) -> bool:
    replay = world.get_game().new_initial_state()
    for a in world.history():
        replay.apply_action(a)
    return all(
        replay.information_state_string(p) == world.information_state_string(p) for p in range(3)
    )


@pytest.mark.parametrize("private_works", ["false", "true"])
def test_the_pending_workshop_draw_is_not_counted_as_a_finished_one(private_works):
    """The put-back re-deal counted the draw still waiting for its keep as a finished draw,
    so it had one draw more than P1's finished ones and raised ``zip() argument 3 is longer
    than arguments 1-2`` for every other player (with private_works after the replays
    failed: forced here with tries=0)."""
    state = _second_workshop_keep(private_works)
    for p in (1, 2):
        for seed in (3, 7, 10, 12):
            world = state.resample_from_infostate(p, random.Random(seed).random, tries=0)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.current_player() == 0
            kept, _ = world.holdings(0)["seen"][0]
            assert kept == 1  # the first keep (pink) stays: everyone saw it
            assert _replays(world)
