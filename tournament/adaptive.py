"""The adaptive schedule: a round robin that plays where the ranking is least certain.

``schedule = "adaptive"`` has the round robin's line-ups and seeds (``seeds_per_lineup``
is the most any line-up plays), but chooses which duplicate sets to play, in rounds:

- round 0: every line-up plays ``min_seeds`` seeds;
- after each round, the Elo fit and ``BOOTSTRAP`` resamples of the duplicate sets played
  so far give, for every pair of agents, the share of resamples that order them as the fit
  does (the pair's *confidence*). The pairs that decide the ``top`` places (each of the
  first ``top`` agents against everyone ranked below it; ``top = 0``: every pair) must all
  reach ``confidence``;
- the next round plays one more seed of every line-up that seats the least confident of
  those pairs (LUCB's rule: sample where the two candidates are hardest to tell apart);
  once those line-ups have used every seed, of every line-up seating either agent of the
  pair (Elo compares two agents through the others too); then the next pair;
- the schedule stops when every deciding pair is confident enough, or when no line-up
  that would help has a seed left.

Every decision is a function of the games of the rounds before it (the bootstrap seed
derives from the master seed and the round), and games are deterministic, so a run that is
stopped and rerun replays its rounds from the ledger and goes on exactly as an
uninterrupted run: the ledger of an adaptive run is reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tournament.config import TournamentConfig, lineups
from tournament.ratings.fit import Games, elo_samples
from tournament.schedule import GameTask

BOOTSTRAP = 300


@dataclass
class Decision:
    """The state of the ranking after a round."""

    order: list[str]  # agent names, best first
    pairs: list[tuple[str, str, float]]  # deciding pairs (higher, lower, confidence)
    done: bool = False
    reason: str = ""


def confidences(cfg: TournamentConfig, rows: list[dict], seed: int) -> Decision:
    """Order the agents by Elo on ``rows`` and measure the deciding pairs' confidence."""
    names = [a.name for a in cfg.agents]
    index = {a.agent_id: i for i, a in enumerate(cfg.agents)}
    rated = [r for r in rows if r["ranks"] is not None]
    sets: dict[tuple, int] = {}
    blocks = [sets.setdefault((tuple(sorted(r["agents"])), r["seed"]), len(sets)) for r in rated]
    g = Games(
        np.array([[index[x] for x in r["agents"]] for r in rated], dtype=np.int64),
        np.array([r["ranks"] for r in rated], dtype=np.int64),
        np.zeros((len(rated), cfg.num_players)),
        np.array(blocks, dtype=np.int64),
    )
    elo, samples = elo_samples([g], len(names), BOOTSTRAP, seed)
    order = sorted(range(len(names)), key=lambda i: (-elo[i], names[i]))
    top = len(names) - 1 if cfg.top == 0 else min(cfg.top, len(names) - 1)
    pairs = []
    for pos in range(top):
        for below in order[pos + 1 :]:
            hi = order[pos]
            pairs.append(
                (names[hi], names[below], float(np.mean(samples[:, hi] > samples[:, below])))
            )
    return Decision([names[i] for i in order], pairs)


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
    handed: set = field(default_factory=set)
    decision: Decision | None = None

    def __post_init__(self) -> None:
        for t in self.tasks:
            self.by_set.setdefault((t.lineup, t.seed_index), []).append(t)
        first = min(self.cfg.min_seeds, self.cfg.seeds_per_lineup)
        self.round = [(lu, s) for s in range(first) for lu in lineups(self.cfg)]
        self.played = {lu: first for lu in lineups(self.cfg)}

    def _complete(self, key: tuple) -> bool:
        return all(t.game_id in self.rows for t in self.by_set[key])

    def _advance(self) -> None:
        """Plan rounds while the current one is complete and the schedule goes on."""
        while self.round and all(self._complete(k) for k in self.round):
            self.rounds += 1
            planned = {(lu, s) for lu, n in self.played.items() for s in range(n)}
            games = [self.rows[t.game_id] for k in planned for t in self.by_set[k]]
            self.decision = confidences(self.cfg, games, self.cfg.seed * 100_003 + self.rounds)
            self.round = self._next_round(self.decision)
            self.handed.clear()

    def _next_round(self, d: Decision) -> list[tuple]:
        open_pairs = sorted(
            (p for p in d.pairs if p[2] < self.cfg.confidence), key=lambda p: (p[2], p[:2])
        )
        if not open_pairs:
            d.done, d.reason = True, f"every deciding pair at confidence >= {self.cfg.confidence:g}"
            return []
        for hi, lo, _ in open_pairs:
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
        d.done, d.reason = True, "no seed left in the line-ups of the undecided pairs"
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
