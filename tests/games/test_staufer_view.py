"""Die Staufer's player view (``state.render_view(player)``): what `meeple play` shows a human.

The view must be built only from what the player may know: changing one player's secret
(their job cards, through the GameSpec's perturb_secret) never changes another player's
view, and it does change the player's own view. The view also has to show the public
facts a player needs to decide.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import spiel_games
from spiel_games.common import conformance as C
from spiel_games.staufer.scenario import play, scripted_setup
from tournament.advice.play import readable_observation

SPEC = spiel_games.get_spec("python_staufer")
CONFIGS = (
    "python_staufer(players=2)",
    "python_staufer(players=4)",
    "python_staufer(players=3,chests=german,privileges=red)",
    "python_staufer(players=5,rounds=2)",
)


def random_states(game, seed: int, every: int):
    """Every `every`-th state of one random game, then the end."""
    return C.sampled_states(game, seed, every, include_terminal=True)


@pytest.mark.parametrize("config", CONFIGS)
def test_changing_a_players_jobs_never_changes_another_players_view(config):
    game = pyspiel.load_game(config)
    states = [
        s
        for seed in range(2)
        for s in random_states(game, seed, every=3)
        if not s.is_terminal()  # every job card is public at the end
    ]
    compared, own_changed = C.check_view_leak(states, SPEC.perturb_secret)
    assert compared > 20
    assert own_changed > 0


def test_resampled_state_looks_the_same_to_the_resampling_player():
    game = pyspiel.load_game("python_staufer(players=4)")
    assert C.check_view_resample(random_states(game, 11, every=7)) > 5


def test_view_is_the_play_loops_readable_observation():
    game = pyspiel.load_game("python_staufer(players=3)")
    state = next(s for s in random_states(game, 1, every=1) if not s.is_chance_node())
    for p in range(3):
        assert readable_observation(state, p) == state.render_view(p)


def _scripted():
    game = pyspiel.load_game("python_staufer(players=2)")
    state = scripted_setup(
        game,
        regions=["Milan", "Augsburg", "Nijmegen", "Aachen", "Strasbourg", "Palermo"],
        tiles=[0, 1, 2, 3, 4, 5],
        jobs=[["Augsburg", "nobility", "value2"], ["Palermo", "three_seats", "noble_seat"]],
        a_tiles=["Strasbourg", "Aachen", "Nijmegen", "Augsburg", "Palermo", "Milan"],
        b_tiles=["most_seats", "king", "fewest_chests", "most_payment", "after_king"],
        c_tiles=[1, 1, 2, 2],
        chests=["o3"] * 4 + ["B"] * 3,  # supply spaces, then Milan's seats; rest o2, ...
    )
    return game, state


def test_view_shows_the_public_board_and_only_the_viewers_jobs():
    _, state = _scripted()
    play(state, "deploy Milan", "seat 2", "occupy with envoy", "pay 0 noble(s)")
    assert state.current_player() == 1
    mine = state.render_view(0)
    theirs = state.render_view(1)
    for text in (mine, theirs):
        assert "King: Milan" in text
        assert "Round 1/5" in text
        assert "A tile Strasbourg; B tile most_seats" in text
        assert "round 2: A Aachen / B king / C 1" in text
        for region in ("Milan", "Augsburg", "Nijmegen", "Aachen", "Strasbourg", "Palermo"):
            assert region in text
        assert "points 10/5/2" in text  # Milan's tile
        assert "[1 free, brown]" in text  # chests lying face up under the seats
        assert "Supply table:" in text
        assert "courier x2" in text  # blue privilege piles on display
        assert "to move: P2" in text
        assert "Tracks: supply -; deploy P1" in text
    # P1's deployment: the seat, and a brown chest taken from under it.
    assert "[2 P1* envoy]" in mine and "[2 P1 envoy]" in theirs
    assert "brown chests 1" in mine
    # Own jobs in words; the opponent's only as a count.
    assert "region job Augsburg" in mine and "design job nobility" in mine
    assert "office job value2" in mine
    assert "jobs: 3 hidden" in mine
    assert "Palermo: 6 VP" not in mine and "three_seats" not in mine
    assert "noble_seat" not in mine
    assert "design job three_seats" in theirs and "office job noble_seat" in theirs
    assert "nobility" not in theirs and "value2" not in theirs


def test_view_reveals_every_job_and_the_final_scores_at_the_end():
    game, state = _scripted()
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = state.render_view(0)
    assert "Game over" in text
    assert "design job three_seats" in text and "office job noble_seat" in text
    scores = state.scores()
    assert f"Final scores: P1 {scores[0]}, P2 {scores[1]}" in text
    assert "hidden" not in text


def test_view_of_a_player_outside_the_game_raises():
    _, state = _scripted()
    with pytest.raises(ValueError, match="player must be 0-1"):
        state.render_view(2)
