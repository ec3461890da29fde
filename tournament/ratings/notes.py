"""The notes under a ratings table: how the numbers were made and what qualifies them
(anchor, intervals, prior, open ends, unrated agents, warnings), one line each."""

from __future__ import annotations

import math

from tournament.ratings.fit import Ratings
from tournament.ratings.plackett_luce import UNMEASURED_RESAMPLES
from tournament.ratings.unrated import reason as unrated_reason


def notes(r: Ratings) -> list[str]:
    if r.bootstrap:
        ci = f"95% CI from {r.bootstrap} bootstrap resamples of {r.blocks} duplicate sets"
        noise, where = r.bound_noise
        if math.isfinite(noise):
            ci += (
                f" (their Monte Carlo error, one standard error: up to about ±{noise:.0f} Elo, "
                f"at {where}; what another --seed moves a bound by, shrinking with more "
                "--bootstrap resamples)"
            )
    else:
        why = "a single duplicate set" if r.blocks <= 1 else "--bootstrap 0"
        ci = f"no confidence intervals ({why}; shown as '-')"
    results = (
        "pairwise results less their luck (the luck-adjusted note)"
        if r.luck
        else "pairwise results by rank, ties as draws"
    )
    out = [
        f"anchor: {r.anchor}; {ci}; {results}",
        f"prior: {r.prior}",
    ]
    for i in r.order():
        if r.one_sided and r.one_sided[i]:
            out.append(f"{r.agents[i].name} {r.one_sided[i]}")
    for a in [*r.agents, *r.unrated]:
        if a.aliases:
            also = ", ".join(a.aliases)
            out.append(f"{a.name}: also named {also} in another ledger (the same agent id)")
    for i in r.order():
        a = r.agents[i]
        if a.coverage is not None:
            out.append(
                f"{a.name}: {a.coverage:.0%} of its decisions played from its table "
                f"(coverage, mean of {a.coverage_games} games; the rest by its fallback)"
            )
    out += pl_notes(r)
    if r.luck:
        out.append(f"luck-adjusted: {r.luck}")
    out += r.design
    if r.void_games:
        out.append(void_note(r))
    out += failures_note(r)
    for a in r.unrated:
        out.append(
            f"{a.name}: unrated ({unrated_reason(a)}): no rating, interval or rank; "
            "left out of the fit and the anchor"
        )
    if r.alpharank is None:
        out.append("alpharank: not shown (some pair of agents never met)")
    elif not r.intransitive:
        out.append(
            "alpharank: not shown: the pairwise table is transitive (no cycle of majorities), "
            "where alpha-Rank's stationary mass at alpha -> infinity only repeats the order"
        )
    else:
        out.append(
            "alpharank: a cycle of majorities (A ahead of B, B of C, C of A): single-population "
            "alpha-Rank at alpha -> infinity on the pairwise score rates; the column is the "
            "stationary mass, the share of time an evolving population spends on each agent "
            "(it sums to 1), a measure of where the cycle settles, not a strength scale"
        )
    out += LEGEND
    return out + [f"warning: {w}" for w in r.warnings]


def pl_notes(r: Ratings) -> list[str]:
    """What Plackett-Luce's numbers are, and where its intervals are open or missing."""
    pl = r.plackett_luce
    if pl is None:
        return []
    out = [
        "plackett-luce: whole finishing orders with a seat term per player count and seat, "
        "Elo scale (400 / ln 10 per unit of log-strength), same prior, anchor and "
        f"bootstrap; log-likelihood of the orders {pl.log_likelihood:.1f}; its intervals are "
        "open where Elo's are, or where its own fit leaves a rating to the prior, and there "
        "their finite side is no tighter than Elo's"
    ]
    for i in r.order():
        side = 0 if pl.driven is None else int(pl.driven[i])
        elo_open = math.isinf(r.ci_high[i]) if side > 0 else math.isinf(r.ci_low[i])
        if side and not elo_open:
            out.append(
                f"plackett-luce: {r.agents[i].name} is unbounded {'above' if side > 0 else 'below'}"
                ": with seat terms the finishing orders leave its rating to the prior (a "
                "separation the pairwise results do not show)"
            )
        if math.isnan(pl.ci_low[i]) and r.bootstrap and r.ci_low[i] != r.ci_high[i]:
            out.append(f"plackett-luce: {r.agents[i].name}: {STILL}")
    for n, why in unmeasured_seats(r).items():
        out.append(f"plackett-luce seat terms ({n} players) not measured, no value shown: {why}")
    still = [s for s in pl.seats if s.get("measured", True) and math.isnan(s["ci_low"])]
    if still and r.bootstrap:
        where = ", ".join(f"{s['players']} players seat {s['seat']}" for s in still)
        out.append(f"plackett-luce seat terms ({where}): {STILL}")
    return out


def unmeasured_seats(r: Ratings) -> dict[int, str]:
    """Per player count whose Plackett-Luce seat terms are not measured: why, in words."""
    pl = r.plackett_luce
    rows = {s["players"]: s for s in (pl.seats if pl is not None else []) if s.get("why")}
    return {n: _seat_why(row, r.confidence) for n, row in sorted(rows.items())}


def _seat_why(row: dict, confidence: float) -> str:
    raw = (
        "the seat advantage table's win rates are the raw record (they compare the seats "
        "fairly where every agent sat in every seat equally often)"
    )
    if row["why"] == UNMEASURED_RESAMPLES:
        return (
            f"in {row['resampled_share']:.0%} of the bootstrap resamples, more than the "
            f"{(1.0 - confidence) / 2.0:.1%} an interval may leave out, the finishing orders "
            "do not tell a seat's advantage from the agents' strengths and the seat terms are "
            "the prior's (too few games whose order the agents' strengths did not decide), "
            f"so no interval would cover what it claims; {raw}"
        )
    return (
        "the finishing orders do not tell a seat's advantage from the agents' strengths "
        "(separated results, or every game decided by them): the likelihood does not "
        "bound the seat terms (it keeps rising along them, or is flat), so the fit's values "
        f"are only where its prior stops them, not a measurement; {raw}"
    )


STILL = "every resample gave the same value, so they measure no spread: no interval ('-')"


def void_note(r: Ratings) -> str:
    """The void games left out, per rated agent, the most first."""
    parts = [
        f"{a.name} {a.void_games} of its {a.games_read}"
        for a in sorted(r.agents, key=lambda a: (-a.void_games, a.name))
        if a.void_games
    ]
    head = f"{r.void_games} void game(s) left out"
    if not parts:
        return head
    return (
        f"{head}: {', '.join(parts)}; a rating rests on the games that finished, which need "
        "not be a fair sample of the agent's play"
    )


def failures_note(r: Ratings) -> list[str]:
    """The rated agents' own failures (crash, timeout, illegal move), by kind."""
    parts = [
        f"{a.name} "
        + ", ".join(f"{k} {v}" for k, v in sorted(a.failures.items()))
        + f" of its {a.games_read} games"
        for a in sorted(r.agents, key=lambda a: (-sum(a.failures.values()), a.name))
        if a.failures
    ]
    if not parts:
        return []
    return [
        "failures, by the agent that failed (its game void or ranked last, as the run's "
        f"failure_policy says): {'; '.join(parts)}"
    ]


LEGEND = [
    "crosstable: score diff is the row agent's mean raw score minus the column agent's over "
    "their games; LOS = Phi((W - L) / sqrt(W + L)), the chance the row agent is the "
    "stronger, taking every game as independent (the games of a duplicate set share a deal, "
    "so with strong deal effects it is surer than it should be)",
    "seat advantage: win rate is the share of first places, a first place shared by k "
    "seats counting 1/k; mean rank and mean score over every game of that player count",
]
