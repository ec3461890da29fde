"""Solver benchmarks for docs/BENCHMARKS.md (included by scripts/bench.py).

    .venv/bin/python scripts/bench_solvers.py [--quick]

Measures, for every registered game:
- IS-MCTS simulations/s at the first decision of the 4-player game (the game's
  typical configuration when it cannot seat 4), with full random rollouts and with
  rollouts cut after 20 moves;
- MCCFR iterations/s (outcome sampling on the full typical game through the game's
  abstraction; external sampling on the first tiny configuration);
- exact CFR through OpenSpiel on the game's first tiny configuration (exported once
  to a C++ EFG game): seconds per iteration of cfr/cfr+/dcfr, and seconds for CFR+
  to reach exploitability 0.01 (NashConv / 2), export counted separately;
- peak memory (max RSS of a fresh process) of MCCFR-OS training on the full game
  and the size of the policy file it writes.

Numbers are wall-clock on a shared machine; they are measurements, never test
assertions.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# MEEPLE_BENCH_SMOKE=1: every measurement at a token size, to check the script still runs
# against the current code (tests/test_bench_smoke.py); the figures mean nothing then.
SMOKE = os.environ.get("MEEPLE_BENCH_SMOKE") == "1"

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _first_decision(game, seed: int = 0):
    import random

    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return state


def _four_player_config(spec) -> str:
    if spec.min_players <= 4 <= spec.max_players:
        return f"{spec.short_name}(players=4)"
    return spec.typical_config


def ismcts_rates(quick: bool) -> list[tuple[str, str, float, float]]:
    import pyspiel

    import spiel_games
    from solvers.registry import make_agent

    seconds = 0.05 if SMOKE else 1.0 if quick else 4.0
    rows = []
    for spec in spiel_games.all_specs():
        config = _four_player_config(spec)
        game = pyspiel.load_game(config)
        state = _first_decision(game)
        rates = []
        for agent_spec in (
            f"ismcts(time={seconds},rollout_depth=-1)",  # full rollouts: to the end
            f"ismcts(time={seconds},rollout_depth=20)",
        ):
            agent = make_agent(agent_spec, game, seed=0)
            t = time.perf_counter()
            analysis = agent.analyse(state)
            rates.append(analysis.budget["sims_done"] / (time.perf_counter() - t))
        rows.append((spec.short_name, config, rates[0], rates[1]))
    return rows


def mccfr_rates(quick: bool) -> list[tuple[str, str, str, float, int]]:
    import pyspiel

    import spiel_games
    from solvers.mccfr_sequential import MCCFR

    budget = 0.05 if SMOKE else 2.0 if quick else 10.0
    rows = []
    for spec in spiel_games.all_specs():
        for variant, config, abstraction in (
            ("os", spec.typical_config, spec.abstraction_name or "none"),
            ("es", spec.tiny_configs[0], "none"),
        ):
            game = pyspiel.load_game(config)
            solver = MCCFR(game, variant, abstraction, seed=0)
            t = time.perf_counter()
            n = 0
            while time.perf_counter() - t < budget:
                solver.iteration()
                n += 1
            rate = n / (time.perf_counter() - t)
            rows.append((spec.short_name, f"mccfr-{variant}", config, rate, solver.tables.rows))
    return rows


def cfr_plus_times(quick: bool) -> list[tuple[str, str, int, float, dict, int, float, float]]:
    """Per game (first tiny configuration): EFG export seconds, seconds per iteration of
    each exact solver, and CFR+ iterations/seconds to exploitability 0.01."""
    import pyspiel

    import spiel_games
    from solvers import efg_cfr

    cap = 3 if SMOKE else 200 if quick else 2000
    per_kind = 1 if SMOKE else 3 if quick else 10
    rows = []
    for spec in spiel_games.all_specs():
        config = spec.tiny_configs[0]
        t = time.perf_counter()
        export = efg_cfr.export_efg(pyspiel.load_game(config))
        build = time.perf_counter() - t
        rates = {}
        for kind in efg_cfr.KINDS:
            solver = efg_cfr.ExactCFR(export, kind)
            t = time.perf_counter()
            for _ in range(per_kind):
                solver.iterate()
            rates[kind] = (time.perf_counter() - t) / per_kind
        solver = efg_cfr.ExactCFR(export, "cfr+")
        t = time.perf_counter()
        expl = float("inf")
        while solver.iteration < cap:
            solver.iterate()
            expl = solver.nash_conv() / 2
            if expl <= 0.01:
                break
        rows.append(
            (
                spec.short_name,
                config,
                export.num_nodes,
                build,
                rates,
                solver.iteration,
                time.perf_counter() - t,
                expl,
            )
        )
    return rows


_MEMORY_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
import pyspiel, spiel_games
from solvers.mccfr_sequential import MCCFR
from solvers.policy_file import table_rows, write_policy
spec = spiel_games.get_spec({config!r})
game = pyspiel.load_game({config!r})
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
solver = MCCFR(game, "os", spec.abstraction_name or "none", seed=0)
t = time.perf_counter()
half_keys = None
while solver.iterations < {iterations} and time.perf_counter() - t < {seconds}:
    solver.iteration()
    if solver.iterations == {iterations} // 2:
        half_keys = solver.tables.rows
secs = time.perf_counter() - t
size = write_policy({out!r}, table_rows(solver.average_policy_table()), {{
    "game": str(game), "abstraction": solver.abstraction,
    "abstraction_version": spec.abstraction_version, "iterations": solver.iterations,
    "solver": "mccfr-os"}})
print(json.dumps({{"rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                   "base_kib": before, "keys": solver.tables.rows, "half_keys": half_keys,
                   "iterations": solver.iterations, "bytes": size, "seconds": secs}}))
"""


def mccfr_memory(quick: bool) -> list[tuple[str, str, dict]]:
    import spiel_games

    iterations, seconds = (2, 5) if SMOKE else (20, 20) if quick else (400, 120)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in spiel_games.all_specs():
            out = str(Path(tmp) / f"{spec.short_name}.parquet")
            code = _MEMORY_CHILD.format(
                root=str(ROOT),
                config=spec.typical_config,
                iterations=iterations,
                seconds=seconds,
                out=out,
            )
            proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            if proc.returncode != 0:
                err = (proc.stderr.strip().splitlines() or ["?"])[-1][:120]
                rows.append((spec.short_name, spec.typical_config, {"error": err}))
                continue
            rows.append(
                (
                    spec.short_name,
                    spec.typical_config,
                    json.loads(proc.stdout.strip().splitlines()[-1]),
                )
            )
    return rows


def sections(quick: bool) -> list[str]:
    """Markdown blocks for docs/BENCHMARKS.md."""
    out = []
    lines = [
        "## Solvers: IS-MCTS simulations per second",
        "",
        "At the first decision of the 4-player game (after the opening chance events), "
        "one process, `ismcts(time=T)` on the meeple engine (solvers/search/). "
        "Full = random rollouts to the end; cut = `rollout_depth=20` (then the position "
        "is scored from the current scores).",
        "",
        "| game | configuration | sims/s (full rollouts) | sims/s (rollout_depth=20) |",
        "|---|---|---:|---:|",
    ]
    for name, config, full, cut in ismcts_rates(quick):
        lines.append(f"| {name} | `{config}` | {full:,.0f} | {cut:,.0f} |")
    out.append("\n".join(lines))

    lines = [
        "## Solvers: MCCFR iterations per second",
        "",
        "One iteration = one traversal per player. Outcome sampling on the full typical "
        "game, keyed by the game's abstraction; external sampling on the first tiny "
        "configuration (information-state keys). `keys` = table entries after the run.",
        "",
        "| game | solver | configuration | iterations/s | keys |",
        "|---|---|---|---:|---:|",
    ]
    for name, solver, config, rate, keys in mccfr_rates(quick):
        lines.append(f"| {name} | {solver} | `{config}` | {rate:,.1f} | {keys:,} |")
    out.append("\n".join(lines))

    lines = [
        "## Solvers: exact CFR through OpenSpiel (EFG export)",
        "",
        "First tiny configuration of each game. The game is exported once to Gambit EFG "
        "and loaded as a C++ game (solvers/efg_cfr.py; `export s` includes the walk and "
        "`pyspiel.load_efg_game`). Seconds per iteration: `pyspiel.CFRSolver`, "
        "`pyspiel.CFRPlusSolver`, and OpenSpiel's Python `DCFRSolver` on the EFG game. "
        "CFR+ to exploitability 0.01: exploitability = `pyspiel.nash_conv` / 2, evaluated "
        "after every iteration (included in the time).",
        "",
        "| game | configuration | nodes | export s | cfr s/it | cfr+ s/it | dcfr s/it "
        "| CFR+ iterations | CFR+ s | exploitability |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, config, nodes, build, rates, its, secs, expl in cfr_plus_times(quick):
        lines.append(
            f"| {name} | `{config}` | {nodes:,} | {build:.2f} | {rates['cfr']:.4f} "
            f"| {rates['cfr+']:.4f} | {rates['dcfr']:.4f} | {its} | {secs:.2f} | {expl:.4f} |"
        )
    out.append("\n".join(lines))

    lines = [
        "## Solvers: MCCFR memory and policy file size",
        "",
        "A fresh process trains `mccfr-os` on the full typical game through the game's "
        "abstraction (up to the iteration count or a time cap); peak RSS includes the "
        "Python interpreter, pyspiel and the games (base = RSS before training). "
        "`keys at half` = table size after half the iterations, to show the growth. "
        "The table is bounded by `--max-keys` (default 2,000,000, about 2 GiB at the peak).",
        "",
        "| game | configuration | iterations | seconds | peak RSS MiB | base MiB | keys at half | keys | policy file KiB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, config, r in mccfr_memory(quick):
        if "error" in r:
            lines.append(f"| {name} | `{config}` | error: {r['error']} | | | | | | |")
            continue
        lines.append(
            f"| {name} | `{config}` | {r['iterations']} | {r['seconds']:.0f} "
            f"| {r['rss_kib'] / 1024:.0f} | {r['base_kib'] / 1024:.0f} | {r['half_keys'] or '-'} "
            f"| {r['keys']:,} | {r['bytes'] / 1024:.0f} |"
        )
    out.append("\n".join(lines))
    return out


if __name__ == "__main__":
    for block in sections("--quick" in sys.argv):
        print(block)
        print()
