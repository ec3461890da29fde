"""Information and action abstraction for MCCFR on Die Staufer (name "staufer-board", version 3).

Coarse on purpose: the keys met in play must recur often enough for sampled regrets to
settle (``solvers/mccfr_tables.py``). The *key* is the context of a decision, the *labels*
describe each action by what it does, so that two regions (or seats) alike for me are one
choice. Everything is read from what the player knows (the board, the public VP track,
its own court and chests); never another player's secret jobs.

- key: the phase, the round, my court (envoys plus nobles: 0-2, 3-5, 6+), my VP minus
  the best opponent's on the public track (behind by 8 or more, within 7, ahead by 8 or
  more); on a turn also the turquoise chests I hold (escort, gift, levy);
- labels: deploy to a region: 100 + 10 x (it scores this round) + my standing there
  (0 behind by 2 or more, 1 behind by one, 2 level, 3 ahead) + 5 x (I could take its
  leftmost free seat); supply: 200 + the figures it brings (0-2, 3-4, 5+); a turquoise
  chest: 300 + its kind; a seat: 400 + 10 x its cost (capped at 4) + its value; a
  paying noble's or a missing figure's region: 500 / 600 + its clockwise distance from
  the king; every other choice (occupant, payment, privilege, levy after the action):
  its action id.

Version history: 1 = initial; 2 = the noble-placement and take-from-payment decisions;
3 = the context key and action labels above (version 2 listed every position's majority
and free seats in the key, clockwise from the king, and met nearly a new key per decision).
"""

from __future__ import annotations

from spiel_games.staufer import actions as A
from spiel_games.staufer import scoring as S
from spiel_games.staufer.heuristic import P
from spiel_games.staufer.state import (
    CUR,
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


def _standing_at(s, p: int, pos: int) -> int:
    counts, _ = S.majority_counts(s, pos)
    other = max(c for q, c in enumerate(counts) if q != p)
    d = counts[p] - other
    return 0 if d <= -2 else 1 if d == -1 else 2 if d == 0 else 3


def action_labels(state, player: int, legal) -> list[int]:
    s = state._s
    v = s.v
    t = s.t
    phase = v[PHASE]
    p = v[CUR] if player < 0 else player
    if phase == TURN:
        scored = S.scored_positions(s)
        bonus = P.bonus_envoy(s, p)
        out = []
        for a in legal:
            if A.DEPLOY0 <= a < A.SEAT0:
                pos = s.pos_of[a - A.DEPLOY0]
                first = next(P.open_seats(s, p, pos, bonus), None)
                left = 5 if first is not None and first[0] == 0 else 0
                out.append(100 + 10 * (pos in scored) + _standing_at(s, p, pos) + left)
            elif A.SUPPLY0 <= a < A.DEPLOY0:
                e, nb = t.cfg.supply[a]
                figures = e + nb
                out.append(200 + (0 if figures <= 2 else 1 if figures <= 4 else 2))
            else:
                out.append(300 + a - A.USE0)
        return out
    if phase == SEAT:
        pos = v[PEND_POS]
        travel = P.travel_cost(s, p, pos)
        out = []
        for a in legal:
            value, _ = s.seat_def(pos, a - A.SEAT0)
            cost = travel + 1 + P.seat_payment(s, p, value)
            out.append(400 + 10 * min(cost, 4) + value)
        return out
    if phase in (NOBLE, TAKE):
        base, first = (500, A.NOBLE_TO0) if phase == NOBLE else (600, A.TAKE0)
        return [base + (s.pos_of[a - first] - v[KING]) % t.r for a in legal]
    return list(legal)
