"""Named Coloretto positions for tests and docs, built from real moves.

Moves are named by their strings (``text.py``); chance outcomes by their chance
strings (``start: yellow``, ``start player: P2``, ``deck: +2``), so a scenario
scripts every draw. ``play`` and ``legal_strings`` are the shared ones
(spiel_games.common.naming).
"""

from __future__ import annotations

import pyspiel

from spiel_games.common.naming import legal_strings, play

__all__ = ["draw_place", "legal_strings", "play", "start", "two_rows"]


def start(players=4, starts=("yellow", "blue", "green", "pink"), first="P1", **params):
    """(game, state) after dealing the named start cards, with `first` to move."""
    args = ",".join([f"players={players}"] + [f"{k}={v}" for k, v in params.items()])
    game = pyspiel.load_game(f"python_coloretto({args})")
    state = game.new_initial_state()
    play(state, *[f"start: {c}" for c in starts], f"start player: {first}")
    return game, state


def draw_place(state, card: str, row: int):
    """The player on turn draws `card` and places it in `row` (1-based)."""
    return play(state, "draw", f"deck: {card}", f"place {card} in row {row}")


def two_rows(c1: str, c2: str, c3: str):
    """Three players started with colours c1, c2, c3; P1 put a c1 card in row 1 and P2
    a c2 card in row 2; P3 to move."""
    _, state = start(players=3, starts=(c1, c2, c3))
    draw_place(state, c1, 1)
    return draw_place(state, c2, 2)
