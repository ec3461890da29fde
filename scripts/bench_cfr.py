"""CFR on the real games (issue 31): measures and writes docs/CFR.md.

Sections (``--sections``, every one by default), each stored with the command that
measured it in docs/data/cfr.json and rendered by ``bench_cfr_doc.py`` (``--render`` only
rewrites the document):

- ``speed``: per game at 3 players, random playouts and MCCFR traversals (outcome
  sampling with the full-game settings of ``meeple solve``, and windowed external
  sampling) per CPU second, in interleaved slices of one process after a warm-up (the
  process's CPU clock, so other jobs on the machine cost neither side); target: an OS
  traversal costs <= 1.5 x a playout; and random playouts that also compute the
  abstraction's keys and labels at every decision (the part of an OS traversal's cost
  that is the abstraction's);
- ``parallel``: the same MCCFR-OS rounds run serially and on two Ray workers, both
  warmed up by one untimed round (actors' start-up, imports, first keys), then timed in
  alternating segments (serial, Ray, serial, ...): wall seconds, traversals per second,
  parallel efficiency = serial / (2 x Ray) with its range over the segments, the CPU
  efficiency (serial CPU / driver + workers' CPU: the work distribution adds, whatever
  the load), the machine's load, and whether the tables are identical (they must be);
- ``blueprints``: the shipped blueprints: training (iterations, CPU time), keys, visits
  per key, and the learning curve (share of finishes ahead of the heuristic on fixed deals
  and coverage, as ``meeple solve`` reports them);
- ``strength``: the shipped ``blueprint`` and ``cfr-search`` each against two
  ``heuristic`` players, and the blueprint against two ``noisy(eps=0.3)`` players (an
  opponent no blueprint was trained against), every seat rotation, duplicate seeds,
  through the tournament runner (shares with 95% bootstrap intervals, coverage from the ledger), and cfr-search's
  seconds per decision on fixed positions (wall and CPU: the agent is one thread, so its
  CPU time is its time on an idle core);
- ``ismcts``: SPRTs (``tournament.sprt``, preset gain) of ``ismcts`` with
  ``prior=blueprint`` / ``opponents=blueprint`` (``--variants``; also ``both`` and
  ``rollout=blueprint``) against the default at equal seconds per
  move, capped at ``--max-games``; with ``--sprt-dir`` their ledgers are kept there (one
  per game and variant) and a rerun resumes them, so a long test survives a killed run;
- ``exact``: CFR+ on each game's first tiny configuration (NashConv after 10 and 100
  iterations: the regression check of the exact solvers).

    python scripts/bench_cfr.py                  # everything (about 40 minutes on 2 cores)
    python scripts/bench_cfr.py --sections speed,parallel,exact
    python scripts/bench_cfr.py --quick --data /tmp/cfr.json --out /tmp/CFR.md   # smoke run
    python scripts/bench_cfr.py --render         # rewrite docs/CFR.md from its data
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import spiel_games  # noqa: E402
from solvers import mccfr_train  # noqa: E402
from solvers.blueprint import shipped_blueprints  # noqa: E402
from solvers.identity import code_version  # noqa: E402
from solvers.mccfr_tables import Tables, load_npz  # noqa: E402
from solvers.registry import make_agent  # noqa: E402
from spiel_games.common.errors import MeepleError, one_line  # noqa: E402
from tournament.sprt.gsprt import PRESETS, Bounds  # noqa: E402
from tournament.sprt.run import SprtRequest, play_sprt  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
import bench_cfr_doc as doc  # noqa: E402
from bench_cfr_speed import game_string, speed  # noqa: E402

GAMES = ("coloretto", "rococo", "bruxelles", "staufer")
NOISY = "noisy(eps=0.3)"  # the heuristic with random moves: no blueprint trained against it
SECTIONS = ("speed", "parallel", "blueprints", "strength", "ismcts", "exact")
# The cfr-search agent measured per game (`--search` overrides it for every game). Tuned on
# other deals than the benchmark's (master seed 11): playing the root's most likely move
# beat sampling its mixed strategy (master seed 101: Coloretto 0.61 vs 0.54, Rococo 0.72 vs
# 0.67); on Coloretto, heuristic rollouts after the depth limit helped (seed 77: 0.75 of
# 120 pairs against 0.62 without) and the shallowest subgame plays best against the
# heuristic (docs/solvers.md for a line-up with a searcher): depth 1, 2, 3, 6 won 0.92, 0.81, 0.75, 0.64 of 120 pairs on master seed 4242 (0.86 at depth 1 on seed
# 5151); 600 iterations instead of 200 no better (0.66).
SEARCH = "cfr-search(iterations=200,play=best)"
SEARCHES = {"coloretto": "cfr-search(iterations=200,play=best,rollout=30,depth=1)"}


def search_spec(name: str, override: str = "") -> str:
    """The cfr-search agent the strength section measures on game ``name``."""
    return override or SEARCHES.get(name, SEARCH)


VARIANTS = {
    "prior": "prior=blueprint",
    "opponents": "opponents=blueprint",
    "both": "prior=blueprint,opponents=blueprint",
    "rollout": "rollout=blueprint",
}


def _strength_module():
    spec = importlib.util.spec_from_file_location(
        "bench_strength", ROOT / "scripts" / "bench_strength.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ----- parallel --------------------------------------------------------------------------
def _train_more(spec, executor, tables, state: list[int], iterations: int) -> tuple[float, float]:
    """Continue a run by ``iterations``: (wall seconds of training, CPU seconds of this
    process and the Ray workers). ``state``: iterations done, rounds."""
    done, rounds = state
    workers = getattr(executor, "worker_cpu_seconds", lambda: 0.0)
    cpu = time.process_time() + workers()
    progress = mccfr_train.train(
        spec, done + iterations, tables, done, rounds, None, executor, 10**12, lambda t, p: {}
    )
    state[:] = [progress.iterations, progress.rounds]
    return progress.seconds, time.process_time() + workers() - cpu


def parallel(name: str, iterations: int, repeats: int = 3, batch: int | None = None) -> dict:
    """Serial and 2-worker Ray training of the same rounds, timed validly: both runs are
    warmed up first (one untimed round each: the actors' start-up, imports, the first
    keys), then ``repeats`` timed segments of ``iterations`` each alternate between the
    two (serial, Ray, serial, Ray, ...), so load changes hit both sides alike."""
    from solvers.train import SolveConfig, train_spec, validate

    cfg = SolveConfig(
        game_string(name), "mccfr-os", iterations, out="unused.npz", workers=2, batch=batch
    )
    spec = train_spec(cfg, validate(cfg))
    out = {"game": game_string(name), "iterations": iterations, "batch": spec.batch}
    out |= {"players": 3, "repeats": repeats, "warm_up_iterations": 2 * spec.batch}
    runs = {
        "serial": mccfr_train.SerialExecutor(spec),
        "ray": mccfr_train.RayExecutor(spec),  # spec.workers = 2
    }
    tables = {label: Tables(spec.max_keys) for label in runs}
    states = {label: [0, 0] for label in runs}
    seconds: dict[str, list[float]] = {label: [] for label in runs}
    cpu = {label: 0.0 for label in runs}
    load = [os.getloadavg()[0]]
    try:
        for label, executor in runs.items():  # the untimed warm-up round
            _train_more(spec, executor, tables[label], states[label], 2 * spec.batch)
        for _ in range(repeats):
            for label, executor in runs.items():
                wall, used = _train_more(spec, executor, tables[label], states[label], iterations)
                seconds[label].append(wall)
                cpu[label] += used
            load.append(os.getloadavg()[0])
    finally:
        for executor in runs.values():
            executor.close()
    serial, ray = sum(seconds["serial"]), sum(seconds["ray"])
    out |= {"serial_seconds": serial, "ray_seconds": ray, "load": [min(load), max(load)]}
    out["segments"] = [[s, r] for s, r in zip(seconds["serial"], seconds["ray"], strict=True)]
    ratios = [s / (2 * r) for s, r in out["segments"]]
    out["efficiency"] = serial / (2 * ray)
    # the work distribution adds, whatever the load: serial CPU / (driver + workers' CPU)
    out["cpu_seconds"] = cpu
    out["cpu_efficiency"] = cpu["serial"] / cpu["ray"]
    out["efficiency_range"] = [min(ratios), max(ratios)]
    arrays = {label: t.to_arrays() for label, t in tables.items()}
    out["identical"] = all(
        np.array_equal(arrays["serial"][k], arrays["ray"][k]) for k in arrays["serial"]
    )
    return out


# ----- blueprints ------------------------------------------------------------------------
def blueprints(name: str) -> dict:
    game = spiel_games.load_game(game_string(name))
    found = []
    for path in shipped_blueprints(game):
        meta, arrays = load_npz(path)
        visits = arrays["visits"]
        found.append(
            {
                "file": str(path.relative_to(ROOT)),
                "bytes": path.stat().st_size,
                "meta": {k: v for k, v in meta.items() if k != "reports"},
                "curve": meta.get("reports", []),
                "keys": int(len(visits)),
                "visits_median": float(np.median(visits)) if len(visits) else 0.0,
                "keys_100": int((visits >= 100).sum()),
                "share_of_visits_at_100": float(visits[visits >= 100].sum() / max(1, visits.sum())),
            }
        )
    return {"game": game_string(name), "files": found}


# ----- strength ----------------------------------------------------------------------------
def strength(
    name: str, seeds: int, search_seeds: int, workers: int, executor: str, search: str = ""
) -> dict:
    module = _strength_module()
    search = search_spec(name, search)
    gs = game_string(name)
    out: dict = {"game": gs, "seeds": seeds, "lineups": {}}
    lineups = (
        ("blueprint", "blueprint", "heuristic", seeds),
        ("blueprint-noisy", "blueprint", NOISY, seeds),
        ("blueprint-best", "blueprint(play=best)", "heuristic", seeds),
        ("cfr-search", search, "heuristic", search_seeds),
    )
    for label, spec, against, n in lineups:
        agents = {label: spec, "opponent": against}
        seats = [[label, "opponent", "opponent"]]
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            r = module.play(gs, agents, n, workers, executor, Path(tmp) / "run", seats)
            ci = module.intervals(Path(tmp) / "run", r)
            minutes = (time.perf_counter() - t) / 60
        rows = [x for x in module.shares(r) if x[0] == label]
        _, _, share, pairs, diff = rows[0]
        low, high, d_low, d_high = ci[(label, "opponent")]
        me = next(a for a in r.agents if a.name == label)
        out["lineups"][label] = {
            "spec": spec,
            "opponent": against,
            "share": share,
            "interval": [low, high],
            "pairs": pairs,
            "games": int(r.games[r.agents.index(me)]),
            "score_difference": diff,
            "difference_interval": [d_low, d_high],
            "coverage": me.coverage,
            "minutes": minutes,
        }
    game = spiel_games.load_game(gs)
    positions = module.sample_positions(game)
    agent = make_agent(search, game, seed=1)
    t, c = time.perf_counter(), time.process_time()
    for s in positions:
        agent.step(s)
    out["search_seconds_per_decision"] = (time.perf_counter() - t) / len(positions)
    # the agent runs in this one thread: its CPU time is its time on an idle core
    out["search_cpu_seconds_per_decision"] = (time.process_time() - c) / len(positions)
    return out


# ----- exact -------------------------------------------------------------------------------
def exact(name: str) -> dict:
    from solvers import efg_cfr

    config = spiel_games.get_spec(name).tiny_configs[0]
    solver = efg_cfr.ExactCFR(efg_cfr.export_efg(pyspiel.load_game(config)), "cfr+")
    values = {}
    for it in range(1, 101):
        solver.iterate()
        if it in (10, 100):
            values[it] = solver.nash_conv()
    return {"game": config, "nash_conv_10": values[10], "nash_conv_100": values[100]}


# ----- IS-MCTS with the blueprint ------------------------------------------------------------
def ismcts(
    name: str,
    seconds: float,
    max_games: int,
    variants,
    workers: int,
    executor: str,
    sprt_dir: Path | None = None,
):
    """SPRTs (preset gain) of IS-MCTS with the blueprint against the default at equal time;
    their ledgers under ``sprt_dir/<game>/<variant>-<seconds>s-<max_games>g`` (resumed when
    there), else thrown away. ``minutes``: this run's time (a resumed test's earlier games
    not counted). The ``rollout`` variant is left out on a game whose default search plays
    no rollout moves (``rollout_depth`` 0: the two agents would be the same)."""
    gs = game_string(name)
    b = f"ismcts(time={seconds:g})"
    tests = []
    for variant in variants:
        if variant == "rollout" and not _plays_rollouts(gs, b):
            print(f"ismcts: {name}: no rollout moves by default, rollout left out", file=sys.stderr)
            continue
        a = f"ismcts(time={seconds:g},{VARIANTS[variant]})"
        req = SprtRequest(gs, a, b, Bounds(*PRESETS["gain"]), max_games=max_games)
        t = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            leaf = f"{variant}-{seconds:g}s-{max_games}g"
            where = sprt_dir / name / leaf if sprt_dir else Path(tmp) / "sprt"
            v, _, _ = play_sprt(req, where, workers, executor=executor)
        tests.append(
            {
                "variant": variant,
                "a": a,
                "b": b,
                "verdict": v.verdict,
                "games": v.games,
                "share": v.score,
                "elo": v.elo,
                "elo_low": v.elo_low,
                "elo_high": v.elo_high,
                "minutes": (time.perf_counter() - t) / 60,
            }
        )
    return {"game": gs, "tests": tests}


def _plays_rollouts(gs: str, spec: str) -> bool:
    """Whether ``spec`` plays any rollout move on game ``gs`` (its resolved depth)."""
    agent = make_agent(spec, spiel_games.load_game(gs), seed=0)
    return int(agent.params["rollout_depth"]) != 0


QUICK = ["--games", "coloretto", "--sections", "speed,blueprints,exact"]
QUICK += ["--seconds", "0.6", "--iterations", "32"]


def _measure(section: str, name: str, args) -> dict:
    print(f"{section}: {name}", file=sys.stderr, flush=True)
    if section == "speed":
        return speed(name, args.seconds)
    if section == "parallel":
        return parallel(name, args.iterations, args.repeats, args.batch)
    if section == "blueprints":
        return blueprints(name)
    if section == "strength":
        return strength(
            name, args.seeds, args.search_seeds, args.workers, args.executor, args.search
        )
    if section == "ismcts":
        variants = args.variants.split(",")
        return ismcts(
            name,
            args.move_seconds,
            args.max_games,
            variants,
            args.workers,
            args.executor,
            args.sprt_dir,
        )
    return exact(name)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per speed test")
    ap.add_argument("--iterations", type=int, default=640, help="parallel: iterations")
    ap.add_argument("--repeats", type=int, default=3, help="parallel: timed segments per side")
    ap.add_argument("--batch", type=int, default=None, help="parallel: iterations per batch")
    # The blueprint plays a 3-player game in milliseconds: 500 deals (3,000 pairs) by default,
    # where 100 deals left its share uncertain by about +-0.05 (on Die Staufer, five master
    # seeds of 100 deals gave 0.55 to 0.65).
    ap.add_argument("--seeds", type=int, default=500, help="strength: blueprint deals (x3 seats)")
    ap.add_argument("--search-seeds", type=int, default=20, help="strength: cfr-search deals")
    ap.add_argument(
        "--search", default="", help="strength: the cfr-search agent measured (default: per game)"
    )
    ap.add_argument("--move-seconds", type=float, default=0.05, help="ismcts: seconds per move")
    ap.add_argument("--max-games", type=int, default=24, help="ismcts: games per SPRT at most")
    ap.add_argument(
        "--variants", default="prior,opponents", help="ismcts: of prior,opponents,both,rollout"
    )
    ap.add_argument(
        "--sprt-dir", type=Path, default=None, help="ismcts: keep (and resume) the ledgers here"
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--executor", default="serial", choices=("ray", "serial"))
    ap.add_argument("--render", action="store_true", help="only rewrite the document")
    ap.add_argument("--quick", action="store_true", help="a smoke run: " + " ".join(QUICK))
    ap.add_argument("--data", type=Path, default=doc.DATA, help="the measurements (JSON)")
    ap.add_argument("--out", type=Path, default=doc.DOC)
    return ap


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args((QUICK if "--quick" in argv else []) + argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    command = "python scripts/bench_cfr.py " + " ".join(argv)
    if not args.render:
        for section in args.sections.split(","):
            load = os.getloadavg()[0]
            try:
                rows = [_measure(section, name, args) for name in games]
            except MeepleError as e:  # e.g. a --sprt-dir ledger of another test
                print(f"bench_cfr.py: {one_line(e)}", file=sys.stderr)
                return 2
            record = {"command": command, "code_version": code_version(), "rows": rows}
            record["load"] = [load, os.getloadavg()[0]]
            doc.save_section(args.data, f"{section}-{'-'.join(games)}", record)
    args.out.write_text(doc.render(doc.load_data(args.data)))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
