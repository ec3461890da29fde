"""Play one match: pure, deterministic given the seed.

The match's chance events, and each seat's agent, get separate RNG streams
derived from one recorded seed (numpy SeedSequence spawning), so a game can be
replayed exactly and an agent's randomness never shifts the deck.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from spiel_games.common.chance import sample_chance


@dataclass
class MatchResult:
    seed: int
    actions: list[int]
    scores: list[float]
    returns: list[float]
    length: int
    seconds: float
    failure: str = ""  # "", "crash", "timeout" or "illegal"
    failed_seat: int = -1
    detail: str = ""
    seat_seconds: list[float] = field(default_factory=list)


def seed_streams(seed: int, seats: int) -> tuple[np.random.Generator, list[int]]:
    """(chance RNG, one integer seed per seat) derived from one match seed."""
    ss = np.random.SeedSequence(seed)
    chance_ss, *seat_ss = ss.spawn(seats + 1)
    seat_seeds = [int(s.generate_state(1)[0]) for s in seat_ss]
    return np.random.default_rng(chance_ss), seat_seeds


def final_scores(state) -> list[float]:
    """Raw final scores when the game exposes them (``state.scores()``), else returns."""
    fn = getattr(state, "scores", None)
    if callable(fn):
        return [float(x) for x in fn()]
    return list(state.returns())


def play_match(
    game,
    agents,
    seed: int,
    chance_rng: np.random.Generator | None = None,
    time_limit: float | None = None,
) -> MatchResult:
    """Play a full game. ``agents[p]`` plays seat p. Failures end the game with a reason."""
    if chance_rng is None:
        chance_rng, _ = seed_streams(seed, len(agents))
    for agent in agents:
        agent.reset()
    state = game.new_initial_state()
    actions: list[int] = []
    seat_seconds = [0.0] * len(agents)
    t0 = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            a = sample_chance(state, chance_rng)
        else:
            p = state.current_player()
            t = time.perf_counter()
            try:
                a = agents[p].step(state.clone())
            except Exception as e:  # an agent crash ends this game only
                return _failed(
                    seed, actions, state, t0, "crash", p, f"{type(e).__name__}: {e}", seat_seconds
                )
            dt = time.perf_counter() - t
            seat_seconds[p] += dt
            if time_limit is not None and dt > time_limit:
                return _failed(
                    seed,
                    actions,
                    state,
                    t0,
                    "timeout",
                    p,
                    f"{dt:.3f}s > {time_limit}s",
                    seat_seconds,
                )
            if a not in state.legal_actions():
                return _failed(seed, actions, state, t0, "illegal", p, f"action {a}", seat_seconds)
        state.apply_action(a)
        actions.append(int(a))
    return MatchResult(
        seed=seed,
        actions=actions,
        scores=final_scores(state),
        returns=list(state.returns()),
        length=len(actions),
        seconds=time.perf_counter() - t0,
        seat_seconds=seat_seconds,
    )


def _failed(seed, actions, state, t0, reason, seat, detail, seat_seconds) -> MatchResult:
    n = state.num_players()
    return MatchResult(
        seed=seed,
        actions=actions,
        scores=[float("nan")] * n,
        returns=[0.0] * n,
        length=len(actions),
        seconds=time.perf_counter() - t0,
        failure=reason,
        failed_seat=seat,
        detail=detail,
        seat_seconds=seat_seconds,
    )
