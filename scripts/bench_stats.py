"""Tournament science, measured (issue 30): writes docs/TOURNAMENTS-STATS.md.

Each phase measures one claim and stores its raw figures in docs/data/tournaments-stats.json
(tracked); ``render`` turns that file into the Markdown, and ``tests/test_docs_stats.py``
checks the Markdown is exactly that rendering, so no figure in it is typed by hand.

    python scripts/bench_stats.py ledgers            # 3-player round robins, 4 games
    python scripts/bench_stats.py sprt-sim           # A/A and A/B on simulated sets
    python scripts/bench_stats.py sprt-real [--llr normal]  # A/A and A/B on real games
    python scripts/bench_stats.py pl                 # Plackett-Luce vs Bradley-Terry
    python scripts/bench_stats.py luck               # luck adjustment
    python scripts/bench_stats.py luck-ceiling       # what any luck adjustment can remove
    python scripts/bench_stats.py adaptive           # adaptive schedule vs round robin
    python scripts/bench_stats.py adaptive-sim       # its error rates, synthetic games
    python scripts/bench_stats.py render             # data file -> docs/TOURNAMENTS-STATS.md
    python scripts/bench_stats.py render --check     # exit 1 when the Markdown differs

Ledgers go to ``--runs`` (default runs/stats) and are reused when rerun (they resume).
Agents are cheap on purpose (the machine is shared): random, the heuristic with 60%, 30%
and 10% random moves, the heuristic, and IS-MCTS at 8 simulations (its opponent model pinned).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))
if str(ROOT / "scripts") not in sys.path:  # its report module, also when loaded by a test
    sys.path.insert(0, str(ROOT / "scripts"))

import bench_stats_render  # noqa: E402
from bench_stats_adaptive import phase_adaptive_sim  # noqa: E402
from bench_stats_ceiling import phase_luck_ceiling  # noqa: E402
from bench_stats_common import (  # noqa: E402
    DATA,
    DOC,
    GAMES,
    POOL,
    POOL_SEEDS,
    ledger_dir,
    load_data,
    pool_config,
    progress,
    save,
)
from bench_stats_luck import phase_luck  # noqa: E402
from bench_stats_sprt import phase_sprt_real, phase_sprt_sim  # noqa: E402

__all__ = ["DATA", "DOC", "GAMES", "POOL", "POOL_SEEDS", "load_data", "main", "render"]


def phase_ledgers(args) -> None:
    from tournament.runner import run_tournament

    for name in args.games:
        t = time.perf_counter()
        cfg = pool_config(GAMES[name])
        s = run_tournament(cfg, ledger_dir(args.runs, name), workers=1, executor="serial")
        progress(
            f"{name}: {s.played} played, {s.already_done} there ({time.perf_counter() - t:.0f} s)"
        )


def _folds(groups, folds: int, seed: int):
    import numpy as np

    blocks = np.concatenate([g.blocks for g in groups])
    rng = np.random.default_rng(seed)
    fold_of = rng.integers(folds, size=int(blocks.max()) + 1)
    return fold_of


def _subset(groups, keep):
    from tournament.ratings.fit import Games

    out = []
    for g in groups:
        m = keep[g.blocks]
        out.append(Games(g.agents[m], g.ranks[m], g.scores[m], g.blocks[m]))
    return out


def phase_pl(args) -> None:
    """Held-out log-likelihood of finishing orders (5-fold over duplicate sets) for
    Plackett-Luce with and without a seat term and for the pairwise Elo's strengths used
    as Plackett-Luce strengths; agreement of the orders on the whole ledger."""
    import numpy as np
    from scipy.stats import kendalltau

    from tournament.ratings.fit import rate
    from tournament.ratings.load import load_games
    from tournament.ratings.plackett_luce import ELO, Model, order_log_probability, patterns

    rows = []
    for name in args.games:
        agents, groups, _, _ = load_games([ledger_dir(args.runs, name)])
        k = len(agents)
        fold_of = _folds(groups, 5, seed=1)
        ll = {"pl_seat": 0.0, "pl": 0.0, "bt": 0.0}
        games = 0
        for f in range(5):
            train = _subset(groups, fold_of != f)
            test = _subset(groups, fold_of == f)
            r = rate(agents, train, bootstrap=0, plackett_luce=False)
            pats = patterns(train, len(fold_of))
            model = Model(pats, k)
            x = model.fit([p.weights() for p in pats])
            theta, gammas = model.split(x)
            xs = _fit_no_seat(train, k, len(fold_of))
            for g in test:
                ll["pl_seat"] += float(
                    order_log_probability(g.agents, g.ranks, theta, gammas[0]).sum()
                )
                ll["pl"] += float(order_log_probability(g.agents, g.ranks, xs).sum())
                ll["bt"] += float(order_log_probability(g.agents, g.ranks, r.elo / ELO).sum())
                games += len(g.agents)
        whole = rate(agents, groups, bootstrap=0)
        pl_elo = whole.plackett_luce.elo
        tau = kendalltau(whole.elo, pl_elo).statistic
        rows.append(
            {
                "game": GAMES[name],
                "games": games,
                "loglik_per_game": {key: v / games for key, v in ll.items()},
                "kendall_tau": float(tau),
                "top3_elo": [agents[i].name for i in np.argsort(-whole.elo)[:3]],
                "top3_pl": [agents[i].name for i in np.argsort(-pl_elo)[:3]],
                "elo": {a.name: round(float(e), 1) for a, e in zip(agents, whole.elo, strict=True)},
                "pl": {a.name: round(float(e), 1) for a, e in zip(agents, pl_elo, strict=True)},
                "seat_terms": [  # None: not measured (no value)
                    round(s["elo"], 1) if s["measured"] else None for s in whole.plackett_luce.seats
                ],
            }
        )
        progress(f"pl {name}: {rows[-1]['loglik_per_game']}")
    save("pl", rows)


def _fit_no_seat(groups, k: int, blocks: int):
    """Plackett-Luce strengths without a seat term (every seat term held at 0)."""
    import numpy as np
    from scipy.optimize import minimize

    from tournament.ratings.plackett_luce import Model, patterns

    pats = patterns(groups, blocks)
    model = Model(pats, k)
    fixed = [(None, None)] * k + [(0.0, 0.0)] * (model.dim - k)
    w = [p.weights() for p in pats]
    res = minimize(model, np.zeros(model.dim), args=(w,), jac=True, method="L-BFGS-B", bounds=fixed)
    return model.split(res.x)[0]


def phase_adaptive(args) -> None:
    """Adaptive schedule against the full round robin of the pool ledger, on the same games:
    the adaptive rounds are decided on the round robin's games of the same seeds (games are
    deterministic given their seeds, so they are the games an adaptive run plays; the
    first game is also run for real and checked to match)."""
    from tournament.adaptive import AdaptiveSource, confidences
    from tournament.ledger import read_ledger
    from tournament.runner import run_tournament
    from tournament.schedule import schedule

    rows = []
    for name in args.games:
        rr = pool_config(GAMES[name])
        ledger = read_ledger(ledger_dir(args.runs, name))
        led = _by_current_ids(rr, ledger)
        full = confidences(rr, led, seed=7)
        target = min(0.95, min(c for _, _, c in full.pairs))
        cfg = pool_config(GAMES[name], schedule="adaptive", confidence=target, top=3)
        # the round robin's games by (line-up, seed index, seat order): the adaptive run's
        by_key = {(tuple(sorted(r["agents"])), r["seed_index"], r["rotation"]): r for r in led}
        tasks = schedule(cfg)
        src = AdaptiveSource(cfg, tasks)
        src.start([])
        played = 0
        while True:
            sets = src.take(10_000)
            if not sets:
                break
            for s in sets:
                rows_ = []
                for t in s:
                    key = (
                        tuple(sorted(cfg.agent(x).agent_id for x in t.seats)),
                        t.seed_index,
                        t.rotation,
                    )
                    r = dict(by_key[key], game_id=t.game_id)
                    rows_.append(r)
                played += len(rows_)
                src.finished(rows_)
        d = src.decision
        minimal = _minimal_round_robin(rr, led, full.order[:3], target)
        check = None
        if name == "coloretto":
            out = args.runs / f"adaptive-{name}"
            real = AdaptiveSource(cfg, tasks)
            run_tournament(cfg, out, workers=1, executor="serial", tasks=tasks, source=real)
            check = real.decision.order == d.order and read_ledger(out).table.num_rows == played
        rows.append(
            {
                "game": GAMES[name],
                "agents": list(POOL),
                "round_robin_games": len(led),
                "round_robin_order": full.order,
                "round_robin_least_confidence": min(c for _, _, c in full.pairs),
                "target_confidence": target,
                "adaptive_games": played,
                "adaptive_rounds": src.rounds,
                "adaptive_order": d.order,
                "adaptive_reason": d.reason,
                "adaptive_least_confidence": min(c for _, _, c in d.pairs),
                "same_top3": d.order[:3] == full.order[:3],
                "minimal_round_robin_games": minimal,
                "real_run_matches": check,
            }
        )
        progress(f"adaptive {name}: {rows[-1]}")
    save("adaptive", rows)


def _by_current_ids(cfg, ledger) -> list[dict]:
    """The ledger's rows with each agent id replaced by the id the agent of the same name has
    under the current code (ids include the code version; the games are the same ones as long
    as the behaviour digests hold, tests/test_behaviour_digests.py)."""
    name_of = {a["id"]: a["name"] for a in ledger.manifest["agents"]}
    rows = ledger.table.to_pylist()
    for r in rows:
        r["agents"] = [cfg.agent(name_of[x]).agent_id for x in r["agents"]]
    return rows


def _minimal_round_robin(rr, led, top3, target) -> int | None:
    """Games of the smallest round robin (seeds 0..s-1 of every line-up) whose top 3 is
    ``top3`` at ``target`` confidence; None when none is."""
    from tournament.adaptive import confidences

    for s in range(2, rr.seeds_per_lineup + 1):
        part = [r for r in led if r["seed_index"] < s]
        d = confidences(rr, part, seed=7)
        if d.order[:3] == top3 and min(c for _, _, c in d.pairs) >= target:
            return len(part)
    return None


# ----- rendering ---------------------------------------------------------------------


def render(data: dict) -> str:
    """docs/TOURNAMENTS-STATS.md from the data file's sections."""
    return bench_stats_render.render(data, list(POOL.values()))


def phase_render(args) -> int:
    text = render(load_data())
    if args.check:
        if not DOC.exists() or DOC.read_text() != text:
            print(
                "error: docs/TOURNAMENTS-STATS.md differs from its data: run render",
                file=sys.stderr,
            )
            return 1
        return 0
    DOC.write_text(text)
    progress(f"wrote {DOC.relative_to(ROOT)}")
    return 0


PHASES = {
    "render": phase_render,
    "ledgers": phase_ledgers,
    "sprt-sim": phase_sprt_sim,
    "sprt-real": phase_sprt_real,
    "pl": phase_pl,
    "luck": phase_luck,
    "luck-ceiling": phase_luck_ceiling,
    "adaptive": phase_adaptive,
    "adaptive-sim": phase_adaptive_sim,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=sorted(PHASES))
    ap.add_argument("--runs", type=Path, default=Path("runs/stats"), help="ledger directory")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--check", action="store_true", help="render: compare only")
    ap.add_argument(
        "--chance-only", action="store_true", help="luck: also measure chance events alone"
    )
    ap.add_argument("--seeds", type=int, help="luck: only the first duplicate sets per line-up")
    ap.add_argument(
        "--measured-only", action="store_true", help="luck: only the games already measured"
    )
    ap.add_argument(
        "--value",
        choices=("lookahead", "evaluation", "rollouts"),
        default="lookahead",
        help="luck: the value function",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="luck, luck-ceiling: a token run on small ledgers it plays, nothing saved",
    )
    ap.add_argument(
        "--llr", choices=("empirical", "normal"), default="empirical", help="sprt-real: LLR form"
    )
    ap.add_argument("--trials", type=int, help="adaptive-sim: runs per row (default 200)")
    ap.add_argument("--jobs", type=int, default=2, help="adaptive-sim: processes (default 2)")
    args = ap.parse_args(argv)
    args.games = [g for g in args.games.split(",") if g]
    return PHASES[args.phase](args) or 0


if __name__ == "__main__":
    raise SystemExit(main())
