"""Play a batch of whole games: the unit of work of every executor (serial or Ray).

Pure given its inputs: the same batch always yields the same rows (except durations),
which is what lets Ray retry a lost batch and still get exactly the same result.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np

import spiel_games
from solvers.registry import AgentSpec, resolve
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
    record_moves: bool = False  # the ledger row keeps the move list (``moves``)


def resolve_agents(spec: BatchSpec) -> dict[str, AgentSpec]:
    """Every agent of the batch, parsed once (a worker receives spec strings)."""
    return {name: resolve(text) for name, (text, _) in spec.agents.items()}


def actions_hash(actions: list[int]) -> int:
    """A signed 64-bit digest of the move list: replays check they reproduce it exactly."""
    blob = np.asarray(actions, dtype="<i4").tobytes()
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "little", signed=True)


def stored_moves(row: dict, game) -> list[int] | None:
    """The move list a ledger row recorded (``tournament.record_moves``), or None when it
    holds none, or one whose digest is not the row's, or one that does not play as recorded
    under the current rules of ``game`` (then the game must be replayed)."""
    moves = row.get("moves")
    if moves is None or actions_hash(moves) != row["actions_hash"]:
        return None
    moves = list(moves)
    return moves if plays_as_recorded(game, moves, row) else None


def plays_as_recorded(game, actions: list[int], row: dict) -> bool:
    """The moves are legal under the current rules and, for a game that did not fail, end
    it with the ledger's scores (a failed game's list stops at the failing move)."""
    state = game.new_initial_state()
    for a in actions:
        if state.is_terminal():
            return False
        if state.is_chance_node():
            legal = [o for o, _ in state.chance_outcomes()]
        else:
            legal = state.legal_actions()
        if a not in legal:
            return False
        state.apply_action(a)
    if row["failure"]:
        return True
    scores = getattr(state, "scores", state.returns)()
    return state.is_terminal() and [float(x) for x in scores] == list(row["scores"])


def ranks_from(returns: list[float], scores: list[float]) -> list[int]:
    """Competition ranks (1 = best; ties share the better rank) by returns, then raw score."""
    keys = [(r, -math.inf if math.isnan(s) else s) for r, s in zip(returns, scores, strict=True)]
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def coverage(agents) -> list[float | None] | None:
    """Per seat, the share of the agent's decisions played from its table (``coverage()``
    of blueprint and policy agents; None for the others); None when no seat has one."""
    shares = [agent.coverage() for agent in agents]
    return shares if any(x is not None for x in shares) else None


def failure_ranks(n: int, failed_seat: int, policy: str) -> list[int] | None:
    """rank-last: the failing seat is last and the others share first; void: no ranks."""
    if policy == "void":
        return None
    return [n if p == failed_seat else 1 for p in range(n)]


def play_one(
    spec: BatchSpec,
    task: GameTask,
    keep_actions: bool = False,
    agent_specs: dict[str, AgentSpec] | None = None,
) -> dict:
    """Play one scheduled game; returns its ledger row (plus the moves when asked).

    ``agent_specs`` are the batch's agents already resolved (``resolve_agents``)."""
    game = spiel_games.load_game(spec.game)
    specs = resolve_agents(spec) if agent_specs is None else agent_specs
    n = len(task.seats)
    chance_rng, seat_seeds = seed_streams(task.seed, n)
    agents = [specs[name].make(game, seat_seeds[p]) for p, name in enumerate(task.seats)]
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
        "coverage": coverage(agents),
        "moves": list(r.actions) if spec.record_moves else None,
    }
    if keep_actions:
        row["actions"] = list(r.actions)
    return row


def play_batch(spec: BatchSpec, tasks: list[GameTask]) -> list[dict]:
    agent_specs = resolve_agents(spec)
    return [play_one(spec, t, agent_specs=agent_specs) for t in tasks]
