"""A rule-based Die Staufer player that plays as a sensible casual human would.

- Deploy where it counts: regions scored this round (A tile, current B region) are worth
  most, weighted by the region's first-place value and how close I am to the majority;
  cheap seats (little travel, low value) are preferred when the gain is equal.
- Supply when the court is too small for a good deployment, picking the space with the
  most figures plus the value of its chests.
- Occupy with an envoy unless a noble is required or would win the majority; pay with
  envoys; take the biggest VP privilege, else the first standing privilege.
- Use an escort when travelling far, a gift before an expensive seat, a levy when short.
"""

from __future__ import annotations

from spiel_games.staufer import actions as A
from spiel_games.staufer import phases as P
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.core import Phase, seat_def, seats_in

_CHEST_VALUE = (2.0, 3.0, 1.0, 2.0, 1.0, 1.0, 1.5, 2.5, 2.0)


def _region_value(s, p: int, pos: int) -> float:
    counts, left = S.majority_counts(s, pos)
    tile = R.POINT_TILES[s.tile_at[pos]]
    mine = counts[p]
    best_other = max((c for q, c in enumerate(counts) if q != p), default=0)
    scored_now = pos in _scored_now(s)
    weight = 1.0 if scored_now else 0.35
    need = best_other - mine + 1
    gain = tile[0] if need <= 1 else tile[1] * 0.6
    return weight * gain


def _scored_now(s) -> tuple[int, ...]:
    try:
        return S.scored_positions(s)
    except IndexError:
        return ()


def _seat_score(s, p: int, pos: int, k: int) -> float:
    v, _ = seat_def(s, pos, k)
    cost = len(P.travel_slots(s, p, pos)) + 1 + P.seat_payment(s, p, v)
    chest = s.seat_chest[pos * s.cfg.max_seats + k]
    bonus = _CHEST_VALUE[chest] if chest >= 0 else 0.0
    return _region_value(s, p, pos) + bonus - 0.8 * cost - 0.3 * k


def heuristic_action(state, rng=None) -> int:
    s = state._s
    p = s.cur
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if s.phase == Phase.TURN:
        best_dep, best_val = None, -1e9
        for a in legal:
            kind, arg = A.decode(a)
            if kind != "deploy":
                continue
            pos = s.pos_of[arg]
            for k in range(seats_in(s, pos)):
                if any(P.occupant_options(s, p, pos, k, P._bonus_envoy(s, p))):
                    val = _seat_score(s, p, pos, k)
                    if val > best_val:
                        best_dep, best_val = a, val
        figures = s.court[p * 2] + s.court[p * 2 + 1]
        for i in range(3):
            if A.USE0 + i in legal:
                kind = R.TURQUOISE[i]
                if kind == R.LEVY and figures < 4:
                    return A.USE0 + i
        if best_dep is not None and (best_val > 0 or figures >= 6):
            return best_dep
        supplies = [a for a in legal if A.decode(a)[0] == "supply"]

        def supply_value(a: int) -> float:
            e, nb = s.cfg.supply[a]
            return e + 1.5 * nb + sum(_CHEST_VALUE[c] for c in s.supply_chests[a])

        return max(supplies, key=lambda a: (supply_value(a), -a))
    if s.phase == Phase.SEAT:
        return max(legal, key=lambda a: (_seat_score(s, p, s.pend_pos, a - A.SEAT0), -a))
    if s.phase == Phase.OCCUPANT:
        counts, _ = S.majority_counts(s, s.pend_pos)
        best_other = max((c for q, c in enumerate(counts) if q != p), default=0)
        if counts[p] + 1 <= best_other < counts[p] + 2 and A.OCC_NOBLE in legal:
            return A.OCC_NOBLE
        return A.OCC_ENVOY if A.OCC_ENVOY in legal else A.OCC_NOBLE
    if s.phase == Phase.PAYMENT:
        return min(legal)
    if s.phase == Phase.PRIVILEGE:
        if A.PRIV0 + R.VP_PRIV in legal and s.vp_pile and s.vp_pile[-1] >= 4:
            return A.PRIV0 + R.VP_PRIV
        standing = [a for a in legal if a != A.PRIV0 + R.VP_PRIV]
        return standing[0] if standing else legal[0]
    return legal[0]
