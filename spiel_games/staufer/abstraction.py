"""Information and action abstraction for MCCFR on Die Staufer (name "staufer-board", version 3).

Coarse on purpose: the keys met in play must recur often enough for sampled regrets to
settle (``solvers/mccfr_tables.py``). The *key* is the context of a decision, the *labels*
describe each action by what it does, so that two regions (or seats) alike for me are one
choice. Everything is read from what the player knows (the board, the public VP track,
its own court and chests); never another player's secret jobs.

- key: the phase, the round, my court (envoys plus nobles: 0-2, 3-5, 6+), my VP minus
  the best opponent's on the public track (behind by 8 or more, within 7, ahead by 8 or
  more); on a turn also the turquoise chests I hold (escort, gift, levy);
- labels, by the heuristic's own yardsticks (``heuristic.py``: the majority at stake,
  my secret jobs, the seat's chest, its cost in figures): deploy to a region: 100 + 20 x
  (it scores this round) + the value of the best seat I can pay for there (in steps of
  1, 0 when none); supply: 200 + what the space brings (figures, nobles at 1.5, its
  chests); a turquoise chest: 300 + its kind; a seat: 400 + twice its value; a paying
  noble's or a missing figure's region: 500 / 600 + its clockwise distance from the
  king; every other choice (occupant, payment, privilege, levy after the action): its
  action id.

Version history: 1 = initial; 2 = the noble-placement and take-from-payment decisions;
3 = the context key and action labels above (version 2 listed every position's majority
and free seats in the key, clockwise from the king, and met nearly a new key per decision).
"""

from __future__ import annotations

from spiel_games.staufer import actions as A
from spiel_games.staufer import heuristic as H
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.heuristic import P
from spiel_games.staufer.state import (
    KING,
    NOBLE,
    PEND_POS,
    PHASE,
    ROUND,
    SEAT,
    TAKE,
    TURN,
)

NAME = "staufer-board"
VERSION = 3


def abstract_key(state, player: int) -> str:
    s = state._s
    v = s.v
    t = s.t
    me = player
    court = v[t.court + 2 * me] + v[t.court + 2 * me + 1]
    court_b = 0 if court <= 2 else 1 if court <= 5 else 2
    vp = v[t.vp : t.vp + t.n]
    diff = vp[me] - max(vp[p] for p in range(t.n) if p != me)
    standing = "b" if diff <= -8 else "a" if diff >= 8 else "e"
    key = f"{v[PHASE]}r{v[ROUND]}c{court_b}{standing}"
    if v[PHASE] == TURN:
        key += "t" + "".join("1" if v[t.tq + me * 3 + i] else "0" for i in range(3))
    return key


def _best_seat(s, p: int, pos: int, bonus: int, scored) -> float | None:
    """The heuristic's value of the best seat I can pay for at pos (None: none)."""
    region = parts = None
    best = None
    for k, value, noble_only, cost in P.open_seats(s, p, pos, bonus):
        if region is None:
            region = H._region_value(s, p, pos, scored)
            parts = H._job_parts(s, p, pos, H._mine_here(s, p, pos))
        v = H._seat_value(s, pos, k, value, noble_only, cost, region, parts)
        if best is None or v > best:
            best = v
    return best


def _clip(x: float, hi: int) -> int:
    return max(0, min(hi, int(x)))


def action_labels(state, player: int, legal) -> list[int]:
    s = state._s
    v = s.v
    t = s.t
    phase = v[PHASE]
    p = player
    if phase == TURN:
        scored = S.scored_positions(s)
        bonus = P.bonus_envoy(s, p)
        out = []
        for a in legal:
            if A.DEPLOY0 <= a < A.SEAT0:
                pos = s.pos_of[a - A.DEPLOY0]
                best = _best_seat(s, p, pos, bonus, scored)
                value = 0 if best is None else 1 + _clip(best + 4, 15)
                out.append(100 + 20 * (pos in scored) + value)
            elif A.SUPPLY0 <= a < A.DEPLOY0:
                e, nb = t.cfg.supply[a]
                base = t.supc + a * R.CHEST_KINDS
                chests = sum(H._CHEST_VALUE[x] * v[base + x] for x in range(R.CHEST_KINDS))
                out.append(200 + _clip(e + 1.5 * nb + chests, 30))
            else:
                out.append(300 + a - A.USE0)
        return out
    if phase == SEAT:
        pos = v[PEND_POS]
        scored = S.scored_positions(s)
        region = H._region_value(s, p, pos, scored)
        parts = H._job_parts(s, p, pos, H._mine_here(s, p, pos))
        travel = P.travel_cost(s, p, pos)
        out = []
        for a in legal:
            k = a - A.SEAT0
            value, noble_only = s.seat_def(pos, k)
            cost = travel + 1 + P.seat_payment(s, p, value)
            seat = H._seat_value(s, pos, k, value, noble_only, cost, region, parts)
            out.append(400 + _clip(2 * seat + 10, 40))
        return out
    if phase in (NOBLE, TAKE):
        base, first = (500, A.NOBLE_TO0) if phase == NOBLE else (600, A.TAKE0)
        return [base + (s.pos_of[a - first] - v[KING]) % t.r for a in legal]
    return list(legal)
