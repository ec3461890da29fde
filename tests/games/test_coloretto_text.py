"""Coloretto's text (``str(state)``): what a player reads at the table."""

from __future__ import annotations

import re

import pyspiel

import spiel_games  # noqa: F401
from spiel_games.common import conformance as C


def test_collections_print_every_card_kind_in_one_format():
    """Was: 'P3: pink 1, grey 1, +2 x1, joker x1' (colours 'name N', the others 'name xN')."""
    game = pyspiel.load_game("python_coloretto(players=3)")
    seen = set()
    for seed in range(20):
        for state in C.sampled_states(game, seed, every=1, include_terminal=True):
            for line in str(state).splitlines():
                if re.match(r"P\d( \(done\))?: ", line) and not line.endswith(": -"):
                    parts = line.split(": ", 1)[1].split(", ")
                    assert all(re.fullmatch(r"\S+ x\d+", p) for p in parts), line
                    seen.update(p.split(" x")[0] for p in parts)
    assert {"+2", "joker", "yellow"} <= seen  # every kind of card was printed
