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


def phase_ledgers(args) -> None:
    from tournament.runner import run_tournament

    for name in args.games:
        t = time.perf_counter()
        cfg = pool_config(GAMES[name])
        s = run_tournament(cfg, ledger_dir(args.runs, name), workers=1, executor="serial")
        progress(
            f"{name}: {s.played} played, {s.already_done} there ({time.perf_counter() - t:.0f} s)"
        )


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a proportion k / n."""
    import math

    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def simulated_runs(probs, values, bounds, runs: int, seed: int) -> list[dict]:
    """``runs`` SPRTs on sets drawn from ``probs`` on ``values``; each with its estimate."""
    import numpy as np

    from tournament.sprt.estimate import Outcome, stopped_estimate
    from tournament.sprt.gsprt import Tally, walk

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(runs):
        xs = rng.choice(values, size=20_000, p=probs)
        last = walk(xs, bounds)[-1]
        tally = Tally(xs[: last.sets])
        v, w = tally.arrays()
        s0, s1 = bounds.scores()
        est = stopped_estimate(
            Outcome(last.verdict, last.sets, last.llr), v, w, s0, s1, bounds.lower, bounds.upper, 0
        )
        out.append(
            {
                "verdict": last.verdict,
                "sets": last.sets,
                "est": est.score,
                "lo": est.low,
                "hi": est.high,
                "mean": tally.mean_var()[0],
            }
        )
    return out


def set_distribution(kind: str, elo: float):
    """Set-score distributions: ``ab3`` a 3-player set with the default filler (12 A-B
    pairs, binomial), ``pair`` a 2-player game pair (pentanomial, 20% of games drawn)."""
    import numpy as np
    from scipy.stats import binom

    from tournament.sprt.gsprt import elo_to_score

    s = elo_to_score(elo)
    if kind == "ab3":
        return binom.pmf(np.arange(13), 12, s), np.linspace(0, 1, 13)
    # a game: win w, draw 0.2, loss l with w - l = 2 s - 1; a pair: two independent games
    w, d = s - 0.1, 0.2
    game = np.array([1 - w - d, d, w])  # score 0, 1/2, 1
    pair = np.convolve(game, game)  # score 0, 1/4, ..., 1
    return pair, np.linspace(0, 1, 5)


def phase_sprt_sim(args) -> None:
    import numpy as np

    from tournament.sprt.gsprt import PRESETS, Bounds, elo_to_score, wald

    bounds = Bounds(*PRESETS["gain"])
    s0, s1 = bounds.scores()
    rows = []
    for kind in ("ab3", "pair"):
        for elo, runs in ((0.0, 1000), (-20.0, 200), (20.0, 200), (40.0, 200)):
            t = time.perf_counter()
            probs, values = set_distribution(kind, elo)
            p_h1, expected = wald(probs, values, bounds, s0, s1)
            done = simulated_runs(probs, values, bounds, runs, seed=int(elo) + 1000)
            truth = elo_to_score(elo)
            h1 = sum(r["verdict"] == "H1" for r in done)
            rows.append(
                {
                    "sets_kind": kind,
                    "elo": elo,
                    "runs": runs,
                    "h1": h1,
                    "h1_ci": wilson(h1, runs),
                    "wald_h1": p_h1,
                    "mean_sets": float(np.mean([r["sets"] for r in done])),
                    "wald_sets": expected,
                    "median_est_error_elo": float(np.median([_elo(r["est"]) - elo for r in done])),
                    "median_naive_error_elo": float(
                        np.median([_elo(r["mean"]) - elo for r in done])
                    ),
                    "ci_coverage": float(np.mean([r["lo"] <= truth <= r["hi"] for r in done])),
                }
            )
            progress(f"sprt-sim {kind} elo {elo}: {time.perf_counter() - t:.0f} s")
    save("sprt_sim", {"bounds": [bounds.elo0, bounds.elo1], "rows": rows})


def _elo(score: float) -> float:
    from tournament.sprt.gsprt import score_to_elo

    return score_to_elo(score)


REAL_AA = ("random", "noisy(eps=1.0)")  # equal strength (uniform moves), other draws
REAL_AB = ("heuristic", "noisy(eps=0.3)")


def phase_sprt_real(args) -> None:
    """A/A: 20 SPRTs of random against noisy(eps=1.0) (both uniformly random movers that
    draw differently) on three-player Coloretto, seeds 0..19; A/B: 5 of the heuristic
    against noisy(eps=0.3)."""
    from tournament.sprt.gsprt import PRESETS, Bounds
    from tournament.sprt.run import SprtRequest, play_sprt

    out = {}
    for label, (a, b), runs in (("aa", REAL_AA, 20), ("ab", REAL_AB, 5)):
        rows = []
        for seed in range(runs):
            req = SprtRequest(
                GAMES["coloretto"], a, b, Bounds(*PRESETS["gain"]), max_games=6000, seed=seed
            )
            v, _, _ = play_sprt(
                req, args.runs / f"sprt-{label}-{seed}", workers=1, executor="serial"
            )
            rows.append(
                {
                    "seed": seed,
                    "verdict": v.verdict,
                    "games": v.games,
                    "elo": v.elo,
                    "elo_ci": [v.elo_low, v.elo_high],
                }
            )
            progress(f"sprt-real {label} {seed}: {v.verdict} after {v.games} games")
        out[label] = {"a": a, "b": b, "game": GAMES["coloretto"], "rows": rows}
    save("sprt_real", out)


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
                "seat_terms": [round(s["elo"], 1) for s in whole.plackett_luce.seats],
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


def phase_luck(args) -> None:
    """Luck of every game of the pool ledgers: SD of the per-game results raw, with the
    whole luck subtracted, and with the cross-fitted share that ratings subtract; the mean
    adjustment against its standard error."""
    import math

    import numpy as np

    from tournament.ledger import read_ledger
    from tournament.luck import cross_fitted_scale
    from tournament.luck_ledger import ledger_luck

    rows = []
    for name in args.games:
        d = ledger_dir(args.runs, name)
        t = time.perf_counter()
        luck = ledger_luck(d)
        seconds = time.perf_counter() - t
        games = [r for r in read_ledger(d).table.to_pylist() if r["game_id"] in luck]
        pair, margin, seat_luck = [], [], []  # (result, luck, fold)
        for g in games:
            lk = luck[g["game_id"]]
            ranks, scores = np.array(g["ranks"]), np.array(g["scores"], float)
            lu, pl = np.array(lk["luck"]), np.array(lk["pairs"])
            n, fold = len(ranks), g["seed"] % 2
            for i in range(n):
                others = [j for j in range(n) if j != i]
                margin.append((scores[i] - scores[others].mean(), lu[i] - lu[others].mean(), fold))
                for j in others:
                    if j > i:
                        res = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                        pair.append((res, pl[i, j], fold))
            seat_luck.append(lu)
        sds = {}
        for key, items in (("pairwise", pair), ("margin", margin)):
            res, lk, fold = (np.array(x) for x in zip(*items, strict=True))
            beta = cross_fitted_scale(res, lk, fold)
            sds[key] = [float(np.std(res)), float(np.std(res - lk)), float(np.std(res - beta * lk))]
            sds[key + "_beta"] = float(beta.mean())
        seat = np.array(seat_luck)
        z_seat = seat.mean(axis=0) / (seat.std(axis=0) / math.sqrt(len(seat)))
        adj = np.array([p[1] for p in pair])
        rows.append(
            {
                "game": GAMES[name],
                "games": len(games),
                "seconds": round(seconds),
                "sd_pairwise": sds["pairwise"],
                "sd_margin": sds["margin"],
                "beta_pairwise": sds["pairwise_beta"],
                "beta_margin": sds["margin_beta"],
                "mean_pair_adjustment": float(adj.mean()),
                "se_pair_adjustment": float(adj.std() / math.sqrt(len(adj))),
                "mean_luck_by_seat": [float(x) for x in seat.mean(axis=0)],
                "z_luck_by_seat": [float(x) for x in z_seat],
            }
        )
        progress(f"luck {name}: {rows[-1]}")
    save("luck", rows)


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
    for name in [g for g in ("coloretto", "staufer") if g in args.games]:
        rr = pool_config(GAMES[name])
        led = read_ledger(ledger_dir(args.runs, name)).table.to_pylist()
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


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _met(ok: bool) -> str:
    return "met" if ok else "**missed**"


def render_sprt(data: dict) -> list[str]:
    out = []
    sim = data.get("sprt_sim")
    if sim:
        lo, hi = sim["bounds"]
        out += [
            "## SPRT on simulated sets",
            "",
            f"Command: `python scripts/bench_stats.py sprt-sim`. Preset `gain` (elo0 {lo:g}, "
            f"elo1 {hi:g}, alpha = beta = 0.05). Sets: `ab3`, a three-player set with the "
            "default filler (12 A-B pairs per set, binomial); `pair`, a two-player game pair "
            "(fishtest's pentanomial, 20% draws). Wald: his approximations of the chance of "
            "accepting H1 and of the expected number of sets; estimate: the median-unbiased "
            "Elo at the stop, minus the truth (median over the runs), beside the plain mean's.",
            "",
            "| sets | true Elo | runs | H1 accepted | 95% interval | Wald | mean sets "
            "| Wald sets | ratio | estimate error | plain mean error | 95% CI covers |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in sim["rows"]:
            out.append(
                f"| {r['sets_kind']} | {r['elo']:g} | {r['runs']} | {_pct(r['h1'] / r['runs'])} "
                f"| {_pct(r['h1_ci'][0])} .. {_pct(r['h1_ci'][1])} | {_pct(r['wald_h1'])} "
                f"| {r['mean_sets']:.1f} | {r['wald_sets']:.1f} "
                f"| {r['mean_sets'] / r['wald_sets']:.2f} | {r['median_est_error_elo']:+.1f} "
                f"| {r['median_naive_error_elo']:+.1f} | {_pct(r['ci_coverage'])} |"
            )
        aa = [r for r in sim["rows"] if r["elo"] == lo]
        ab = [r for r in sim["rows"] if r["elo"] != lo]
        aa_ok = all(r["h1"] / r["runs"] <= 0.05 for r in aa)
        ratio_ok = all(r["mean_sets"] / r["wald_sets"] <= 1.3 for r in ab)
        direction = all(
            (r["h1"] / r["runs"] > 0.5) == (r["elo"] > (lo + hi) / 2) for r in ab if r["elo"] != hi
        )
        out += [
            "",
            "- A/A (true Elo = elo0): H1 in "
            + ", ".join(f"{r['h1']} of {r['runs']} ({r['sets_kind']})" for r in aa)
            + f"; target at most 5%: {_met(aa_ok)}.",
            f"- A/B: mean sets within 1.3x of Wald's approximation in every row: {_met(ratio_ok)}; "
            f"stops in the right direction (true Elo outside the bounds): {_met(direction)}.",
            "",
        ]
    real = data.get("sprt_real")
    if real:
        out += [
            "## SPRT on real games",
            "",
            "Command: `python scripts/bench_stats.py sprt-real`.",
            "",
        ]
        for label, what in (("aa", "A/A"), ("ab", "A/B")):
            x = real[label]
            rows = x["rows"]
            verdicts = {
                v: sum(r["verdict"] == v for r in rows) for v in ("H1", "H0", "inconclusive")
            }
            games = sorted(r["games"] for r in rows)
            out.append(
                f"- {what}: `{x['a']}` against `{x['b']}` on `{x['game']}`, preset gain, "
                f"{len(rows)} runs (seeds 0..{len(rows) - 1}): H1 {verdicts['H1']}, "
                f"H0 {verdicts['H0']}, inconclusive {verdicts['inconclusive']}; games per run "
                f"median {games[len(games) // 2]}, range {games[0]}..{games[-1]}."
            )
        aa = real["aa"]["rows"]
        share = sum(r["verdict"] == "H1" for r in aa) / len(aa)
        out += [f"- A/A target (H1 in at most 5% of runs): {_met(share <= 0.05)}.", ""]
    return out


def render_pl(rows: list[dict]) -> list[str]:
    out = [
        "## Plackett-Luce against pairwise Bradley-Terry",
        "",
        "Command: `python scripts/bench_stats.py pl` on the pool ledgers (the six pool "
        "agents, every three-player line-up, 2,040 games per game). Held-out log-likelihood "
        "of the finishing orders, natural log per game, 5-fold over duplicate sets: "
        "Plackett-Luce with and without the seat term, and the pairwise Elo's strengths "
        "used as Plackett-Luce strengths (Bradley-Terry has no model of a whole order "
        "otherwise). Uniform orders score ln(1/6) = -1.792. Agreement: Kendall's tau between "
        "the two ratings on the whole ledger, and their top 3.",
        "",
        "| game | games | PL + seat | PL | Elo as PL | best | Kendall tau | same top 3 "
        "| seat terms (Elo) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ll = r["loglik_per_game"]
        best = max(ll, key=ll.get)
        names = {"pl_seat": "PL + seat", "pl": "PL", "bt": "Elo as PL"}
        out.append(
            f"| `{r['game']}` | {r['games']} | {ll['pl_seat']:.4f} | {ll['pl']:.4f} "
            f"| {ll['bt']:.4f} | {names[best]} | {r['kendall_tau']:.3f} "
            f"| {'yes' if r['top3_elo'] == r['top3_pl'] else 'no'} "
            f"| {', '.join(f'{x:+.1f}' for x in r['seat_terms'])} |"
        )
    wins = sum(
        max(r["loglik_per_game"]["pl_seat"], r["loglik_per_game"]["pl"])
        > r["loglik_per_game"]["bt"]
        for r in rows
    )
    out += [
        "",
        f"- Plackett-Luce (either form) better held out on {wins} of {len(rows)} games.",
        "",
    ]
    return out


def render_luck(rows: list[dict]) -> list[str]:
    out = [
        "## Luck adjustment",
        "",
        "Command: `python scripts/bench_stats.py luck` (replays every game of the pool "
        "ledgers; `meeple ratings --luck-adjusted` uses the same numbers). Per-game result: "
        "a pairwise result (1 ahead, 1/2 tie, 0 behind; what Elo rates) and a score margin "
        "(a player's score minus the mean of the others'). Standard deviations: raw, with the "
        "whole luck subtracted, and with the share beta that ratings subtract (the control "
        "variate's coefficient, fitted on the other half of the duplicate sets). Mean "
        "adjustment: the mean pairwise luck over every pair of every game, with its standard "
        "error; z: the largest |mean / standard error| of the seats' score luck.",
        "",
        "| game | games | SD pairwise raw | whole luck | beta | beta x luck | SD margin raw "
        "| whole luck | beta | beta x luck | mean adjustment | z (seats) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ok_sd, ok_mean = True, True
    for r in rows:
        pr, pa, pb = r["sd_pairwise"]
        mr, ma, mb = r["sd_margin"]
        ok_sd &= min(pa, pb) <= 0.7 * pr
        ok_mean &= abs(r["mean_pair_adjustment"]) <= 2 * r["se_pair_adjustment"]
        z = max(abs(x) for x in r["z_luck_by_seat"])
        out.append(
            f"| `{r['game']}` | {r['games']} | {pr:.3f} | {pa:.3f} ({pa / pr - 1:+.0%}) "
            f"| {r['beta_pairwise']:.2f} | {pb:.3f} ({pb / pr - 1:+.0%}) | {mr:.2f} "
            f"| {ma:.2f} ({ma / mr - 1:+.0%}) | {r['beta_margin']:.2f} "
            f"| {mb:.2f} ({mb / mr - 1:+.0%}) "
            f"| {r['mean_pair_adjustment']:+.4f} ± {r['se_pair_adjustment']:.4f} | {z:.2f} |"
        )
    out += [
        "",
        f"- Target, SD of the per-game result at least 30% lower on every game: {_met(ok_sd)}.",
        f"- Target, mean adjustment within two standard errors of zero: {_met(ok_mean)}.",
        "- Why: the chance events of these games mostly turn up cards on a display or a "
        "deck, which the evaluations do not read; their luck shows only through the "
        "heuristic's next moves, a weak and noisy proxy. The adjustment is exact for a value "
        "function that reads them (the dice test in tests/tournament/test_luck.py).",
        "",
    ]
    return out


def render_adaptive(rows: list[dict]) -> list[str]:
    out = [
        "## Adaptive scheduling",
        "",
        "Command: `python scripts/bench_stats.py adaptive`. The pool's full round robin "
        '(34 seeds per line-up) against `schedule = "adaptive"` with `top = 3` and the '
        "round robin's own confidence (the least bootstrap probability among its deciding "
        "pairs, at most 0.95) as `confidence`, on the same deals. Minimal round robin: the "
        "fewest seeds per line-up at which a round robin already shows the same top 3 at "
        "that confidence (known only afterwards: a lower bound for any fixed schedule).",
        "",
        "| game | round robin games | its top 3 | confidence | adaptive games | saving "
        "| adaptive top 3 | same | adaptive's confidence | minimal round robin "
        "| real run matches |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ok = True
    for r in rows:
        saving = 1 - r["adaptive_games"] / r["round_robin_games"]
        reached = r["adaptive_least_confidence"] >= r["target_confidence"]
        ok &= r["same_top3"] and saving >= 0.3 and reached
        real = {True: "yes", False: "no", None: "not run"}[r["real_run_matches"]]
        out.append(
            f"| `{r['game']}` | {r['round_robin_games']} | {' > '.join(r['round_robin_order'][:3])} "
            f"| {r['target_confidence']:.3f} | {r['adaptive_games']} | {saving:.0%} "
            f"| {' > '.join(r['adaptive_order'][:3])} | {'yes' if r['same_top3'] else 'no'} "
            f"| {r['adaptive_least_confidence']:.3f} | {r['minimal_round_robin_games'] or 'none'} "
            f"| {real} |"
        )
    out += [
        "",
        "- Target, the same top 3 at the same confidence with at least 30% fewer games on "
        f"both games: {_met(ok)}.",
        "",
    ]
    return out


def render(data: dict) -> str:
    lines = [
        "# Tournament science: measured",
        "",
        "Written by `scripts/bench_stats.py render` from `docs/data/tournaments-stats.json`, "
        "which the script's phases fill (each section names its command); "
        "`tests/test_docs_stats.py` checks this file is that rendering. What the methods are: "
        "[tournaments.md](tournaments.md). Pool agents: "
        + ", ".join(f"`{v}`" for v in POOL.values())
        + ". A shared 2-core machine; the agents are cheap on purpose.",
        "",
    ]
    lines += render_sprt(data)
    if data.get("pl"):
        lines += render_pl(data["pl"])
    if data.get("luck"):
        lines += render_luck(data["luck"])
    if data.get("adaptive"):
        lines += render_adaptive(data["adaptive"])
    return "\n".join(lines).rstrip("\n") + "\n"


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
    "adaptive": phase_adaptive,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=sorted(PHASES))
    ap.add_argument("--runs", type=Path, default=Path("runs/stats"), help="ledger directory")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--check", action="store_true", help="render: compare only")
    args = ap.parse_args(argv)
    args.games = [g for g in args.games.split(",") if g]
    return PHASES[args.phase](args) or 0


if __name__ == "__main__":
    raise SystemExit(main())
