"""Named Bruxelles 1893 positions for scenario tests and docs: set up a position, then
drive real moves.

Positions start from ``setup=fixed``, a deterministic setup: strips 0,4,1,2,3, so
the 5x5 board reads (W Workshop, S Sale, T Theater, M Materials, C Construction)

    r1: W S T M C
    r2: M C W S T
    r3: T M C W S
    r4: C W S T M
    r5: S T M C W

compass tiles wood, stone, iron, noble, 3BF, blank with the needles on wood and
noble; theater display Solvay, Buls, Albert, Vandervelde; bonus cards dealt double
powers first (PP, HH, AA, CC, then P, H, ...); stock cards in order (card 1 first);
player p starts with a work of colour p mod 4. A test that needs particular
holdings edits the position through ``state.own_core()`` (or ``put``) before the
moves it checks; the rule effects then come from the engine. Moves are named as
everywhere (``play``, ``legal_strings``: spiel_games.common.naming), so a unique
start of a move's string is enough (``place r2c3`` for ``place r2c3 (Workshop)``).
"""

from __future__ import annotations

import pyspiel

from spiel_games.common.naming import legal_strings, play

__all__ = ["each", "game", "legal_strings", "pass_all", "play", "put", "start"]


def game(players=3, **params):
    args = ",".join([f"players={players}", "setup=fixed"] + [f"{k}={v}" for k, v in params.items()])
    return pyspiel.load_game(f"python_bruxelles({args})")


def start(players=3, shield="shield 1", open_board=True, **params):
    """A fresh fixed-setup game at the first player's first turn.

    With open_board the whole board is made available, so tests can name spaces
    without depending on the stock card's area.
    """
    state = game(players, **params).new_initial_state()
    if state.board()["phase"] == "shield":
        play(state, shield)
    if open_board:
        state.own_core().area = (1 << state.board()["spaces"]) - 1
    return state


def pass_all(state):
    """Everyone passes until the action phase is over."""
    while not state.is_terminal() and state.board()["phase"] == "main":
        play(state, "pass")
    return state


def put(state, field: str, index: int, value) -> None:
    """Set one item of a position fact (lists in place, tuples replaced)."""
    s = state.own_core()
    current = getattr(s, field)
    if isinstance(current, list):
        current[index] = value
    else:
        setattr(s, field, current[:index] + (value,) + current[index + 1 :])


def each(state, key: str) -> tuple:
    """One holdings entry (``state.holdings(p)[key]``) for every player, in seat order."""
    return tuple(state.holdings(p)[key] for p in range(state.get_game().num_players()))
