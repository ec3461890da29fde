"""The adaptive schedule: a round robin that plays where the ranking is least certain.

``schedule = "adaptive"`` has the round robin's line-ups and seeds (``seeds_per_lineup``
is the most any line-up plays), but chooses which duplicate sets to play, in rounds:

- round 0: every line-up plays ``min_seeds`` seeds;
- after each round, the Elo fit and bootstrap resamples of the duplicate sets played so
  far give, for every pair of agents, the share of resamples that order them as the fit
  does (the pair's *confidence*). The pairs that decide the ``top`` places (each of the
  first ``top`` agents against everyone ranked below it; ``top = 0``: every pair) decide;
- the next round plays one more seed of every line-up that seats the least confident of
  those pairs (LUCB's rule: sample where the two candidates are hardest to tell apart);
  once those line-ups have used every seed, of every line-up seating either agent of the
  pair (Elo compares two agents through the others too); then the next pair;
- the schedule may stop only at a *look*: the round where the duplicate sets played first
  reach the first round's number (at least ``MIN_LOOK_SETS``), twice it, four times, ...,
  and the cap (a group-sequential design). The error ``1 - confidence`` is shared by the
  looks and by the two directions a pair can be wrongly ordered in (Bonferroni): at a look
  every deciding pair must reach ``1 - (1 - confidence) / (2 looks)``, or, with ``tie_elo``
  > 0, be shown level (the resamples put the Elo difference beyond ``tie_elo`` either way
  no more often than that share: two one-sided tests). Without the sharing, stopping at the
  first round where every pair reached 0.95 stopped on lucky streaks: two tied agents ended
  in a strict order in 36-40% of simulated runs;
- it also stops when no line-up that would help has a seed left.

Every decision is a function of the games of the rounds before it (the bootstrap seed
derives from the master seed and the round), and games are deterministic, so a run that is
stopped and rerun replays its rounds from the ledger and goes on exactly as an
uninterrupted run: the ledger of an adaptive run is reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tournament.config import TournamentConfig, lineups
from tournament.ratings.elo import elo_samples
from tournament.ratings.pairs import Games
from tournament.schedule import GameTask

BOOTSTRAP = 300  # resamples at least; more when a look's error share needs them
TAIL_RESAMPLES = 20  # resamples expected beyond a look's level (its resolution)
MAX_RESAMPLES = 10_000  # the level's resolution ends at 1 - TAIL_RESAMPLES / MAX_RESAMPLES
# Fewest duplicate sets at a look: on fewer, the bootstrap over sets is degenerate (two sets
# won by one agent give every resample that order: "confidence 1.0")
MIN_LOOK_SETS = 10


@dataclass
class Decision:
    """The state of the ranking after a round."""

    order: list[str]  # agent names, best first
    pairs: list[tuple[str, str, float]]  # deciding pairs (higher, lower, confidence)
    done: bool = False
    reason: str = ""
    level: float = 0.0  # what a deciding pair's confidence must reach at a look
    ties: list[tuple[str, str]] = field(default_factory=list)  # pairs shown level (tie_elo)

    def open_pairs(self) -> list[tuple[str, str, float]]:
        """The deciding pairs neither ordered nor shown level at ``level``, least sure first."""
        tied = set(self.ties)
        return sorted(
            (p for p in self.pairs if p[2] < self.level and p[:2] not in tied),
            key=lambda p: (p[2], p[:2]),
        )


def looks(first_sets: int, max_sets: int) -> list[int]:
    """The numbers of duplicate sets at which the schedule may stop: the first round's (at
    least ``MIN_LOOK_SETS``), doubling, and the cap."""
    out, n = [], max(first_sets, MIN_LOOK_SETS)
    while n < max_sets:
        out.append(n)
        n *= 2
    return [*out, max_sets]


def look_level(confidence: float, num_looks: int) -> float:
    """A look's level: the error ``1 - confidence`` shared equally by the looks and by the
    two directions a pair can be wrongly ordered in (a tied pair has both)."""
    return 1.0 - (1.0 - confidence) / (2 * max(num_looks, 1))


def confidences(
    cfg: TournamentConfig,
    rows: list[dict],
    seed: int,
    level: float | None = None,
    tie_elo: float = 0.0,
) -> Decision:
    """Order the agents by Elo on ``rows`` and measure the deciding pairs' confidence
    (``level``: what a look needs, by default ``cfg.confidence``, one look; the pairs shown
    level within ``tie_elo`` at it are ``ties``)."""
    level = cfg.confidence if level is None else level
    resamples = min(MAX_RESAMPLES, max(BOOTSTRAP, int(np.ceil(TAIL_RESAMPLES / (1.0 - level)))))
    names = [a.name for a in cfg.agents]
    index = {a.agent_id: i for i, a in enumerate(cfg.agents)}
    # in a fixed order: the bootstrap draws its weights by set, so the sets' numbering
    # must not follow the order rows arrive in (a set's iteration order changes between
    # processes with the hash seed, and a resumed run must choose the rounds it chose)
    rated = sorted(
        (r for r in rows if r["ranks"] is not None),
        key=lambda r: (sorted(r["agents"]), repr(r["seed"]), r["game_id"]),
    )
    sets: dict[tuple, int] = {}
    blocks = [sets.setdefault((tuple(sorted(r["agents"])), r["seed"]), len(sets)) for r in rated]
    g = Games(
        np.array([[index[x] for x in r["agents"]] for r in rated], dtype=np.int64),
        np.array([r["ranks"] for r in rated], dtype=np.int64),
        np.zeros((len(rated), cfg.num_players)),
        np.array(blocks, dtype=np.int64),
    )
    elo, samples = elo_samples([g], len(names), resamples, seed)
    order = sorted(range(len(names)), key=lambda i: (-elo[i], names[i]))
    top = len(names) - 1 if cfg.top == 0 else min(cfg.top, len(names) - 1)
    pairs, ties = [], []
    for pos in range(top):
        for below in order[pos + 1 :]:
            hi = order[pos]
            diff = samples[:, hi] - samples[:, below]
            pairs.append((names[hi], names[below], float(np.mean(diff > 0))))
            beyond = max(np.mean(diff > tie_elo), np.mean(diff < -tie_elo))
            if tie_elo > 0 and beyond <= 1.0 - level:
                ties.append((names[hi], names[below]))
    return Decision([names[i] for i in order], pairs, level=level, ties=ties)


@dataclass
class AdaptiveSource:
    """The runner's task source for ``schedule = "adaptive"`` (tournament.runner.TaskSource)."""

    cfg: TournamentConfig
    tasks: list[GameTask]
    by_set: dict[tuple, list[GameTask]] = field(default_factory=dict)
    rows: dict[str, dict] = field(default_factory=dict)  # game id -> row
    played: dict[tuple[str, ...], int] = field(default_factory=dict)  # seeds planned per line-up
    round: list[tuple] = field(default_factory=list)  # (line-up, seed index) of this round
    rounds: int = 0
    looks: list[int] = field(default_factory=list)  # sets played at which it may stop
    next_look: int = 0  # index into looks
    handed: set = field(default_factory=set)
    decision: Decision | None = None

    def __post_init__(self) -> None:
        for t in self.tasks:
            self.by_set.setdefault((t.lineup, t.seed_index), []).append(t)
        first = min(self.cfg.min_seeds, self.cfg.seeds_per_lineup)
        self.round = [(lu, s) for s in range(first) for lu in lineups(self.cfg)]
        self.played = {lu: first for lu in lineups(self.cfg)}
        num = len(self.played)
        self.looks = looks(first * num, self.cfg.seeds_per_lineup * num)

    @property
    def level(self) -> float:
        return look_level(self.cfg.confidence, len(self.looks))

    def summary(self) -> str:
        """The order, the least confident deciding pair not shown level, the level a look
        needs, and the pairs shown level (within tie_elo)."""
        d = self.decision
        assert d is not None
        tied = set(d.ties)
        least = min((p[2] for p in d.pairs if p[:2] not in tied), default=None)
        looks = len(self.looks)
        need = (
            f"a look needs {d.level:.4f}: 1 - {self.cfg.confidence:g} shared by {looks} "
            f"look{'s' if looks > 1 else ''} and both directions"
        )
        line = f"order {' > '.join(d.order)}; "
        line += (
            f"least confident deciding pair {least:.4f} ({need})"
            if least is not None
            else f"every deciding pair shown level ({need})"
        )
        if d.ties:
            level = ", ".join(f"{a} = {b}" for a, b in d.ties)
            line += f"; level within {self.cfg.tie_elo:g} Elo: {level}"
        return line

    def _complete(self, key: tuple) -> bool:
        return all(t.game_id in self.rows for t in self.by_set[key])

    def _advance(self) -> None:
        """Plan rounds while the current one is complete and the schedule goes on."""
        while self.round and all(self._complete(k) for k in self.round):
            self.rounds += 1
            planned = {(lu, s) for lu, n in self.played.items() for s in range(n)}
            games = [self.rows[t.game_id] for k in planned for t in self.by_set[k]]
            seed = self.cfg.seed * 100_003 + self.rounds
            d = confidences(self.cfg, games, seed, self.level, self.cfg.tie_elo)
            self.decision = d
            self.round = self._next_round(d, self._look(len(planned)))
            self.handed.clear()

    def _look(self, sets: int) -> bool:
        """Whether a round that ends with ``sets`` duplicate sets played is a look."""
        if self.next_look >= len(self.looks) or sets < self.looks[self.next_look]:
            return False
        while self.next_look < len(self.looks) and self.looks[self.next_look] <= sets:
            self.next_look += 1
        return True

    def _next_round(self, d: Decision, look: bool) -> list[tuple]:
        open_pairs = d.open_pairs()
        if not open_pairs and look:
            sure = f"every deciding pair at confidence >= {d.level:.4g}"
            if d.ties:
                sure += f" or level within {self.cfg.tie_elo:g} Elo"
            d.done = True
            d.reason = f"{sure} (a look's share of {self.cfg.confidence:g})"
            return []
        # between looks the schedule plays on where it is least sure, decided pairs too
        candidates = open_pairs or sorted(d.pairs, key=lambda p: (p[2], p[:2]))
        for hi, lo, _ in candidates:
            free = [lu for lu in lineups(self.cfg) if self.played[lu] < self.cfg.seeds_per_lineup]
            # the pair's own line-ups first; once those are used up, the line-ups of either
            # agent (Elo also compares two agents through their results against the others)
            room = [lu for lu in free if hi in lu and lo in lu] or [
                lu for lu in free if hi in lu or lo in lu
            ]
            if room:
                out = [(lu, self.played[lu]) for lu in room]
                for lu in room:
                    self.played[lu] += 1
                return out
        d.done = True
        d.reason = (
            "no seed left in the line-ups of the undecided pairs"
            if open_pairs
            else f"every deciding pair at confidence >= {d.level:.4g}; no seed left to play on"
        )
        return []

    # ----- TaskSource -------------------------------------------------------------------
    def start(self, rows: list[dict]) -> None:
        self.rows.update({r["game_id"]: r for r in rows})
        self._advance()

    def take(self, room: int) -> list[list[GameTask]]:
        out: list[list[GameTask]] = []
        for key in self.round:
            if len(out) >= room:
                break
            if key not in self.handed and not self._complete(key):
                self.handed.add(key)
                out.append([t for t in self.by_set[key] if t.game_id not in self.rows])
        return out

    def finished(self, rows: list[dict]) -> None:
        self.rows.update({r["game_id"]: r for r in rows})
        self._advance()

    def expected_games(self) -> int:
        per_set = len(self.tasks) // max(len(self.by_set), 1)
        left = sum(self.cfg.seeds_per_lineup - n for n in self.played.values())
        return max(left // 2, len(self.round)) * per_set
