"""Every chance node of every game says what it decides, in a player's words
(``state.chance_description()``, the engine's ``chance_text`` hook): table mode asks for
"P2's start card" instead of a bare "chance outcome".

Per game: random playouts of each test configuration meet every chance phase of the
game, and at each chance node the description is the game's own (never the default) and
of a shape that phase promises. (tests/test_conformance.py also checks, for every test
configuration, that a resampled world describes each chance node the same way.)
"""

from __future__ import annotations

import random
import re

import pyspiel
import pytest

import spiel_games
from spiel_games.common import conformance as C
from spiel_games.common.chance import CHANCE_OUTCOME, chance_description

SPECS = {s.short_name: s for s in spiel_games.all_specs()}

# Per game and chance phase: the descriptions it may give (regular expressions); random
# playouts of the test configurations meet each of them.
P = r"P[1-5]"
SHAPES = {
    "python_coloretto": {
        "DEAL": [rf"{P}'s start card", rf"{P}'s start card [12] of 2"],  # 2 each at 2 players
        "START_PLAYER": ["the start player"],
        "DRAW": [
            rf"the card {P} draws from the deck",
            rf"the card {P} draws from the deck \(the last-round card came up first: set it"
            r" aside, last round\)",
        ],
        "GOLDEN": [rf"the extra card {P} gets from the deck \(golden joker\)"],
    },
    "python_rococo": {
        "START": ["the start player"],
        "REVEAL": [r"employee card \d+ of \d+ for hire"],
        "WAREFILL": [r"the tile for warehouse segment [1-3], tile [1-4] of [1-4]"],
        "DRESSFILL": [r"the dress for workshop window \d"],
        "STACKDRAW": [rf"{P}'s face-down stack tile"],
        "JEWELFILL": [r"the jewellery for jeweller space \d"],
        "EXAMDRAW": [rf"exam card [12] of [12] shown at {P}'s journeyman's exam"],
    },
    "python_bruxelles": {
        "C_STRIP": [r"the strip for board row [1-5]"],
        "C_COMPASS": [r"the tile for compass space [1-6]"],
        "C_ART": [
            rf"{P}'s start work of art",
            rf"{P}'s Workshop draw",
            rf"{P}'s Workshop draw [1-9] of [2-9]",
        ],
        "C_FIGURE": [r"the figure for the theater's [0-3] BF space"],
        "C_BONUS": [r"the bonus card for column [1-5]"],
        "C_STOCK": [r"round [1-5]'s stock exchange card"],
    },
    "python_staufer": {
        "SETUP": [
            r"the region at board position [2-6]",
            r"the point tile for [A-Z][a-z]+",
            rf"{P}'s (region|design|office) job card",
            r"the A tile for round [1-5]",
            r"the extra A tile \(the king's start region\)",
            r"the [BC] tile for round [1-5]",
        ],
        "REFILL": [
            r"the chest for supply space [1-5]",
            r"the chest for [A-Z][a-z]+'s seat [1-5] \([1-4]N?\)",
        ],
    },
}


def _described_phases(spec) -> dict[str, set[str]]:
    """The descriptions met at each chance phase, over two random playouts of every test
    configuration."""
    met: dict[str, set[str]] = {}
    for i, config in enumerate(spec.test_configs):
        game = spiel_games.load_game(config)
        rng = random.Random(i)
        for _ in range(2):
            _, trail = C.random_playout(game, rng, keep=True)
            for state in trail:
                if state.is_chance_node():
                    phase = state.table.phases(state._s.phase).name
                    met.setdefault(phase, set()).add(chance_description(state))
    return met


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_chance_phase_met_in_random_playouts_is_described(name):
    spec = SPECS[name]
    table = type(spiel_games.load_game(spec.test_configs[0]).new_initial_state()).table
    phases = {table.phases(p).name for p in table.chance}
    assert set(SHAPES[name]) == phases, "SHAPES must list every chance phase of the game"
    met = _described_phases(spec)
    assert set(met) == phases, f"chance phases never met: {phases - set(met)}"
    for phase, texts in met.items():
        shapes = SHAPES[name][phase]
        odd = [t for t in texts if not any(re.fullmatch(x, t) for x in shapes)]
        assert not odd, f"{phase}: unexpected descriptions {sorted(odd)[:5]}"
        unmet = [x for x in shapes if not any(re.fullmatch(x, t) for t in texts)]
        assert not unmet, f"{phase}: no description like {unmet}"


def test_coloretto_deals_the_start_cards_to_p1_first_each_players_cards_in_a_row():
    """phases.apply_deal gives deal k to player k // start_cards (2 each at 2 players)."""
    state = spiel_games.load_game("python_coloretto(players=2)").new_initial_state()
    seen = []
    while state.is_chance_node():
        seen.append(state.chance_description())
        state.apply_action(state.chance_outcomes()[0][0])
    assert seen == [
        "P1's start card 1 of 2",
        "P1's start card 2 of 2",
        "P2's start card 1 of 2",
        "P2's start card 2 of 2",
        "the start player",
    ]


def test_a_player_node_has_no_chance_description():
    state = spiel_games.load_game("python_coloretto(players=3)").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="player node"):
        state.chance_description()


def test_a_game_without_the_hook_says_chance_outcome():
    """Any other OpenSpiel game (no chance_description) gets the default."""
    state = pyspiel.load_game("kuhn_poker").new_initial_state()
    assert state.is_chance_node()
    assert chance_description(state) == CHANCE_OUTCOME == "chance outcome"
