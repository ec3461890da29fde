"""The measurements of scripts/bench_advice.py, one function per phase (raw figures only;
bench_advice_report.py turns them into docs/ADVICE.md)."""

from __future__ import annotations

import random
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

GAMES = {
    "coloretto": "python_coloretto(players=3)",
    "rococo": "python_rococo(players=3)",
    "bruxelles": "python_bruxelles(players=3)",
    "staufer": "python_staufer(players=3)",
}
DEFAULT = "ismcts(sims=800)"
BIG = "ismcts(sims=6400)"  # 8x the default budget
FIT_POSITIONS, EVAL_POSITIONS = 20, 40
FIT_SEED, EVAL_SEED = 100, 200  # positions to fit the widening on / to measure it on
TOP = 3


def game_positions(game_string: str, count: int, seed: int) -> list[tuple[list[int], int]]:
    """``count`` decisions (action lists, player to move) from games of the heuristic with
    15% random moves, a few per game, spread over the game."""
    import spiel_games

    game = spiel_games.load_game(game_string)
    heuristic = spiel_games.get_spec(game_string).heuristic
    rng, np_rng = random.Random(seed), np.random.default_rng(seed)
    found: list[tuple[list[int], int]] = []
    while len(found) < count:
        state, actions, here = game.new_initial_state(), [], []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                a = rng.choices(outcomes, probs)[0]
            else:
                legal = state.legal_actions()
                if len(legal) >= 2:
                    here.append((list(actions), state.current_player()))
                a = rng.choice(legal) if rng.random() < 0.15 else heuristic(state, np_rng)
            state.apply_action(a)
            actions.append(int(a))
        found += rng.sample(here, min(len(here), 4))
    return found[:count]


def _state(game_string: str, actions: list[int]):
    import spiel_games

    state = spiel_games.load_game(game_string).new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def calibrate_position(task) -> dict:
    """One position: the listed moves at the default budget with raw standard errors (the
    widening set to 1), and their values in a search with 8x the budget (another seed)."""
    from solvers.base import Z95
    from solvers.search import analysis
    from tournament.advice.advise import advise_state

    game_string, actions, i, small, big = task
    analysis.WIDEN.clear()  # raw intervals: the widening is fitted from these figures
    analysis.WIDEN_DEFAULT = 1.0
    state = _state(game_string, actions)
    a = advise_state(game_string, state, small, top=TOP, seed=i)
    ids = [m.action_id for m in a.moves]
    b = advise_state(game_string, state, big, top=1, include=ids, seed=50_000 + i)
    found = {m.action_id: m for m in b.moves}
    moves = []
    for rank, m in enumerate(a.moves):
        o = found[m.action_id]
        row = {"rank": rank}
        for unit, mine, theirs in (
            ("value", (m.value, m.ci_low, m.ci_high), (o.value,)),
            ("margin", m.margin, o.margin),
            ("first", m.first, o.first),
        ):
            row[unit] = [mine[0], (mine[2] - mine[1]) / (2 * Z95), theirs[0]]
        moves.append(row)
    return {"ply": len(actions), "moves": moves, "seconds": a.seconds, "big_seconds": b.seconds}


def phase_calibration(args) -> dict:
    count = (2, 3) if args.quick else (FIT_POSITIONS, EVAL_POSITIONS)
    small, big = ("ismcts(sims=100)", "ismcts(sims=800)") if args.quick else (DEFAULT, BIG)
    out = {}
    for name in args.games:
        g = GAMES[name]
        tasks = []
        for which, n, seed in (("fit", count[0], FIT_SEED), ("eval", count[1], EVAL_SEED)):
            for i, (actions, _) in enumerate(game_positions(g, n, seed)):
                tasks.append((which, (g, actions, seed + i, small, big)))
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(calibrate_position, [t for _, t in tasks]))
        out[g] = {
            "small": small,
            "big": big,
            "fit": [r for (w, _), r in zip(tasks, rows, strict=True) if w == "fit"],
            "eval": [r for (w, _), r in zip(tasks, rows, strict=True) if w == "eval"],
        }
        print(f"calibration {name}: {len(rows)} positions", flush=True)
    return out


PHASES = {"calibration": phase_calibration}
