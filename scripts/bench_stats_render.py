"""The statistics benchmark's report: docs/TOURNAMENTS-STATS.md rendered from its data file
(``scripts/bench_stats.py render``). Every verdict is computed here from the figures."""

from __future__ import annotations

from bench_stats_render_luck import render_ceiling, render_rollouts


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _met(ok: bool) -> str:
    return "met" if ok else "**missed**"


SKEW = "skew"  # bench_stats_sprt.set_distribution's skewed set scores


def _render_sprt_sim(sim: dict) -> list[str]:
    lo, hi = sim["bounds"]
    rows = [{"llr": "empirical", **r} for r in sim["rows"]]  # rows from before the normal LLR
    out = [
        "## SPRT on simulated sets",
        "",
        f"Command: `python scripts/bench_stats.py sprt-sim`. Preset `gain` (elo0 {lo:g}, "
        f"elo1 {hi:g}, alpha = beta = 0.05), with each form of the LLR (`empirical`, the "
        "default; `normal`, `meeple sprt --llr normal`; docs/tournaments.md). Sets: `ab3`, a "
        "three-player set with the default filler (12 A-B pairs per set, binomial); `pair`, a "
        "two-player game pair (fishtest's pentanomial, 20% draws); `skew`, a skewed set score "
        "(0.05 + d in one deal of ten, 0.55 + d otherwise: A a little ahead on most deals, far "
        "behind on a few; skewness -2.7), "
        "where the normal form's assumption is weakest. Wald: his "
        "approximations of the chance of accepting H1 and of the expected number of sets (for "
        "`normal`, with the sets' true variance; they ignore the fewest sets a stop needs and "
        "the normal form's prior, so far outside the bounds its ratio says nothing); "
        "estimate: the Elo `meeple sprt` reports at the stop "
        "(median-unbiased; the plain mean near the fewest sets that could cross), minus the "
        "truth (median over the runs), beside the plain mean's; CI: the interval it reports.",
        "",
        "| LLR | sets | true Elo | runs | H1 accepted | 95% interval | Wald | mean sets "
        "| Wald sets | ratio | estimate error | plain mean error | 95% CI covers |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['llr']} | {r['sets_kind']} | {r['elo']:g} | {r['runs']} "
            f"| {_pct(r['h1'] / r['runs'])} "
            f"| {_pct(r['h1_ci'][0])} .. {_pct(r['h1_ci'][1])} | {_pct(r['wald_h1'])} "
            f"| {r['mean_sets']:.1f} | {r['wald_sets']:.1f} "
            f"| {r['mean_sets'] / r['wald_sets']:.2f} | {r['median_est_error_elo']:+.1f} "
            f"| {r['median_naive_error_elo']:+.1f} | {_pct(r['ci_coverage'])} |"
        )
    out.append("")
    for llr in dict.fromkeys(r["llr"] for r in rows):
        # an agent against itself scores symmetrically: the skewed sets are no A/A test
        aa = [r for r in rows if r["llr"] == llr and r["elo"] == lo and r["sets_kind"] != SKEW]
        ab = [r for r in rows if r["llr"] == llr and r["elo"] != lo]
        aa_ok = all(r["h1"] / r["runs"] <= 0.05 for r in aa)
        skewed = [r for r in rows if r["llr"] == llr and r["elo"] == lo and r["sets_kind"] == SKEW]
        at_bound = "".join(
            f" At elo0 with skewed sets (`skew`): H1 in {r['h1']} of {r['runs']} "
            f"({_pct(r['h1'] / r['runs'])})."
            for r in skewed
        )
        near = [r for r in ab if lo - 2 * (hi - lo) <= r["elo"] <= hi + 2 * (hi - lo)]
        ratio_ok = all(r["mean_sets"] / r["wald_sets"] <= 1.3 for r in near)
        direction = all(
            (r["h1"] / r["runs"] > 0.5) == (r["elo"] > (lo + hi) / 2) for r in ab if r["elo"] != hi
        )
        out += [
            f"- `{llr}`: A/A (true Elo = elo0): H1 in "
            + ", ".join(f"{r['h1']} of {r['runs']} ({r['sets_kind']})" for r in aa)
            + f"; target at most 5%: {_met(aa_ok)}. A/B: mean sets within 1.3x of Wald's "
            f"approximation for every true Elo within two widths of the bounds: {_met(ratio_ok)}; "
            f"stops in the right direction (true Elo outside the bounds): {_met(direction)}."
            + at_bound,
        ]
    forms = {r["llr"] for r in rows}
    if {"empirical", "normal"} <= forms:
        far = [
            (r, next(x for x in rows if x["llr"] == "normal" and x["sets_kind"] == r["sets_kind"]
                     and x["elo"] == r["elo"]))
            for r in rows
            if r["llr"] == "empirical" and abs(r["elo"]) > 2 * (hi - lo)
        ]  # fmt: skip
        out.append(
            "- Far outside the bounds, mean sets to the stop, empirical against normal: "
            + ", ".join(
                f"{e['sets_kind']} {e['elo']:+g} Elo {e['mean_sets']:.1f} against "
                f"{n['mean_sets']:.1f}"
                for e, n in far
            )
            + "."
        )
    return out + [""]


def render_sprt(data: dict) -> list[str]:
    out = []
    sim = data.get("sprt_sim")
    if sim:
        out += _render_sprt_sim(sim)
    forms = [
        (x, data.get(key))
        for x, key in (("empirical", "sprt_real"), ("normal", "sprt_real_normal"))
    ]
    forms = [(x, real) for x, real in forms if real]
    if forms:
        out += ["## SPRT on real games", ""]
    for llr, real in forms:
        flag = "" if llr == "empirical" else f" --llr {llr}"
        out += [f"Command: `python scripts/bench_stats.py sprt-real{flag}` ({llr} LLR).", ""]
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
            f"| {', '.join('not measured' if x is None else f'{x:+.1f}' for x in r['seat_terms'])} |"
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


def _sets(r: dict) -> str:
    out = f" of the first {r['seeds']} duplicate sets per line-up" if r.get("seeds") else ""
    return out + (", those measured when the run was cut short" if r.get("measured_only") else "")


def _ci(p: dict) -> str:
    lo, hi = p.get("within_ratio_ci") or (None, None)
    return "" if lo is None else f" [{lo - 1:+.0%}, {hi - 1:+.0%}]"


def _vs(x: float, base: float) -> str:
    return f"{x:.3f} ({x / base - 1:+.0%})"


def render_luck(rows: list[dict]) -> list[str]:
    out = [
        "## Luck adjustment",
        "",
        "Command: `python scripts/bench_stats.py luck [--seeds K] [--chance-only] "
        "[--measured-only] [--value lookahead|evaluation|rollouts] [--quick]` (measures "
        "the games of the pool ledgers, or of their first K duplicate sets per line-up; "
        "`--quick`: a token run on a small ledger it plays, saving nothing; "
        "`meeple ratings --luck-adjusted` uses the same numbers). Luck: each "
        "chance event's, and each unforced decision's of the agents whose strategy is known "
        "(`random`, `noisy`, `heuristic`: AIVAT's action terms), valued by the game's "
        "evaluation after the heuristic plays to the next chance event. Per-game result: a "
        "pairwise result (1 ahead, 1/2 tie, 0 behind; what Elo rates) and a score margin (a "
        "player's score minus the mean of the others'). SD within pairings: each result less "
        "the mean of its pairing (agent A against agent B), the noise an interval on a "
        "pairing pays for (differences in skill between pairings are not noise; the pooled "
        "SD mixes them in; the margin is centred on each agent's mean). Raw, less the whole "
        "luck, and less a share beta of it (the control variate's coefficient on the centred "
        "results, fitted on the other half of the duplicate sets, as ratings fit theirs on "
        "their own results); each centred alike; in brackets the 95% interval of the change, "
        "by a bootstrap over duplicate sets. Chance only (with `--chance-only`): the same with no decision terms. Mean "
        "adjustment: the mean pairwise luck over the seat-ordered pairs of every game, with "
        "its standard error over duplicate sets (the games of a set share their deal); z: "
        "the largest |mean / standard error| of the seats' score luck.",
        "",
        "| game | games | known-strategy decisions measured, per game | SD pairwise pooled | within "
        "pairings | chance only, beta x luck | whole luck | beta | beta x luck | SD margin "
        "within agents | beta x luck | mean adjustment | z (seats) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ok_sd, ok_mean = True, True
    few = sum(1 for r in rows if r["games"] < 2000)
    for r in rows:
        p, m = r["pairwise"], r["margin"]
        raw, whole, share = p["within"]
        chance = r.get("pairwise_chance_only", {}).get("within")
        ok_sd &= share <= 0.7 * raw
        ok_mean &= abs(r["mean_pair_adjustment"]) <= 2 * r["se_pair_adjustment"]
        z = max(abs(x) for x in r["z_luck_by_seat"])
        out.append(
            f"| `{r['game']}` | {r['games']}{_sets(r)} | {r['decisions_per_game']:.0f} "
            f"| {p['pooled'][0]:.3f} | {raw:.3f} | {_vs(chance[2], raw) if chance else 'n/a'} "
            f"| {_vs(whole, raw)} | {p['beta']:.2f} | {_vs(share, raw)}{_ci(p)} "
            f"| {m['within'][0]:.2f} | {m['within'][2]:.2f} ({m['within'][2] / m['within'][0] - 1:+.0%}) "
            f"| {r['mean_pair_adjustment']:+.4f} ± {r['se_pair_adjustment']:.4f} | {z:.2f} |"
        )
    out += [
        "",
        "- Target, SD of the per-game result (within pairings) at least 30% lower on every "
        f"game: {_met(ok_sd)}.",
        "- Target, mean adjustment within two standard errors of zero over at least 2,000 "
        f"games per game: {_met(ok_mean and few == 0)}"
        + (
            f" ({few} of the {len(rows)} games measured on fewer; within two standard errors: "
            f"{'yes' if ok_mean else 'no'})."
            if few
            else "."
        ),
        "- What limits it: the evaluations price a card turned up on a display or a deck only "
        "through the heuristic's next moves, and the search agent's own choices (`ismcts8`) "
        "carry no term, its strategy having no closed form. How much a perfect value "
        "function could remove with the same terms: [the ceiling](#luck-adjustment-the-ceiling)"
        "; a value function by rollouts: [rollout values](#luck-adjustment-rollout-values).",
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
        "pairs, at most 0.95) as `confidence`, on the same deals (the schedule holds each "
        "of its looks to the stricter level that shares that error, docs/tournaments.md; "
        "the target compares its confidence with the round robin's). Minimal round robin: the "
        "fewest seeds per line-up at which a round robin already shows the same top 3 at "
        "that confidence (known only afterwards: a lower bound for any fixed schedule).",
        "",
        "| game | round robin games | its top 3 | confidence | adaptive games | saving "
        "| adaptive top 3 | same | adaptive's confidence | minimal round robin "
        "| real run matches |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    met = []
    for r in rows:
        saving = 1 - r["adaptive_games"] / r["round_robin_games"]
        reached = r["adaptive_least_confidence"] >= r["target_confidence"]
        if r["same_top3"] and saving >= 0.3 and reached:
            met.append(r["game"])
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
        f"two games: {_met(len(met) >= 2)} (on {len(met)} of {len(rows)} games measured"
        + (": " + ", ".join(f"`{g}`" for g in met) if met else "")
        + ").",
        "- Against the minimal round robin (a hindsight bound, not a schedule one can run): "
        + "; ".join(
            f"`{r['game']}` {r['adaptive_games'] / r['minimal_round_robin_games']:.2f}x"
            for r in rows
            if r["minimal_round_robin_games"]
        )
        + ". The saving depends on how close the deciding pair is on the deals played: when it "
        "needs nearly every game of the line-ups that seat it, no schedule can save much.",
        "",
    ]
    return out


def render(data: dict, pool: list[str]) -> str:
    lines = [
        "# Tournament science: measured",
        "",
        "Written by `scripts/bench_stats.py render` from `docs/data/tournaments-stats.json`, "
        "which the script's phases fill (each section names its command); "
        "`tests/test_docs_stats.py` checks this file is that rendering. What the methods are: "
        "[tournaments.md](tournaments.md). Pool agents: "
        + ", ".join(f"`{v}`" for v in pool)
        + ". A shared 2-core machine; the agents are cheap on purpose.",
        "",
    ]
    lines += render_sprt(data)
    if data.get("pl"):
        lines += render_pl(data["pl"])
    if data.get("luck"):
        lines += render_luck(data["luck"])
    if data.get("luck_ceiling"):
        measured = {r["game"]: r for r in data.get("luck", [])}
        lines += render_ceiling(data["luck_ceiling"], measured)
    if data.get("luck_rollouts"):
        lines += render_rollouts(data["luck_rollouts"])
    if data.get("adaptive"):
        lines += render_adaptive(data["adaptive"])
    if data.get("adaptive_sim"):
        from bench_stats_adaptive import render_adaptive_sim

        lines += render_adaptive_sim(data["adaptive_sim"])
    return "\n".join(lines).rstrip("\n") + "\n"
