"""Coloretto's text (``str(state)``): what a player reads at the table."""

from __future__ import annotations

import re

import pyspiel

import spiel_games  # noqa: F401


def test_collections_print_every_card_kind_in_one_format():
    """Was: 'P3: pink 1, grey 1, +2 x1, joker x1' (colours 'name N', the others 'name xN')."""
    import random

    game = pyspiel.load_game("python_coloretto(players=3)")
    rng = random.Random(5)
    seen = set()
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            for line in str(state).splitlines():
                if re.match(r"P\d( \(done\))?: ", line) and not line.endswith(": -"):
                    parts = line.split(": ", 1)[1].split(", ")
                    assert all(re.fullmatch(r"\S+ x\d+", p) for p in parts), line
                    seen.update(p.split(" x")[0] for p in parts)
    assert {"+2", "joker", "yellow"} <= seen  # every kind of card was printed
