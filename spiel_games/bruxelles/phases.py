"""Bruxelles 1893 rule engine: pending rule steps, legal actions and their effects.

The engine works on a ``Core`` (core.py). A position is either waiting for a
decision (a player Phase, with ``actor`` and a small immutable ``ctx``), for a
random event (a chance Phase), or is terminal. Everything that happens without a
choice is a *task* in ``s.tasks``: ``advance`` pops tasks and runs them until one
of them asks for a decision or a chance event. Sub-actions (a figure's effect,
a building owner's secondary action, the next turn) are pushed as tasks, so
every compound choice becomes a short sequence of simple actions.

Round structure (rulebook "How to Play"):
stock exchange -> (2p: neutral assistants) -> turns until everyone passed ->
resolution (bids, first player, bonus cards, shields, Brussels majority) ->
end of turn (skipped after the last round) -> next round or final scoring.
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.core import Phase
from spiel_games.common import deck as D

RUNNING = -1  # phase while the engine is running tasks
# Fixed setup (tiny configurations): strips chosen so a 2x2 board shows Workshop,
# Sale, Materials and Construction, and bonus cards dealt double powers first
# (no tuck choice), which keeps exact-CFR trees small.
FIXED_STRIPS = (0, 4, 1, 2, 3)
FIXED_BONUS_ORDER = tuple(
    sorted(range(len(R.BONUS)), key=lambda t: (R.BONUS[t][1], len(R.BONUS[t][0]), t))
)
_J = R.JOKER


# ----- helpers ------------------------------------------------------------------------------
def _decide(s, phase: Phase, actor: int, ctx: tuple = ()) -> None:
    s.phase = phase
    s.actor = actor
    s.ctx = ctx


def _chance(s, phase: Phase, ctx: tuple = ()) -> None:
    s.phase = phase
    s.actor = -1
    s.ctx = ctx


def push(s, *tasks) -> None:
    s.tasks = tasks + s.tasks


def advance(s) -> None:
    """Run pending tasks until one needs a decision or a chance event."""
    s.phase = RUNNING
    while s.phase == RUNNING:
        if not s.tasks:
            raise AssertionError("the engine ran out of tasks")
        task = s.tasks[0]
        s.tasks = s.tasks[1:]
        _TASKS[task[0]](s, *task[1:])


def _add(tup: tuple, i: int, k: int) -> tuple:
    lst = list(tup)
    lst[i] += k
    return tuple(lst)


def _gain_cubes(s, p: int, kind: int, k: int) -> int:
    k = min(k, s.cube_supply[kind])
    if k > 0:
        s.cube_supply[kind] -= k
        s.cubes[p] = _add(s.cubes[p], kind, k)
    return k


def _spend_cube(s, p: int, kind: int) -> None:
    if s.cubes[p][kind] <= 0:
        raise ValueError(f"P{p + 1} has no {R.CUBES[kind]} cube")
    s.cubes[p] = _add(s.cubes[p], kind, -1)
    s.cube_supply[kind] += 1


def _advance_track(s, p: int, power: str) -> None:
    if power == "P":
        s.palace[p] = min(s.palace[p] + 1, len(R.PALACE) - 1)
    elif power == "H":
        s.hall[p] = min(s.hall[p] + 1, len(R.HALL) - 1)
    elif power == "A":
        s.arch[p] = min(s.arch[p] + 1, len(R.ARCHITECT) - 1)
    elif power == "C":
        if s.court[p] > 0:
            s.court[p] -= 1
            s.supply[p] += 1
    else:
        raise ValueError(f"unknown power {power!r}")


def recycle_shop(s) -> None:
    """Empty stacks are rebuilt from the shop, leaving the two visible works."""
    for c in range(len(R.ART)):
        s.art_stack[c] += s.shop_pile[c]
        s.shop_pile[c] = 0


def empty_spaces(s) -> list[int]:
    return [sp for sp in range(s.cfg.spaces) if s.occ[sp] < 0 and s.bld[sp] < 0]


def brussels_cost(s, b: int) -> int:
    return s.uses[b] // s.cfg.brussels_slots + 1


def construction_cost(s, p: int) -> int:
    return R.TIER_COSTS[s.built[p]]


def _needle_tiles(s) -> tuple[int, int]:
    return s.compass[s.needles[0]], s.compass[s.needles[1]]


def _can_complete(s, p: int, paid: tuple[int, ...], cost: int, res: int = -1) -> bool:
    """Some valid payment extends `paid` (plus one unit of `res`, if given, with no
    smaller kind left to pay) and everything not yet paid is affordable now."""
    x, y = _needle_tiles(s)
    money, cubes = s.money[p], s.cubes[p]
    for opt in R.payment_options(x, y, cost):
        rest = tuple(opt[i] - paid[i] for i in range(5))
        if min(rest) < 0 or (res >= 0 and (rest[res] < 1 or any(rest[:res]))):
            continue  # units are paid in non-decreasing kind order
        if R.affordable(rest, money, cubes):
            return True
    return False


def sellable(s, p: int) -> list[int]:
    w = s.works[p]
    return [c for c in range(len(R.ART)) if w[c] and c != s.shop[0] and c != s.shop[1]]


def feasible(s, p: int, a: int) -> bool:
    """Whether player p can carry out Art Nouveau action a right now."""
    if a == R.WORKSHOP:
        return sum(s.art_stack[: R.COLOURS]) + sum(s.shop_pile[: R.COLOURS]) > 0
    if a == R.SALE:
        return bool(sellable(s, p))
    if a == R.THEATER:
        m = s.money[p]
        return any(f >= 0 and R.THEATER_COSTS[k] <= m for k, f in enumerate(s.display))
    if a == R.MATERIALS:
        return sum(s.cube_supply[:3]) > 0
    if a == R.CONSTRUCTION:
        return (
            s.built[p] < R.BUILDINGS
            and bool(empty_spaces(s))
            and _can_complete(s, p, (0,) * 5, construction_cost(s, p))
        )
    raise ValueError(f"unknown action {a}")


def _brussels_useful(s, p: int, b: int) -> bool:
    if b == R.PARK:
        return any(feasible(s, p, a) for a in range(5))
    if b == R.GRANDPLACE:
        return s.upright(p) != 0
    return True


# ----- setup and rounds ------------------------------------------------------------------------
def start(s) -> None:
    """Set up the game (random or fixed) and run to the first decision or chance node."""
    cfg = s.cfg
    if cfg.fixed_setup:
        s.strips = FIXED_STRIPS[: cfg.board]
        s.acts = _space_actions(s)
        s.compass = tuple(range(len(R.COMPASS)))
        for p in range(s.n):
            c = p % R.COLOURS
            s.art_stack[c] -= 1
            s.works[p] = _add(s.works[p], c, 1)
        for k in range(len(s.display)):
            f = next(f for f in range(len(R.FIGURES)) if s.fig_deck[f] and f not in s.display)
            s.fig_deck[f] -= 1
            s.display[k] = f
        push(s, *([("deal",)] * cfg.board), ("round",))
    else:
        push(
            s,
            *([("strip",)] * cfg.board),
            *([("compass",)] * len(R.COMPASS)),
            *[("startart", p) for p in range(s.n)],
            *([("fig",)] * len(s.display)),
            *([("deal",)] * cfg.board),
            ("round",),
        )
    advance(s)


def _space_actions(s) -> tuple[int, ...]:
    b = s.cfg.board
    return tuple(R.STRIPS[s.strips[r]][c] for r in range(b) for c in range(b))


def _t_strip(s) -> None:
    _chance(s, Phase.C_STRIP)


def _t_compass(s) -> None:
    _chance(s, Phase.C_COMPASS)


def _t_startart(s, p: int) -> None:
    _chance(s, Phase.C_ART, (p, 1, (), 0))


def _t_fig(s) -> None:
    """Refill the theater display's empty space (the 3 BF end), reshuffling if needed."""
    if -1 not in s.display:
        return
    if sum(s.fig_deck) == 0:
        s.fig_deck = s.fig_disc[:]
        s.fig_disc = [0] * len(R.FIGURES)
    if sum(s.fig_deck) == 0:
        return
    _chance(s, Phase.C_FIGURE)


def _t_deal(s) -> None:
    if sum(s.bonus_deck) == 0 or -1 not in s.strip_bonus:
        return
    if s.cfg.fixed_setup:
        t = next(t for t in FIXED_BONUS_ORDER if s.bonus_deck[t])
        s.bonus_deck[t] -= 1
        s.strip_bonus[s.strip_bonus.index(-1)] = t
        return
    _chance(s, Phase.C_BONUS)


def _t_round(s) -> None:
    n = s.n
    tasks = [("stock",), ("shield",)]
    if s.cfg.neutral:
        tasks += [("neutral", (s.first + k) % n) for k in range(n)]
    tasks.append(("turn", s.first))
    push(s, *tasks)


def _t_stock(s) -> None:
    if s.cfg.fixed_setup:
        card = next(c for c in range(len(R.STOCK_VALUES)) if (s.stock_left >> c) & 1)
        _set_stock(s, card)
        return
    _chance(s, Phase.C_STOCK)


def _set_stock(s, card: int) -> None:
    if not (s.stock_left >> card) & 1:
        raise ValueError(f"stock card {card} is not in the deck")
    s.stock_left &= ~(1 << card)
    s.stock = card


def _t_shield(s) -> None:
    if s.cfg.board < R.MAX_BOARD:
        s.area = (1 << s.cfg.spaces) - 1  # small boards: the whole board is available
        return
    _decide(s, Phase.SHIELD, s.first)


def _neutral_spaces(s) -> list[int]:
    return [sp for sp in empty_spaces(s) if (s.area >> sp) & 1]


def _t_neutral(s, p: int) -> None:
    if _neutral_spaces(s):
        _decide(s, Phase.NEUTRAL, p)


def _t_turn(s, p: int) -> None:
    s.cur = p
    _decide(s, Phase.MAIN, p)


def _t_endturn(s) -> None:
    n = s.n
    if s.passed == (1 << n) - 1:
        push(s, ("resolve",))
        return
    p = s.cur
    for _ in range(n):
        p = (p + 1) % n
        if not (s.passed >> p) & 1:
            _t_turn(s, p)
            return
    raise AssertionError("no player left to move")


# ----- Art Nouveau actions ---------------------------------------------------------------------
def _t_bid(s, sp: int) -> None:
    _decide(s, Phase.BID, s.occ[sp], (sp,))


def _t_do(s, a: int, sp: int) -> None:
    p = s.occ[sp]
    if feasible(s, p, a):
        _decide(s, Phase.DO, p, (a,))


def _t_park(s, p: int) -> None:
    if any(feasible(s, p, a) for a in range(5)):
        _decide(s, Phase.PARK, p)


def start_action(s, p: int, a: int) -> None:
    if a == R.WORKSHOP:
        if sum(s.art_stack[: R.COLOURS]) == 0:
            recycle_shop(s)
        k = min(1 + s.exhib[p], sum(s.art_stack[: R.COLOURS]))
        _chance(s, Phase.C_ART, (p, k, (), 1))
    elif a == R.SALE:
        _decide(s, Phase.SELL, p)
    elif a == R.THEATER:
        _decide(s, Phase.THEATER, p)
    elif a == R.MATERIALS:
        push(s, ("noble", p, R.RULES["materials.materials_action"]))
        advance(s)
    elif a == R.CONSTRUCTION:
        _decide(s, Phase.PAY, p, (construction_cost(s, p), (0,) * 5, 0))
    else:
        raise ValueError(f"unknown action {a}")


def keep_work(s, p: int, drawn: tuple[int, ...], c: int) -> None:
    if c not in drawn:
        raise ValueError(f"{R.ART[c]} was not drawn")
    for d in drawn:
        s.art_stack[d] += 1
    s.art_stack[c] -= 1
    s.works[p] = _add(s.works[p], c, 1)
    others = list(drawn)
    others.remove(c)
    if others:
        s.seen[p] = s.seen[p] + ((c, tuple(sorted(others))),)
    advance(s)


def _t_effect(s, p: int, f: int) -> None:
    """A public figure's effect (rulebook appendix 1)."""
    if f == R.BRUGMANN:
        s.money[p] += R.RULES["figures.brugmann_money"]
    elif f == R.SOLVAY:
        if solvay_options(s, p):
            _decide(s, Phase.SOLVAY, p)
    elif f == R.BULS:
        _advance_track(s, p, "H")
    elif f == R.ALBERT:
        _advance_track(s, p, "P")
    elif f == R.VANDERVELDE:
        _advance_track(s, p, "C")
    elif f == R.MAETERLINCK:
        s.vp[p] += R.RULES["figures.maeterlinck_vp"]
    elif f == R.EMPAIN:
        _gain_cubes(s, p, _J, R.RULES["figures.empain_jokers"])
    elif f == R.VANDEVELDE:
        _advance_track(s, p, "A")
    else:
        raise ValueError(f"unknown figure {f}")


def solvay_options(s, p: int) -> list[int]:
    if sum(s.cube_supply[:3]) == 0:
        return []
    opts = [A.SOLVAY_ONE]
    if s.cubes[p][_J] > 0:
        opts.append(A.SOLVAY_SWAP)
    return opts


def _t_keepfig(s, p: int, f: int) -> None:
    if (s.kept[p] >> f) & 1:
        s.fig_disc[f] += 1  # no two identical kept cards: the new one is discarded
        return
    _decide(s, Phase.KEEP_FIG, p, (f,))


def _t_noble(s, p: int, k: int) -> None:
    k = min(k, sum(s.cube_supply[:3]))
    if k > 0:
        _decide(s, Phase.NOBLE, p, (k, 0))


def _t_activate(s, p: int, k: int) -> None:
    if k > 0 and s.upright(p):
        _decide(s, Phase.ACTIVATE, p, (k,))


def _t_secondary(s, sp: int, p: int) -> None:
    """The building owner's secondary action (rulebook appendix 2)."""
    o = s.bld[sp]
    if o < 0 or o == p:
        return
    a = s.acts[sp]
    if a == R.WORKSHOP:
        if s.art_stack[R.BLACK] == 0:
            recycle_shop(s)
        if s.art_stack[R.BLACK] > 0:
            s.art_stack[R.BLACK] -= 1
            s.works[o] = _add(s.works[o], R.BLACK, 1)
    elif a == R.SALE:
        s.vp[o] += s.total_works(o)
    elif a == R.THEATER:
        push(s, ("activate", o, 1))
    elif a == R.MATERIALS:
        push(s, ("noble", o, 1))
    elif a == R.CONSTRUCTION:
        s.vp[o] += s.built[o]


def after_payment(s, p: int, paid: tuple[int, ...]) -> None:
    if paid[R.P_JOKER] == 0:
        s.vp[p] += R.RULES["buildings.no_joker_bonus"]
    legal = needle_moves(s)
    if len(legal) == 1:
        turn_needle(s, p, legal[0])
    else:
        _decide(s, Phase.NEEDLE, p)


def needle_moves(s) -> list[int]:
    out = []
    for i in (0, 1):
        nxt = (s.needles[i] + 1) % len(R.COMPASS)
        if nxt != s.needles[1 - i]:
            out.append(i)
    return out


def turn_needle(s, p: int, i: int) -> None:
    nxt = (s.needles[i] + 1) % len(R.COMPASS)
    if nxt == s.needles[1 - i]:
        raise ValueError("a needle may not turn onto the other needle's space")
    s.needles = (nxt, s.needles[1]) if i == 0 else (s.needles[0], nxt)
    spaces = empty_spaces(s)
    if len(spaces) == 1:
        build(s, p, spaces[0])
    else:
        _decide(s, Phase.BUILD, p)


def build(s, p: int, sp: int) -> None:
    if s.occ[sp] >= 0 or s.bld[sp] >= 0:
        raise ValueError("buildings go on empty spaces only")
    tier = s.built[p]
    s.bld[sp] = p
    s.built[p] += 1
    if R.TIER_COSTS[tier] == R.TIER_COSTS[-1]:
        s.vp[p] += R.RULES["buildings.top_row_bonus"]
    advance(s)


# ----- resolution and end of turn --------------------------------------------------------------
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
        s.strip_bonus[col] = -1
        if len(winners) == 1:
            won[winners[0]].append(card)
            s.mp[winners[0]] += R.BONUS[card][2]
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
    _decide(s, Phase.BONUS, p, (card, tuck_ok))


def use_bonus(s, p: int, card: int, action: int) -> None:
    options, vp, _, _ = R.BONUS[card]
    if A.POWER0 <= action < A.POWER0 + len(options):
        for power in options[action - A.POWER0]:
            _advance_track(s, p, power)
    elif A.TUCK0 <= action < A.TUCK0 + R.BONUS_ROWS:
        r = action - A.TUCK0
        if vp == 0 or (s.tucked[p] >> r) & 1:
            raise ValueError(f"cannot tuck this card under row {r + 1}")
        s.rows[p] = _add(s.rows[p], r, vp)
        s.tucked[p] |= 1 << r
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
            s.onbrussels[p] -= 1
            s.court[p] += 1


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
    s.onbrussels = [0] * n
    sp = s.cfg.spaces
    s.occ = [-1] * sp
    s.bids = [0] * sp
    s.rot = [0] * n
    s.round += 1
    if s.display[0] >= 0:
        s.fig_disc[s.display[0]] += 1
    s.display = s.display[1:] + [-1]
    s.strip_bonus = [-1] * s.cfg.board
    s.stock = -1
    s.uses = [0] * len(R.BRUSSELS)
    s.passed = 0
    s.first_passer = -1
    s.mp = [0] * n
    s.tucked = [0] * n
    push(s, ("fig",), *([("deal",)] * s.cfg.board), ("round",))


_TASKS = {
    "strip": _t_strip,
    "compass": _t_compass,
    "startart": _t_startart,
    "fig": _t_fig,
    "deal": _t_deal,
    "round": _t_round,
    "stock": _t_stock,
    "shield": _t_shield,
    "neutral": _t_neutral,
    "turn": _t_turn,
    "endturn": _t_endturn,
    "bid": _t_bid,
    "do": _t_do,
    "park": _t_park,
    "effect": _t_effect,
    "keepfig": _t_keepfig,
    "noble": _t_noble,
    "activate": _t_activate,
    "secondary": _t_secondary,
    "resolve": _t_resolve,
    "bonus": _t_bonus,
    "shields": _t_shields,
    "bmaj": _t_bmaj,
    "endround": _t_endround,
}


# ----- chance ---------------------------------------------------------------------------------
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
    ph = s.phase
    if ph == Phase.C_STRIP:
        if o in s.strips or not 0 <= o < len(R.STRIPS):
            raise ValueError(f"strip {o} is not available")
        s.strips = s.strips + (o,)
        if len(s.strips) == s.cfg.board:
            s.acts = _space_actions(s)
    elif ph == Phase.C_COMPASS:
        if o in s.compass or not 0 <= o < len(R.COMPASS):
            raise ValueError(f"compass tile {o} is not available")
        s.compass = s.compass + (o,)
    elif ph == Phase.C_ART:
        if not 0 <= o < R.COLOURS:
            raise ValueError(f"work colour {o} out of range")
        D.draw(s.art_stack, o)
        p, k, drawn, purpose = s.ctx
        if purpose == 0:
            s.works[p] = _add(s.works[p], o, 1)
        else:
            drawn = drawn + (o,)
            k -= 1
            if k > 0 and sum(s.art_stack[: R.COLOURS]) > 0:
                s.ctx = (p, k, drawn, 1)
                return
            if len(set(drawn)) == 1:
                keep_work(s, p, drawn, drawn[0])
            else:
                _decide(s, Phase.KEEP_WORK, p, (tuple(sorted(drawn)),))
            return
    elif ph == Phase.C_FIGURE:
        D.draw(s.fig_deck, o)
        s.display[s.display.index(-1)] = o
    elif ph == Phase.C_BONUS:
        D.draw(s.bonus_deck, o)
        s.strip_bonus[s.strip_bonus.index(-1)] = o
    elif ph == Phase.C_STOCK:
        _set_stock(s, o)
    else:
        raise ValueError("not a chance node")
    advance(s)


# ----- player decisions ------------------------------------------------------------------------
def legal_actions(s) -> list[int]:
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
                if s.supply[p] >= brussels_cost(s, b) and _brussels_useful(s, p, b):
                    acts.append(A.BRUSSELS0 + b)
        acts.append(A.PASS)
        return acts
    if ph == Phase.BID:
        top = min(s.money[p], cfg.max_bid)
        return [A.BID0 + k for k in range(top)]
    if ph == Phase.DO:
        return [A.SKIP, A.PERFORM]
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
            if _unit_available(s, p, res) and _can_complete(s, p, paid, cost, res):
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
        return [A.NEUTRAL0 + sp for sp in _neutral_spaces(s)]
    return []


def _unit_available(s, p: int, res: int) -> bool:
    if res == R.P_MONEY:
        return s.money[p] >= R.BF_PER_UNIT
    if res == R.P_JOKER:
        return s.cubes[p][_J] > 0
    return s.cubes[p][res] > 0


def apply_action(s, action: int) -> None:
    if action not in legal_actions(s):
        raise ValueError(f"illegal action {action} in phase {Phase(s.phase).name}")
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
        _decide(s, Phase.CURSOR, p, (action - A.SELL0,))
    elif ph == Phase.CURSOR:
        c = s.ctx[0]
        s.cursor = A.cursor_of(action)
        money, vp = R.sale_reward(s.cursor, c)
        s.money[p] += money
        s.vp[p] += vp
        s.works[p] = _add(s.works[p], c, -1)
        empties = [i for i in (0, 1) if s.shop[i] < 0]
        if empties:
            _to_shop(s, c, empties[0])  # the first two sales fill the empty spaces
        else:
            _decide(s, Phase.SLOT, p, (c,))
    elif ph == Phase.SLOT:
        _to_shop(s, s.ctx[0], action - A.SLOT0)
    elif ph == Phase.THEATER:
        k = action - A.THEATER0
        s.money[p] -= R.THEATER_COSTS[k]
        f = s.display[k]
        s.display = s.display[:k] + s.display[k + 1 :] + [-1]
        push(s, ("effect", p, f), ("keepfig", p, f), ("fig",))
        advance(s)
    elif ph == Phase.SOLVAY:
        if action == A.SOLVAY_SWAP:
            _spend_cube(s, p, _J)
            push(s, ("noble", p, 2))
        else:
            push(s, ("noble", p, 1))
        advance(s)
    elif ph == Phase.KEEP_FIG:
        f = s.ctx[0]
        if action == A.KEEP_FIG:
            s.kept[p] |= 1 << f
            s.rot[p] |= 1 << f
        else:
            s.fig_disc[f] += 1
        advance(s)
    elif ph == Phase.NOBLE:
        m = action - A.NOBLE0
        _gain_cubes(s, p, m, 1)
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
            _spend_cube(s, p, _J if res == R.P_JOKER else res)
        paid = _add(paid, res, 1)
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
            s.rot[p] |= 1 << f
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
        s.shop_pile[old] += 1
    s.shop[slot] = c
    advance(s)


def _apply_main(s, p: int, action: int) -> None:
    if action == A.PASS:
        first = s.first_passer < 0
        if first:
            s.first_passer = p
            s.exhib[p] += 1
            s.mp[p] += R.RULES["pass.first_manneken"]
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
        s.onbrussels[p] += cost
        s.uses[b] += 1
        if b == R.MARKET:
            _gain_cubes(s, p, _J, R.RULES["materials.market_jokers"])
            push(s, ("endturn",))
        elif b == R.BOURSE:
            s.money[p] += R.STOCK_VALUES[s.stock]
            push(s, ("endturn",))
        elif b == R.PARK:
            push(s, ("park", p), ("endturn",))
        else:
            push(s, ("activate", p, R.PALACE[s.palace[p]]), ("endturn",))
    advance(s)
