"""Playing strength of the search agents against the heuristic (issue 11): writes docs/STRENGTH.md.

Per game, a round robin of ``heuristic``, ``ismcts(sims=400)`` and ``ismcts(sims=1600)``
(3 players: every game has all three, under every seat rotation, duplicate seeds),
played by the project's tournament runner and rated by its Elo fit. Also measures
simulations per second and seconds per searched decision at sims=400, for the old
search settings (``eval=score,prior=none``) and the new defaults.

    python scripts/bench_strength.py                      # >= 30 games per game, Ray, 2 workers
    python scripts/bench_strength.py --quick              # 2 seeds x 3 rotations, serial
    python scripts/bench_strength.py --games rococo,bruxelles --seeds 4 --executor serial
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import pyspiel

import spiel_games  # noqa: F401  (registers the games)
from solvers.registry import make_agent
from tournament.config import build_config
from tournament.ratings import ratings_from_ledgers
from tournament.runner import run_tournament

GAMES = {
    "coloretto": ["python_coloretto(players=3)", "python_coloretto(players=4)"],
    "rococo": ["python_rococo(players=3)"],
    "bruxelles": ["python_bruxelles(players=3)"],
    "staufer": ["python_staufer(players=3)"],
}
LINEUP = {
    "heuristic": "heuristic",
    "ismcts400": "ismcts(sims=400)",
    "ismcts1600": "ismcts(sims=1600)",
}
OLD = "ismcts(sims=400,eval=score,prior=none)"
NEW = "ismcts(sims=400)"


def sample_positions(game, count: int = 8, seed: int = 5) -> list:
    """Decision points spread over a few random games (same for every spec measured)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.new_initial_state()
        hist = []
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(acts, probs)[0])
                continue
            if len(s.legal_actions()) > 1:
                hist.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
        out += [hist[int(len(hist) * f)] for f in (0.1, 0.4, 0.7, 0.9)]
    return out[:count]


def speed(game, spec: str, positions) -> tuple[float, float]:
    """(simulations per second, seconds per decision) of `spec` over `positions`."""
    agent = make_agent(spec, game, seed=1)
    sims = 0
    t = time.perf_counter()
    for s in positions:
        agent.step(s)
        sims += agent.last_sims
    dt = time.perf_counter() - t
    return sims / dt, dt / len(positions)


def play(game_string: str, seeds: int, workers: int, executor: str, out: Path):
    cfg = build_config(
        {
            "tournament": {
                "game": game_string,
                "seeds_per_lineup": seeds,
                "seed": 11,
                "schedule": "round-robin",
                "time_limit": 0.0,
            },
            "agents": dict(LINEUP),
        }
    )
    run_tournament(cfg, out, workers=workers, executor=executor, show_progress=False)
    ratings, _ = ratings_from_ledgers([out])
    return ratings


def shares(r) -> list[tuple[str, str, float, int]]:
    """(row, column, share of games row finished ahead of column with ties half, games)."""
    names = [a.name for a in r.agents]
    out = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                continue
            w, lo, d = r.wins[i, j], r.wins[j, i], r.draws[i, j]
            n = w + lo + d
            if n:
                out.append((a, b, (w + 0.5 * d) / n, int(n)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    ap.add_argument("--seeds", type=int, default=10, help="seeds per line-up (x rotations)")
    ap.add_argument("--quick", action="store_true", help="2 seeds, serial: a smoke run")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--executor", default="ray", choices=("ray", "serial"))
    ap.add_argument("--out", default="docs/STRENGTH.md")
    args = ap.parse_args(argv)
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    bad = [g for g in names if g not in GAMES]
    if bad:
        print(f"unknown game {bad[0]!r}; choose from {', '.join(GAMES)}", file=sys.stderr)
        return 1
    seeds, executor = (2, "serial") if args.quick else (args.seeds, args.executor)
    lines = [
        "# Playing strength of the search agents",
        "",
        "Written by `scripts/bench_strength.py` (issue 11). Command:",
        "",
        "    python scripts/bench_strength.py " + " ".join(argv or sys.argv[1:]),
        "",
        f"Line-up per game: {', '.join(f'`{v}`' for v in LINEUP.values())}; "
        f"{seeds} seeds per line-up, every seat rotation, duplicate seeds. "
        "Win share = games the row agent finished ahead of the column agent (ties half).",
        "",
    ]
    for name in names:
        for gs in GAMES[name]:
            game = pyspiel.load_game(gs)
            pos = sample_positions(game)
            old_sps, old_spd = speed(game, OLD, pos)
            new_sps, new_spd = speed(game, NEW, pos)
            with tempfile.TemporaryDirectory() as tmp:
                r = play(gs, seeds, args.workers, executor, Path(tmp) / "run")
            lines += [f"## {gs}", ""]
            lines += [
                "| search at sims=400 | sims/s | s per decision |",
                "|---|---|---|",
                f"| before: `{OLD}` | {old_sps:.0f} | {old_spd:.3f} |",
                f"| after: `{NEW}` | {new_sps:.0f} | {new_spd:.3f} |",
                "",
                "| agent | ahead of | win share | games |",
                "|---|---|---|---|",
            ]
            lines += [f"| {a} | {b} | {s:.2f} | {n} |" for a, b, s, n in shares(r)]
            lines += ["", "| agent | Elo | 95% interval | games |", "|---|---|---|---|"]
            lines += [
                f"| {x['agent']} | {x['elo']:.0f} | {x['ci_low']:.0f} .. {x['ci_high']:.0f} "
                f"| {x['games']} |"
                for x in r.as_records()
            ]
            lines.append("")
            print(f"{gs}: done", file=sys.stderr, flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
