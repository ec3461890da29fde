"""Where an SPRT stands, from its ledger's rows: each duplicate set's score, the tally in
index order, the verdict and the estimate at the stop (``tournament.sprt.estimate``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tournament.sprt.estimate import Estimate, Outcome, at_stop
from tournament.sprt.gsprt import Bounds, Step, Tally, fewest_sets, increments, step

if TYPE_CHECKING:
    from tournament.config import TournamentConfig

LIVE_MIN_SETS = 10  # a running test shows its interval from this many sets on
A, B = "A", "B"  # the two agents' names in the test's config


def set_score(rows: list[dict], id_a: str, id_b: str) -> float | None:
    """The share of (A seat, B seat) pairs in which A finished ahead, ties half; None when
    no game of the set was rated (all void)."""
    points = pairs = 0.0
    for r in rows:
        ranks = r["ranks"]
        if ranks is None:
            continue
        seats = r["agents"]
        for i, x in enumerate(seats):
            if x != id_a:
                continue
            for j, y in enumerate(seats):
                if y == id_b:
                    pairs += 1
                    points += 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
    return points / pairs if pairs else None


@dataclass
class Verdict:
    """Where a test stands, from its ledger."""

    verdict: str  # "H1", "H0", "inconclusive" or "" (still running)
    sets: int  # observations counted
    games: int  # games counted
    llr: float
    lower: float
    upper: float
    elo: float  # estimate (median-unbiased once stopped)
    elo_low: float
    elo_high: float
    score: float  # mean set score (naive)
    sd: float  # per-set standard deviation of the score
    extra_sets: int = 0  # finished after the stop: played, not counted
    void_sets: int = 0
    history: list[tuple[int, float]] = field(default_factory=list)  # (sets, LLR)
    # or "median-unbiased", "plain mean" (near fewest_sets), "plain mean (inconclusive)"
    estimate: str = "mean so far"
    fewest_sets: int = 0  # the fewest sets that could have crossed the bound crossed
    max_sets: int = 0  # the test's limit in whole sets (--max-games rounded up)
    games_per_set: int = 0
    players: int = 0  # the game's (at two, A and B take every seat: no filler)
    # per verdict, the fewest sets that could cross its bound (None: no number of sets)
    to_cross: dict[str, int | None] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


FAR = 10**7  # sets: a bound that a run this long does not cross is never crossed


def fewest_to_cross(bounds: Bounds, games_per_set: int) -> dict[str, int | None]:
    """Per verdict, the fewest sets after which the test could accept it (every set
    scoring 1 for H1, 0 for H0: ``gsprt.fewest_sets``); None when none could."""
    out: dict[str, int | None] = {}
    for v in ("H1", "H0"):
        n = fewest_sets(bounds, games_per_set, v, FAR)
        out[v] = None if n > FAR else n
    return out


def reach_warnings(to_cross: dict[str, int | None], max_sets: int, games_per_set: int) -> list[str]:
    """Warnings for a --max-games below the fewest sets that could cross a bound: the test
    cannot end that way (both: it cannot stop early at all, a fixed-sample test)."""
    short = {v: n for v, n in to_cross.items() if n is None or n > max_sets}
    if not short:
        return []

    def need(n: int | None) -> str:
        return "no number of sets" if n is None else f"{n} sets ({n * games_per_set} games)"

    limit = f"--max-games allows {max_sets} sets ({max_sets * games_per_set} games)"
    if len(short) == 2:
        both = "; ".join(f"{v} {need(n)}" for v, n in short.items())
        return [
            f"{limit}, fewer than either bound needs at the least ({both}): the test cannot "
            "stop before --max-games; it is a fixed-sample test, reported by the plain mean"
        ]
    ((v, n),) = short.items()
    other = "H0" if v == "H1" else "H1"
    return [
        f"{limit}, fewer than the {need(n)} {v} needs at the least: the test can end "
        f"{other} or inconclusive, never {v}"
    ]


class SprtState:
    """The test's observations, filled from ledger rows as they arrive."""

    def __init__(self, cfg: TournamentConfig, bounds: Bounds, games_per_set: int):
        self.cfg, self.bounds, self.games_per_set = cfg, bounds, games_per_set
        self.max_sets = cfg.seeds_per_lineup
        self.id_a, self.id_b = cfg.agent(A).agent_id, cfg.agent(B).agent_id
        self.rows: dict[int, list[dict]] = {}
        self.tally = Tally()
        self.scores: list[float] = []
        self.counted = 0  # observations taken into the tally, in index order
        self.void = 0
        self.last: Step | None = None
        self.history: list[tuple[int, float]] = []
        self.to_cross = fewest_to_cross(bounds, games_per_set)

    def add(self, rows: list[dict]) -> None:
        for r in rows:
            self.rows.setdefault(int(r["seed_index"]), []).append(r)
        self._advance()

    def complete(self, index: int) -> bool:
        return len(self.rows.get(index, ())) >= self.games_per_set

    @property
    def stopped(self) -> bool:
        return self.last is not None and bool(self.last.verdict)

    def _advance(self) -> None:
        while not self.stopped and self.complete(self.counted):
            x = set_score(self.rows[self.counted], self.id_a, self.id_b)
            self.counted += 1
            if x is None:
                self.void += 1
                continue
            self.tally.add(x)
            self.scores.append(x)
            self.last = step(self.tally, self.bounds, self.games_per_set, self.max_sets)
            self.history.append((self.tally.n, self.last.llr))
        if not self.stopped and self.counted >= self.max_sets and self.last is not None:
            self.last = replace(self.last, verdict="inconclusive")

    def _at_stop(self, verdict: str, llr: float) -> Estimate:
        b, g, values, weights = self.bounds, self.games_per_set, *self.tally.arrays()
        fewest = fewest_sets(b, g, verdict, self.max_sets) if verdict != "inconclusive" else 0
        outcome, z = Outcome(verdict, self.tally.n, llr), increments(self.tally, b, g)[1]
        return at_stop(outcome, values, weights, z, (b.lower, b.upper), self.max_sets, fewest)

    def result(self) -> Verdict:
        b = self.bounds
        n = self.tally.n
        mean, var = self.tally.mean_var()
        plain, sd = self.tally.sample()  # what is reported: the sets played
        sigma = self.tally.sigma_per_game(self.games_per_set)
        llr = self.last.llr if self.last else 0.0
        verdict = self.last.verdict if self.last else ""
        method, fewest = "mean so far", 0
        if verdict:
            est = self._at_stop(verdict, llr)
            score, low, high, method, fewest = est.score, est.low, est.high, est.method, est.fewest
        elif n >= LIVE_MIN_SETS:  # still running: the plain mean and its normal interval
            half = 1.96 * math.sqrt(var / n)
            score, low, high = mean, mean - half, mean + half
        else:  # on a handful of sets the spread itself is unknown: no interval
            score, low, high = mean, math.nan, math.nan
        extra = sum(1 for i in self.rows if i >= self.counted and self.complete(i))
        to_cross = self.to_cross
        return Verdict(
            verdict=verdict,
            sets=n,
            games=self.counted * self.games_per_set,
            llr=llr,
            lower=b.lower,
            upper=b.upper,
            elo=b.to_elo(score, sigma),
            elo_low=_end(b, low, sigma),
            elo_high=_end(b, high, sigma),
            estimate=method,
            fewest_sets=fewest,
            score=plain,
            sd=sd,
            extra_sets=extra,
            void_sets=self.void,
            max_sets=self.max_sets,
            games_per_set=self.games_per_set,
            players=self.cfg.num_players,
            to_cross=to_cross,
            warnings=reach_warnings(to_cross, self.max_sets, self.games_per_set),
            history=list(self.history),
        )


def _end(b, score: float, sigma: float) -> float:
    """An interval's end in Elo: open (infinite) where the score reaches 0 or 1 (every set
    won or lost: the data bound nothing there; was the clip at 1e-9, +3600 Elo)."""
    if score != score:
        return math.nan
    if score >= 1.0 - 1e-9:
        return math.inf
    if score <= 1e-9:
        return -math.inf
    return b.to_elo(score, sigma)
