"""Bruxelles 1893 turn decisions: the stock exchange shield, the neutral assistants
(2 players), the turn itself (place an assistant, a Brussels action, or pass), the
bid, performing the space's action, the Park, and a won bonus card. One legal/apply
pair per phase.
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.phases.works import start_action
from spiel_games.bruxelles.rounds import advance, bonus_choices, use_bonus
from spiel_games.bruxelles.state import (
    J,
    add_at,
    brussels_cost,
    brussels_useful,
    feasible,
    gain_cubes,
    neutral_spaces,
    push,
)


# ----- SHIELD: the first player picks one of the stock card's two shields ------------------------
def legal_shield(s) -> list[int]:
    return [A.SHIELD0, A.SHIELD0 + 1]


def apply_shield(s, action: int) -> None:
    a, b = R.STOCK_SHIELDS[s.n][s.stock][action - A.SHIELD0]
    s.area = R.bracket_area(a, b, s.cfg.board)
    advance(s)


# ----- NEUTRAL: 2 players place the neutral assistants ---------------------------------------
def legal_neutral(s) -> list[int]:
    return [A.NEUTRAL0 + sp for sp in neutral_spaces(s)]


def apply_neutral(s, action: int) -> None:
    s.occ[action - A.NEUTRAL0] = s.neutral_id
    advance(s)


# ----- MAIN: place on the Art Nouveau board, a Brussels action, or pass ----------------------
def legal_main(s) -> list[int]:
    p = s.actor
    cfg = s.cfg
    acts = []
    if s.supply[p] >= 1 and s.money[p] >= 1:
        area, occ = s.area, s.occ
        acts = [A.PLACE0 + sp for sp in range(cfg.spaces) if (area >> sp) & 1 and occ[sp] < 0]
    if cfg.brussels:
        for b in range(len(R.BRUSSELS)):
            if s.supply[p] >= brussels_cost(s, b) and brussels_useful(s, p, b):
                acts.append(A.BRUSSELS0 + b)
    acts.append(A.PASS)
    return acts


def apply_main(s, action: int) -> None:
    p = s.actor
    if action == A.PASS:
        first = s.first_passer < 0
        if first:
            s.first_passer = p
            s.exhib = add_at(s.exhib, p, 1)
            s.mp = add_at(s.mp, p, R.RULES["pass.first_manneken"])
        s.money[p] += R.pass_income(s.works[p], first)
        s.passed |= 1 << p
        push(s, ("endturn",))
    elif action < A.BRUSSELS0:
        sp = action - A.PLACE0
        s.occ[sp] = p
        s.supply[p] -= 1
        s.onboard[p] += 1
        push(s, ("bid", sp), ("do", s.acts[sp], sp), ("secondary", sp, p), ("endturn",))
    else:
        b = action - A.BRUSSELS0
        cost = brussels_cost(s, b)
        s.supply[p] -= cost
        s.onbrussels = add_at(s.onbrussels, p, cost)
        s.uses = add_at(s.uses, b, 1)
        if b == R.MARKET:
            gain_cubes(s, p, J, R.RULES["materials.market_jokers"])
            push(s, ("endturn",))
        elif b == R.BOURSE:
            s.money[p] += R.STOCK_VALUES[s.stock]
            push(s, ("endturn",))
        elif b == R.PARK:
            push(s, ("park", p), ("endturn",))
        else:
            push(s, ("activate", p, R.PALACE[s.palace[p]]), ("endturn",))
    advance(s)


# ----- BID: the bid under the assistant just placed ------------------------------------------
def legal_bid(s) -> list[int]:
    p = s.actor
    top = min(s.money[p], s.cfg.bid_cap)
    return [A.BID0 + k for k in range(top)]


def apply_bid(s, action: int) -> None:
    p = s.actor
    sp = s.ctx[0]
    amount = action - A.BID0 + 1
    s.bids[sp] = amount
    s.money[p] -= amount
    advance(s)


# ----- DO: perform the space's action, or skip it ----------------------------------------------
def legal_do(s) -> list[int]:
    p = s.actor
    return [A.SKIP, A.PERFORM] if feasible(s, p, s.ctx[0]) else [A.SKIP]


def apply_do(s, action: int) -> None:
    p = s.actor
    if action == A.PERFORM:
        start_action(s, p, s.ctx[0])
    else:
        advance(s)


# ----- PARK: which Art Nouveau action ----------------------------------------------------------
def legal_park(s) -> list[int]:
    p = s.actor
    return [A.PARK0 + a for a in range(5) if feasible(s, p, a)]


def apply_park(s, action: int) -> None:
    p = s.actor
    start_action(s, p, action - A.PARK0)


# ----- BONUS: a won bonus card, used for a power or tucked under an endgame row -------------
def legal_bonus(s) -> list[int]:
    p = s.actor
    card, tuck_ok = s.ctx
    return bonus_choices(s, p, card, tuck_ok)


def apply_bonus(s, action: int) -> None:
    p = s.actor
    use_bonus(s, p, s.ctx[0], action)
    advance(s)
