"""Bruxelles 1893's player view (``state.render_view(player)``): what `meeple play` shows.

The view must be built only from what the player may know: changing one player's secret
(the works they drew and put back, or with ``private_works`` the colour of a hidden work,
through the GameSpec's perturb_secret) never changes another player's view, and it does
change the player's own view. The view also has to show the public facts a player needs.
"""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games
from spiel_games.bruxelles import scenario as T
from spiel_games.common import conformance as C
from tournament.advice.play import readable_observation

SPEC = spiel_games.get_spec("python_bruxelles")
CONFIGS = (
    "python_bruxelles(players=3)",
    "python_bruxelles(players=2,rounds=3)",
    "python_bruxelles(players=3,private_works=true)",
    "python_bruxelles(players=5,rounds=2,private_works=true)",
)


def _workshop_first(state, rng):
    """A random move, but Workshop placements and performing actions most of the time (so
    secret Workshop draws happen often)."""
    p = state.current_player()
    legal = state.legal_actions()
    keen = [
        a
        for a in legal
        if "Workshop" in (text := state.action_to_string(p, a)) or text == "perform"
    ]
    return rng.choice(keen if keen and rng.random() < 0.8 else legal)


def random_states(game, seed: int, every: int):
    """Every `every`-th state of one game played at random with a taste for the Workshop,
    then the end."""
    return C.sampled_states(game, seed, every, choose=_workshop_first, include_terminal=True)


@pytest.mark.parametrize("config", CONFIGS)
def test_changing_a_players_secret_never_changes_another_players_view(config):
    game = pyspiel.load_game(config)
    states = [s for seed in range(2) for s in random_states(game, seed, every=3)]
    compared, own_changed = C.check_view_leak(states, SPEC.perturb_secret)
    assert compared > 20
    assert own_changed > 0


@pytest.mark.parametrize("config", CONFIGS[::2])
def test_resampled_state_looks_the_same_to_the_resampling_player(config):
    game = pyspiel.load_game(config)
    assert C.check_view_resample(random_states(game, 11, every=5)) > 5


def test_view_is_the_play_loops_readable_observation():
    game = pyspiel.load_game("python_bruxelles(players=3)")
    state = next(s for s in random_states(game, 1, every=1) if not s.is_chance_node())
    for p in range(3):
        assert readable_observation(state, p) == state.render_view(p)


def test_view_shows_the_public_board_and_only_the_viewers_draws():
    state = T.start(3)
    T.put(state, "exhib", 0, 1)  # one exhibition: P1's Workshop draws two works
    T.play(state, "place r1c1", "bid 2", "perform", "art blue", "art pink")
    assert state.current_player() == 0  # P1 chooses which drawn work to keep
    mine, theirs = state.render_view(0), state.render_view(1)
    for text in (mine, theirs):
        assert "Round 1/5, phase keep_work, to move: P1" in text
        assert "First player (Manneken Pis): P1" in text
        assert "row 1: [*W P1 $2]" in text  # the assistant and its bid on the Workshop
        assert "bonus cards under the columns: PP | HH | AA | CC | P" in text
        assert "Royal Theater: Solvay (0 BF), Buls (1 BF), Albert (2 BF)" in text
        assert "Compass: wood, stone, iron, noble, money, blank; needles on wood and noble" in (
            text
        )
        assert "Scores if the game ended now:" in text
    assert "Now: Workshop draw for you: drawn so far blue, pink" in mine
    assert "Now: Workshop draw for P1" in theirs and "drawn so far" not in theirs
    T.play(state, "keep pink")
    mine, theirs = state.render_view(0), state.render_view(1)
    assert "your Workshop draws (secret): kept pink, put back blue" in mine
    assert "put back" not in theirs  # the put-back work is P1's secret
    assert "works: blue x1, pink x1" in theirs  # the start work and the kept one, face up


def test_private_works_show_as_a_count_to_the_others():
    state = T.start(3, private_works="true")
    T.play(state, "place r1c1", "bid 2", "perform", "art green")
    mine, theirs = state.render_view(0), state.render_view(1)
    assert "works: blue x1, green x1" in mine
    assert "works: blue x1, 1 hidden" in theirs and "green" not in theirs
    assert "Art stacks: 20 colour works (colours face down), black x6" in theirs


def test_view_of_a_player_outside_the_game_raises():
    state = T.start(3)
    with pytest.raises(ValueError, match="player must be 0-2"):
        state.render_view(3)
