"""Advice as text: each move's value in three units, its range and its gap to the best.

A compared move (a search agent's comparison phase) shows the value (the game's utility,
a rank score in [-1, 1] by default), the points (expected final margin over the best
other player) and the chance to finish first, each with its 95% range, and how far it is
behind the best move on the same paired passes. Agents without statistics name a move;
policies show their probabilities. Every table ends with a line naming the units.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import spiel_games
from tournament.advice import advise

if TYPE_CHECKING:
    from tournament.advice.advise import Advice, AdviceSet
    from tournament.advice.moves import MoveAdvice


def _fmt(x, width: int, digits: int = 3) -> str:
    if x is None:
        return "-".rjust(width)
    if isinstance(x, float) and x.is_integer() and digits == 0:
        return f"{int(x)}".rjust(width)
    return f"{_unsigned_zero(x, digits):.{digits}f}".rjust(width)


def _unsigned_zero(x: float, digits: int) -> float:
    """``x``, with a value that rounds to zero as +0.0 (never printed "-0.000")."""
    return round(x, digits) + 0.0


def points(x: float | None) -> str:
    return "-" if x is None else f"{_unsigned_zero(x, 1):+.1f}"


def percent(x: float | None) -> str:
    return "-" if x is None else f"{_unsigned_zero(100 * x, 0):.0f}%"


def count(n: int, noun: str) -> str:
    """``n`` and the noun, in the plural unless ``n`` is 1 ("1 legal move", "3 legal moves")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def value_unit(game_string: str) -> str:
    """What ``value`` is in the game's utility mode (the game string's ``utility=``)."""
    return advise.value_unit(_utility(game_string))


def _utility(game_string: str) -> str:
    return str(spiel_games.load_game(game_string).get_parameters().get("utility", "rank"))


def units_line(game_string: str, player: int) -> str:
    return (
        f"units: value = P{player + 1}'s {value_unit(game_string)};"
        " points = final score minus the best other player's; first = chance to finish first;"
        + (
            " [ranges] 95%, meant to hold what a search with 8x the budget finds"
            if _utility(game_string) == "rank"
            else " [ranges] 95%, not calibrated outside utility=rank"
        )
    )


def render(advice_set: AdviceSet, header: bool = True, timing: bool = True) -> str:
    """The advice as text; ``timing`` False leaves out the wall time (in-game hints)."""
    lines = []
    first = advice_set.items[0]
    view = f"P{first.player + 1}"
    if header:
        lines.append(
            f"{first.game} after {count(first.ply, 'action')}; P{first.to_move + 1} to move; "
            f"advice from {view}'s information state; {count(first.num_legal, 'legal move')}"
        )
    for i, adv in enumerate(advice_set.items):
        if header or i:
            lines.append("")
        spent = ", ".join(f"{k}={v}" for k, v in adv.budget.items()) or "no search"
        took = f"  ({adv.seconds:.2f} s)" if timing else ""
        lines.append(f"agent {adv.agent}  seed {adv.seed}  budget: {spent}{took}")
        if not adv.analysed:
            lines.append(f"  plays: {adv.best}  (no statistics from this agent here)")
            continue
        lines.extend(_compared(adv) if adv.passes else _plain(adv))
        lines.append("  " + _verdict(adv))
        if adv.choice is not None:
            lines.append(
                f"  the agent's own pick is {adv.choice} (most visited while selecting);"
                f" compared on {adv.passes} paired passes, {adv.best} is ahead"
            )
    if any(a.passes for a in advice_set.items):
        lines.append(units_line(first.game, first.to_move))  # values are the mover's
    if len(advice_set.items) > 1:
        lines.append("")
        if advice_set.agree:
            lines.append(f"agents agree: {first.best}")
        else:
            lines.append(
                "agents disagree: " + "; ".join(f"{a.agent} -> {a.best}" for a in advice_set.items)
            )
    return "\n".join(lines)


def _plain(adv: Advice) -> list[str]:
    w = max(8, *(len(m.action) for m in adv.moves))
    out = [f"  {'#':>2}  {'move':<{w}} {'visits':>8} {'value':>7}  {'95% CI':<17} {'prob':>6}"]
    for i, m in enumerate(adv.moves, start=1):
        ci = "-" if m.ci_low is None else f"[{m.ci_low:.3f}, {m.ci_high:.3f}]"
        out.append(
            f"  {i:>2}  {m.action:<{w}} {_fmt(m.visits, 8, 0)} {_fmt(m.value, 7)}  "
            f"{ci:<17} {_fmt(m.prob, 6)}"
        )
    return out


NO_RANGE = "[no range: one sample]"  # an interval needs two samples at least


def _range(t, show) -> str:
    if t is None:
        return "-"
    if t[1] is None or t[2] is None:
        return f"{show(t[0])} {NO_RANGE}"
    return f"{show(t[0])} [{show(t[1])}, {show(t[2])}]"


def _three(x: float) -> str:
    return f"{x:.3f}"


def _compared(adv: Advice) -> list[str]:
    w = max(8, *(len(m.action) for m in adv.moves))
    rows = []
    for i, m in enumerate(adv.moves, start=1):
        ci = _range(None if m.value is None else (m.value, m.ci_low, m.ci_high), _three)
        behind = "best" if i == 1 else _range(m.gap, _three)
        rows.append(
            (
                f"{i:>2}",
                m.action,
                _fmt(m.visits, 6, 0),
                ci,
                _range(m.margin, points),
                _range(m.first, percent),
                behind,
            )
        )
    head = ("#", "move", "visits", "value [95%]", "points [95%]", "first [95%]", "behind best")
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    widths[1] = w

    def line(r):
        cells = [r[0].rjust(widths[0]), r[1].ljust(widths[1]), r[2].rjust(widths[2])]
        cells += [c.ljust(widths[k]) for k, c in enumerate(r[3:], start=3)]
        return "  " + "  ".join(cells).rstrip()

    return [line(head), *(line(r) for r in rows)]


def _move(adv: Advice, action: str) -> MoveAdvice | None:
    return next((m for m in adv.moves if m.action == action), None)


def _verdict(adv: Advice) -> str:
    if adv.runner_up is None and adv.num_legal > 1:  # an analysis of one move only
        return f"best: {adv.best} (of {adv.num_legal} legal moves; no other move compared)"
    if adv.runner_up is None:
        return f"best: {adv.best} (the only legal move)"
    second = adv.runner_up
    if adv.z is None:
        first, runner = adv.moves[0].prob, _move(adv, second)
        if first is not None and runner is not None and runner.prob is not None:
            return (
                f"best: {adv.best} (policy probability {first:.3f}, {second} {runner.prob:.3f};"
                " a policy gives no interval to test)"
            )
        if adv.passes:
            return f"best: {adv.best} (one paired pass: no interval to compare with {second})"
        if any(m.ci_low is not None for m in adv.moves):  # root statistics, not compared
            return f"best: {adv.best} (stopped before comparing it with {second}: no test)"
        return f"best: {adv.best} (no interval to compare with {second})"
    z = f"z = {adv.z:.2f}" if math.isfinite(adv.z) else "every pass gave the same gap"
    how = "paired, " if adv.passes else ""
    if adv.significant:
        return f"best: {adv.best}, significantly better than {second} ({how}{z}, 5% level)"
    return f"best: {adv.best}, not significantly better than {second} ({how}{z})"
