#!/usr/bin/env python
"""Performance benchmarks; writes docs/BENCHMARKS.md.

    .venv/bin/python scripts/bench.py            # full run
    .venv/bin/python scripts/bench.py --quick    # shorter timings, same report

For every registered game at its typical configuration, measured through the
pyspiel API (exactly as OpenSpiel algorithms see the game):

- random-playout transitions/s and games/s, interleaved in rounds with
  OpenSpiel's C++ `hearts` in the same loop and the same process, so each game
  gets a ratio that survives a noisy shared machine (median of per-round ratios);
- clone time in microseconds for mid-game states;
- peak RSS of a fresh process that loads the game and plays it.

Sections from scripts/bench_solvers.py and scripts/bench_tournament.py (each
exposing ``sections(quick) -> list[str]``) are appended when present. Sections measured by
other scripts (``KEPT``: the serial/Ray break-even, scripts/soak.py) are carried over from
the existing file unchanged. docs/BENCHMARKS.md is tracked: commit it after a run.
Progress goes to stderr, one line per step, so a run without a terminal shows where it is.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

# MEEPLE_BENCH_SMOKE=1: every measurement at a token size, to check the script still runs
# against the current code (tests/test_bench_smoke.py); the figures mean nothing then.
SMOKE = os.environ.get("MEEPLE_BENCH_SMOKE") == "1"

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "hearts"
_T0 = time.perf_counter()


def progress(message: str) -> None:
    """One line on stderr per step, so a run under nohup or CI shows where it is."""
    print(f"[bench {time.perf_counter() - _T0:6.0f} s] {message}", file=sys.stderr, flush=True)


def playout_rate(game, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(transitions/s, games/s) of uniform random playouts for `seconds`."""
    rng = random.Random(seed)
    transitions = games = 0
    t0 = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            transitions += 1
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return transitions / elapsed, games / elapsed


def mid_game_states(game, count: int = 20, seed: int = 1) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        trail = []
        while not state.is_terminal():
            trail.append(state.clone())
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        out.append(trail[len(trail) // 2])
    return out


def clone_us(game, reps: int) -> float:
    states = mid_game_states(game)
    best = float("inf")
    for _ in range(5):  # best of 5 rounds: the least disturbed by other processes
        t0 = time.perf_counter()
        for _ in range(reps):
            for s in states:
                s.clone()
        best = min(best, (time.perf_counter() - t0) / (reps * len(states)) * 1e6)
    return best


def peak_rss_mib(game_string: str, seconds: float) -> float:
    code = (
        "import resource, spiel_games, pyspiel, sys\n"
        "sys.path.insert(0, 'scripts')\n"
        "from bench import playout_rate\n"
        f"g = pyspiel.load_game({game_string!r})\n"
        f"playout_rate(g, {seconds})\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip().splitlines()[-1]) / 1024.0


def game_rows(quick: bool) -> tuple[list[dict], dict]:
    import pyspiel

    import spiel_games

    rounds = 1 if SMOKE else 3 if quick else 5
    secs = 0.05 if SMOKE else 0.6 if quick else 2.0
    ref = pyspiel.load_game(REFERENCE)
    ref_clone = clone_us(ref, 200 if quick else 1000)
    rows = []
    ref_rates = []
    specs = spiel_games.all_specs()
    for n, spec in enumerate(specs, 1):
        progress(f"games {n}/{len(specs)}: {spec.typical_config}")
        game = pyspiel.load_game(spec.typical_config)
        ratios, rates, gps, refs = [], [], [], []
        for _ in range(rounds):
            r_ref, _ = playout_rate(ref, secs)
            r, g = playout_rate(game, secs)
            refs.append(r_ref)
            rates.append(r)
            gps.append(g)
            ratios.append(r / r_ref)
        ref_rates.extend(refs)
        rows.append(
            {
                "game": spec.typical_config,
                "transitions_per_s": statistics.median(rates),
                "games_per_s": statistics.median(gps),
                "ratio_to_hearts": statistics.median(ratios),
                "clone_us": clone_us(game, 200 if quick else 1000),
                "peak_rss_mib": peak_rss_mib(spec.typical_config, secs),
            }
        )
    ref_row = {"transitions_per_s": statistics.median(ref_rates), "clone_us": ref_clone}
    return rows, ref_row


def extra_sections(quick: bool) -> list[str]:
    out = []
    for name in ("bench_solvers", "bench_tournament"):
        path = ROOT / "scripts" / f"{name}.py"
        if not path.exists():
            continue
        progress(f"sections of scripts/{name}.py")
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        assert spec.loader is not None
        spec.loader.exec_module(mod)
        try:
            out.extend(mod.sections(quick))
        except Exception as e:  # a broken section must not hide the others
            out.append(f"## {name}\n\nFailed to run: `{type(e).__name__}: {e}`\n")
    return out


KEPT = ("## Serial or Ray", "## Soak")


def kept_sections(path: Path) -> list[str]:
    """The ``KEPT`` sections of an existing report, verbatim (measured by other scripts)."""
    if not path.exists():
        return []
    blocks = path.read_text(encoding="utf-8").split("\n## ")
    return ["## " + b for b in blocks[1:] if ("## " + b).startswith(KEPT)]


def render(rows: list[dict], ref: dict, extras: list[str], quick: bool) -> str:
    from importlib.metadata import version

    import pyspiel  # noqa: F401

    lines = [
        "# Benchmarks",
        "",
        f"Generated by `scripts/bench.py{' --quick' if quick else ''}` on "
        f"{dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}: Python "
        f"{platform.python_version()}, open-spiel {version('open-spiel')}, {os.cpu_count()} cores. "
        "The machine is shared and noisy, so the ratio against OpenSpiel's C++ `hearts`, "
        "measured in the same loop and interleaved in rounds, is the number to compare.",
        "",
        "## Games: random playouts through the pyspiel API",
        "",
        f"Reference `hearts` (C++): {ref['transitions_per_s']:,.0f} transitions/s, "
        f"clone {ref['clone_us']:.2f} µs.",
        "",
        "| game | transitions/s | games/s | ratio to hearts | clone µs (mid-game) | peak RSS MiB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| `{r['game']}` | {r['transitions_per_s']:,.0f} | {r['games_per_s']:,.1f} | "
            f"{r['ratio_to_hearts']:.3f} | {r['clone_us']:.2f} | {r['peak_rss_mib']:.0f} |"
        )
    lines += [
        "",
        "Targets for `python_coloretto(players=4)`: ratio to hearts at least 0.2, clone at most 10 µs.",
        "",
    ]
    for block in extras:
        lines += [block.rstrip(), ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="shorter timings")
    ap.add_argument("--out", default=str(ROOT / "docs" / "BENCHMARKS.md"))
    ap.add_argument("--games-only", action="store_true", help="skip solver/tournament sections")
    ap.add_argument("--json", action="store_true", help="also print the game rows as JSON")
    args = ap.parse_args()
    rows, ref = game_rows(args.quick)
    extras = [] if args.games_only else extra_sections(args.quick)
    extras += kept_sections(Path(args.out))
    text = render(rows, ref, extras, args.quick)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    progress(f"done: wrote {args.out}")
    print(text)
    if args.json:
        print(json.dumps({"games": rows, "reference": ref}, indent=2))


if __name__ == "__main__":
    main()
