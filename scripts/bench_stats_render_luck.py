"""The statistics benchmark's report on luck beyond the main table: the ceiling any
luck adjustment can reach, and the rollout value function against the default."""

from __future__ import annotations


def _change(x: float, base: float) -> str:
    return f"{x:.3f} ({x / base - 1:+.0%})"


def _ci(p: dict) -> str:
    lo, hi = p.get("within_ratio_ci") or (None, None)
    return "" if lo is None else f" [{lo - 1:+.0%}, {hi - 1:+.0%}]"


def _pct(c: list[float]) -> str:
    return f"{c[0]:+.0%} [{c[1]:+.0%}, {c[2]:+.0%}]"


def render_ceiling(rows: list[dict], measured: dict[str, dict]) -> list[str]:
    out = [
        "## Luck adjustment: the ceiling",
        "",
        "Command: `python scripts/bench_stats.py luck-ceiling [--seeds K]` (the first K "
        "duplicate sets per line-up of the pool ledgers). With the true value function (the "
        "expected result under the agents that play) the adjusted result keeps only the "
        "variance of the events that carry no term, plus that of the root value within a "
        "pairing (seat order, third agent). Each ledger game is replayed with its chance "
        "stream and fresh seeds for the agents, a few times: the variance of the pairwise "
        "result across those replays is what chance terms cannot remove (fresh seeds for "
        "every seat), or what chance and known-strategy terms cannot remove (fresh seeds for "
        "the search agent only; a game without one keeps nothing). Least SD change: "
        "sqrt((that variance + the root variance) / the ledger's within-pairing variance) "
        "- 1, with a 95% bootstrap interval over duplicate sets. It counts as decision noise "
        "what a decision does through later draws, so a value function that sees those "
        "draws coming can do somewhat better (measured chance-only terms can pass it); it is "
        "an estimate of the reachable, not a proof. Same chance outcomes: the share of the "
        "replays' chance outcomes equal to the ledger game's, position by position. Measured: "
        "the luck table's change (beta x luck; on its own games) for comparison.",
        "",
        "| game | games x replays | replay = ledger | same chance outcomes | SD within "
        "pairings | least SD change, chance terms | measured | least SD change, chance and "
        "known-strategy terms | measured | CPU s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        m = measured.get(r["game"], {})
        chance = m.get("pairwise_chance_only", {}).get("within")
        known = m.get("pairwise", {}).get("within")
        out.append(
            f"| `{r['game']}` | {r['games']} x {r['replicas']} | {r['replayed_games']} of "
            f"{r['games']} | {r['same_chance_share']:.0%} | {r['within_variance'] ** 0.5:.3f} "
            f"| {_pct(r['ceiling_decisions'])} "
            f"| {f'{chance[2] / chance[0] - 1:+.0%}' if chance else 'n/a'} "
            f"| {_pct(r['ceiling_unknown'])} "
            f"| {f'{known[2] / known[0] - 1:+.0%}' if known else 'n/a'} | {r['cpu_seconds']:.0f} |"
        )
    reach = [r["game"] for r in rows if r["ceiling_unknown"][0] <= -0.3]
    out += [
        "",
        "- Games where even a perfect value function is estimated to reach the 30% target "
        f"with the terms this project can compute: {len(reach)} of {len(rows)}"
        + (" (" + ", ".join(f"`{g}`" for g in reach) + ")" if reach else "")
        + ". What stays is mostly the search agent's (`ismcts8`) own decisions, whose "
        "strategy has no closed form to take an expectation over.",
        "",
    ]
    return out


def render_rollouts(rows: list[dict]) -> list[str]:
    out = [
        "## Luck adjustment: rollout values",
        "",
        "Command: `python scripts/bench_stats.py luck --value rollouts --seeds K`. The same "
        "terms (chance events, known-strategy decisions) valued by rollouts instead: V is "
        "the mean final score, W the share of finishing ahead, over 4 plays to the end by "
        "the seats' known strategies (the heuristic for the search agent), with the same "
        "random numbers for every outcome of one event; where an event has more than 4 "
        "outcomes, 4 drawn by their probabilities (independently of the one played) "
        "estimate its expectation. Beside it, the default value function (the evaluation "
        "after the heuristic's lookahead) on the same games. SD within pairings of the "
        "pairwise result, less beta x luck, with the 95% interval of the change. CPU: "
        "seconds per game measured (replays and the opening's expectation included).",
        "",
        "| game | games | SD within pairings | rollouts: whole luck | beta | beta x luck "
        "| default on the same games: beta x luck | mean adjustment | CPU s per game |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        p, base = r["pairwise"], r.get("pairwise_lookahead")
        raw, whole, share = p["within"]
        cpu = f"{r['cpu_seconds'] / r['games']:.1f}" if r.get("cpu_seconds") else "n/a"
        out.append(
            f"| `{r['game']}` | {r['games']} | {raw:.3f} | {_change(whole, raw)} "
            f"| {p['beta']:.2f} | {_change(share, raw)}{_ci(p)} "
            f"| {_change(base['within'][2], base['within'][0]) + _ci(base) if base else 'n/a'} "
            f"| {r['mean_pair_adjustment']:+.4f} ± {r['se_pair_adjustment']:.4f} "
            f"| {cpu} |"
        )
    worse = [
        r
        for r in rows
        if r.get("pairwise_lookahead") and _share(r["pairwise"]) >= _share(r["pairwise_lookahead"])
    ]
    out += [
        "",
        f"- Rollouts remove no more than the default on {len(worse)} of {len(rows)} games "
        "measured. The luck of one event valued by a few plays to the end is mostly rollout "
        "noise (the whole luck's SD is several times the result's), so the fitted beta keeps "
        "little of it; that noise falls only as one over the square root of the plays, "
        "at a cost linear in them. `meeple ratings --luck-adjusted` keeps the default "
        "(`--luck-value lookahead`).",
        "",
    ]
    return out


def _share(p: dict) -> float:
    return p["within"][2] / p["within"][0]
