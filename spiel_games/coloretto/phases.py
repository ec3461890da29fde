"""Coloretto phases: one legal/apply pair per phase, chance phases included, and the
phase tables the game dispatches through (indexed by the ``Phase`` int).

Chance phases list their outcomes (``OUTCOMES``); player phases their legal
actions (``LEGAL``); every phase has an ``APPLY``. Illegal actions raise, they are
never repaired.
"""

from __future__ import annotations

from spiel_games.coloretto.actions import DRAW as DRAW_ACTION
from spiel_games.coloretto.rounds import after_take, end_take, next_turn, take
from spiel_games.coloretto.state import (
    ASSIGN,
    DEAL,
    DRAW,
    END,
    GOLDEN,
    PLACE,
    PLAY,
    START,
    Core,
    draw,
    gain,
    open_row_with_space,
    put,
)
from spiel_games.common import deck as D


# ----- DEAL (chance): start cards, all of distinct colours ---------------------------------
def outcomes_deal(s: Core):
    return D.uniform_outcomes([c for c in range(s.cfg.colours) if c not in s.dealt])


def apply_deal(s: Core, colour: int) -> None:
    cfg = s.cfg
    if colour in s.dealt or not 0 <= colour < cfg.colours:
        raise ValueError(f"start card colour {colour} is not available")
    p = len(s.dealt) // cfg.start_cards
    s.deck = draw(s.deck, colour)
    s.deck_size -= 1
    s.dealt = s.dealt + (colour,)
    gain(s, p, (colour,))
    if len(s.dealt) == cfg.players * cfg.start_cards:
        s.phase = START


# ----- START_PLAYER (chance): the start player by lot --------------------------------------
def outcomes_start(s: Core):
    return D.uniform_outcomes(range(s.cfg.players))


def apply_start(s: Core, action: int) -> None:
    if not 0 <= action < s.cfg.players:
        raise ValueError(f"start player outcome {action} out of range")
    s.cur = action
    s.phase = PLAY


# ----- PLAY: draw the top card or take a row -----------------------------------------------
def legal_play(s: Core) -> list[int]:
    lay = s.layout
    caps = s.cfg.capacities
    acts = []
    if s.deck_size > 0:
        for r, row in enumerate(s.rows):
            if not (s.taken >> r) & 1 and len(row) < caps[r]:
                acts.append(DRAW_ACTION)
                break
    for r, row in enumerate(s.rows):
        if row and not (s.taken >> r) & 1:
            acts.append(lay.take0 + r)
    if not acts:  # tiny configs only: empty deck, only empty rows
        acts = [lay.take0 + r for r in range(len(s.rows)) if not (s.taken >> r) & 1]
    return acts


def apply_play(s: Core, action: int) -> None:
    if action == DRAW_ACTION:
        if s.deck_size == 0:
            raise ValueError("cannot draw: the deck is empty")
        if not open_row_with_space(s):
            raise ValueError("cannot draw: every open row is full")
        if not s.last_round and s.deck_size == s.cfg.depth:
            s.last_round = True  # the last-round card is revealed and set aside
        s.phase = DRAW
        return
    kind, r = s.layout.decode(action)
    if kind != "take" or (s.taken >> r) & 1:
        raise ValueError(f"illegal action {action} in the play phase")
    if not s.rows[r] and (
        s.deck_size > 0 or any(row for i, row in enumerate(s.rows) if not (s.taken >> i) & 1)
    ):
        raise ValueError(f"cannot take row {r + 1}: it is empty")
    take(s, r)


# ----- DRAW (chance): the drawn card, placed next ------------------------------------------
def outcomes_deck(s: Core):
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
    kind, r = s.layout.decode(action)
    if kind != "place" or (s.taken >> r) & 1 or len(s.rows[r]) >= s.cfg.capacities[r]:
        raise ValueError(f"cannot place in row {r + 1}")
    s.rows = put(s.rows, r, s.rows[r] + (s.pending,))
    s.pending = -1
    s.phase = PLAY
    next_turn(s)


# ----- GOLDEN (chance): the golden joker's extra card joins the taker's collection ---------
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
    kind, c = s.layout.decode(action)
    if kind != "assign":
        raise ValueError(f"illegal action {action}: a joker colour is expected")
    col = list(s.coll[s.cur])
    col[c] += 1
    s.coll = put(s.coll, s.cur, tuple(col))
    s.to_assign -= 1
    if s.to_assign == 0:
        s.phase = PLAY
        end_take(s)


# ----- END ---------------------------------------------------------------------------------
def apply_end(s: Core, action: int) -> None:
    raise ValueError("the game is over")


def _no_outcomes(s: Core):
    raise ValueError("chance_outcomes called at a player node")


def _no_actions(s: Core) -> list[int]:
    return []


# The phase tables, indexed by Phase (DEAL, START_PLAYER, PLAY, DRAW, PLACE, GOLDEN, ASSIGN, END).
_BY_PHASE = {
    DEAL: (outcomes_deal, _no_actions, apply_deal),
    START: (outcomes_start, _no_actions, apply_start),
    PLAY: (_no_outcomes, legal_play, apply_play),
    DRAW: (outcomes_deck, _no_actions, apply_draw),
    PLACE: (_no_outcomes, legal_place, apply_place),
    GOLDEN: (outcomes_deck, _no_actions, apply_golden),
    ASSIGN: (_no_outcomes, legal_assign, apply_assign),
    END: (_no_outcomes, _no_actions, apply_end),
}
OUTCOMES = tuple(_BY_PHASE[ph][0] for ph in range(len(_BY_PHASE)))
LEGAL = tuple(_BY_PHASE[ph][1] for ph in range(len(_BY_PHASE)))
APPLY = tuple(_BY_PHASE[ph][2] for ph in range(len(_BY_PHASE)))
