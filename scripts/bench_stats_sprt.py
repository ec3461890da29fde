"""The statistics benchmark's SPRT phases: A/A and A/B on simulated duplicate sets (against
Wald's approximations) and on real games."""

from __future__ import annotations

import time

from bench_advice_report import wilson  # 95% Wilson interval of a proportion
from bench_stats_common import GAMES, progress, save


def simulated_runs(probs, values, bounds, runs: int, seed: int) -> list[dict]:
    """``runs`` SPRTs on sets drawn from ``probs`` on ``values``; each with the estimate
    and interval `meeple sprt` reports (``estimate.at_stop``: the plain mean near the
    fewest sets that could cross)."""
    import numpy as np

    from tournament.sprt.estimate import Outcome, at_stop
    from tournament.sprt.gsprt import Tally, fewest_sets, increments, walk

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(runs):
        xs = rng.choice(values, size=20_000, p=probs)
        last = walk(xs, bounds)[-1]
        tally = Tally(xs[: last.sets])
        v, w = tally.arrays()
        fewest = fewest_sets(bounds, 1, last.verdict, 10**7)  # the estimate `meeple sprt` reports
        est = at_stop(
            Outcome(last.verdict, last.sets, last.llr), v, w, increments(tally, bounds, 1)[1],
            (bounds.lower, bounds.upper), 0, fewest,
        )  # fmt: skip
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
    pairs, binomial), ``pair`` a 2-player game pair (pentanomial, 20% of games drawn),
    ``skew`` a skewed one (a set scores 0.05 + d in one deal of ten, 0.55 + d otherwise,
    d the mean's distance from 1/2: A a little ahead on most deals, far behind on a few),
    where the normal LLR's assumption is at its weakest."""
    import numpy as np
    from scipy.stats import binom

    from tournament.sprt.gsprt import elo_to_score

    s = elo_to_score(elo)
    if kind == "skew":
        return np.array([0.1, 0.9]), np.array([0.05, 0.55]) + (s - 0.5)
    if kind == "ab3":
        return binom.pmf(np.arange(13), 12, s), np.linspace(0, 1, 13)
    # a game: win w, draw 0.2, loss l with w - l = 2 s - 1; a pair: two independent games
    w, d = s - 0.1, 0.2
    game = np.array([1 - w - d, d, w])  # score 0, 1/2, 1
    pair = np.convolve(game, game)  # score 0, 1/4, ..., 1
    return pair, np.linspace(0, 1, 5)


# (true Elo, runs): A/A at elo0, A/B at elo1 and beyond, and gaps far outside the bounds
# (where the two LLR forms differ most: the empirical one cannot stop in under ~50 sets)
SIM_ROWS = ((0.0, 1000), (-20.0, 200), (20.0, 200), (40.0, 200), (-200.0, 100), (200.0, 100))
SKEW_ROWS = ((0.0, 1000), (20.0, 200))  # the skewed sets' values stay in [0, 1] up to +300


def phase_sprt_sim(args) -> None:
    import numpy as np

    from tournament.sprt.gsprt import PRESETS, Bounds, elo_to_score, wald

    rows = []
    for llr, kind in ((x, k) for x in ("empirical", "normal") for k in ("ab3", "pair", "skew")):
        bounds = Bounds(*PRESETS["gain"], llr=llr)
        s0, s1 = bounds.scores()
        for elo, runs in SKEW_ROWS if kind == "skew" else SIM_ROWS:
            t = time.perf_counter()
            probs, values = set_distribution(kind, elo)
            p_h1, expected = wald(probs, values, bounds, s0, s1)
            done = simulated_runs(probs, values, bounds, runs, seed=int(elo) + 1000)
            truth = elo_to_score(elo)
            h1 = sum(r["verdict"] == "H1" for r in done)
            rows.append(
                {
                    "llr": llr,
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
            progress(f"sprt-sim {llr} {kind} elo {elo}: {time.perf_counter() - t:.0f} s")
    save("sprt_sim", {"bounds": list(PRESETS["gain"]), "rows": rows})


def _elo(score: float) -> float:
    from tournament.sprt.gsprt import score_to_elo

    return score_to_elo(score)


REAL_AA = ("random", "noisy(eps=1.0)")  # equal strength (uniform moves), other draws
REAL_AB = ("heuristic", "noisy(eps=0.3)")


def phase_sprt_real(args) -> None:
    """A/A: 20 SPRTs of random against noisy(eps=1.0) (both uniformly random movers that
    draw differently) on three-player Coloretto, seeds 0..19; A/B: 5 of the heuristic
    against noisy(eps=0.3); with ``args.llr`` the LLR form (stored apart: "sprt_real" for
    the default, "sprt_real_normal")."""
    from tournament.sprt.gsprt import PRESETS, Bounds
    from tournament.sprt.run import SprtRequest, play_sprt

    llr = getattr(args, "llr", "empirical")
    suffix = "" if llr == "empirical" else f"-{llr}"
    out = {}
    for label, (a, b), runs in (("aa", REAL_AA, 20), ("ab", REAL_AB, 5)):
        rows = []
        for seed in range(runs):
            bounds = Bounds(*PRESETS["gain"], llr=llr)
            req = SprtRequest(GAMES["coloretto"], a, b, bounds, max_games=6000, seed=seed)
            where = args.runs / f"sprt-{label}-{seed}{suffix}"
            v, _, _ = play_sprt(req, where, workers=1, executor="serial")
            rows.append(
                {
                    "seed": seed,
                    "verdict": v.verdict,
                    "games": v.games,
                    "elo": v.elo,
                    "elo_ci": [v.elo_low, v.elo_high],
                }
            )
            progress(f"sprt-real {llr} {label} {seed}: {v.verdict} after {v.games} games")
        out[label] = {"a": a, "b": b, "game": GAMES["coloretto"], "rows": rows}
    save("sprt_real" if llr == "empirical" else f"sprt_real_{llr}", out)
