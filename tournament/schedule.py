"""Which games a tournament plays: pure functions of the validated config.

A *line-up* is a set of agents (one per seat). Every line-up is played in every seating
(``seating = "rotations"``: each cyclic seat rotation; ``"permutations"``: every seat
order; ``"balanced"``: each seed the rotations of one cyclic order, the cyclic orders
taken in turn over the seeds), and each chance seed is shared by all seatings of its
line-up at that seed (duplicate play with common random numbers): the deck that favoured
seat 1 once favours each agent once. A *duplicate set* (line-up, seed index) is the unit
the bootstrap resamples.

Game ids are deterministic: a hash of (config hash, line-up, rotation, seed), so a game can
be replayed exactly from the ledger alone.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from tournament.config import TournamentConfig, lineups
from tournament.seating import cyclic_orders, rotations, seatings

# the seat-order functions live in tournament.seating (config counts them too); they are
# re-exported here, where the schedule's callers look for them
__all__ = [
    "GameTask",
    "auto_batch_size",
    "batches",
    "cyclic_orders",
    "game_id",
    "game_seed",
    "rotations",
    "schedule",
    "seat_orders",
    "seatings",
]


@dataclass(frozen=True)
class GameTask:
    game_id: str
    lineup: tuple[str, ...]  # agent names in the config's order (fixed tables: sorted); with
    # seed_index it identifies the duplicate set
    seats: tuple[str, ...]  # agent names in seat order (a rotation of the line-up)
    rotation: int
    seed_index: int
    seed: int  # the match seed (chance and per-seat agent streams derive from it)

    @property
    def duplicate_set(self) -> tuple[tuple[str, ...], int]:
        """(line-up, seed index): the games that share one deal."""
        return self.lineup, self.seed_index


def seat_orders(
    lineup: tuple[str, ...], seating: str, seed_index: int
) -> list[tuple[int, tuple[str, ...]]]:
    """The games of one duplicate set: (the ledger's ``rotation``, seats) for each.

    ``balanced`` plays, at seed index s, the rotations of the (s mod K)-th of the K cyclic
    orders (``cyclic_orders``): over K seeds that is every seat order once, as
    ``permutations`` plays at each seed, but spread over K deals instead of one, so the
    same number of games meets K times as many deals (the deal weighs less in a result).
    Its ``rotation`` is the order's index among the permutations."""
    if seating == "balanced":
        groups = cyclic_orders(lineup)
        return list(groups[seed_index % len(groups)])
    return list(enumerate(seatings(lineup, seating)))


def _h(*parts) -> bytes:
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()


def game_seed(cfg: TournamentConfig, lineup: tuple[str, ...], seed_index: int) -> int:
    """Chance seed of one duplicate set: independent across line-ups, shared by its rotations.
    It depends on the agents' parameters that differ from their defaults (``deal_key``), not
    on their ids (which carry the code version) nor on parameters a later version adds: the
    same configuration deals the same cards before and after a code change."""
    specs = [_deal_key(cfg.agent(n)) for n in lineup]
    return int.from_bytes(_h(cfg.seed, *specs, seed_index)[:8], "big") >> 1


def _deal_key(entry) -> str:
    return entry.resolved.deal_key if entry.resolved is not None else entry.canonical


def game_id(config_hash: str, seats: tuple[str, ...], rotation: int, seed: int) -> str:
    return _h(config_hash, *seats, rotation, seed)[:8].hex()


def schedule(cfg: TournamentConfig) -> list[GameTask]:
    """Every game of the tournament, in a fixed order (seed-major so partial runs stay balanced)."""
    ch = cfg.config_hash
    tables = lineups(cfg)
    sets = [(lu, game_seed(cfg, lu, s), s) for s in range(cfg.seeds_per_lineup) for lu in tables]
    tasks = []
    for lu, seed, s in sets:
        for r, seats in seat_orders(lu, cfg.seating, s):
            tasks.append(GameTask(game_id(ch, seats, r, seed), lu, seats, r, s, seed))
    return tasks


def batches(tasks: list[GameTask], batch_size: int) -> list[list[GameTask]]:
    """Consecutive chunks; a duplicate set is never split (its seatings share a batch)."""
    out: list[list[GameTask]] = []
    cur: list[GameTask] = []
    for t in tasks:
        new_set = cur and t.duplicate_set != cur[-1].duplicate_set
        if cur and len(cur) >= batch_size and new_set:
            out.append(cur)
            cur = []
        cur.append(t)
    if cur:
        out.append(cur)
    return out


def auto_batch_size(num_games: int, workers: int) -> int:
    """Games per task: ~8 tasks per worker (a short tail), at most 2000 games.

    A Coloretto game takes 10-20 ms while a Ray task costs 1-2 ms, so even small batches
    keep the overhead low. Big tournaments get big batches because every ledger file costs
    ~1 ms to open when rating (10^6 games = 500 files); a kill loses at most one batch per
    worker, which at 2000 fast games is ~20 s of play.
    """
    return max(1, min(2000, -(-num_games // (8 * max(1, workers)))))
