"""CFR on the real games (issue 31): measures and writes docs/CFR.md.

Sections (``--sections``, every one by default), each stored as JSON under
``runs/bench_cfr/`` with the command that measured it and rendered into the document,
so sections can be measured in separate runs (``--render`` only rewrites the document):

- ``speed``: per game at 3 players, random playouts and MCCFR traversals (outcome
  sampling with the full-game settings of ``meeple solve``, and windowed external
  sampling) per CPU second, measured in interleaved one-second slices of one process
  after a warm-up (the CPU clock of the process, so other jobs on the machine cost
  neither side); the target is OS traversal <= 1.5 x a playout;
- ``parallel``: the same MCCFR rounds (two batches each) run serially and on two Ray
  workers: wall seconds of training (Ray's start excluded), parallel efficiency =
  serial / (2 x Ray), and whether the tables are identical (they must be);
- ``blueprints``: the blueprints the games ship: training (iterations, CPU time), keys,
  visits per key, and the learning curve (the share of finishes ahead of the heuristic on
  fixed deals and the coverage, as ``meeple solve`` reports them);
- ``strength``: the shipped ``blueprint`` and ``cfr-search`` each against two
  ``heuristic`` players at 3 players, every seat rotation, duplicate seeds, through the
  tournament runner (win shares with 95% bootstrap intervals, coverage from the ledger),
  and cfr-search's seconds per decision on fixed positions;
- ``exact``: CFR+ on each game's first tiny configuration (exploitability after 10 and 100
  iterations; the regression check of the exact solvers).

    python scripts/bench_cfr.py                       # everything (hours)
    python scripts/bench_cfr.py --sections speed,parallel,exact
    python scripts/bench_cfr.py --sections strength --games coloretto --seeds 20
    python scripts/bench_cfr.py --render              # rewrite docs/CFR.md from runs/bench_cfr
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
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
from solvers.fastpath import transition_functions  # noqa: E402
from solvers.mccfr import Traversals  # noqa: E402
from solvers.mccfr_tables import Tables, load_npz  # noqa: E402
from solvers.registry import make_agent  # noqa: E402
from solvers.train import ES_LEAVES, FULL_EPSILON  # noqa: E402
from spiel_games.common.chance import sample_chance  # noqa: E402
from solvers.identity import code_version  # noqa: E402

GAMES = ("coloretto", "rococo", "bruxelles", "staufer")
SECTIONS = ("speed", "parallel", "blueprints", "strength", "exact")
STORE = ROOT / "runs" / "bench_cfr"
SEARCH = "cfr-search(iterations=200)"
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _strength_module():
    spec = importlib.util.spec_from_file_location(
        "bench_strength", ROOT / "scripts" / "bench_strength.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def game_string(name: str) -> str:
    return f"python_{name}(players=3)"


# ----- speed ---------------------------------------------------------------------------
def _playout(game, apply, legal, rng) -> None:
    state = game.new_initial_state()
    while True:
        p = state.current_player()
        if p == TERMINAL:
            return
        if p < 0:
            apply(state, sample_chance(state, rng))
            continue
        actions = legal(state, p)
        apply(state, actions[rng.randrange(len(actions))])


def speed(name: str, seconds: float) -> dict:
    """Random playouts, OS and windowed ES traversals per CPU second, interleaved."""
    game = spiel_games.load_game(game_string(name))
    spec = spiel_games.get_spec(name)
    apply, legal = transition_functions(game)
    rng = random.Random(0)
    os_trav = Traversals(game, "os", spec.abstraction_name, FULL_EPSILON, "sampled", True)
    es_trav = Traversals(game, "es", spec.abstraction_name, es_leaves=ES_LEAVES)
    tables = Tables()
    for _ in range(5):  # warm-up: tables and the abstraction's caches
        view = tables.view()
        tables.apply(view, [os_trav.run(view, rng, [0, 1, 2] * 10).to_arrays()])
    counts = {"playout": [0, 0.0], "os": [0, 0.0], "es": [0, 0.0]}
    end = time.process_time() + 3 * seconds
    while time.process_time() < end:
        for kind in counts:
            t = time.process_time()
            n = 0
            view = tables.view()
            while time.process_time() - t < seconds / 3:
                if kind == "playout":
                    _playout(game, apply, legal, rng)
                elif kind == "os":
                    os_trav.run(view, rng, [n % 3])
                else:
                    es_trav.run(view, rng, [n % 3])
                n += 1
            counts[kind][0] += n
            counts[kind][1] += time.process_time() - t
    rates = {k: n / s for k, (n, s) in counts.items()}
    return {
        "game": game_string(name),
        **{f"{k}_per_s": r for k, r in rates.items()},
        "os_ratio": rates["playout"] / rates["os"],
        "es_ratio": rates["playout"] / rates["es"],
    }


# ----- parallel --------------------------------------------------------------------------
def parallel(name: str, iterations: int) -> dict:
    from solvers.train import SolveConfig, train_spec, validate

    cfg = SolveConfig(game_string(name), "mccfr-os", iterations, out="unused.npz", workers=2)
    spec = train_spec(cfg, validate(cfg))
    out = {"game": game_string(name), "iterations": iterations, "batch": spec.batch}
    tables = {}
    for label in ("serial", "ray"):
        t = Tables(spec.max_keys)
        executor = (
            mccfr_train.SerialExecutor(spec)
            if label == "serial"
            else mccfr_train.RayExecutor(spec, 2, None)
        )
        try:
            progress = mccfr_train.train(
                spec, iterations, t, 0, 0, None, executor, 2, 10**12, lambda t, p: {}
            )
        finally:
            executor.close()
        out[f"{label}_seconds"] = progress.seconds
        tables[label] = t.to_arrays()
    out["efficiency"] = out["serial_seconds"] / (2 * out["ray_seconds"])
    out["identical"] = all(
        np.array_equal(tables["serial"][k], tables["ray"][k]) for k in tables["serial"]
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
def strength(name: str, seeds: int, workers: int, executor: str) -> dict:
    module = _strength_module()
    gs = game_string(name)
    out: dict = {"game": gs, "seeds": seeds, "lineups": {}}
    for label, spec in (("blueprint", "blueprint"), ("cfr-search", SEARCH)):
        agents = {label: spec, "heuristic": "heuristic"}
        seats = [[label, "heuristic", "heuristic"]]
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            r = module.play(gs, agents, seeds, workers, executor, Path(tmp) / "run", seats)
            ci = module.intervals(Path(tmp) / "run", r)
            minutes = (time.perf_counter() - t) / 60
        rows = [x for x in module.shares(r) if x[0] == label]
        _, _, share, pairs, diff = rows[0]
        low, high, d_low, d_high = ci[(label, "heuristic")]
        me = next(a for a in r.agents if a.name == label)
        out["lineups"][label] = {
            "spec": spec,
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
    agent = make_agent(SEARCH, game, seed=1)
    t = time.perf_counter()
    for s in positions:
        agent.step(s)
    out["search_seconds_per_decision"] = (time.perf_counter() - t) / len(positions)
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


# ----- the document --------------------------------------------------------------------------
def _load() -> dict:
    out: dict = {}
    for path in sorted(STORE.glob("*.json")):
        out[path.stem] = json.loads(path.read_text())
    return out


def _pct(x) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def _status(ok: bool | None) -> str:
    return "n/a" if ok is None else "**holds**" if ok else "misses"


def targets(data: dict) -> list[str]:
    sp = [r for k, v in data.items() if k.startswith("speed") for r in v["rows"]]
    par = data.get("parallel", {}).get("rows", [])
    st = [r for k, v in data.items() if k.startswith("strength") for r in v["rows"]]
    ex = data.get("exact", {}).get("rows", [])
    cov = [r["lineups"]["blueprint"]["coverage"] for r in st]
    bp = [r["lineups"]["blueprint"]["share"] for r in st]
    cs = [r["lineups"]["cfr-search"]["share"] for r in st]
    secs = [r["search_seconds_per_decision"] for r in st]
    lines = ["| target | measured | status |", "|---|---|---|"]

    def row(text, measured, ok):
        lines.append(f"| {text} | {measured} | {_status(ok)} |")

    ratios = ", ".join(f"{r['game'].split('(')[0][7:]} {r['os_ratio']:.2f}" for r in sp)
    row(
        "OS traversal <= 1.5 x a random playout (every game)",
        ratios or "n/a",
        all(r["os_ratio"] <= 1.5 for r in sp) if sp else None,
    )
    eff = ", ".join(f"{r['game'].split('(')[0][7:]} {r['efficiency']:.2f}" for r in par)
    row(
        "parallel efficiency >= 0.8 at 2 workers; merged tables = serial tables",
        eff or "n/a",
        all(r["efficiency"] >= 0.8 and r["identical"] for r in par) if par else None,
    )
    row(
        "blueprint coverage >= 0.80 at 3 players, every game, <= 1 h training",
        ", ".join(_pct(x) for x in cov) or "n/a",
        all(x is not None and x >= 0.8 for x in cov) if cov else None,
    )
    row(
        "blueprint ahead of heuristic >= 0.55 on >= 2 games",
        ", ".join(_pct(x) for x in bp) or "n/a",
        sum(x >= 0.55 for x in bp) >= 2 if bp else None,
    )
    row(
        "cfr-search ahead of heuristic >= 0.70 on every game at <= 1 s per decision",
        ", ".join(f"{s:.2f} ({t:.2f} s)" for s, t in zip(cs, secs, strict=True)) or "n/a",
        all(x >= 0.7 for x in cs) and all(t <= 1.0 for t in secs) if cs else None,
    )
    row(
        "exact CFR+ on tiny configurations: NashConv after 100 iterations < 0.01",
        ", ".join(f"{r['nash_conv_100']:.4f}" for r in ex) or "n/a",
        all(r["nash_conv_100"] < 0.01 for r in ex) if ex else None,
    )
    return lines


def render(data: dict) -> str:
    lines = [
        "# CFR on the real games",
        "",
        "Written by `scripts/bench_cfr.py` (issue 31) from the measurements stored under",
        "`runs/bench_cfr/`; each section names the command and code version that measured it.",
        'Design and usage: docs/solvers.md ("The CFR family").',
        "",
        "## Against the targets",
        "",
        *targets(data),
        "",
    ]
    for name, title, body in (
        ("speed", "Traversal speed", _speed_lines),
        ("parallel", "Distributed training at 2 workers", _parallel_lines),
        ("blueprints", "The shipped blueprints", _blueprint_lines),
        ("strength", "Playing strength at 3 players", _strength_lines),
        ("exact", "Exact CFR on tiny configurations", _exact_lines),
    ):
        parts = [v for k, v in sorted(data.items()) if k == name or k.startswith(name + "-")]
        if not parts:
            continue
        lines += [f"## {title}", ""]
        for part in parts:
            lines += [f"    {part['command']}", "", f"Code version {part['code_version']}.", ""]
            lines += body(part["rows"]) + [""]
    return "\n".join(lines).rstrip() + "\n"


def _speed_lines(rows) -> list[str]:
    out = [
        "Per CPU second of one process (interleaved slices; 3 players):",
        "",
        "| game | random playouts/s | OS traversals/s | playout / OS | windowed ES traversals/s "
        "| playout / ES |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['game']} | {r['playout_per_s']:.0f} | {r['os_per_s']:.0f} | "
            f"{r['os_ratio']:.2f} | {r['es_per_s']:.0f} | {r['es_ratio']:.2f} |"
        )
    return out


def _parallel_lines(rows) -> list[str]:
    out = [
        "| game | iterations | batch | serial s | Ray s | efficiency | identical tables |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['game']} | {r['iterations']} | {r['batch']} | {r['serial_seconds']:.1f} | "
            f"{r['ray_seconds']:.1f} | {r['efficiency']:.2f} | {'yes' if r['identical'] else 'NO'} |"
        )
    return out


def _blueprint_lines(rows) -> list[str]:
    out = [
        "| file | iterations | training CPU min | keys | median visits per key | keys with >= 100 "
        "visits (share of all visits) | MB |",
        "|---|---|---|---|---|---|---|",
    ]
    curves = []
    for r in rows:
        for f in r["files"]:
            m = f["meta"]
            cpu = m.get("train_cpu_seconds") or 0.0
            out.append(
                f"| {f['file']} | {m['iterations']} | {cpu / 60:.0f} | {f['keys']} | "
                f"{f['visits_median']:.0f} | {f['keys_100']} ({f['share_of_visits_at_100']:.3f}) "
                f"| {f['bytes'] / 1e6:.1f} |"
            )
            curve = [c for c in f["curve"] if c.get("ahead") is not None]
            if curve:
                curves += [
                    "",
                    f"Learning curve of {m['game']} (the progress figure of `meeple solve`: the "
                    "blueprint, from every seat, against two heuristic players on its fixed deals):",
                    "",
                    "| iteration | ahead of heuristic | coverage | keys | visits per key |",
                    "|---|---|---|---|---|",
                ]
                curves += [
                    f"| {c['iteration']} | {c['ahead']:.2f} | {c['coverage']:.2f} | "
                    f"{int(c['keys'])} | {c['visits_per_key']:.0f} |"
                    for c in curve
                ]
    return out + curves


def _strength_lines(rows) -> list[str]:
    out = [
        "Each agent in one seat, `heuristic` in the other two, every seat rotation on each "
        "deal (duplicate seeds), played by the tournament runner. Share = pairs (agent, "
        "heuristic) in which the agent finished ahead, ties half; 95% bootstrap intervals "
        "over the deals. Coverage: the blueprint's decisions played from its table (ledger).",
        "",
        "| game | agent | ahead of heuristic | 95% interval | pairs | score difference | "
        "95% interval | coverage | minutes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        for x in r["lineups"].values():
            lo, hi = x["interval"]
            dlo, dhi = x["difference_interval"]
            out.append(
                f"| {r['game']} | `{x['spec']}` | {x['share']:.2f} | {lo:.2f} .. {hi:.2f} | "
                f"{x['pairs']} | {x['score_difference']:+.1f} | {dlo:+.1f} .. {dhi:+.1f} | "
                f"{_pct(x['coverage'])} | {x['minutes']:.0f} |"
            )
    out += ["", "Seconds per decision of `" + SEARCH + "` on 8 fixed positions:", ""]
    out += [f"- {r['game']}: {r['search_seconds_per_decision']:.2f} s" for r in rows]
    return out


def _exact_lines(rows) -> list[str]:
    out = ["| configuration | NashConv after 10 | after 100 |", "|---|---|---|"]
    out += [f"| `{r['game']}` | {r['nash_conv_10']:.4f} | {r['nash_conv_100']:.5f} |" for r in rows]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--seconds", type=float, default=30.0, help="CPU seconds per speed test")
    ap.add_argument("--iterations", type=int, default=1280, help="parallel: iterations")
    ap.add_argument("--seeds", type=int, default=20, help="strength: deals (x3 rotations)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--executor", default="serial", choices=("ray", "serial"))
    ap.add_argument("--render", action="store_true", help="only rewrite the document")
    ap.add_argument("--out", default="docs/CFR.md")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    command = "python scripts/bench_cfr.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if not args.render:
        STORE.mkdir(parents=True, exist_ok=True)
        for section in args.sections.split(","):
            rows = []
            for name in games if section != "parallel" else games[:1]:
                print(f"{section}: {name}", file=sys.stderr, flush=True)
                if section == "speed":
                    rows.append(speed(name, args.seconds))
                elif section == "parallel":
                    rows.append(parallel(name, args.iterations))
                elif section == "blueprints":
                    rows.append(blueprints(name))
                elif section == "strength":
                    rows.append(strength(name, args.seeds, args.workers, args.executor))
                elif section == "exact":
                    rows.append(exact(name))
            key = section if section in ("parallel", "exact") else f"{section}-{'-'.join(games)}"
            record = {"command": command, "code_version": code_version(), "rows": rows}
            (STORE / f"{key}.json").write_text(json.dumps(record, indent=1))
    Path(args.out).write_text(render(_load()))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
