"""Bruxelles 1893 chance events and player decisions: outcomes, legal actions, effects.

Every decision applies its effect and then either asks the next sub-choice or
lets the engine run on (``phases.advance``).
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.core import Phase
from spiel_games.bruxelles.phases import (
    advance,
    after_payment,
    brussels_cost,
    brussels_useful,
    build,
    can_complete,
    empty_spaces,
    feasible,
    keep_work,
    needle_moves,
    neutral_spaces,
    sellable,
    set_stock,
    solvay_options,
    space_actions,
    start_action,
    turn_needle,
)
from spiel_games.bruxelles.resolution import bonus_choices, use_bonus
from spiel_games.bruxelles.steps import (
    J,
    add_at,
    decide,
    gain_cubes,
    push,
    set_at,
    spend_cube,
    take_one,
)
from spiel_games.common import deck as D


def chance_outcomes(s) -> list[tuple[int, float]]:
    ph = s.phase
    if ph == Phase.C_STRIP:
        return D.uniform_outcomes([k for k in range(len(R.STRIPS)) if k not in s.strips])
    if ph == Phase.C_COMPASS:
        return D.uniform_outcomes([k for k in range(len(R.COMPASS)) if k not in s.compass])
    if ph == Phase.C_ART:
        return D.draw_outcomes(s.art_stack[: R.COLOURS])
    if ph == Phase.C_FIGURE:
        return D.draw_outcomes(s.fig_deck)
    if ph == Phase.C_BONUS:
        return D.draw_outcomes(s.bonus_deck)
    if ph == Phase.C_STOCK:
        return D.uniform_outcomes(
            [c for c in range(len(R.STOCK_VALUES)) if (s.stock_left >> c) & 1]
        )
    raise ValueError("chance_outcomes called at a player node")


def apply_chance(s, o: int) -> None:
    s.cache = {}  # the position changes: cached legal actions and views no longer apply
    ph = s.phase
    if ph == Phase.C_STRIP:
        if o in s.strips or not 0 <= o < len(R.STRIPS):
            raise ValueError(f"strip {o} is not available")
        s.strips = s.strips + (o,)
        if len(s.strips) == s.cfg.board:
            s.acts = space_actions(s)
    elif ph == Phase.C_COMPASS:
        if o in s.compass or not 0 <= o < len(R.COMPASS):
            raise ValueError(f"compass tile {o} is not available")
        s.compass = s.compass + (o,)
    elif ph == Phase.C_ART:
        if not 0 <= o < R.COLOURS:
            raise ValueError(f"work colour {o} out of range")
        s.art_stack = take_one(s.art_stack, o)
        p, k, drawn, purpose = s.ctx
        if purpose == 0:
            s.works = set_at(s.works, p, add_at(s.works[p], o, 1))
            s.pub_works = set_at(s.pub_works, p, add_at(s.pub_works[p], o, 1))
        else:
            drawn = drawn + (o,)
            k -= 1
            if k > 0 and sum(s.art_stack[: R.COLOURS]) > 0:
                s.ctx = (p, k, drawn, 1)
                return
            if len(set(drawn)) == 1:
                keep_work(s, p, drawn, drawn[0])
            else:
                decide(s, Phase.KEEP_WORK, p, (tuple(sorted(drawn)),))
            return
    elif ph == Phase.C_FIGURE:
        s.fig_deck = take_one(s.fig_deck, o)
        s.display = set_at(s.display, s.display.index(-1), o)
    elif ph == Phase.C_BONUS:
        s.bonus_deck = take_one(s.bonus_deck, o)
        s.strip_bonus = set_at(s.strip_bonus, s.strip_bonus.index(-1), o)
    elif ph == Phase.C_STOCK:
        set_stock(s, o)
    else:
        raise ValueError("not a chance node")
    advance(s)


# ----- player decisions ------------------------------------------------------------------------
def legal_actions(s) -> list[int]:
    """Legal actions of the pending decision (cached on the position)."""
    legal = s.cache.get("legal")
    if legal is None:
        legal = s.cache["legal"] = _legal_actions(s)
    return legal


def _legal_actions(s) -> list[int]:
    ph = s.phase
    p = s.actor
    cfg = s.cfg
    if ph == Phase.MAIN:
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
    if ph == Phase.BID:
        top = min(s.money[p], cfg.max_bid)
        return [A.BID0 + k for k in range(top)]
    if ph == Phase.DO:
        return [A.SKIP, A.PERFORM] if feasible(s, p, s.ctx[0]) else [A.SKIP]
    if ph == Phase.PARK:
        return [A.PARK0 + a for a in range(5) if feasible(s, p, a)]
    if ph == Phase.KEEP_WORK:
        return [A.KEEP_WORK0 + c for c in sorted(set(s.ctx[0]))]
    if ph == Phase.SELL:
        return [A.SELL0 + c for c in sellable(s, p)]
    if ph == Phase.CURSOR:
        r0, c0 = s.cursor
        steps = s.total_works(p)
        return [
            A.cursor_action(r, c)
            for r in range(R.CURSOR_MIN, R.CURSOR_MAX + 1)
            for c in range(R.CURSOR_MIN, R.CURSOR_MAX + 1)
            if abs(r - r0) + abs(c - c0) <= steps
        ]
    if ph == Phase.SLOT:
        return [A.SLOT0, A.SLOT0 + 1]
    if ph == Phase.THEATER:
        m = s.money[p]
        return [
            A.THEATER0 + k for k, f in enumerate(s.display) if f >= 0 and R.THEATER_COSTS[k] <= m
        ]
    if ph == Phase.SOLVAY:
        return solvay_options(s, p)
    if ph == Phase.KEEP_FIG:
        return [A.KEEP_FIG, A.DISCARD_FIG]
    if ph == Phase.NOBLE:
        k, lo = s.ctx
        sup = s.cube_supply
        # Cubes are taken in non-decreasing kind order (the order of a pair is irrelevant).
        return [A.NOBLE0 + m for m in range(lo, 3) if sup[m] > 0 and sum(sup[m:3]) >= k]
    if ph == Phase.PAY:
        remaining, paid, lo = s.ctx
        cost = remaining + sum(paid)
        out = []
        for res in range(lo, 5):
            if _unit_available(s, p, res) and can_complete(s, p, paid, cost, res):
                out.append(A.PAY0 + res)
        return out
    if ph == Phase.NEEDLE:
        return [A.NEEDLE0 + i for i in needle_moves(s)]
    if ph == Phase.BUILD:
        return [A.BUILD0 + sp for sp in empty_spaces(s)]
    if ph == Phase.ACTIVATE:
        up = s.upright(p)
        return [A.SKIP] + [A.ACTIVATE0 + f for f in range(len(R.FIGURES)) if (up >> f) & 1]
    if ph == Phase.BONUS:
        card, tuck_ok = s.ctx
        return bonus_choices(s, p, card, tuck_ok)
    if ph == Phase.SHIELD:
        return [A.SHIELD0, A.SHIELD0 + 1]
    if ph == Phase.NEUTRAL:
        return [A.NEUTRAL0 + sp for sp in neutral_spaces(s)]
    return []


def _unit_available(s, p: int, res: int) -> bool:
    if res == R.P_MONEY:
        return s.money[p] >= R.BF_PER_UNIT
    if res == R.P_JOKER:
        return s.cubes[p][J] > 0
    return s.cubes[p][res] > 0


def apply_action(s, action: int) -> None:
    if action not in legal_actions(s):
        raise ValueError(f"illegal action {action} in phase {Phase(s.phase).name}")
    s.cache = {}  # the position changes: cached legal actions and views no longer apply
    ph = s.phase
    p = s.actor
    if ph == Phase.MAIN:
        _apply_main(s, p, action)
    elif ph == Phase.BID:
        sp = s.ctx[0]
        amount = action - A.BID0 + 1
        s.bids[sp] = amount
        s.money[p] -= amount
        advance(s)
    elif ph == Phase.DO:
        if action == A.PERFORM:
            start_action(s, p, s.ctx[0])
        else:
            advance(s)
    elif ph == Phase.PARK:
        start_action(s, p, action - A.PARK0)
    elif ph == Phase.KEEP_WORK:
        keep_work(s, p, s.ctx[0], action - A.KEEP_WORK0)
    elif ph == Phase.SELL:
        decide(s, Phase.CURSOR, p, (action - A.SELL0,))
    elif ph == Phase.CURSOR:
        c = s.ctx[0]
        s.cursor = A.cursor_of(action)
        money, vp = R.sale_reward(s.cursor, c)
        s.money[p] += money
        s.vp[p] += vp
        s.works = set_at(s.works, p, add_at(s.works[p], c, -1))
        if s.pub_works[p][c] > 0:  # a hidden work of that colour is revealed by the sale
            s.pub_works = set_at(s.pub_works, p, add_at(s.pub_works[p], c, -1))
        empties = [i for i in (0, 1) if s.shop[i] < 0]
        if empties:
            _to_shop(s, c, empties[0])  # the first two sales fill the empty spaces
        else:
            decide(s, Phase.SLOT, p, (c,))
    elif ph == Phase.SLOT:
        _to_shop(s, s.ctx[0], action - A.SLOT0)
    elif ph == Phase.THEATER:
        k = action - A.THEATER0
        s.money[p] -= R.THEATER_COSTS[k]
        f = s.display[k]
        s.display = s.display[:k] + s.display[k + 1 :] + (-1,)
        push(s, ("effect", p, f), ("keepfig", p, f), ("fig",))
        advance(s)
    elif ph == Phase.SOLVAY:
        if action == A.SOLVAY_SWAP:
            spend_cube(s, p, J)
            push(s, ("noble", p, 2))
        else:
            push(s, ("noble", p, 1))
        advance(s)
    elif ph == Phase.KEEP_FIG:
        f = s.ctx[0]
        if action == A.KEEP_FIG:
            s.kept = set_at(s.kept, p, s.kept[p] | (1 << f))
            s.rot = set_at(s.rot, p, s.rot[p] | (1 << f))
        else:
            s.fig_disc = add_at(s.fig_disc, f, 1)
        advance(s)
    elif ph == Phase.NOBLE:
        m = action - A.NOBLE0
        gain_cubes(s, p, m, 1)
        k = s.ctx[0] - 1
        if k > 0 and sum(s.cube_supply[m:3]) > 0:
            s.ctx = (k, m)
        else:
            advance(s)
    elif ph == Phase.PAY:
        remaining, paid, _ = s.ctx
        res = action - A.PAY0
        if res == R.P_MONEY:
            s.money[p] -= R.BF_PER_UNIT
        else:
            spend_cube(s, p, J if res == R.P_JOKER else res)
        paid = add_at(paid, res, 1)
        if remaining > 1:
            s.ctx = (remaining - 1, paid, res)
        else:
            after_payment(s, p, paid)
    elif ph == Phase.NEEDLE:
        turn_needle(s, p, action - A.NEEDLE0)
    elif ph == Phase.BUILD:
        build(s, p, action - A.BUILD0)
    elif ph == Phase.ACTIVATE:
        if action == A.SKIP:
            advance(s)
        else:
            f = action - A.ACTIVATE0
            s.rot = set_at(s.rot, p, s.rot[p] | (1 << f))
            push(s, ("effect", p, f), ("activate", p, s.ctx[0] - 1))
            advance(s)
    elif ph == Phase.BONUS:
        use_bonus(s, p, s.ctx[0], action)
        advance(s)
    elif ph == Phase.SHIELD:
        a, b = R.STOCK_SHIELDS[s.n][s.stock][action - A.SHIELD0]
        s.area = R.bracket_area(a, b, s.cfg.board)
        advance(s)
    elif ph == Phase.NEUTRAL:
        s.occ[action - A.NEUTRAL0] = s.neutral_id
        advance(s)
    else:
        raise ValueError(f"no player decision in phase {Phase(ph).name}")


def _to_shop(s, c: int, slot: int) -> None:
    old = s.shop[slot]
    if old >= 0:
        s.shop_pile = add_at(s.shop_pile, old, 1)
    s.shop = set_at(s.shop, slot, c)
    advance(s)


def _apply_main(s, p: int, action: int) -> None:
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
