"""The statistics benchmark's SPRT phases: A/A and A/B on simulated duplicate sets (against
Wald's approximations) and on real games."""

from __future__ import annotations

import time

from bench_advice_report import wilson  # 95% Wilson interval of a proportion
from bench_stats_common import GAMES, progress, save


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
