"""Rococo's player view (``state.render_view(player)``), the board `meeple play` shows a human.

The view may use only what its player knows. Changing one player's secret (a
secretly selected hand card, a face-down stack tile, the face-down tile being
decided on; through the GameSpec's perturb_secret) must leave every other
player's view unchanged and must show up in the player's own view.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import spiel_games
from spiel_games.common import conformance as C
from spiel_games.rococo.scenario import card, start
from tournament.advice.play import readable_observation

SPEC = spiel_games.get_spec("python_rococo")
# (game, sample every k-th state, games played): the tiny game is short, so look at all of it.
CONFIGS = (
    ("python_rococo(players=2)", 4, 2),
    ("python_rococo(players=4,rounds=3)", 4, 2),
    ("python_rococo(players=3,festivity=true,fancy=true)", 4, 2),
    (SPEC.tiny_configs[1], 1, 8),
)


def sampled_states(game, seed: int, every: int):
    """Every `every`-th state of one random game (chance nodes included)."""
    return C.sampled_states(game, seed, every)


@pytest.mark.parametrize(("config", "every", "games"), CONFIGS)
def test_a_players_secret_changes_only_their_own_view(config, every, games):
    game = pyspiel.load_game(config)
    states = [s for seed in range(games) for s in sampled_states(game, seed, every)]
    compared, own_changed = C.check_view_leak(states, SPEC.perturb_secret, seed=11)
    assert compared > 10
    assert own_changed > 0


def test_resampling_for_a_player_keeps_that_players_view():
    game = pyspiel.load_game("python_rococo(players=4,rounds=3)")
    assert C.check_view_resample(sampled_states(game, 3, every=9), seed=5) > 5


def test_own_selection_is_listed_and_the_opponents_is_only_counted():
    state = start(2, start_player=0)
    master = card("base Master")
    state.apply_action(state.legal_actions()[0])  # P1 selects a card secretly
    chosen = [k for k, m in enumerate(state.holdings(0)["hand"]) if m]
    assert chosen == [master]
    mine = state.render_view(0).splitlines()
    theirs = state.render_view(1).splitlines()
    p1_in_mine = mine[mine.index(next(x for x in mine if x.startswith("P1 (you)"))) + 2]
    assert p1_in_mine == "  hand: base Master"
    p1_in_theirs = next(i for i, x in enumerate(theirs) if x.startswith("P1:"))
    assert theirs[p1_in_theirs + 2] == "  hand: 1 cards, seen going there: -"
    assert "base Master" in theirs[p1_in_theirs + 3]  # still one of P1's hidden cards


def test_view_is_what_the_play_loop_shows():
    game = pyspiel.load_game("python_rococo(players=3)")
    state = next(s for s in sampled_states(game, 1, every=1) if not s.is_chance_node())
    views = {readable_observation(state, p) for p in range(3)}
    assert views == {state.render_view(p) for p in range(3)}
    assert len(views) == 3  # each player is told which seat is theirs


def test_final_view_announces_the_final_prestige():
    game = pyspiel.load_game("python_rococo(players=2,rounds=2)")
    rng = random.Random(6)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    s1, s2 = state.scores()
    for p in range(2):
        assert f"The game is over. Final prestige: P1 {s1}, P2 {s2}" in state.render_view(p)


@pytest.mark.parametrize("player", [-1, 2])
def test_holdings_of_a_player_outside_the_game_raise(player):
    state = start(2, start_player=0)
    with pytest.raises(ValueError, match="player must be 0-1"):
        state.holdings(player)
