"""Play a batch of whole games: the unit of work of every executor (serial or Ray).

Pure given its inputs: the same batch always yields the same rows (except durations),
which is what lets Ray retry a lost batch and still get exactly the same result.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np

from tournament.match import play_match, seed_streams
from tournament.schedule import GameTask


@dataclass(frozen=True)
class BatchSpec:
    """What a worker needs besides the games: small and picklable."""

    run_id: str
    game: str
    agents: dict[str, tuple[str, str]]  # name -> (spec, agent id)
    failure_policy: str
    time_limit: float


_GAMES: dict[str, object] = {}


def load_game(game_string: str):
    if game_string not in _GAMES:
        import pyspiel

        import spiel_games  # noqa: F401  (registers the games in this process)

        _GAMES[game_string] = pyspiel.load_game(game_string)
    return _GAMES[game_string]


def actions_hash(actions: list[int]) -> int:
    """A signed 64-bit digest of the move list: replays check they reproduce it exactly."""
    blob = np.asarray(actions, dtype="<i4").tobytes()
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "little", signed=True)


def ranks_from(returns: list[float], scores: list[float]) -> list[int]:
    """Competition ranks (1 = best; ties share the better rank) by returns, then raw score."""
    keys = [(r, -math.inf if math.isnan(s) else s) for r, s in zip(returns, scores, strict=True)]
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def failure_ranks(n: int, failed_seat: int, policy: str) -> list[int] | None:
    """rank-last: the failing seat is last and the others share first; void: no ranks."""
    if policy == "void":
        return None
    return [n if p == failed_seat else 1 for p in range(n)]


def play_one(spec: BatchSpec, task: GameTask, keep_actions: bool = False) -> dict:
    """Play one scheduled game; returns its ledger row (plus the moves when asked)."""
    from solvers.registry import make_agent

    game = load_game(spec.game)
    n = len(task.seats)
    chance_rng, seat_seeds = seed_streams(task.seed, n)
    agents = [
        make_agent(spec.agents[name][0], game, seat_seeds[p]) for p, name in enumerate(task.seats)
    ]
    r = play_match(
        game, agents, task.seed, chance_rng=chance_rng, time_limit=spec.time_limit or None
    )
    if r.failure:
        ranks = failure_ranks(n, r.failed_seat, spec.failure_policy)
    else:
        ranks = ranks_from(r.returns, r.scores)
    row = {
        "run_id": spec.run_id,
        "game": spec.game,
        "game_id": task.game_id,
        "seed": task.seed,
        "seed_index": task.seed_index,
        "rotation": task.rotation,
        "agents": [spec.agents[name][1] for name in task.seats],
        "scores": [float(x) for x in r.scores],
        "returns": [float(x) for x in r.returns],
        "ranks": ranks,
        "length": r.length,
        "duration": r.seconds,
        "failure": r.failure,
        "failed_seat": r.failed_seat,
        "detail": r.detail,
        "actions_hash": actions_hash(r.actions),
    }
    if keep_actions:
        row["actions"] = list(r.actions)
    return row


def play_batch(spec: BatchSpec, tasks: list[GameTask]) -> list[dict]:
    return [play_one(spec, t) for t in tasks]
