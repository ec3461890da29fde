"""What the statistics benchmark's phases share: the pool, the games, the data file."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
    # opponents pinned: the default became opponents=infer after the pool ledgers were
    # played, and "ismcts(sims=8)" would now name another agent
    "ismcts8": "ismcts(sims=8,opponents=heuristic)",
}
POOL_SEEDS = 34  # 20 line-ups x 3 rotations x 34 seeds = 2,040 games per game


def progress(message: str) -> None:
    print(f"[stats {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def load_data() -> dict:
    return json.loads(DATA.read_text()) if DATA.exists() else {}


def save(section: str, value) -> None:
    """Store a phase's figures; rows per game replace only the same games' rows, so games
    can be measured in separate runs (phases running side by side take turns)."""
    import fcntl
    import tempfile

    DATA.parent.mkdir(parents=True, exist_ok=True)
    with open(Path(tempfile.gettempdir()) / "meeple-bench-stats.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _save(section, value)


def _save(section: str, value) -> None:
    data = load_data()
    old = data.get(section)
    if isinstance(value, list) and isinstance(old, list):
        games = {r.get("game") for r in value}
        order = list(GAMES.values())
        kept = [r for r in old if r.get("game") not in games] + value
        value = sorted(kept, key=lambda r: order.index(r["game"]) if r["game"] in order else 99)
    data[section] = value
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def pool_config(game: str, seeds: int = POOL_SEEDS, schedule: str = "round-robin", **extra):
    from tournament.config import build_config

    t = {"game": game, "seeds_per_lineup": seeds, "seed": 30, "schedule": schedule}
    t.update({"seating": "balanced", **extra})
    return build_config({"tournament": t, "agents": dict(POOL)})


def ledger_dir(runs: Path, name: str) -> Path:
    return runs / f"pool-{name}"
