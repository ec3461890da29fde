"""One advised move and its statistics (``MoveAdvice``), and how sure the advice is that its
best move beats the runner-up: a z score, paired where the comparison phase measured the
gap on shared samples. Units: ``tournament.advice.advise.UNITS``."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from solvers.base import Z95

Triple = tuple[float, float, float]


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
    margin_gap: Triple | None = None  # paired points difference to the best move in points
    first_gap: Triple | None = None  # the same in chance to finish first
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


def z_score(a: MoveAdvice, b: MoveAdvice) -> float | None:
    """z statistic of value(a) - value(b) from the moves' 95% intervals; None without them."""
    if (
        a.value is None
        or b.value is None
        or a.ci_low is None
        or a.ci_high is None
        or b.ci_low is None
        or b.ci_high is None
    ):
        return None
    se_a = (a.ci_high - a.ci_low) / (2 * Z95)
    se_b = (b.ci_high - b.ci_low) / (2 * Z95)
    se = math.hypot(se_a, se_b)
    diff = a.value - b.value
    if se == 0.0:
        return math.inf if diff > 0 else (-math.inf if diff < 0 else 0.0)
    return diff / se


def paired_z(moves: list[MoveAdvice]) -> float | None:
    """The runner-up's paired gap over its standard error, else the unpaired z score."""
    if len(moves) < 2:
        return None
    gap = moves[1].gap
    if gap is None:
        return z_score(moves[0], moves[1])
    se = (gap[2] - gap[1]) / (2 * Z95)
    if se == 0.0:
        return math.inf if gap[0] > 0 else 0.0
    return gap[0] / se
