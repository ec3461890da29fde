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
        spent = _spent(adv)
        took = f"  ({adv.seconds:.2f} s)" if timing else ""
        lines.append(f"agent {adv.agent}  seed {adv.seed}  {spent}{took}")
        if not adv.analysed:
            lines.append(f"  plays: {adv.best}  (no statistics from this agent here)")
            continue
        lines.extend(_compared(adv) if adv.passes else _plain(adv))
        lines.append("  " + _verdict(adv))
        if adv.choice is not None:
            lines.append("  " + _own_pick(adv))
        if not adv.passes:  # its own units (a compared search's are the last line's)
            lines.append("  " + agent_units_line(adv))
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


# a trained table's budget (blueprint: how often training met the key; policy: its
# iterations), the same for every move: said in the header, not as per-move visits
TABLE_BUDGET = {
    "visits": "no search: key seen {:,} times in training",
    "iterations": "no search: trained for {:,} iterations",
}


def _table(adv: Advice) -> bool:
    """A trained table (blueprint, policy): probabilities only, no values."""
    return all(m.value is None and m.prob is not None for m in adv.moves)


def _spent(adv: Advice) -> str:
    """The header's budget: ``k=v`` pairs; for a trained table what its count is."""
    if _table(adv) and len(adv.budget) == 1:
        ((k, n),) = adv.budget.items()
        if k in TABLE_BUDGET and isinstance(n, int):
            return TABLE_BUDGET[k].format(n)
    return "budget: " + (", ".join(f"{k}={v}" for k, v in adv.budget.items()) or "no search")


def agent_units_line(adv: Advice) -> str:
    """The units of an answer without a comparison (a policy, a blueprint, cfr-search,
    openspiel-ismcts): the agent's own meanings (``Advice.units``) of the columns shown."""
    units, parts = adv.units, []
    if any(m.value is not None for m in adv.moves):
        own = adv.agent_units.get("value")
        value = f"P{adv.to_move + 1}'s {advise.value_unit(adv.utility)}"
        parts.append(f"value = {value}" + (f": {own}" if own else ""))
        if any(m.ci_low is not None for m in adv.moves) and "ci" in units:
            parts.append(f"95% CI = {units['ci']}")
        if "visits" in units:
            parts.append(f"visits = {units['visits']}")
    if any(m.prob is not None for m in adv.moves):
        parts.append(f"prob = {units.get('prob', 'the policy probability of the move')}")
    return "units: " + "; ".join(parts)


def _plain(adv: Advice) -> list[str]:
    w = max(8, *(len(m.action) for m in adv.moves))
    if _table(adv):
        out = [f"  {'#':>2}  {'move':<{w}} {'prob':>6}"]
        out += [f"  {i:>2}  {m.action:<{w}} {_fmt(m.prob, 6)}" for i, m in enumerate(adv.moves, 1)]
        return out
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


def _names(moves: list[str]) -> str:
    return moves[0] if len(moves) == 1 else ", ".join(moves[:-1]) + " and " + moves[-1]


def _own_pick(adv: Advice) -> str:
    """The agent's own pick (what it plays), when it is not the best after the comparison:
    why it was its pick, and how it compares with the best (ties said as ties)."""
    tie = adv.choice_tie
    if tie is None:
        why = "most visited while selecting"
    else:
        broke = "its higher mean value then" if tie.by == "value" else "the lower action id"
        why = (
            f"tied for most visited while selecting with {_names([str(m) for m in tie.moves])},"
            f" {tie.visits} visits each; picked by {broke}"
        )
    pick = f"the agent's own pick is {adv.choice} ({why})"
    if not adv.passes:
        return pick + f"; listed after {adv.best}, not compared"
    if adv.choice in adv.tied:
        return pick + f"; compared on {adv.passes} paired passes it is tied with {adv.best}"
    return pick + f"; compared on {adv.passes} paired passes, {adv.best} is ahead"


def _tie_verdict(adv: Advice) -> str:
    """The best move's verdict when other compared moves have exactly its mean value."""
    return (
        f"best: {adv.best}, tied with {_names(adv.tied)} (the same mean value over the"
        f" {adv.passes} paired passes: no difference measured); {adv.best} is listed first"
        " only as the lower action id"
    )


def _verdict(adv: Advice) -> str:
    if adv.runner_up is None and adv.num_legal > 1:  # an analysis of one move only
        return f"best: {adv.best} (of {adv.num_legal} legal moves; no other move compared)"
    if adv.runner_up is None:
        return f"best: {adv.best} (the only legal move)"
    second = adv.runner_up
    if adv.tied and adv.passes > 1:
        return _tie_verdict(adv)
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
