"""Bruxelles 1893 rule engine: the task driver, setup, rounds and the Art Nouveau actions.

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

Modules: steps.py (low-level helpers), this module (driver, setup, turns, the
five actions and their secondary actions), resolution.py (resolution and end of
turn), decisions.py (chance outcomes, legal actions and the effect of each
decision).
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.core import Phase
from spiel_games.bruxelles.resolution import TASKS as RESOLUTION_TASKS
from spiel_games.bruxelles.resolution import column_bids  # noqa: F401  (re-exported)
from spiel_games.bruxelles.steps import (
    RUNNING,
    J,
    add_at,
    advance_track,
    decide,
    gain_cubes,
    push,
    set_at,
    set_chance,
)

# Fixed setup (tiny configurations): strips chosen so a 2x2 board shows Workshop,
# Sale, Materials and Construction, and bonus cards dealt double powers first
# (no tuck choice), which keeps exact-CFR trees small.
FIXED_STRIPS = (0, 4, 1, 2, 3)
FIXED_BONUS_ORDER = tuple(
    sorted(range(len(R.BONUS)), key=lambda t: (R.BONUS[t][1], len(R.BONUS[t][0]), t))
)


def advance(s) -> None:
    """Run pending tasks until one needs a decision or a chance event."""
    s.phase = RUNNING
    while s.phase == RUNNING:
        if not s.tasks:
            raise AssertionError("the engine ran out of tasks")
        task = s.tasks[0]
        s.tasks = s.tasks[1:]
        _TASKS[task[0]](s, *task[1:])


def recycle_shop(s) -> None:
    """Empty stacks are rebuilt from the shop, leaving the two visible works."""
    for c in range(len(R.ART)):
        s.art_stack = add_at(s.art_stack, c, s.shop_pile[c])
        s.shop_pile = set_at(s.shop_pile, c, 0)


def empty_spaces(s) -> list[int]:
    return [sp for sp in range(s.cfg.spaces) if s.occ[sp] < 0 and s.bld[sp] < 0]


def brussels_cost(s, b: int) -> int:
    return s.uses[b] // s.cfg.brussels_slots + 1


def construction_cost(s, p: int) -> int:
    return R.TIER_COSTS[s.built[p]]


def _needle_tiles(s) -> tuple[int, int]:
    return s.compass[s.needles[0]], s.compass[s.needles[1]]


def can_complete(s, p: int, paid: tuple[int, ...], cost: int, res: int = -1) -> bool:
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
            and can_complete(s, p, (0,) * 5, construction_cost(s, p))
        )
    raise ValueError(f"unknown action {a}")


def brussels_useful(s, p: int, b: int) -> bool:
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
        s.acts = space_actions(s)
        s.compass = tuple(range(len(R.COMPASS)))
        for p in range(s.n):
            c = p % R.COLOURS
            s.art_stack = add_at(s.art_stack, c, -1)
            s.works = set_at(s.works, p, add_at(s.works[p], c, 1))
            s.pub_works = set_at(s.pub_works, p, add_at(s.pub_works[p], c, 1))
        for k in range(len(s.display)):
            f = next(f for f in range(len(R.FIGURES)) if s.fig_deck[f] and f not in s.display)
            s.fig_deck = add_at(s.fig_deck, f, -1)
            s.display = set_at(s.display, k, f)
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


def space_actions(s) -> tuple[int, ...]:
    b = s.cfg.board
    return tuple(R.STRIPS[s.strips[r]][c] for r in range(b) for c in range(b))


def _t_strip(s) -> None:
    set_chance(s, Phase.C_STRIP)


def _t_compass(s) -> None:
    set_chance(s, Phase.C_COMPASS)


def _t_startart(s, p: int) -> None:
    set_chance(s, Phase.C_ART, (p, 1, (), 0))


def _t_fig(s) -> None:
    """Refill the theater display's empty space (the 3 BF end), reshuffling if needed."""
    if -1 not in s.display:
        return
    if sum(s.fig_deck) == 0:
        s.fig_deck = s.fig_disc[:]
        s.fig_disc = (0,) * len(R.FIGURES)
    if sum(s.fig_deck) == 0:
        return
    set_chance(s, Phase.C_FIGURE)


def _t_deal(s) -> None:
    if sum(s.bonus_deck) == 0 or -1 not in s.strip_bonus:
        return
    if s.cfg.fixed_setup:
        t = next(t for t in FIXED_BONUS_ORDER if s.bonus_deck[t])
        s.bonus_deck = add_at(s.bonus_deck, t, -1)
        s.strip_bonus = set_at(s.strip_bonus, s.strip_bonus.index(-1), t)
        return
    set_chance(s, Phase.C_BONUS)


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
        set_stock(s, card)
        return
    set_chance(s, Phase.C_STOCK)


def set_stock(s, card: int) -> None:
    if not (s.stock_left >> card) & 1:
        raise ValueError(f"stock card {card} is not in the deck")
    s.stock_left &= ~(1 << card)
    s.stock = card


def _t_shield(s) -> None:
    if s.cfg.board < R.MAX_BOARD:
        s.area = (1 << s.cfg.spaces) - 1  # small boards: the whole board is available
        return
    decide(s, Phase.SHIELD, s.first)


def neutral_spaces(s) -> list[int]:
    return [sp for sp in empty_spaces(s) if (s.area >> sp) & 1]


def _t_neutral(s, p: int) -> None:
    if neutral_spaces(s):
        decide(s, Phase.NEUTRAL, p)


def _t_turn(s, p: int) -> None:
    s.cur = p
    decide(s, Phase.MAIN, p)


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
    decide(s, Phase.BID, s.occ[sp], (sp,))


def _t_do(s, a: int, sp: int) -> None:
    p = s.occ[sp]
    # With private works, whether a sale is possible is secret: always ask.
    if feasible(s, p, a) or (a == R.SALE and s.cfg.private_works):
        decide(s, Phase.DO, p, (a,))


def _t_park(s, p: int) -> None:
    if any(feasible(s, p, a) for a in range(5)):
        decide(s, Phase.PARK, p)


def start_action(s, p: int, a: int) -> None:
    if a == R.WORKSHOP:
        k = 1 + s.exhib[p]
        if sum(s.art_stack[: R.COLOURS]) < k:
            recycle_shop(s)  # the stack would run out: rebuild it from the covered shop works
        k = min(k, sum(s.art_stack[: R.COLOURS]))
        set_chance(s, Phase.C_ART, (p, k, (), 1))
    elif a == R.SALE:
        decide(s, Phase.SELL, p)
    elif a == R.THEATER:
        decide(s, Phase.THEATER, p)
    elif a == R.MATERIALS:
        push(s, ("noble", p, R.RULES["materials.materials_action"]))
        advance(s)
    elif a == R.CONSTRUCTION:
        decide(s, Phase.PAY, p, (construction_cost(s, p), (0,) * 5, 0))
    else:
        raise ValueError(f"unknown action {a}")


def keep_work(s, p: int, drawn: tuple[int, ...], c: int) -> None:
    if c not in drawn:
        raise ValueError(f"{R.ART[c]} was not drawn")
    for d in drawn:
        s.art_stack = add_at(s.art_stack, d, 1)
    s.art_stack = add_at(s.art_stack, c, -1)
    s.works = set_at(s.works, p, add_at(s.works[p], c, 1))
    if not s.cfg.private_works:
        s.pub_works = set_at(s.pub_works, p, add_at(s.pub_works[p], c, 1))
    others = list(drawn)
    others.remove(c)
    if others:
        s.seen = set_at(s.seen, p, s.seen[p] + ((c, tuple(sorted(others))),))
    advance(s)


def _t_effect(s, p: int, f: int) -> None:
    """A public figure's effect (rulebook appendix 1)."""
    if f == R.BRUGMANN:
        s.money[p] += R.RULES["figures.brugmann_money"]
    elif f == R.SOLVAY:
        if solvay_options(s, p):
            decide(s, Phase.SOLVAY, p)
    elif f == R.BULS:
        advance_track(s, p, "H")
    elif f == R.ALBERT:
        advance_track(s, p, "P")
    elif f == R.VANDERVELDE:
        advance_track(s, p, "C")
    elif f == R.MAETERLINCK:
        s.vp[p] += R.RULES["figures.maeterlinck_vp"]
    elif f == R.EMPAIN:
        gain_cubes(s, p, J, R.RULES["figures.empain_jokers"])
    elif f == R.VANDEVELDE:
        advance_track(s, p, "A")
    else:
        raise ValueError(f"unknown figure {f}")


def solvay_options(s, p: int) -> list[int]:
    if sum(s.cube_supply[:3]) == 0:
        return []
    opts = [A.SOLVAY_ONE]
    if s.cubes[p][J] > 0:
        opts.append(A.SOLVAY_SWAP)
    return opts


def _t_keepfig(s, p: int, f: int) -> None:
    if (s.kept[p] >> f) & 1:
        s.fig_disc = add_at(
            s.fig_disc, f, 1
        )  # no two identical kept cards: the new one is discarded
        return
    decide(s, Phase.KEEP_FIG, p, (f,))


def _t_noble(s, p: int, k: int) -> None:
    k = min(k, sum(s.cube_supply[:3]))
    if k > 0:
        decide(s, Phase.NOBLE, p, (k, 0))


def _t_activate(s, p: int, k: int) -> None:
    if k > 0 and s.upright(p):
        decide(s, Phase.ACTIVATE, p, (k,))


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
            s.art_stack = add_at(s.art_stack, R.BLACK, -1)
            s.works = set_at(s.works, o, add_at(s.works[o], R.BLACK, 1))
            s.pub_works = set_at(s.pub_works, o, add_at(s.pub_works[o], R.BLACK, 1))
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
        decide(s, Phase.NEEDLE, p)


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
        decide(s, Phase.BUILD, p)


def build(s, p: int, sp: int) -> None:
    if s.occ[sp] >= 0 or s.bld[sp] >= 0:
        raise ValueError("buildings go on empty spaces only")
    tier = s.built[p]
    s.bld = set_at(s.bld, sp, p)
    s.built = add_at(s.built, p, 1)
    if R.TIER_COSTS[tier] == R.TIER_COSTS[-1]:
        s.vp[p] += R.RULES["buildings.top_row_bonus"]
    advance(s)


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
    **RESOLUTION_TASKS,
}
