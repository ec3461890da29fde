"""Tournament science, measured (issue 30): writes docs/TOURNAMENTS-STATS.md.

Each phase measures one claim and stores its raw figures in docs/data/tournaments-stats.json
(tracked); ``render`` turns that file into the Markdown, and ``tests/test_docs_stats.py``
checks the Markdown is exactly that rendering, so no figure in it is typed by hand.

    python scripts/bench_stats.py ledgers            # 3-player round robins, 4 games
    python scripts/bench_stats.py sprt-sim           # A/A and A/B on simulated sets
    python scripts/bench_stats.py sprt-real          # A/A and A/B on real games
    python scripts/bench_stats.py pl                 # Plackett-Luce vs Bradley-Terry
    python scripts/bench_stats.py luck               # luck adjustment
    python scripts/bench_stats.py adaptive           # adaptive schedule vs round robin
    python scripts/bench_stats.py render             # data file -> docs/TOURNAMENTS-STATS.md
    python scripts/bench_stats.py render --check     # exit 1 when the Markdown differs

Ledgers go to ``--runs`` (default runs/stats) and are reused when rerun (they resume).
Agents are cheap on purpose (the machine is shared): random, the heuristic with 60%, 30%
and 10% random moves, the heuristic, and IS-MCTS at 8 simulations.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

DATA = ROOT / "docs" / "data" / "tournaments-stats.json"
DOC = ROOT / "docs" / "TOURNAMENTS-STATS.md"
GAMES = {
    "coloretto": "python_coloretto(players=3)",
    "rococo": "python_rococo(players=3)",
    "bruxelles": "python_bruxelles(players=3)",
    "staufer": "python_staufer(players=3)",
}
POOL = {
    "random": "random",
    "noisy60": "noisy(eps=0.6)",
    "noisy30": "noisy(eps=0.3)",
    "noisy10": "noisy(eps=0.1)",
    "heuristic": "heuristic",
    "ismcts8": "ismcts(sims=8)",
}
POOL_SEEDS = 34  # 20 line-ups x 3 rotations x 34 seeds = 2,040 games per game


def progress(message: str) -> None:
    print(f"[stats {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def load_data() -> dict:
    return json.loads(DATA.read_text()) if DATA.exists() else {}


def save(section: str, value) -> None:
    data = load_data()
    data[section] = value
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def pool_config(game: str, seeds: int = POOL_SEEDS, schedule: str = "round-robin", **extra):
    from tournament.config import build_config

    t = {"game": game, "seeds_per_lineup": seeds, "seed": 30, "schedule": schedule}
    t.update({"seating": "balanced", **extra})
    return build_config({"tournament": t, "agents": dict(POOL)})


def ledger_dir(runs: Path, name: str) -> Path:
    return runs / f"pool-{name}"


def phase_ledgers(args) -> None:
    from tournament.runner import run_tournament

    for name in args.games:
        t = time.perf_counter()
        cfg = pool_config(GAMES[name])
        s = run_tournament(cfg, ledger_dir(args.runs, name), workers=1, executor="serial")
        progress(
            f"{name}: {s.played} played, {s.already_done} there ({time.perf_counter() - t:.0f} s)"
        )


PHASES = {"ledgers": phase_ledgers}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=sorted(PHASES) + ["render"])
    ap.add_argument("--runs", type=Path, default=Path("runs/stats"), help="ledger directory")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--check", action="store_true", help="render: compare only")
    args = ap.parse_args(argv)
    args.games = [g for g in args.games.split(",") if g]
    PHASES[args.phase](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
