"""Bruxelles 1893 rule engine: the task driver, setup, turn order, the automatic steps of
the actions, resolution and the end of a round (rulebook "How to Play", C and D).

A position is either waiting for a decision (a player Phase, with ``actor`` and a
small immutable ``ctx``), for a random event (a chance Phase), or is terminal.
Everything that happens without a choice is a *task* in ``s.tasks``: ``advance``
pops tasks and runs them until one of them asks for a decision or a chance event.
Sub-actions (a figure's effect, a building owner's secondary action, the next turn)
are pushed as tasks, so every compound choice becomes a short sequence of simple
actions; phases.py holds the decisions themselves.

Round structure: stock exchange -> (2p: neutral assistants) -> turns until everyone
passed -> resolution ((1) column bids win bonus cards, ties share the central power;
(2) new first player by Manneken Pis; (3) bonus cards used or tucked; (4) shield
majorities; (5) Brussels majority to the Courthouse) -> end of turn (skipped after the
last round) -> next round or final scoring.
"""

from __future__ import annotations

from collections.abc import Callable

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.scoring import brussels_majority, score_shields
from spiel_games.bruxelles.state import (
    RUNNING,
    J,
    Phase,
    Task,
    add_at,
    advance_track,
    column_results,
    decide,
    feasible,
    gain_cubes,
    neutral_spaces,
    push,
    recycle_shop,
    set_at,
    set_chance,
    set_stock,
    solvay_options,
    space_actions,
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
    tasks: list[Task] = [("stock",), ("shield",)]
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


def _t_shield(s) -> None:
    if s.cfg.board < R.MAX_BOARD:
        s.area = (1 << s.cfg.spaces) - 1  # small boards: the whole board is available
        return
    decide(s, Phase.SHIELD, s.first)


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


# ----- automatic steps of the Art Nouveau actions -------------------------------------------
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


# ----- resolution and end of turn ----------------------------------------------------------
def _t_resolve(s) -> None:
    n = s.n
    won: list[list[int]] = [[] for _ in range(n)]
    tied: list[list[int]] = [[] for _ in range(n)]
    for col, card, _, winners in column_results(s):
        if not winners:
            continue
        s.strip_bonus = set_at(s.strip_bonus, col, -1)
        if len(winners) == 1:
            won[winners[0]].append(card)
            s.mp = add_at(s.mp, winners[0], R.BONUS[card][2])
        else:
            for p in winners:
                tied[p].append(card)
    s.first = R.new_first_player(s.mp, s.first)
    tasks: list[Task] = []
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
    decide(s, Phase.BONUS, p, (card, tuck_ok))


def use_bonus(s, p: int, card: int, action: int) -> None:
    options, vp, _, _ = R.BONUS[card]
    if A.POWER0 <= action < A.POWER0 + len(options):
        for power in options[action - A.POWER0]:
            advance_track(s, p, power)
    elif A.TUCK0 <= action < A.TUCK0 + R.BONUS_ROWS:
        r = action - A.TUCK0
        if vp == 0 or (s.tucked[p] >> r) & 1:
            raise ValueError(f"cannot tuck this card under row {r + 1}")
        s.rows = set_at(s.rows, p, add_at(s.rows[p], r, vp))
        s.tucked = set_at(s.tucked, p, s.tucked[p] | (1 << r))
    else:
        raise ValueError(f"action {action} is not a bonus card choice")


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
    s.onbrussels = (0,) * n
    sp = s.cfg.spaces
    s.occ = [-1] * sp
    s.bids = [0] * sp
    s.rot = (0,) * n
    s.round += 1
    if s.display[0] >= 0:
        s.fig_disc = add_at(s.fig_disc, s.display[0], 1)
    s.display = s.display[1:] + (-1,)
    s.strip_bonus = (-1,) * s.cfg.board
    s.stock = -1
    s.uses = (0,) * len(R.BRUSSELS)
    s.passed = 0
    s.first_passer = -1
    s.mp = (0,) * n
    s.tucked = (0,) * n
    push(s, ("fig",), *([("deal",)] * s.cfg.board), ("round",))


_TASKS: dict[str, Callable[..., None]] = {
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
    "shields": score_shields,
    "bmaj": brussels_majority,
    "endround": _t_endround,
}
