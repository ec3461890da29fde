"""Coloretto phases: the engine's hooks, one set per phase (chance phases included), and
the phase table built from them (spiel_games.common.engine).

Chance phases list their outcomes (``outcomes_<phase>``), player phases their legal
actions (``legal_<phase>``); every phase but the end has ``apply_<phase>``. The engine
refuses an action that is not legal before any apply hook runs, so the hooks carry the
move out without checking it again.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter

from spiel_games.coloretto.actions import DRAW as DRAW_ACTION
from spiel_games.coloretto.rounds import after_take, end_take, next_turn, take
from spiel_games.coloretto.state import (
    CHANCE_PHASES,
    DRAW,
    END,
    PLACE,
    PLAY,
    START,
    Core,
    Phase,
    draw,
    gain,
    put,
)
from spiel_games.common import deck as D
from spiel_games.common.engine import phase_table


# ----- DEAL (chance): start cards, all of distinct colours ---------------------------------
def outcomes_deal(s: Core):
    return D.uniform_outcomes([c for c in range(s.cfg.colours) if c not in s.dealt])


def apply_deal(s: Core, colour: int) -> None:
    cfg = s.cfg
    p = len(s.dealt) // cfg.start_cards
    s.deck = draw(s.deck, colour)
    s.deck_size -= 1
    s.dealt = s.dealt + (colour,)
    gain(s, p, (colour,))
    if len(s.dealt) == cfg.players * cfg.start_cards:
        s.phase = START


# ----- START_PLAYER (chance): the start player by lot --------------------------------------
def outcomes_start_player(s: Core):
    return D.uniform_outcomes(range(s.cfg.players))


def apply_start_player(s: Core, player: int) -> None:
    s.cur = player
    s.phase = PLAY


# ----- PLAY: draw the top card or take a row -----------------------------------------------
def legal_play(s: Core) -> list[int]:
    # Memoised on what decides it (measured in one process: random playouts about 2%
    # faster than the unmemoised loop); the list is shared, as the engine's contract allows.
    return _play_ids(
        tuple(map(len, s.rows)), s.taken, s.deck_size > 0, s.cfg.capacities, s.layout.take0
    )


@lru_cache(maxsize=8192)
def _play_ids(lens: tuple, taken: int, deck: bool, caps: tuple, take0: int) -> list[int]:
    """The non-empty open rows can be taken; drawing needs a card left and an open row with
    space (DRAW is id 0, first in the sorted list)."""
    opened = [r for r in range(len(lens)) if not (taken >> r) & 1]
    takes = [take0 + r for r in opened if lens[r]]
    if deck and any(lens[r] < caps[r] for r in opened):
        return [DRAW_ACTION, *takes]
    if not takes:  # tiny configs only: empty deck, only empty rows
        return [take0 + r for r in opened]
    return takes


def apply_play(s: Core, action: int) -> None:
    if action == DRAW_ACTION:
        if not s.last_round and s.deck_size == s.cfg.depth:
            s.last_round = True  # the last-round card is revealed and set aside
        s.phase = DRAW
        return
    take(s, action - s.layout.take0)


# ----- DRAW (chance): the drawn card, placed next ------------------------------------------
def outcomes_draw(s: Core):
    return D.draw_outcomes(s.deck)


def apply_draw(s: Core, card: int) -> None:
    s.deck = draw(s.deck, card)
    s.deck_size -= 1
    s.pending = card
    s.phase = PLACE


# ----- PLACE: put the drawn card in an open row with space ---------------------------------
def legal_place(s: Core) -> list[int]:
    p0 = s.layout.place0
    taken = s.taken
    caps = s.cfg.capacities
    return [p0 + r for r, row in enumerate(s.rows) if not (taken >> r) & 1 and len(row) < caps[r]]


def apply_place(s: Core, action: int) -> None:
    r = action - s.layout.place0
    s.rows = put(s.rows, r, s.rows[r] + (s.pending,))
    s.pending = -1
    s.phase = PLAY
    next_turn(s)


# ----- GOLDEN (chance): the golden joker's extra card joins the taker's collection ---------
outcomes_golden = outcomes_draw


def apply_golden(s: Core, card: int) -> None:
    s.deck = draw(s.deck, card)
    s.deck_size -= 1
    gain(s, s.cur, (card,))
    after_take(s)


# ----- ASSIGN: give a taken joker a colour (immediate variant) -----------------------------
def legal_assign(s: Core) -> list[int]:
    a0 = s.layout.assign0
    return list(range(a0, a0 + s.cfg.colours))


def apply_assign(s: Core, action: int) -> None:
    c = action - s.layout.assign0
    col = list(s.coll[s.cur])
    col[c] += 1
    s.coll = put(s.coll, s.cur, tuple(col))
    s.to_assign -= 1
    if s.to_assign == 0:
        s.phase = PLAY
        end_take(s)


TABLE = phase_table(Phase, [globals()], chance=CHANCE_PHASES, end=END, actor=attrgetter("cur"))
