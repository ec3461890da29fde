"""A rule-based Die Staufer player that plays as a sensible casual human would.

- Deploy where it counts: regions scored this round (A tile, current B region) are worth
  most, weighted by the region's first-place value and how close I am to the majority;
  seats that fulfil my own job cards get a bonus; cheap seats (little travel, low value)
  are preferred when the gain is equal.
- Supply when the court is too small for a good deployment, picking the space with the
  most figures plus the value of its chests.
- Occupy with an envoy unless a noble is required or would win the majority; pay with
  envoys; take the biggest VP privilege, else the first standing privilege.
- Use an escort when travelling far, a gift before an expensive seat, a levy when short
  before the action; after the action use a levy that brings its full two envoys, or any
  levy on the last turn of the game (court figures break ties and feed the steward).
- A paying noble goes to the region the king leaves soonest (its payment area returns to
  the court first); a figure the province lacks comes from the payment area the king
  reaches last.
"""

from __future__ import annotations

from spiel_games.staufer import actions as A
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.phases import deploy as P
from spiel_games.staufer.state import (
    AFTER,
    CUR,
    KING,
    NOBLE,
    OCCUPANT,
    PAYMENT,
    PEND_POS,
    PRIVILEGE,
    ROUND,
    SEAT,
    TAKE,
    TI,
    TURN,
    VPLEFT,
)

_CHEST_VALUE = (2.0, 3.0, 1.0, 2.0, 1.0, 1.0, 1.5, 2.5, 2.0)


def _region_value(s, p: int, pos: int, scored_now) -> float:
    counts, _ = S.majority_counts(s, pos)
    tile = R.POINT_TILES[s.tile_at[pos]]
    best_other = max((c for q, c in enumerate(counts) if q != p), default=0)
    weight = 1.0 if pos in scored_now else 0.35
    need = best_other - counts[p] + 1
    gain = tile[0] if need <= 1 else tile[1] * 0.6
    return weight * gain


def _mine_here(s, p: int, pos: int) -> int:
    t = s.t
    base = t.seat + pos * t.K
    return sum(
        1 for i in range(s.seats_in(pos)) if s.v[base + i] >= 0 and (s.v[base + i] >> 1) == p
    )


def _job_parts(s, p: int, pos: int, mine_here: int) -> tuple[float, float, list]:
    """My (secret) job cards' rough value at pos: (the part every seat there gets, the
    extra for the leftmost seat, the office jobs (name, vp) that depend on the seat)."""
    t = s.t
    fixed = leftmost = 0.0
    offices = []
    for card in s.v[t.jobs + p * 3 : t.jobs + p * 3 + 3]:
        if card < 0:
            continue
        ty, i = divmod(card, R.JOB_POOL_MAX)
        if ty == R.JOB_REGION:
            if s.pos_of[i] == pos and mine_here == 0:
                fixed += 0.5 * R.REGION_JOB_VP
        elif ty == R.JOB_DESIGN:
            name, vp = R.DESIGN_JOBS[i]
            if name == "leftmost":
                leftmost += 0.5 * vp
            elif (
                (name == "presence" and mine_here == 0)
                or (name == "two_seats" and mine_here == 1)
                or (name == "three_seats" and mine_here == 2)
                or (name == "king_court" and pos == s.v[KING])
            ):
                fixed += 0.5 * vp
        else:
            offices.append(_OFFICE[i])
    return fixed, leftmost, offices


def _office_paying_value(name: str) -> int | None:
    """The seat value an office job pays for ("value2" -> 2), None when it pays for no
    particular value (noble_seat, total_value)."""
    return int(name[5:]) if name.startswith("value") else None


# office jobs as (seat value that pays or None, pays on a noble-only seat, vp)
_OFFICE = tuple(
    (_office_paying_value(name), name == "noble_seat", vp) for name, vp in R.OFFICE_JOBS
)


def _job_bonus(parts, k: int, value: int, noble_only: bool) -> float:
    """Rough value of seat k (of the given value) for my job cards (see ``_job_parts``)."""
    fixed, leftmost, offices = parts
    bonus = fixed + (leftmost if k == 0 else 0.0)
    for paying_value, noble_seat, vp in offices:
        if (paying_value is not None and paying_value == value) or (noble_seat and noble_only):
            bonus += 0.5 * vp
    return bonus


def _seat_value(s, pos, k, value, noble_only, cost, region, parts) -> float:
    """Value of seat k at pos given its value, cost and the seat-independent parts
    (``region``: the majority at stake, ``parts``: see ``_job_parts``)."""
    t = s.t
    chest = s.v[t.chest + pos * t.K + k]
    bonus = _CHEST_VALUE[chest] if chest >= 0 else 0.0
    return region + bonus + _job_bonus(parts, k, value, noble_only) - 0.8 * cost - 0.3 * k


def heuristic_action(state, rng=None) -> int:
    s = state._s
    v = s.v
    t = s.t
    p = v[CUR]
    legal = state._legal_actions(p)
    if len(legal) == 1:
        return legal[0]
    ph = s.phase
    if ph == TURN:
        scored_now = S.scored_positions(s)
        bonus = P.bonus_envoy(s, p)
        best_dep, best_val = None, -1e9
        for a in legal:
            if not A.DEPLOY0 <= a < A.SEAT0:
                continue
            pos = s.pos_of[a - A.DEPLOY0]
            region = parts = None
            for k, value, noble_only, cost in P.open_seats(s, p, pos, bonus):
                if region is None:
                    region = _region_value(s, p, pos, scored_now)
                    parts = _job_parts(s, p, pos, _mine_here(s, p, pos))
                val = _seat_value(s, pos, k, value, noble_only, cost, region, parts)
                if val > best_val:
                    best_dep, best_val = a, val
        figures = v[t.court + 2 * p] + v[t.court + 2 * p + 1]
        if A.USE0 + 2 in legal and figures < 4:
            return A.USE0 + 2  # levy when short of figures
        if best_dep is not None and (best_val > 0 or figures >= 6):
            return best_dep
        supplies = [a for a in legal if A.SUPPLY0 <= a < A.DEPLOY0]

        def supply_value(a: int) -> float:
            e, nb = t.cfg.supply[a]
            base = t.supc + a * R.CHEST_KINDS
            chests = sum(_CHEST_VALUE[x] * v[base + x] for x in range(R.CHEST_KINDS))
            return e + 1.5 * nb + chests

        return max(supplies, key=lambda a: (supply_value(a), -a))
    if ph == SEAT:
        scored_now = S.scored_positions(s)
        pos = v[PEND_POS]
        region = _region_value(s, p, pos, scored_now)
        parts = _job_parts(s, p, pos, _mine_here(s, p, pos))
        travel = P.travel_cost(s, p, pos)

        def seat_score(a: int) -> tuple[float, int]:
            k = a - A.SEAT0
            value, noble_only = s.seat_def(pos, k)
            cost = travel + 1 + P.seat_payment(s, p, value)
            return _seat_value(s, pos, k, value, noble_only, cost, region, parts), -a

        return max(legal, key=seat_score)
    if ph == OCCUPANT:
        counts, _ = S.majority_counts(s, v[PEND_POS])
        best_other = max((c for q, c in enumerate(counts) if q != p), default=0)
        if best_other == counts[p] + 1 and A.OCC_NOBLE in legal:
            return A.OCC_NOBLE  # a noble (counting double) takes the lead
        return A.OCC_ENVOY if A.OCC_ENVOY in legal else A.OCC_NOBLE
    if ph == PAYMENT:
        return min(legal)  # pay with envoys, keep nobles
    if ph in (NOBLE, TAKE):
        # Clockwise distance from the king: the king clears the areas nearest him first.
        def wait(a: int) -> int:
            return (s.pos_of[a - (A.NOBLE_TO0 if ph == NOBLE else A.TAKE0)] - v[KING]) % t.r

        return min(legal, key=wait) if ph == NOBLE else max(legal, key=wait)
    if ph == AFTER:
        last_turn = v[ROUND] == t.cfg.rounds - 1 and p not in v[t.order + v[TI] + 1 : t.order + t.F]
        if v[t.prov + 2 * p] >= R.LEVY_ENVOYS or last_turn:
            return A.USE0 + 2
        return A.END_TURN
    if ph == PRIVILEGE:
        top = t.cfg.vp_pile[v[VPLEFT] - 1] if v[VPLEFT] else 0
        if A.PRIV0 + R.VP_PRIV in legal and top >= 4:
            return A.PRIV0 + R.VP_PRIV
        standing = [a for a in legal if a != A.PRIV0 + R.VP_PRIV]
        return standing[0] if standing else legal[0]
    return legal[0]
