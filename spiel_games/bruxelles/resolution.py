"""Bruxelles 1893 resolution phase and end of turn (rulebook C and D).

Resolution: (1) column bids win bonus cards, ties share the central power;
(2) new first player by Manneken Pis; (3) bonus cards used or tucked;
(4) shield majorities; (5) Brussels majority to the Courthouse. Then the end of
turn (skipped after the last round).
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.core import Phase
from spiel_games.bruxelles.steps import (
    add_at,
    advance_track,
    decide,
    push,
    set_at,
)


def column_bids(s, col: int) -> list[int]:
    b = s.cfg.board
    sums = [0] * s.n
    for r in range(b):
        sp = r * b + col
        o = s.occ[sp]
        if 0 <= o < s.n:
            sums[o] += s.bids[sp]
    return sums


def _t_resolve(s) -> None:
    n = s.n
    won: list[list[int]] = [[] for _ in range(n)]
    tied: list[list[int]] = [[] for _ in range(n)]
    for col in range(s.cfg.board):
        card = s.strip_bonus[col]
        if card < 0:
            continue
        sums = column_bids(s, col)
        best = max(sums)
        if best == 0:
            continue
        winners = [p for p in range(n) if sums[p] == best]
        s.strip_bonus = set_at(s.strip_bonus, col, -1)
        if len(winners) == 1:
            won[winners[0]].append(card)
            s.mp = add_at(s.mp, winners[0], R.BONUS[card][2])
        else:
            for p in winners:
                tied[p].append(card)
    s.first = R.new_first_player(s.mp, s.first)
    tasks = []
    for k in range(n):
        p = (s.first + k) % n
        tasks += [("bonus", p, card, 1) for card in won[p]]
        tasks += [("bonus", p, card, 0) for card in tied[p]]
    tasks += [("shields",), ("bmaj",), ("endround",)]
    push(s, *tasks)


def bonus_choices(s, p: int, card: int, tuck_ok: int) -> list[int]:
    options, vp, _, _ = R.BONUS[card]
    acts = [A.POWER0 + i for i in range(len(options))]
    if tuck_ok and vp > 0:
        acts += [A.TUCK0 + r for r in range(R.BONUS_ROWS) if not (s.tucked[p] >> r) & 1]
    return acts


def _t_bonus(s, p: int, card: int, tuck_ok: int) -> None:
    acts = bonus_choices(s, p, card, tuck_ok)
    if len(acts) == 1:
        use_bonus(s, p, card, acts[0])
        return
    decide(s, Phase.BONUS, p, (card, tuck_ok))


def use_bonus(s, p: int, card: int, action: int) -> None:
    options, vp, _, _ = R.BONUS[card]
    if A.POWER0 <= action < A.POWER0 + len(options):
        for power in options[action - A.POWER0]:
            advance_track(s, p, power)
    elif A.TUCK0 <= action < A.TUCK0 + R.BONUS_ROWS:
        r = action - A.TUCK0
        if vp == 0 or (s.tucked[p] >> r) & 1:
            raise ValueError(f"cannot tuck this card under row {r + 1}")
        s.rows = set_at(s.rows, p, add_at(s.rows[p], r, vp))
        s.tucked = set_at(s.tucked, p, s.tucked[p] | (1 << r))
    else:
        raise ValueError(f"action {action} is not a bonus card choice")


def _t_shields(s) -> None:
    for spaces in R.shields(s.cfg.board):
        owners = tuple(s.occ[sp] for sp in spaces)
        if min(owners) < 0:
            continue
        for p in R.shield_scorers(owners, s.neutral_id):
            s.vp[p] += R.HALL[s.hall[p]]


def _t_bmaj(s) -> None:
    best = max(s.onbrussels)
    if best == 0:
        return
    for p in range(s.n):
        if s.onbrussels[p] == best:
            s.onbrussels = add_at(s.onbrussels, p, -1)
            s.court = add_at(s.court, p, 1)


def _t_endround(s) -> None:
    if s.round >= s.cfg.rounds:
        s.phase = Phase.END
        s.actor = -1
        s.ctx = ()
        return
    n = s.n
    for p in range(n):
        s.supply[p] += s.onboard[p] + s.onbrussels[p]
    s.onboard = [0] * n
    s.onbrussels = (0,) * n
    sp = s.cfg.spaces
    s.occ = [-1] * sp
    s.bids = [0] * sp
    s.rot = (0,) * n
    s.round += 1
    if s.display[0] >= 0:
        s.fig_disc = add_at(s.fig_disc, s.display[0], 1)
    s.display = s.display[1:] + (-1,)
    s.strip_bonus = (-1,) * s.cfg.board
    s.stock = -1
    s.uses = (0,) * len(R.BRUSSELS)
    s.passed = 0
    s.first_passer = -1
    s.mp = (0,) * n
    s.tucked = (0,) * n
    push(s, ("fig",), *([("deal",)] * s.cfg.board), ("round",))


TASKS = {
    "resolve": _t_resolve,
    "bonus": _t_bonus,
    "shields": _t_shields,
    "bmaj": _t_bmaj,
    "endround": _t_endround,
}
