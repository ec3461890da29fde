"""Die Staufer rules in motion: chance steps, the player phases and round transitions.

Every function works on a ``Core``. Illegal input raises ValueError; nothing is
silently repaired.
"""

from __future__ import annotations

from spiel_games.common import deck as D
from spiel_games.staufer import actions as A
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.core import (
    ST_A, ST_B, ST_C, ST_JOB, ST_REGION, ST_TILE, Core, Phase, seat_def, seats_in,
)

# ----- chance ------------------------------------------------------------------------------


def chance_outcomes(c: Core) -> list[tuple[int, float]]:
    cfg = c.cfg
    if c.phase == Phase.REFILL:
        return D.draw_outcomes(c.bag)
    if c.phase != Phase.SETUP:
        raise ValueError("chance_outcomes called at a player node")
    kind, arg = c.steps[c.step]
    if kind == ST_REGION:
        return D.uniform_outcomes([r for r in range(cfg.regions) if c.pos_of[r] < 0])
    if kind == ST_TILE:
        return D.uniform_outcomes([t for t in range(cfg.regions) if t not in c.tile_at])
    if kind == ST_JOB:
        t = arg % 3
        dealt = {c.jobs[p * 3 + t] for p in range(cfg.players)}
        return D.uniform_outcomes(
            [i for i in range(cfg.job_pool[t]) if t * R.JOB_POOL_MAX + i not in dealt]
        )
    if kind == ST_A:
        return D.uniform_outcomes([r for r in range(cfg.regions) if r not in c.a_tiles])
    if kind == ST_B:
        return D.uniform_outcomes([b for b in range(len(R.B_CONDITIONS)) if b not in c.b_tiles])
    counts = [0] * (max(R.C_MOVES) + 1)
    for m in R.C_MOVES:
        counts[m] += 1
    for m in c.c_tiles:
        counts[m] -= 1
    return D.draw_outcomes(counts)


def apply_chance(c: Core, outcome: int) -> None:
    legal = [a for a, _ in chance_outcomes(c)]
    if outcome not in legal:
        raise ValueError(f"chance outcome {outcome} is not possible here (possible: {legal})")
    if c.phase == Phase.REFILL:
        _place_chest(c, outcome)
        return
    kind, arg = c.steps[c.step]
    if kind == ST_REGION:
        c.region_at = c.region_at[:arg] + (outcome,) + c.region_at[arg + 1:]
        c.pos_of = c.pos_of[:outcome] + (arg,) + c.pos_of[outcome + 1:]
    elif kind == ST_TILE:
        c.tile_at = c.tile_at[:arg] + (outcome,) + c.tile_at[arg + 1:]
    elif kind == ST_JOB:
        c.jobs[arg] = (arg % 3) * R.JOB_POOL_MAX + outcome
    elif kind == ST_A:
        c.a_tiles = c.a_tiles + (outcome,)
        if arg == c.cfg.rounds:  # the unused sixth tile names the king's start region
            c.king = c.pos_of[outcome]
    elif kind == ST_B:
        c.b_tiles = c.b_tiles + (outcome,)
    else:
        assert kind == ST_C
        c.c_tiles = c.c_tiles + (outcome,)
    c.step += 1
    if c.step == len(c.steps):
        _queue_refill(c)


def _queue_refill(c: Core) -> None:
    """Queue every empty chest space (supply spaces, then free seats) for a new chest."""
    cfg = c.cfg
    k = cfg.max_seats
    q = [s for s in range(len(cfg.supply)) if not c.supply_chests[s]]
    base = len(cfg.supply)
    for pos in range(cfg.regions):
        for i in range(seats_in(c, pos)):
            j = pos * k + i
            if c.seat[j] < 0 and c.seat_chest[j] < 0:
                q.append(base + j)
    c.refill = tuple(q)
    _continue_refill(c)


def _continue_refill(c: Core) -> None:
    if c.refill and sum(c.bag) > 0:
        c.phase = Phase.REFILL
    else:
        c.refill = ()  # stacks exhausted: the remaining spaces stay empty
        start_round(c)


def _place_chest(c: Core, kind: int) -> None:
    D.draw(c.bag, kind)
    space = c.refill[0]
    c.refill = c.refill[1:]
    ns = len(c.cfg.supply)
    if space < ns:
        c.supply_chests[space] = c.supply_chests[space] + (kind,)
    else:
        c.seat_chest[space - ns] = kind
    _continue_refill(c)


# ----- rounds and turns --------------------------------------------------------------------


def start_round(c: Core) -> None:
    c.ti = 0
    c.sup_track = ()
    c.dep_track = ()
    c.cur = c.order[0]
    _start_turn(c)


def _start_turn(c: Core) -> None:
    c.phase = Phase.TURN
    c.escort = False
    c.gift = False
    c.pend_pos = c.pend_seat = c.pend_occ = -1
    c.priv_pending = 0


def _end_turn(c: Core) -> None:
    c.ti += 1
    if c.ti < len(c.order):
        c.cur = c.order[c.ti]
        _start_turn(c)
        return
    _end_round(c)


def _end_round(c: Core) -> None:
    cfg = c.cfg
    scored = S.scored_positions(c)
    c.scored = scored
    for pos in scored:
        S.score_region(c, pos)
    if c.round == cfg.rounds - 1:
        c.phase = Phase.END
        c.returns = S.final_returns(c)
        return
    # Clean-up (C tile): empty scored seats, move the king, set the next order, refill.
    k = cfg.max_seats
    n = cfg.players
    for pos in scored:
        for i in range(seats_in(c, pos)):
            occ = c.seat[pos * k + i]
            if occ >= 0:
                c.prov[occ] += 1  # occ = player * 2 + is_noble indexes the province directly
                c.seat[pos * k + i] = -1
    move = c.c_tiles[c.round]
    for step in range(move):
        pos = (c.king + step) % cfg.regions
        for p in range(n):
            b = (pos * n + p) * 2
            c.court[p * 2] += c.pay[b]
            c.court[p * 2 + 1] += c.pay[b + 1]
            c.pay[b] = c.pay[b + 1] = 0
    c.king = (c.king + move) % cfg.regions
    c.order = c.sup_track + c.dep_track
    c.round += 1
    _queue_refill(c)


# ----- figures -----------------------------------------------------------------------------


def gain(c: Core, p: int, envoys: int, nobles: int) -> None:
    """Take figures of colour p from the province; when it runs short, from payment areas
    clockwise from the king's region; a noble that exists nowhere becomes an envoy."""
    for _ in range(nobles):
        if not _take_one(c, p, 1):
            envoys += 1
    for _ in range(envoys):
        _take_one(c, p, 0)


def _take_one(c: Core, p: int, noble: int) -> bool:
    i = p * 2 + noble
    if c.prov[i] > 0:
        c.prov[i] -= 1
        c.court[i] += 1
        return True
    cfg = c.cfg
    n = cfg.players
    for step in range(cfg.regions):
        pos = (c.king + step) % cfg.regions
        j = (pos * n + p) * 2 + noble
        if c.pay[j] > 0:
            c.pay[j] -= 1
            c.court[i] += 1
            return True
    return False


def _gain_chest(c: Core, p: int, kind: int) -> None:
    if kind == R.O2VP:
        c.vp[p] += 2
    elif kind == R.O3VP:
        c.vp[p] += 3
    elif kind == R.OENVOY:
        gain(c, p, 1, 0)
    elif kind == R.ONOBLE:
        gain(c, p, 0, 1)
    elif kind == R.PURPLE:
        c.priv_pending += 1
    elif kind == R.BROWN:
        c.brown[p] += 1
    else:
        c.tq[p * 3 + R.TURQUOISE.index(kind)] += 1


def holds(c: Core, p: int, kind: int) -> bool:
    return c.privs[p * R.PRIV_KINDS + kind] > 0


# ----- deployment costs --------------------------------------------------------------------


def travel_slots(c: Core, p: int, pos: int) -> list[int]:
    """Regions receiving one travel figure: from the king's region up to the target."""
    if c.escort:
        return []
    r = c.cfg.regions
    d = (pos - c.king) % r
    slots = [(c.king + i) % r for i in range(d)]
    if slots and holds(c, p, R.SAFE_CONDUCT):
        slots = slots[1:]
    return slots


def seat_payment(c: Core, p: int, value: int) -> int:
    pay = value - 1 - (1 if c.gift else 0) - (1 if holds(c, p, R.HERALD) else 0)
    return max(0, pay)


def _figures_needed(c: Core, p: int, pos: int, k: int) -> int:
    return len(travel_slots(c, p, pos)) + 1 + seat_payment(c, p, seat_def(c, pos, k)[0])


def occupant_options(c: Core, p: int, pos: int, k: int, bonus: int = 0) -> tuple[bool, bool]:
    """(envoy may occupy, noble may occupy) seat k at pos with the court as it is (+bonus)."""
    if c.seat[pos * c.cfg.max_seats + k] >= 0:
        return False, False
    e, nb = c.court[p * 2] + bonus, c.court[p * 2 + 1]
    if e + nb < _figures_needed(c, p, pos, k):
        return False, False
    noble_only = seat_def(c, pos, k)[1]
    envoy_ok = e >= 1 and (not noble_only or holds(c, p, R.ROYAL_FAVOUR))
    return envoy_ok, nb >= 1


def _bonus_envoy(c: Core, p: int) -> int:
    """The first deployment position of a round grants an envoy (if the province has one)."""
    return 1 if not c.dep_track and c.prov[p * 2] > 0 else 0


def deployable(c: Core, p: int, pos: int, bonus: int) -> bool:
    return any(any(occupant_options(c, p, pos, k, bonus)) for k in range(seats_in(c, pos)))


def noble_range(c: Core, p: int) -> tuple[int, int]:
    """Possible numbers of nobles among the paid figures for the pending deployment."""
    pos, k, occ = c.pend_pos, c.pend_seat, c.pend_occ
    cost = _figures_needed(c, p, pos, k) - 1
    e = c.court[p * 2] - (1 if occ == 0 else 0)
    nb = c.court[p * 2 + 1] - (1 if occ == 1 else 0)
    return max(0, cost - e), min(nb, cost)


# ----- player phases -----------------------------------------------------------------------


def legal_actions(c: Core) -> list[int]:
    p = c.cur
    ph = c.phase
    cfg = c.cfg
    if ph == Phase.TURN:
        acts = list(range(A.SUPPLY0, A.SUPPLY0 + len(cfg.supply)))
        bonus = _bonus_envoy(c, p)
        for rid in range(cfg.regions):
            if deployable(c, p, c.pos_of[rid], bonus):
                acts.append(A.DEPLOY0 + rid)
        for i in range(3):
            if c.tq[p * 3 + i] > 0 and _turquoise_useful(c, p, i):
                acts.append(A.USE0 + i)
        return acts
    if ph == Phase.SEAT:
        return [A.SEAT0 + k for k in range(seats_in(c, c.pend_pos))
                if any(occupant_options(c, p, c.pend_pos, k))]
    if ph == Phase.OCCUPANT:
        env, nob = occupant_options(c, p, c.pend_pos, c.pend_seat)
        return ([A.OCC_ENVOY] if env else []) + ([A.OCC_NOBLE] if nob else [])
    if ph == Phase.PAYMENT:
        lo, hi = noble_range(c, p)
        return [A.PAYN0 + j for j in range(lo, hi + 1)]
    if ph == Phase.PRIVILEGE:
        return [A.PRIV0 + k for k in available_privileges(c, p)]
    return []


def _turquoise_useful(c: Core, p: int, i: int) -> bool:
    kind = R.TURQUOISE[i]
    if kind == R.ESCORT:
        return not c.escort
    if kind == R.GIFT:
        return not c.gift
    return c.prov[p * 2] > 0  # levy takes envoys from the province


def available_privileges(c: Core, p: int) -> list[int]:
    out = [R.VP_PRIV] if c.vp_pile else []
    for kind in range(1, R.PRIV_KINDS):
        if c.piles[kind] > 0 and not holds(c, p, kind):
            out.append(kind)
    return out


def apply_action(c: Core, action: int) -> None:
    p = c.cur
    ph = c.phase
    if ph not in (Phase.TURN, Phase.SEAT, Phase.OCCUPANT, Phase.PAYMENT, Phase.PRIVILEGE):
        raise ValueError(f"no player acts in phase {Phase(ph).name}")
    if action not in legal_actions(c):
        raise ValueError(f"illegal action {A.to_string(action, c.cfg)!r} ({action}) in {Phase(ph).name}")
    kind, arg = A.decode(action)
    if kind == "supply":
        _supply(c, p, arg)
    elif kind == "deploy":
        pos = c.pos_of[arg]
        if _bonus_envoy(c, p):
            c.prov[p * 2] -= 1
            c.court[p * 2] += 1
        c.dep_track = c.dep_track + (p,)
        c.pend_pos = pos
        c.phase = Phase.SEAT
    elif kind == "seat":
        c.pend_seat = arg
        env, nob = occupant_options(c, p, c.pend_pos, arg)
        if env and nob:
            c.phase = Phase.OCCUPANT
        else:
            _choose_occupant(c, p, 1 if nob else 0)
    elif kind == "occupy":
        _choose_occupant(c, p, arg)
    elif kind == "pay":
        _deploy(c, p, arg)
    elif kind == "use":
        _use_turquoise(c, p, arg)
    else:
        _take_privilege(c, p, arg)


def _supply(c: Core, p: int, space: int) -> None:
    e, nb = c.cfg.supply[space]
    if holds(c, p, R.COURIER):
        e += R.RULES["privileges.courier_envoys"]
    if holds(c, p, R.PATRON):
        c.vp[p] += R.RULES["privileges.patron_vp"]
    c.sup_track = c.sup_track + (p,)
    gain(c, p, e, nb)
    chests = c.supply_chests[space]
    c.supply_chests[space] = ()
    for kind in chests:
        _gain_chest(c, p, kind)
    _after_action(c)


def _choose_occupant(c: Core, p: int, occ: int) -> None:
    c.pend_occ = occ
    lo, hi = noble_range(c, p)
    if lo == hi:
        _deploy(c, p, lo)
    else:
        c.phase = Phase.PAYMENT


def _deploy(c: Core, p: int, nobles_paid: int) -> None:
    cfg = c.cfg
    n = cfg.players
    pos, k, occ = c.pend_pos, c.pend_seat, c.pend_occ
    value = seat_def(c, pos, k)[0]
    slots = travel_slots(c, p, pos)
    slots += [(pos + i) % cfg.regions for i in range(seat_payment(c, p, value))]
    first_noble = len(slots) - nobles_paid  # nobles fill the last payment slots
    for i, region_pos in enumerate(slots):
        noble = 1 if i >= first_noble else 0
        c.court[p * 2 + noble] -= 1
        c.pay[(region_pos * n + p) * 2 + noble] += 1
    c.court[p * 2 + occ] -= 1
    assert c.court[p * 2] >= 0 and c.court[p * 2 + 1] >= 0, "deployment overspent the court"
    j = pos * cfg.max_seats + k
    c.seat[j] = p * 2 + occ
    if pos == c.king and holds(c, p, R.TREASURER):
        c.vp[p] += R.RULES["privileges.treasurer_vp"]
    chest = c.seat_chest[j]
    c.seat_chest[j] = -1
    if chest >= 0:
        _gain_chest(c, p, chest)
    _after_action(c)


def _use_turquoise(c: Core, p: int, i: int) -> None:
    c.tq[p * 3 + i] -= 1
    kind = R.TURQUOISE[i]
    if kind == R.ESCORT:
        c.escort = True
    elif kind == R.GIFT:
        c.gift = True
    else:
        for _ in range(LEVY):
            if c.prov[p * 2] > 0:
                c.prov[p * 2] -= 1
                c.court[p * 2] += 1


LEVY = R.LEVY_ENVOYS


def _after_action(c: Core) -> None:
    if c.priv_pending > 0 and available_privileges(c, c.cur):
        c.phase = Phase.PRIVILEGE
        return
    c.priv_pending = 0
    _end_turn(c)


def _take_privilege(c: Core, p: int, kind: int) -> None:
    if kind == R.VP_PRIV:
        c.vpp[p] += c.vp_pile[-1]
        c.vp_pile = c.vp_pile[:-1]
    else:
        c.piles[kind] -= 1
    c.privs[p * R.PRIV_KINDS + kind] += 1
    c.priv_pending -= 1
    _after_action(c)
