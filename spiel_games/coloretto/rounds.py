"""Coloretto turn order and the end of a take, a round and the game.

After a take the player sits out the rest of the round; the next player who has
not taken moves. When every player has taken, the round ends: untaken rows (two
players) are discarded and the last taker starts the next round, unless the
last-round card has appeared (or, in tiny configurations, the deck is empty),
which ends the game (the engine then sets the returns through scoring.final_returns).
"""

from __future__ import annotations

from spiel_games.coloretto.state import ASSIGN, END, GOLDEN, PLAY, Core, gain, put


def take(s: Core, r: int) -> None:
    """The current player takes row r into his collection."""
    row = s.rows[r]
    s.taken |= 1 << r
    s.done |= 1 << s.cur
    s.rows = put(s.rows, r, ())
    gain(s, s.cur, row)
    if s.cfg.golden and s.cfg.golden_type in row and s.deck_size > 0:
        # Golden joker: reveal the top card of the supply into the collection.
        if not s.last_round and s.deck_size == s.cfg.depth:
            s.last_round = True
        s.phase = GOLDEN
        return
    after_take(s)


def after_take(s: Core) -> None:
    if s.to_assign > 0:
        s.phase = ASSIGN
        return
    s.phase = PLAY
    end_take(s)


def end_take(s: Core) -> None:
    if s.done == (1 << s.cfg.players) - 1:
        end_round(s)
    else:
        next_turn(s)


def next_turn(s: Core) -> None:
    n = s.cfg.players
    p = s.cur
    for _ in range(n):
        p = (p + 1) % n
        if not (s.done >> p) & 1:
            s.cur = p
            return
    raise AssertionError("no player left in the round")


def end_round(s: Core) -> None:
    if s.last_round or s.deck_size == 0:
        s.phase = END
        return
    # Untaken rows (two-player game) are discarded; the last taker starts.
    s.rows = ((),) * s.cfg.rows
    s.taken = 0
    s.done = 0
    s.round += 1
    s.phase = PLAY
