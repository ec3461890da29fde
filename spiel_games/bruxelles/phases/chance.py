"""Bruxelles 1893 chance phases: setup strips and compass tiles, works of art (start
works and Workshop draws), theater figures, bonus cards and stock exchange cards.
One outcomes/apply pair per phase (the engine has checked the outcome is possible);
decks are count vectors, outcomes exact.
"""

from __future__ import annotations

from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.phases.works import keep_work
from spiel_games.bruxelles.rounds import advance
from spiel_games.bruxelles.state import (
    Phase,
    add_at,
    decide,
    set_at,
    set_stock,
    space_actions,
    take_one,
)
from spiel_games.common import deck as D


def outcomes_c_strip(s):
    return D.uniform_outcomes([k for k in range(len(R.STRIPS)) if k not in s.strips])


def apply_c_strip(s, o: int) -> None:
    s.strips = s.strips + (o,)
    if len(s.strips) == s.cfg.board:
        s.acts = space_actions(s)
    advance(s)


def outcomes_c_compass(s):
    return D.uniform_outcomes([k for k in range(len(R.COMPASS)) if k not in s.compass])


def apply_c_compass(s, o: int) -> None:
    s.compass = s.compass + (o,)
    advance(s)


def outcomes_c_art(s):
    return D.draw_outcomes(s.art_stack[: R.COLOURS])


def apply_c_art(s, o: int) -> None:
    """A start work (purpose 0) or one of a Workshop's draws (purpose 1, private)."""
    s.art_stack = take_one(s.art_stack, o)
    p, k, drawn, purpose = s.ctx
    if purpose == 0:
        s.works = set_at(s.works, p, add_at(s.works[p], o, 1))
        s.pub_works = set_at(s.pub_works, p, add_at(s.pub_works[p], o, 1))
        advance(s)
        return
    drawn = drawn + (o,)
    k -= 1
    if k > 0 and sum(s.art_stack[: R.COLOURS]) > 0:
        s.ctx = (p, k, drawn, 1)
        return
    if len(drawn) == 1:
        keep_work(s, p, drawn, drawn[0])
    else:
        # Asked even when every drawn work has one colour: whether a decision appears
        # must not tell the others what goes back to the stack.
        decide(s, Phase.KEEP_WORK, p, (tuple(sorted(drawn)),))


def outcomes_c_figure(s):
    return D.draw_outcomes(s.fig_deck)


def apply_c_figure(s, o: int) -> None:
    s.fig_deck = take_one(s.fig_deck, o)
    s.display = set_at(s.display, s.display.index(-1), o)
    advance(s)


def outcomes_c_bonus(s):
    return D.draw_outcomes(s.bonus_deck)


def apply_c_bonus(s, o: int) -> None:
    s.bonus_deck = take_one(s.bonus_deck, o)
    s.strip_bonus = set_at(s.strip_bonus, s.strip_bonus.index(-1), o)
    advance(s)


def outcomes_c_stock(s):
    return D.uniform_outcomes([c for c in range(len(R.STOCK_VALUES)) if (s.stock_left >> c) & 1])


def apply_c_stock(s, o: int) -> None:
    set_stock(s, o)
    advance(s)
