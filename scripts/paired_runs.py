"""Paired experiments for tuning the search: line-ups that meet the same deals.

Every line-up plays match seeds BASE+i (``--seeds A-B`` gives i = A..B-1), each under every
cyclic seat rotation. A match's chance stream and each seat's agent seed derive from its
match seed alone (``tournament.match.seed_streams``), so two line-ups that differ in one
agent meet the same deals and the same agent seeds: the difference between their results
is the change, not the luck of other deals. (The tournament runner derives its game seeds
from the agents' ids instead, which keeps line-ups independent.) Games go to a JSON-lines
file as they finish; a rerun skips the games already there, so an interrupted run resumes.

The report gives, for every two agents at a table, the share of games the first finished
ahead of the second (by returns, then raw score, as the ledger ranks; ties half) and the
mean score difference, each with a 95% bootstrap interval over seeds (a seed's rotations
are resampled together, as duplicate sets are in ``meeple ratings``).

    python scripts/paired_runs.py 'python_rococo(players=3)' \\
        'heuristic;ismcts(sims=400);ismcts(sims=1600)' --seeds 0-10 --out runs/rococo.jsonl
    python scripts/paired_runs.py --report runs/rococo.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import signal
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import pyspiel

import spiel_games  # noqa: F401  (registers the games)
from solvers.registry import make_agent
from solvers.spec import AgentSpecError
from tournament.batch import ranks_from
from tournament.match import play_match, seed_streams
from tournament.schedule import rotations

BASE = 1000  # match seed of seed index 0


def play(task: tuple[str, tuple[str, ...], int, int]) -> dict:
    """One game: ``(game, line-up, seed index, rotation)`` -> a result row."""
    game_string, lineup, index, rotation = task
    game = pyspiel.load_game(game_string)
    n = len(lineup)
    seats = list(rotations(lineup)[rotation])
    seed = BASE + index
    chance, seat_seeds = seed_streams(seed, n)
    agents = [make_agent(spec, game, seed=seat_seeds[i]) for i, spec in enumerate(seats)]
    t = time.perf_counter()
    r = play_match(game, agents, seed, chance)
    if r.failure:
        raise RuntimeError(f"seed {index} rotation {rotation}: {r.failure}: {r.detail}")
    return {
        "game": game_string,
        "seed": index,
        "rotation": rotation,
        "seats": seats,
        "ranks": ranks_from(r.returns, r.scores),
        "scores": r.scores,
        "seconds": time.perf_counter() - t,
    }


def _key(row: dict) -> tuple:
    """A game is its game string, seats in order and seed: the same agents written in
    another order (another order of play) are other games."""
    return row["game"], tuple(row["seats"]), row["seed"]


def _group(row: dict) -> tuple:
    return row["game"], tuple(sorted(row["seats"]))


def run(game_string: str, lineup: list[str], seeds: range, out: Path, workers: int) -> list:
    """Play every game not yet in ``out`` and append it there; returns every row of
    this game with these agents, in any seat order (old and new)."""
    rows = load(out) if out.exists() else []
    done = {_key(r) for r in rows}
    firsts: dict[tuple[str, ...], int] = {}  # each distinct rotation once
    for r, seats in enumerate(rotations(tuple(lineup))):
        firsts.setdefault(seats, r)
    todo = [
        (game_string, tuple(lineup), s, r)
        for s in seeds
        for seats, r in firsts.items()
        if (game_string, seats, s) not in done
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a") as f:
        if workers > 1:
            # SIGTERM (a job killed by a scheduler) unwinds like Ctrl-C, so leaving the
            # ``with`` terminates the pool instead of orphaning its workers mid-game.
            previous = signal.signal(signal.SIGTERM, _terminate)
            try:
                with get_context("spawn").Pool(workers) as pool:
                    for row in pool.imap_unordered(play, todo):
                        f.write(json.dumps(row) + "\n")
                        f.flush()
            finally:
                signal.signal(signal.SIGTERM, previous)
        else:
            for task in todo:
                f.write(json.dumps(play(task)) + "\n")
                f.flush()
    mine = (game_string, tuple(sorted(lineup)))
    return [r for r in load(out) if _group(r) == mine]


FIELDS = {"game": str, "seed": int, "rotation": int, "seats": list, "ranks": list, "scores": list}


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


def load(path: Path) -> list[dict]:
    """The rows of a results file; a line that is not one of this script's rows (another
    format, a field missing or of the wrong type, seats, ranks and scores of different
    lengths) is an error naming the line."""
    rows = []
    for i, line in enumerate(path.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise ValueError(f"{path}:{i}: not a JSON line") from None
        if not isinstance(row, dict):
            raise ValueError(f"{path}:{i}: not a result row of this script (a JSON object)")
        for field, kind in FIELDS.items():
            if not isinstance(row.get(field), kind):
                raise ValueError(f"{path}:{i}: field {field!r} missing or not a {kind.__name__}")
        if not len(row["seats"]) == len(row["ranks"]) == len(row["scores"]) >= 2:
            raise ValueError(f"{path}:{i}: seats, ranks and scores differ in length")
        row.setdefault("seconds", 0.0)
        rows.append(row)
    return rows


def pairs(rows: list[dict]) -> dict[tuple[str, str], dict[int, list[tuple[float, float]]]]:
    """{(a, b): {seed: [(a ahead of b: 1, 0.5 or 0, a's score - b's score), ...]}}"""
    out: dict = {}
    for row in rows:
        seats, ranks, scores = row["seats"], row["ranks"], row["scores"]
        for i, j in itertools.permutations(range(len(seats)), 2):
            a, b = seats[i], seats[j]
            if a == b:
                continue
            ahead = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            by_seed = out.setdefault((a, b), {})
            by_seed.setdefault(row["seed"], []).append((ahead, scores[i] - scores[j]))
    return out


def summary(by_seed: dict[int, list[tuple[float, float]]], draws: int = 2000) -> dict:
    """Share ahead and mean score difference, each with a 95% bootstrap interval."""

    def means(seeds):
        games = [g for s in seeds for g in by_seed[s]]
        return sum(g[0] for g in games) / len(games), sum(g[1] for g in games) / len(games)

    seeds = sorted(by_seed)
    share, diff = means(seeds)
    rng = random.Random(0)
    boot = [means([rng.choice(seeds) for _ in seeds]) for _ in range(draws)]
    lo, hi = int(0.025 * draws), int(0.975 * draws) - 1
    shares = sorted(b[0] for b in boot)
    diffs = sorted(b[1] for b in boot)
    return {
        "games": sum(len(v) for v in by_seed.values()),
        "share": share,
        "share_ci": (shares[lo], shares[hi]),
        "diff": diff,
        "diff_ci": (diffs[lo], diffs[hi]),
    }


def report(rows: list[dict]) -> list[str]:
    """One table per game and set of agents in the file: rows of different games or
    line-ups never pool (their seeds are not the same deals)."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault(_group(row), []).append(row)
    lines: list[str] = []
    for (game, agents), mine in sorted(groups.items()):
        if lines:
            lines.append("")
        lines += [
            f"{game}, agents {'; '.join(dict.fromkeys(agents))}:",
            "",
            "| agent | ahead of | share | 95% interval | score difference | 95% interval | games |",
            "|---|---|---|---|---|---|---|",
        ]
        for (a, b), by_seed in sorted(pairs(mine).items()):
            x = summary(by_seed)
            lines.append(
                f"| {a} | {b} | {x['share']:.2f} | {x['share_ci'][0]:.2f} .. "
                f"{x['share_ci'][1]:.2f} | {x['diff']:+.1f} | {x['diff_ci'][0]:+.1f} .. "
                f"{x['diff_ci'][1]:+.1f} | {x['games']} |"
            )
        seconds = sum(r["seconds"] for r in mine) / len(mine)
        lines += ["", f"{len(mine)} games, {seconds:.1f} s per game on average"]
    return lines


def _seed_range(text: str) -> range:
    try:
        a, b = (int(x) for x in text.split("-"))
    except ValueError:
        raise ValueError(f"--seeds must be A-B (seed indices A..B-1), got {text!r}") from None
    if not 0 <= a < b:
        raise ValueError(f"--seeds must be A-B with 0 <= A < B, got {text!r}")
    return range(a, b)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", help="game string, e.g. 'python_rococo(players=3)'")
    ap.add_argument("lineup", nargs="?", help="one agent spec per seat, separated by ';'")
    ap.add_argument("--seeds", default="0-10", help="seed indices A-B (A..B-1)")
    ap.add_argument("--out", type=Path, help="JSON-lines file of results (appended)")
    ap.add_argument("--workers", type=int, default=2, help="processes (1 = in this one)")
    ap.add_argument("--report", type=Path, help="only report the results in this file")
    args = ap.parse_args(argv)
    try:
        if args.report is not None:
            rows = load(args.report)
        else:
            if not (args.game and args.lineup and args.out):
                raise ValueError("give GAME, LINEUP and --out (or --report FILE)")
            if args.workers < 1:
                raise ValueError("--workers must be >= 1")
            lineup = [s.strip() for s in args.lineup.split(";") if s.strip()]
            game = pyspiel.load_game(args.game)
            if len(lineup) != game.num_players():
                raise ValueError(
                    f"the line-up has {len(lineup)} agents for {game.num_players()} seats"
                )
            for spec in set(lineup):
                make_agent(spec, game, seed=0)  # a bad spec fails here, before any game
            rows = run(args.game, lineup, _seed_range(args.seeds), args.out, args.workers)
    except (ValueError, RuntimeError, AgentSpecError, pyspiel.SpielError, OSError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    print("\n".join(report(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
