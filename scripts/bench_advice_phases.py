"""The measurements of scripts/bench_advice.py, one function per phase (raw figures only;
bench_advice_report.py turns them into docs/ADVICE-MEASURED.md)."""

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
# positions to fit the floors on / to measure them on (300: positions no earlier run or
# choice of the fitting rule has seen; 200 were the eval positions before issue 33)
FIT_SEED, EVAL_SEED = 100, 300
LADDER = ["random", "noisy(eps=0.3)", "heuristic", "ismcts(sims=25)", "ismcts(sims=200)"]
LADDER_GAME = "python_coloretto(players=2)"
LADDER_REVIEWER = "ismcts(sims=200)"  # below the default: the shared machine's time
# --quick: a small Coloretto and small searches (a format check, not a measurement)
QUICK_LADDER = ["random", "noisy(eps=0.3)", "heuristic", "ismcts(sims=10)", "ismcts(sims=40)"]
QUICK_GAME = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


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
    floors set to 0), and their values in a search with 8x the budget (another seed) with
    that search's own raw standard error: per unit [mean, se, big, big se]."""
    from solvers.base import Z95
    from solvers.search import analysis
    from tournament.advice.advise import COMPARED, advise_state

    game_string, actions, i, small, big = task
    analysis.FLOOR.clear()  # raw intervals: the floors are fitted from these figures
    analysis.FLOOR_DEFAULT = {"value": 0.0, "margin": 0.0, "first": 0.0}
    state = _state(game_string, actions)
    # what advice compares and lists by default: its COMPARED most searched moves (the
    # constant itself, so the calibration follows it; the rows record it)
    a = advise_state(game_string, state, small, top=COMPARED, compared=COMPARED, seed=i)
    ids = [m.action_id for m in a.moves]
    b = advise_state(game_string, state, big, top=1, compared=1, include=ids, seed=50_000 + i)
    found = {m.action_id: m for m in b.moves}
    moves = []
    for rank, m in enumerate(a.moves):
        o = found[m.action_id]
        row = {"rank": rank}
        for unit, mine, theirs in (
            ("value", (m.value, m.ci_low, m.ci_high), (o.value, o.ci_low, o.ci_high)),
            ("margin", m.margin, o.margin),
            ("first", m.first, o.first),
        ):
            se, big_se = ((t[2] - t[1]) / (2 * Z95) for t in (mine, theirs))
            row[unit] = [mine[0], se, theirs[0], big_se]
        moves.append(row)
    return {
        "ply": len(actions),
        "moves": moves,
        "passes": [a.passes, b.passes],
        "seconds": a.seconds,
        "big_seconds": b.seconds,
    }


def phase_calibration(args) -> dict:
    from tournament.advice.advise import COMPARED

    count = (2, 3) if args.quick else (FIT_POSITIONS, EVAL_POSITIONS)
    small, big = ("ismcts(sims=30)", "ismcts(sims=240)") if args.quick else (DEFAULT, BIG)
    out = {}
    for name in args.games:
        g = QUICK_GAME if args.quick else GAMES[name]
        tasks = []
        for which, n, seed in (("fit", count[0], FIT_SEED), ("eval", count[1], EVAL_SEED)):
            for i, (actions, _) in enumerate(game_positions(g, n, seed)):
                tasks.append((which, (g, actions, seed + i, small, big)))
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(calibrate_position, [t for _, t in tasks]))
        out[g] = {
            "small": small,
            "big": big,
            "compared": COMPARED,  # the moves compared and listed at the default budget
            "fit": [r for (w, _), r in zip(tasks, rows, strict=True) if w == "fit"],
            "eval": [r for (w, _), r in zip(tasks, rows, strict=True) if w == "eval"],
        }
        print(f"calibration {name}: {len(rows)} positions", flush=True)
    return out


def play_game(game_string: str, specs: list[str], seed: int):
    """One game between ``specs`` (seat order); (final state, actions)."""
    import spiel_games
    from solvers.registry import resolve

    game = spiel_games.load_game(game_string)
    agents = [resolve(s).make(game, seed * 10 + i) for i, s in enumerate(specs)]
    for a in agents:
        a.reset()
    rng = random.Random(seed)
    state, actions = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            a = rng.choices(outcomes, probs)[0]
        else:
            a = agents[state.current_player()].step(state)
        state.apply_action(a)
        actions.append(int(a))
    return state, actions


def _play_task(task) -> tuple[list[float], list[int]]:
    state, actions = play_game(*task)
    return [float(x) for x in state.returns()], actions


def review_game(task, workers: int = 1) -> dict:
    """Review seat ``player`` of one game at a seed: the marks, losses, wall and CPU time
    (this process and its worker processes) and the machine's load average around it."""
    import os
    import resource

    from tournament.advice.positions import record_of
    from tournament.advice.review import review

    game_string, specs, game_seed, player, agent, seed = task[:6]
    if len(task) > 6:  # the game's actions, already played
        state = _state(game_string, task[6])
        actions = task[6]
    else:
        state, actions = play_game(game_string, specs, game_seed)
    record = record_of(game_string, state, game_seed, list(specs), actions)

    def cpu() -> float:
        me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    load, c, t = os.getloadavg()[0], cpu(), time.perf_counter()
    rv = review(record, agent, player=player, seed=seed, workers=workers)
    seconds, cpu_seconds = time.perf_counter() - t, cpu() - c
    return {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "load": [load, os.getloadavg()[0]],
        "workers": workers,
        "marks": [d.mark for d in rv.decisions],
        "loss_points": [d.loss_points for d in rv.decisions],
        "loss_points_low": [d.loss_points_low for d in rv.decisions],
        "loss_first": [d.loss_first for d in rv.decisions],
        "forced": rv.forced,
        "result": [float(x) for x in state.scores()],
    }


MARK_SEATS = ["noisy(eps=0.3)", "heuristic", "heuristic"]


def phase_marks(args) -> dict:
    """Two reviews (seeds 0 and 1) of P1 in one 3-player game per game, one after the
    other, each with ``--workers`` processes analysing its decisions; the first one's wall
    time is the review time at the default agent."""
    agent = "ismcts(sims=30)" if args.quick else DEFAULT
    out = {}
    for name in args.games:
        g = QUICK_GAME if args.quick else GAMES[name]
        seats = MARK_SEATS[:2] if args.quick else MARK_SEATS
        one, two = (review_game((g, seats, 7, 0, agent, s), args.workers) for s in (0, 1))
        same = sum(a == b for a, b in zip(one["marks"], two["marks"], strict=True))
        out[g] = {
            "agent": agent,
            "seats": MARK_SEATS,
            "decisions": len(one["marks"]),
            "same": same,
            "marked": [sum(m is not None for m in r["marks"]) for r in (one, two)],
            "seconds": [one["seconds"], two["seconds"]],
            "cpu_seconds": [one["cpu_seconds"], two["cpu_seconds"]],
            "load": [one["load"], two["load"]],
            "workers": args.workers,
            "reviews": [one, two],
        }
        print(f"marks {name}: {same}/{len(one['marks'])} same", flush=True)
    return out


def phase_ladder(args) -> dict:
    """A round robin of the ladder (each pair, both seat orders), Elo from its results
    (OpenSpiel's Bradley-Terry fit), and each agent's review error rate over its games."""
    from tournament.ratings.fit import fit_elo

    per_pair = 1 if args.quick else 2  # games per seat order
    agent = "ismcts(sims=30)" if args.quick else LADDER_REVIEWER
    ladder, game = (QUICK_LADDER, QUICK_GAME) if args.quick else (LADDER, LADDER_GAME)
    k = len(ladder)
    wins, draws = np.zeros((k, k), dtype=int), np.zeros((k, k), dtype=int)
    games = []
    for i in range(k):
        for j in range(k):
            if i != j:
                games += [(i, j, 1000 + 100 * i + 10 * j + s) for s in range(per_pair)]
    with ProcessPoolExecutor(args.workers) as pool:
        played = list(
            pool.map(_play_task, [(game, [ladder[i], ladder[j]], s) for i, j, s in games])
        )
    for (i, j, _), (returns, _) in zip(games, played, strict=True):
        a, b = returns
        if a > b:
            wins[i, j] += 1
        elif b > a:
            wins[j, i] += 1
        else:
            draws[i, j] += 1
            draws[j, i] += 1
    elo = fit_elo(wins, draws)
    tasks = [
        (game, [ladder[i], ladder[j]], seed, 0, agent, 0, actions)
        for (i, j, seed), (_, actions) in zip(games, played, strict=True)
        if (seed % 10) < (1 if args.quick else 2) and (i - j) % k in (1, k - 1)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        reviews = list(pool.map(review_game, tasks))
    losses: dict[int, list[float]] = {i: [] for i in range(k)}
    for task, r in zip(tasks, reviews, strict=True):
        losses[ladder.index(task[1][0])] += [x for x in r["loss_points"] if x is not None]
    return {
        "game": game,
        "agent": agent,
        "opponents_infer": True,  # measured with opponents=infer the default (issue 33)
        "agents": ladder,
        "elo": [float(x) for x in elo],
        "games": len(games),
        "error_rate": [float(np.mean(losses[i])) if losses[i] else None for i in range(k)],
        "decisions": [len(losses[i]) for i in range(k)],
    }


def phase_serve(args) -> dict:
    """Seconds from a query to the engine's first partial answer (reportDuringSearchEvery
    0.1), at the default agent, at a decision sampled from a game of each game (the query
    gives the history as action ids)."""
    import io
    import json
    import os

    from tournament.advice.advise import advise_state
    from tournament.advice.serve import Engine

    out = {}
    agent = DEFAULT
    for name in args.games:
        g = GAMES[name]
        actions, _ = game_positions(g, 1, 5)[0]
        advise_state(g, _state(g, actions), "ismcts(sims=10)")  # the game loaded: warm
        stamps: list[float] = []

        class Out(io.StringIO):
            def write(self, text, stamps=stamps):
                stamps.append(time.perf_counter())
                return super().write(text)

        query = {"id": 1, "game": g, "history": actions, "agent": agent}
        query["reportDuringSearchEvery"] = 0.1
        sink = Out()
        load = os.getloadavg()[0]
        t = time.perf_counter()
        Engine().serve(io.StringIO(json.dumps(query) + "\n"), sink)
        lines = [json.loads(x) for x in sink.getvalue().splitlines()]
        first = [s for s, x in zip(stamps, lines, strict=True) if x.get("isDuringSearch")]
        out[g] = {
            "agent": agent,
            "ply": len(actions),
            "first_partial": first[0] - t if first else None,
            "answers": len(lines),
            "total": stamps[-1] - t,
            "load": load,
        }
    return out


NOISE_GAMES = (8, 9)  # development games: never 7, the game the marks are measured on


def phase_noise(args) -> dict:
    """Per game, two reviews (seeds 0 and 1) of P1 in development games: each decision's
    loss in points and its paired lower bound, to fit how far a loss moves between seeds
    beyond its paired standard error (review.LOSS_FLOOR)."""
    from tournament.advice import review

    review.LOSS_FLOOR.clear()  # the paired lower bounds: the floors are fitted from these
    agent = "ismcts(sims=30)" if args.quick else DEFAULT
    out = {}
    for name in args.games:
        g = QUICK_GAME if args.quick else GAMES[name]
        seats = MARK_SEATS[:2] if args.quick else MARK_SEATS
        rows = []
        for game_seed in NOISE_GAMES[:1] if args.quick else NOISE_GAMES:
            one, two = (review_game((g, seats, game_seed, 0, agent, s)) for s in (0, 1))
            rows.append(noise_rows(game_seed, one, two))
        out[g] = {"agent": agent, "games": rows}
        print(f"noise {name}: {sum(len(r['loss'][0]) for r in rows)} decisions", flush=True)
    return out


def noise_rows(game_seed: int, one: dict, two: dict) -> dict:
    """The losses in points and their paired lower bounds of two reviews of one game."""
    return {
        "game_seed": game_seed,
        "loss": [one["loss_points"], two["loss_points"]],
        "low": [one["loss_points_low"], two["loss_points_low"]],
    }


PHASES = {
    "noise": phase_noise,
    "calibration": phase_calibration,
    "marks": phase_marks,
    "ladder": phase_ladder,
    "serve": phase_serve,
}
