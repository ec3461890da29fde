"""What a ratings fit returns (``Ratings``), about whom (``AgentInfo``), and its errors;
``tournament.ratings.fit`` makes it, ``report`` / ``notes`` / ``export`` render it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from spiel_games.common.errors import MeepleError
from tournament.ratings.plackett_luce import PLRatings
from tournament.ratings.unrated import reason as unrated_reason


class RatingsError(MeepleError):
    """Ratings cannot be computed as asked (one line for the user)."""


class AnchorError(RatingsError):
    """``--anchor`` names no agent of the ledgers (found once read): exit 2, nothing fitted."""


@dataclass
class AgentInfo:
    id: str
    name: str
    spec: str = ""
    budget: float | None = None
    coverage: float | None = None  # mean share of decisions played from its table (ledger)
    coverage_games: int = 0
    games_read: int = 0  # its games in the ledgers, void ones included
    void_games: int = 0  # of those, void (no ranks)
    failures: dict[str, int] = field(default_factory=dict)  # games it failed, by kind
    aliases: list[str] = field(default_factory=list)  # its names in other ledgers


@dataclass
class Ratings:
    agents: list[AgentInfo]
    elo: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    games: np.ndarray  # games played per agent (rated ones)
    wins: np.ndarray  # (K, K) pairwise wins of row over column
    draws: np.ndarray  # (K, K) symmetric
    score_diff: np.ndarray  # (K, K) mean raw score of row minus column over their games
    los: np.ndarray  # (K, K) likelihood that row is stronger than column
    seats: list[dict]  # per player count and seat: games, mean rank, win rate, mean score
    alpharank: np.ndarray | None
    anchor: str
    bootstrap: int
    blocks: int
    void_games: int
    components: list[list[str]]
    warnings: list[str] = field(default_factory=list)
    prior: str = ""  # the fit's prior / smoothing, stated in every report
    # per agent: "" (two-sided), else why and which end of its interval is open
    one_sided: list[str] = field(default_factory=list)
    plackett_luce: PLRatings | None = None  # same agents, anchor and bootstrap
    anchor_set: np.ndarray | None = None  # (K,) bool: the agents the mean anchor averages
    luck: str = ""  # how the results were luck-adjusted ("" = raw results)
    # agents without a rated game against another agent: no rating, not in the fit
    unrated: list[AgentInfo] = field(default_factory=list)
    confidence: float = 0.95  # of every interval
    luck_value: str = ""  # luck-adjusted: the value function, and the share of luck taken
    luck_beta: float | None = None
    design: list[str] = field(default_factory=list)  # what the ledgers' design qualifies
    # the largest Monte Carlo error of a bootstrap bound, and which bound it is
    bound_noise: tuple[float, str] = (math.nan, "")
    intransitive: bool = False  # a cycle of majorities: alpha-Rank is shown

    def shows_alpharank(self) -> bool:
        """alpha-Rank in the table only where it says more than the order: a cycle."""
        return self.alpharank is not None and self.intransitive

    def groups(self) -> np.ndarray:
        """(K,) the comparison component of each agent (0: the largest), as ``components``."""
        where = {name: g for g, comp in enumerate(self.components) for name in comp}
        return np.array([where.get(a.name, 0) for a in self.agents], dtype=np.int64)

    def order(self, values: np.ndarray | None = None) -> list[int]:
        """Best first by ``values`` (default Elo); group by group when the comparison graph
        is disconnected (ratings of different groups are not comparable)."""
        v, g = (self.elo if values is None else values), self.groups()
        return sorted(range(len(self.agents)), key=lambda i: (g[i], -v[i]))

    def as_records(self) -> list[dict]:
        """Best first; an unbounded side of a one-sided interval is None (JSON null)."""

        def bound(x: float) -> float | None:
            return None if not math.isfinite(x) else round(float(x), 1)

        out = []
        pl = self.plackett_luce
        groups = self.groups()
        for i in self.order():
            rec: dict = {
                "agent": self.agents[i].name,
                "elo": round(float(self.elo[i]), 1),
                "ci_low": bound(self.ci_low[i]),
                "ci_high": bound(self.ci_high[i]),
                "games": int(self.games[i]),
                **_coverage_record(self.agents[i]),
            }
            if len(self.components) > 1:
                rec["group"] = int(groups[i])
            if self.one_sided and self.one_sided[i]:
                rec["one_sided"] = self.one_sided[i]
            if pl is not None:
                rec["plackett_luce"] = {
                    "elo": round(float(pl.elo[i]), 1),
                    "ci_low": bound(pl.ci_low[i]),
                    "ci_high": bound(pl.ci_high[i]),
                }
            out.append(rec)
        for a in self.unrated:  # listed, without a rating: the JSON's null, CSV's empty
            out.append(
                {
                    "agent": a.name,
                    "elo": None,
                    "ci_low": None,
                    "ci_high": None,
                    "games": a.games_read - a.void_games,
                    "unrated": unrated_reason(a),
                }
            )
        return out


def _coverage_record(agent: AgentInfo) -> dict:
    """{"coverage": share} for agents that played from a table, else nothing."""
    return {} if agent.coverage is None else {"coverage": round(agent.coverage, 3)}
