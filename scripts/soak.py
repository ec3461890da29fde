"""Soak test: one tournament under random `kill -9` until it finishes, then compared game by
game with the same tournament played without interruption.

    python scripts/soak.py                      # 2,000 games, serial, a kill every 1-4 s
    python scripts/soak.py --executor ray --games 400 --kill-min 5 --kill-max 12

The interrupted run is `meeple tournament run` in a child process, killed with SIGKILL
(no clean-up of any kind) at random moments and restarted on the same --out until it exits
by itself. The ledger must then hold exactly the scheduled games, each once, and every row
(moves digest, scores, ranks, failures; everything but the wall-clock duration) must equal
the uninterrupted run's. Exit status 0 on equality, 1 otherwise. The result line is what
docs/BENCHMARKS.md quotes.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournament.config import build_config  # noqa: E402
from tournament.ledger import read_ledger  # noqa: E402
from tournament.runner import run_tournament  # noqa: E402

GAME = "python_coloretto(players=2)"


def config_text(games: int, batch_size: int) -> str:
    """random vs heuristic: one line-up, two seat rotations, games/2 seeds."""
    return (
        "[tournament]\n"
        f'game = "{GAME}"\n'
        f"seeds_per_lineup = {max(1, games // 2)}\n"
        "seed = 14\n"
        f"batch_size = {batch_size}\n"
        "[agents]\n"
        'random = "random"\n'
        'greedy = "heuristic"\n'
    )


def rows(directory: Path) -> list[dict]:
    table = read_ledger(directory).table.drop_columns(["duration"]).sort_by("game_id")
    return table.to_pylist()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--batch-size", type=int, default=20)
    ap.add_argument("--executor", default="serial", choices=("serial", "ray", "auto"))
    ap.add_argument("--kill-min", type=float, default=1.0, help="seconds before a kill, at least")
    ap.add_argument("--kill-max", type=float, default=4.0, help="seconds before a kill, at most")
    ap.add_argument("--seed", type=int, default=0, help="seed of the kill times")
    ap.add_argument("--keep", type=Path, help="keep the two ledgers in this directory")
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="meeple-soak-"))
    cfg_path = work / "soak.toml"
    cfg_path.write_text(config_text(args.games, args.batch_size))
    import tomllib

    cfg = build_config(tomllib.loads(cfg_path.read_text()))
    reference, killed = work / "reference", work / "killed"

    t = time.perf_counter()
    run_tournament(cfg, reference, executor="serial")
    ref_seconds = time.perf_counter() - t
    print(f"reference: {args.games} games uninterrupted in {ref_seconds:.1f} s", flush=True)

    rng = random.Random(args.seed)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "tournament.cli", "tournament", "run", str(cfg_path)]
    command += ["--out", str(killed), "--executor", args.executor, "--quiet"]
    kills, starts = 0, 0
    t = time.perf_counter()
    while True:
        starts += 1
        # a new session, so the kill reaches the whole process group (Ray's too)
        child = subprocess.Popen(
            command,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            _, err = child.communicate(timeout=rng.uniform(args.kill_min, args.kill_max))
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            kills += 1
            continue
        if child.returncode != 0:
            print(f"run {starts} failed ({child.returncode}): {err.decode().strip()}")
            return 1
        break
    seconds = time.perf_counter() - t

    a, b = rows(reference), rows(killed)
    files = len(read_ledger(killed).files)
    same = a == b
    mismatched = sum(1 for x, y in zip(a, b, strict=False) if x != y) + abs(len(a) - len(b))
    print(
        f"soak: {len(b)} of {len(a)} games, {kills} kill -9 over {starts} starts, "
        f"{seconds:.0f} s (uninterrupted {ref_seconds:.0f} s), {files} batch files; "
        f"ledger {'EQUALS' if same else 'DIFFERS FROM'} the uninterrupted run game by game"
        + ("" if same else f" ({mismatched} rows differ)")
    )
    if args.keep:
        shutil.copytree(work, args.keep, dirs_exist_ok=True)
    shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
