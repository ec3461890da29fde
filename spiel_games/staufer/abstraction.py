"""Information and action abstraction for MCCFR on Die Staufer (name "staufer-board", version 3).

Coarse on purpose: the keys met in play must recur often enough for sampled regrets to
settle (``solvers/mccfr_tables.py``). The *key* is the context of a decision, the *labels*
describe each action by what it does, so that two regions (or seats) alike for me are one
choice. Everything is read from what the player knows (the board, the public VP track,
its own court and chests); never another player's secret jobs.

- key: the phase, the round, my court (envoys plus nobles: 0-2, 3-5, 6+), my VP minus
  the best opponent's on the public track (behind by 8 or more, within 7, ahead by 8 or
  more); on a turn also the turquoise chests I hold (escort, gift, levy);
- labels rank the options by the heuristic's own yardsticks (``heuristic.py``: the
  majority at stake, my secret jobs, the seat's chest, its cost in figures), so that the
  same few labels recur at every decision of a kind (labels by value buckets came and
  went with the position, and each was learned from a few samples): deploy to a region:
  100 + its rank by the best seat I can pay for there (0, 1, 2 = third or lower) + 10 if
  that seat is worth nothing to the heuristic; supply: 200 + its rank by what it brings
  (0 best, 1 any other); a turquoise chest: 300 + its kind; a seat: 400 + its rank (0,
  1, 2+); a paying noble's or a missing figure's region: 500 / 600 + its clockwise
  distance from the king; every other choice (occupant, payment, privilege, levy after
  the action): its action id.

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
    GIFT,
    KING,
    NOBLE,
    PEND_POS,
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
    key = f"{s.phase}r{v[ROUND]}c{court_b}{standing}"
    if s.phase == TURN:
        key += "t" + "".join("1" if v[t.tq + me * 3 + i] else "0" for i in range(3))
    return key


def _best_seat(s, p: int, pos: int, bonus: int, scored) -> float | None:
    """The heuristic's value of the best seat I can pay for at pos (None: none): the seats
    of ``deploy.open_seats`` valued by ``heuristic._seat_value``, inlined (the labels'
    hot path)."""
    v = s.v
    t = s.t
    e = v[t.court + p * 2] + bonus
    nb = v[t.court + p * 2 + 1]
    have = e + nb
    travel = P.travel_cost(s, p, pos)
    if have < travel + 1:  # not even the cheapest seat
        return None
    base = t.seat + pos * t.K
    chest_base = t.chest + pos * t.K
    royal = v[t.privs + p * P.PK + R.ROYAL_FAVOUR] > 0
    discount = 1 + v[GIFT] + (1 if v[t.privs + p * P.PK + R.HERALD] else 0)
    region = 0.0
    parts = None
    best = None
    for k, (value, noble_only) in enumerate(t.cfg.seats[s.region_at[pos]]):
        if v[base + k] >= 0:
            continue
        pay = value - discount
        cost = travel + 1 + (pay if pay > 0 else 0)
        if have < cost or not (nb >= 1 or (e >= 1 and (not noble_only or royal))):
            continue
        if parts is None:
            region = H._region_value(s, p, pos, scored)
            parts = H._job_parts(s, p, pos, H._mine_here(s, p, pos))
        chest = v[chest_base + k]
        x = (
            region
            + (H._CHEST_VALUE[chest] if chest >= 0 else 0.0)
            + H._job_bonus(parts, k, value, noble_only)
            - 0.8 * cost
            - 0.3 * k
        )
        if best is None or x > best:
            best = x
    return best


def _ranks(values: list[float]) -> list[int]:
    """0 for the best value, 1 for the second, ... (equal values share a rank)."""
    order = sorted(set(values), reverse=True)
    return [order.index(x) for x in values]


def action_labels(state, player: int, legal) -> list[int]:
    s = state._s
    v = s.v
    t = s.t
    phase = s.phase
    p = player
    if phase == TURN:
        scored = S.scored_positions(s)
        bonus = P.bonus_envoy(s, p)
        deploy: dict[int, float] = {}
        supply: dict[int, float] = {}
        for a in legal:
            if A.DEPLOY0 <= a < A.SEAT0:
                best = _best_seat(s, p, s.pos_of[a - A.DEPLOY0], bonus, scored)
                deploy[a] = -99.0 if best is None else best
            elif A.SUPPLY0 <= a < A.DEPLOY0:
                e, nb = t.cfg.supply[a]
                base = t.supc + a * R.CHEST_KINDS
                chests = sum(
                    [
                        w * n
                        for w, n in zip(H._CHEST_VALUE, v[base : base + R.CHEST_KINDS], strict=True)
                    ]
                )
                supply[a] = e + 1.5 * nb + chests
        rank = dict(zip(deploy, _ranks(list(deploy.values())), strict=True))
        rank.update(zip(supply, _ranks(list(supply.values())), strict=True))
        out = []
        for a in legal:
            if a in deploy:
                out.append(100 + 10 * (deploy[a] <= 0) + min(rank[a], 2))
            elif a in supply:
                out.append(200 + min(rank[a], 1))
            else:
                out.append(300 + a - A.USE0)
        return out
    if phase == SEAT:
        pos = v[PEND_POS]
        scored = S.scored_positions(s)
        region = H._region_value(s, p, pos, scored)
        parts = H._job_parts(s, p, pos, H._mine_here(s, p, pos))
        travel = P.travel_cost(s, p, pos)
        values = []
        for a in legal:
            k = a - A.SEAT0
            value, noble_only = s.seat_def(pos, k)
            cost = travel + 1 + P.seat_payment(s, p, value)
            values.append(H._seat_value(s, pos, k, value, noble_only, cost, region, parts))
        return [400 + min(r, 2) for r in _ranks(values)]
    if phase in (NOBLE, TAKE):
        base, first = (500, A.NOBLE_TO0) if phase == NOBLE else (600, A.TAKE0)
        return [base + (s.pos_of[a - first] - v[KING]) % t.r for a in legal]
    return list(legal)
