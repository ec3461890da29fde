"""Die Staufer rules-fidelity findings of issue 13 (audit D1, D2, D8), each a scenario
built from a position where the old code was wrong.
"""

from __future__ import annotations

import random

import pyspiel

import spiel_games  # noqa: F401
from spiel_games.common.chance import sample_chance
from spiel_games.staufer import rules as R


def _played(players: int, seed: int, stop_after: int | None = None):
    rng = random.Random(seed)
    game = pyspiel.load_game(f"python_staufer(players={players})")
    state = game.new_initial_state()
    while not state.is_terminal() and (stop_after is None or len(state.history()) < stop_after):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_job_cards_revealed_at_the_end_are_not_re_dealt():
    """Old code re-dealt the opponents' jobs at a terminal state: P1's information state
    and the board scores changed while returns() kept the real game's values (audit D1)."""
    for players in (2, 3, 5):
        end = _played(players, seed=2026)
        assert end.is_terminal()
        for p in range(players):
            world = end.resample_from_infostate(p, random.Random(1).random)
            assert world.scores() == end.scores()
            assert [world.holdings(q)["jobs"] for q in range(players)] == [
                end.holdings(q)["jobs"] for q in range(players)
            ]
            for q in range(players):
                assert world.information_state_string(q) == end.information_state_string(q)


def test_resampled_job_deals_are_in_the_history():
    """Old code left the real job deals in history(), so replaying it rebuilt the real
    game, not the resampled one (audit D2)."""
    state = _played(3, seed=7, stop_after=120)
    assert not state.is_terminal() and not state.is_chance_node()
    p = state.current_player()
    rng = random.Random(3)
    dealt = set()
    for _ in range(20):
        world = state.resample_from_infostate(p, rng.random)
        replay = state.get_game().new_initial_state()
        for a in world.history():
            replay.apply_action(a)
        jobs = tuple(world.holdings(q)["jobs"] for q in range(3))
        assert tuple(replay.holdings(q)["jobs"] for q in range(3)) == jobs
        assert jobs[p] == state.holdings(p)["jobs"]  # the player's own jobs stay
        dealt.add(jobs)
    assert len(dealt) > 1


def test_design_choices_citing_a_source_are_marked_assumed():
    """Three rules.toml entries cited a source although they choose between readings
    (audit D8): the purple-chest effect, the region bonus to first place, one point-tile
    side for every player count."""
    for key in ("chests.purple_effect", "scoring.bonus_to", "point_tiles.sides"):
        fact = R.RULES.facts[key]
        assert fact.assumed and fact.reason, key
