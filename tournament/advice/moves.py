"""One advised move and its statistics (``MoveAdvice``), and how sure the advice is that its
best move beats the runner-up: a z score of the gap the comparison phase measured on shared
samples (none without that phase). Units: ``tournament.advice.answer_units.UNITS``."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from solvers.base import Z95, ChoiceTie

# (mean, low, high); the bounds are None where there is no interval (one paired pass)
Triple = tuple[float, float | None, float | None]


@dataclass
class MoveAdvice:
    action: str
    action_id: int
    value: float | None = None
    visits: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    prob: float | None = None
    samples: int = 0  # paired comparison samples (0: not compared)
    margin: Triple | None = None  # (mean, low, high) in points
    first: Triple | None = None  # (mean, low, high) chance to finish first
    gap: Triple | None = None  # paired value difference to the best move
    margin_gap: Triple | None = None  # paired points behind the compared move best in points
    first_gap: Triple | None = None  # the same in chance to finish first (its own best move)
    prior: float | None = None
    pv: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        out = {
            "action": self.action,
            "id": self.action_id,
            "value": self.value,
            "visits": self.visits,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "lcb": self.ci_low,
        }
        if self.samples:
            out["samples"] = self.samples
            for name in ("margin", "first", "gap", "margin_gap", "first_gap"):
                t = getattr(self, name)
                out[name], out[f"{name}_low"], out[f"{name}_high"] = t if t else (None,) * 3
            out["prior"] = self.prior
            out["pv"] = self.pv
        if self.prob is not None:
            out["prob"] = self.prob
        return out


def paired_z(moves: list[MoveAdvice]) -> float | None:
    """The runner-up's paired gap over its standard error; None without a paired
    comparison (an agent without one, a search stopped before it: its root intervals are
    search noise only and the moves' samples are not paired) or with one pass only."""
    if len(moves) < 2:
        return None
    gap = moves[1].gap
    if gap is None or gap[1] is None or gap[2] is None:  # one paired pass: no interval
        return None
    se = (gap[2] - gap[1]) / (2 * Z95)
    if se == 0.0:
        return math.inf if gap[0] > 0 else 0.0
    return gap[0] / se


def moves_of(analysis, agent, root, legal: dict, mover: int):
    """(moves, budget used, the agent's own pick, paired passes) of an analysis."""
    if analysis is None:
        a = int(agent.step(root.clone()))
        return [MoveAdvice(action=root.action_to_string(mover, a), action_id=a)], {}, None, 0
    moves = [
        MoveAdvice(
            action=m.action_str or legal.get(int(m.action), str(m.action)),
            action_id=int(m.action),
            value=_num(m.value),
            visits=_count(m.visits),
            ci_low=_num(m.ci_low),
            ci_high=_num(m.ci_high),
            prob=_num(m.prob),
            samples=m.samples,
            margin=_triple(m.margin),
            first=_triple(m.first),
            gap=_triple(m.gap),
            margin_gap=_triple(m.margin_gap),
            first_gap=_triple(m.first_gap),
            prior=m.prior,
            pv=list(m.pv),
        )
        for m in analysis.moves
    ]
    if moves and moves[0].prob is not None:  # a policy: unplayed legal moves at 0
        listed = {m.action_id for m in moves}
        moves += [
            MoveAdvice(x, a, visits=moves[0].visits, prob=0.0)
            for a, x in legal.items()
            if a not in listed
        ]
    return moves, dict(analysis.budget), analysis.choice, analysis.passes


def choice_tie(analysis, legal: dict) -> ChoiceTie | None:
    """The analysis' ``choice_tie`` with the moves named."""
    tie = getattr(analysis, "choice_tie", None)
    if tie is None:
        return None
    return dataclasses.replace(tie, moves=tuple(legal.get(a, str(a)) for a in tie.moves))


def own_pick(analysis, choice: int | None, moves: list[MoveAdvice], legal: dict) -> dict:
    """``Advice``'s fields of the agent's own pick (when it is not the best) and of ties:
    ``choice``, ``choice_tie`` and ``tied``."""
    picked = None if choice is None or choice == moves[0].action_id else choice
    return {
        "choice": None if picked is None else legal.get(picked),
        "choice_tie": None if picked is None else choice_tie(analysis, legal),
        "tied": tied_with_best(moves),
    }


def tied_with_best(moves: list[MoveAdvice]) -> list[str]:
    """The compared moves after the best with its mean value (their paired gap to it is
    exactly 0): they are listed after it only by the higher action id."""
    if not moves or moves[0].value is None:
        return []
    best = moves[0].value
    return [m.action for m in moves[1:] if m.gap is not None and m.gap[0] == 0 and m.value == best]


def in_range(moves: list[MoveAdvice], game) -> list[MoveAdvice]:
    """Each interval cut to what its quantity can be: a value to the game's utility range,
    a chance to finish first to [0, 1] (a normal interval near a bound runs past it)."""
    lo, hi = game.min_utility(), game.max_utility()
    cut = clip
    out = []
    for m in moves:
        first = m.first
        if first is not None:
            first = (first[0], cut(first[1], 0.0, 1.0), cut(first[2], 0.0, 1.0))
        out.append(
            dataclasses.replace(
                m, ci_low=cut(m.ci_low, lo, hi), ci_high=cut(m.ci_high, lo, hi), first=first
            )
        )
    return out


def clip(x: float | None, lo: float, hi: float) -> float | None:
    """``x`` cut to [lo, hi] (None stays None)."""
    return None if x is None else min(max(x, lo), hi)


def _count(x):
    return int(x) if (x := _num(x)) is not None and x.is_integer() else x


def _num(x):
    """A statistic as a float; NaN (not measured: a move never visited, a bound of an
    interval from one sample) as None, which JSON writes as null."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def _triple(t) -> Triple | None:
    """(mean, low, high) with the bounds None where there is no interval."""
    if t is None:
        return None
    mean, low, high = t
    return float(mean), _num(low), _num(high)
