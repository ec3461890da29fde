"""Advice a player can trust, measured (issue 29): writes docs/ADVICE-MEASURED.md.

Each phase stores its raw figures in docs/data/advice.json (tracked); ``render`` turns that
file into the Markdown and tests/test_docs_advice.py checks the Markdown is exactly that
rendering, so no figure in it is typed by hand.

    python scripts/bench_advice.py noise         # how far a loss moves between seeds (fit)
    python scripts/bench_advice.py calibration   # intervals vs a search with 8x the budget
    python scripts/bench_advice.py marks         # two reviews, two seeds; review time
    python scripts/bench_advice.py ladder        # review error rate vs Elo over 5 agents
    python scripts/bench_advice.py serve         # time to the engine's first partial answer
    python scripts/bench_advice.py render        # data file -> docs/ADVICE-MEASURED.md
    python scripts/bench_advice.py render --check

``--quick`` runs every phase on a few positions and games into ``--data`` (a test checks the
format that way; timings are never asserted). At most two worker processes (``--workers``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "scripts"))
import bench_advice_phases as phases  # noqa: E402  (scripts/bench_advice_phases.py)
import bench_advice_report as report  # noqa: E402  (scripts/bench_advice_report.py)

DATA = ROOT / "docs" / "data" / "advice.json"
DOC = ROOT / "docs" / "ADVICE-MEASURED.md"


def load_data(path: Path = DATA) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def save(path: Path, section: str, value) -> None:
    data = load_data(path)
    data[section] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def render(data: dict) -> str:
    return report.render(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=[*phases.PHASES, "render"])
    ap.add_argument("--games", default=",".join(phases.GAMES), help="comma-separated games")
    ap.add_argument("--quick", action="store_true", help="a few positions and games only")
    ap.add_argument("--workers", type=int, default=1, choices=(1, 2))
    ap.add_argument("--data", type=Path, default=DATA, help="the data file")
    ap.add_argument("--doc", type=Path, default=DOC, help="the Markdown file (render)")
    ap.add_argument("--check", action="store_true", help="render: compare only")
    args = ap.parse_args(argv)
    args.games = [g for g in args.games.split(",") if g]
    if args.phase == "render":
        text = render(load_data(args.data))
        if args.check:
            return 0 if args.doc.exists() and args.doc.read_text() == text else 1
        args.doc.write_text(text)
        return 0
    t = time.perf_counter()
    if args.phase in ("noise", "calibration", "marks", "serve"):  # per game, saved as done
        games = args.games
        for game in games:
            args.games = [game]
            value = phases.PHASES[args.phase](args)
            old = load_data(args.data).get(args.phase, {})
            save(args.data, args.phase, {**old, **value})  # replaces only this game's rows
    else:
        save(args.data, args.phase, phases.PHASES[args.phase](args))
    print(f"{args.phase}: {math.ceil(time.perf_counter() - t)} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
