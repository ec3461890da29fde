"""Strength against a pool of agents: fixed tables played by the tournament runner, each
pair's share of games finished ahead and mean score difference with 95% bootstrap
intervals over duplicate sets, ratings (Elo and Plackett-Luce) and SPRT lines, as
Markdown table lines (scripts/bench_strength.py writes docs/STRENGTH.md from them).
"""

from __future__ import annotations

import math
import random
import time
from pathlib import Path

import numpy as np
import pyspiel
from scipy.stats import t as t_dist

import spiel_games
from solvers.intervals import wilson
from solvers.registry import make_agent
from tournament.config import build_config
from tournament.ledger import read_ledger, read_manifest
from tournament.ratings.load import ratings_from_ledgers
from tournament.ratings.pairs import small_sample_factor
from tournament.runner import run_tournament
from tournament.seating import cyclic_orders
from tournament.sprt.gsprt import PRESETS, Bounds
from tournament.sprt.run import SprtRequest, play_sprt, read_sidecar, read_sprt

BOOT = 2000  # bootstrap draws for the intervals
DEFAULT = "ismcts(sims=400)"  # the default search, the agent the benchmark measures
# the pool every measured agent meets (docs/STRENGTH.md); H and S are the fixed references
POOL = {
    "random": "random",
    "heuristic": "heuristic",
    "noisy": "noisy(eps=0.3)",
    "H": "ismcts(sims=400,opponents=heuristic)",
    "S": "ismcts(sims=400,opponents=search)",
    "openspiel": "openspiel-ismcts(sims=100)",
    # the CFR agents (docs/CFR.md): the game's shipped MCCFR blueprint, and CFR+ solving a
    # depth-limited subgame at every decision
    "blueprint": "blueprint",
    "cfr": "cfr-search(iterations=200,play=best)",
}


def sample_positions(game, count: int = 8, seed: int = 5) -> list:
    """Decision points spread over a few random games (same for every spec measured)."""
    rng = random.Random(seed)
    out: list = []
    while len(out) < count:
        s = game.new_initial_state()
        hist = []
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(acts, probs)[0])
                continue
            if len(s.legal_actions()) > 1:
                hist.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
        out += [hist[int(len(hist) * f)] for f in (0.1, 0.4, 0.7, 0.9)]
    return out[:count]


def speed(game, spec: str, positions) -> float:
    """Seconds per decision of ``spec`` over ``positions``."""
    agent = make_agent(spec, game, seed=1)
    t = time.perf_counter()
    for s in positions:
        agent.step(s)
    return (time.perf_counter() - t) / len(positions)


def play(
    game_string: str,
    agents: dict,
    seeds: int,
    workers: int,
    executor: str,
    out: Path,
    seats: list[list[str]] | None = None,
    seed: int = 11,
):
    """The round robin of ``agents`` (one per seat), or exactly the tables ``seats``;
    ``seed`` is the master seed of the deals (the benchmark's 11; tune on others)."""
    t = {
        "game": game_string,
        "seeds_per_lineup": seeds,
        "seed": seed,
        "schedule": "fixed" if seats else "round-robin",
        "seating": "balanced",
        "time_limit": 0.0,
    }
    if seats:
        t["tables"] = seats
    else:  # fewer agents than seats (the baseline at 4 players): one agent holds several
        t["self_play"] = pyspiel.load_game(game_string).num_players() > len(agents)
    cfg = build_config({"tournament": t, "agents": dict(agents)})
    run_tournament(cfg, out, workers=workers, executor=executor)
    ratings, _ = ratings_from_ledgers([out])
    return ratings


def intervals(out: Path, r, draws: int = BOOT, seed: int = 0) -> dict:
    """{(row, column): (share low, share high, difference low, difference high)}: 95%
    bootstrap intervals of ``shares`` over the ledger's match seeds, a seed's games (its
    duplicate set: one deal under the seatings played with it) resampled together, as the
    ratings resample. As in the ratings, a void game counts in neither, and a game without
    scores (a failure under ``rank-last``) counts in the share but not the difference. A
    pair seen on a single deal has no interval (NaN bounds): resampling one deal says
    nothing about the next. On fewer than ``FEW_DEALS`` deals the intervals are widened
    (``deal_intervals``)."""
    rng = random.Random(seed)
    return {
        pair: deal_intervals(by_seed, rng, draws) for pair, by_seed in pair_outcomes(out, r).items()
    }


FEW_DEALS = 5  # below this many deals a percentile bootstrap over deals covers too little


def widened(deals: int) -> str:
    """What a table's heading says of its intervals: stretched for the number of deals
    (``deal_intervals``; a heading without it was written before the stretch), and widened
    on fewer than FEW_DEALS deals."""
    few = f"; on fewer than {FEW_DEALS} deals widened" if deals < FEW_DEALS else ""
    return f" (intervals stretched for {deals} deals{few})"


def deal_intervals(by_seed: dict, rng: random.Random, draws: int = BOOT) -> tuple:
    """(share low, share high, difference low, difference high) of one pair from its
    outcomes per deal (``pair_outcomes``): the percentile bootstrap over deals, each bound's
    distance from the plain share (mean difference) stretched by ``small_sample_factor``
    of the number of deals, as the ratings' intervals are (a bootstrap over n deals
    under-states the spread at every n: 0.82 coverage at 5 deals, 0.92 at 20, measured
    before the stretch); on fewer than ``FEW_DEALS`` deals, where every draw repeats the
    same two or three deals (all alike, the interval is a point), the share's interval is
    also widened to contain the Wilson interval counting each deal as one trial (a deal's
    share lies in [0, 1], so its variance is at most p(1 - p), a Bernoulli's) and the
    difference's the Student t interval over the deals' mean differences. NaN bounds: a
    single deal."""
    seeds = sorted(by_seed)
    if len(seeds) < 2:
        return (math.nan,) * 4
    boot_s, boot_d = [], []
    for _ in range(draws):
        pick = [by_seed[rng.choice(seeds)] for _ in seeds]
        aheads = [x for a, _ in pick for x in a]
        diffs = [x for _, d in pick for x in d]
        boot_s.append(sum(aheads) / len(aheads))
        if diffs:
            boot_d.append(sum(diffs) / len(diffs))
    aheads = [x for s in seeds for x in by_seed[s][0]]
    share = sum(aheads) / len(aheads)
    s_lo, s_hi = _stretched(quantiles(boot_s), share, len(seeds))
    s_lo, s_hi = max(s_lo, 0.0), min(s_hi, 1.0)
    all_diffs = [x for s in seeds for x in by_seed[s][1]]
    d_lo, d_hi = (math.nan, math.nan)
    if boot_d:
        d_lo, d_hi = _stretched(quantiles(boot_d), float(np.mean(all_diffs)), len(seeds))
    if len(seeds) >= FEW_DEALS:
        return s_lo, s_hi, d_lo, d_hi
    w_lo, w_hi = wilson(share, len(seeds))
    means = [float(np.mean(by_seed[s][1])) for s in seeds if by_seed[s][1]]
    if len(means) >= 2:
        half = float(t_dist.ppf(0.975, len(means) - 1) * np.std(means, ddof=1))
        mid, half = float(np.mean(means)), half / math.sqrt(len(means))
        d_lo, d_hi = min(d_lo, mid - half), max(d_hi, mid + half)
    return min(s_lo, w_lo), max(s_hi, w_hi), d_lo, d_hi


def _stretched(bounds: tuple[float, float], centre: float, deals: int) -> tuple[float, float]:
    """Percentile bounds with their distances from ``centre`` stretched by
    ``small_sample_factor(deals)``, each bound kept on its side of the centre."""
    f = small_sample_factor(deals)
    lo, hi = bounds
    return centre - max(centre - lo, 0.0) * f, centre + max(hi - centre, 0.0) * f


def pair_outcomes(out: Path, r) -> dict:
    """{(row, column): {match seed: ([ahead, ...], [score difference, ...])}} from the
    ledger in ``out`` (ahead: 1, tie 1/2, behind 0; void games skipped, a failure's
    missing difference left out)."""
    names = {x.id: x.name for x in [*r.agents, *r.unrated]}
    games = read_ledger(out, ["seed", "agents", "ranks", "scores"]).table.to_pylist()
    by_pair: dict = {}
    for g in games:
        if g["ranks"] is None:
            continue
        seats = [names[i] for i in g["agents"]]
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if a == b:
                    continue
                ri, rj = g["ranks"][i], g["ranks"][j]
                aheads, diffs = by_pair.setdefault((a, b), {}).setdefault(g["seed"], ([], []))
                aheads.append(1.0 if ri < rj else 0.5 if ri == rj else 0.0)
                diff = g["scores"][i] - g["scores"][j]
                if math.isfinite(diff):
                    diffs.append(diff)
    return by_pair


def quantiles(values: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles (linear interpolation)."""
    lo, hi = np.quantile(values, [0.025, 0.975])
    return float(lo), float(hi)


def shares(r) -> list[tuple[str, str, float, int, float]]:
    """(row, column, share of games row finished ahead of column with ties half, games,
    row's mean score minus column's)."""
    names = [a.name for a in r.agents]
    out = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                continue
            w, lo, d = r.wins[i, j], r.wins[j, i], r.draws[i, j]
            n = w + lo + d
            if n:
                out.append((a, b, (w + 0.5 * d) / n, int(n), float(r.score_diff[i, j])))
    return out


def _bound(x: float, side: str) -> str:
    """An interval bound: inf is the open side of a one-sided interval (an agent that won
    or lost every game), NaN a bound not measured (no resamples: n/a)."""
    if math.isnan(x):
        return "n/a"
    return f"{x:.0f}" if math.isfinite(x) else ("-inf" if side == "low" else "+inf")


def table(r, ci: dict | None = None, rows: set[str] | None = None) -> list[str]:
    """The pair table (with ``ci``: 95% intervals of the share and the score difference;
    with ``rows``: only the pairs whose row agent is one of them) and the ratings table
    (Elo and Plackett-Luce, 95% bootstrap intervals)."""
    pairs = [x for x in shares(r) if rows is None or x[0] in rows]
    if ci is None:
        lines = [
            "| agent | ahead of | win share | pairs | score difference |",
            "|---|---|---|---|---|",
        ]
        lines += [f"| {a} | {b} | {s:.2f} | {n} | {d:+.1f} |" for a, b, s, n, d in pairs]
    else:
        lines = [
            "| agent | ahead of | win share | 95% interval | pairs | score difference "
            "| 95% interval |",
            "|---|---|---|---|---|---|---|",
        ]
        for a, b, s, n, d in pairs:
            s_lo, s_hi, d_lo, d_hi = ci[(a, b)]
            lines.append(
                f"| {a} | {b} | {s:.2f} | {span(s_lo, s_hi, '.2f')} | {n} | {d:+.1f} "
                f"| {span(d_lo, d_hi, '+.1f')} |"
            )
    return lines + [""] + rating_table(r)


def span(lo: float, hi: float, fmt: str) -> str:
    """An interval as ``lo .. hi``; ``n/a (one deal)`` when it has none."""
    if math.isnan(lo) or math.isnan(hi):
        return "n/a (one deal)"
    return f"{lo:{fmt}} .. {hi:{fmt}}"


def rating_table(r) -> list[str]:
    """Elo and Plackett-Luce (whole finishing orders) on one scale, 95% intervals."""
    lines = [
        "| agent | Elo | 95% interval | Plackett-Luce | 95% interval | games |",
        "|---|---|---|---|---|---|",
    ]
    pl = r.plackett_luce  # the Ratings' arrays: inf (open) and NaN (not measured) apart
    for i in r.order():
        pl_text = "n/a | n/a"
        if pl is not None:
            pl_text = (
                f"{pl.elo[i]:.0f} | {_bound(pl.ci_low[i], 'low')} .. "
                f"{_bound(pl.ci_high[i], 'high')}"
            )
        lines.append(
            f"| {r.agents[i].name} | {r.elo[i]:.0f} | {_bound(r.ci_low[i], 'low')} .. "
            f"{_bound(r.ci_high[i], 'high')} | {pl_text} | {int(r.games[i])} |"
        )
    return lines


def orders_played(table: list[str], seeds: int) -> str:
    """Which seat orders ``seeds`` seeds of balanced seating play at ``table``: every one
    equally often when the seeds are a multiple of the table's orders of play."""
    groups = cyclic_orders(tuple(sorted(table)))
    k = len(groups)
    if seeds % k == 0:
        return "every seat order"
    played = sum(len(g) for g in groups[: min(seeds, k)])
    total = sum(len(g) for g in groups)
    return (
        f"{played} of {total} seat orders, unevenly ({seeds} seeds over {k} orders of play; "
        f"a multiple of {k} plays each equally often)"
    )


def sprt_options(against: str, elo: str) -> tuple[list[str], tuple[float, float] | None]:
    """The pool members a benchmark's SPRTs meet (``--sprt-against``) and their Elo
    bounds (``--sprt-elo E0,E1``; None: the preset's), or a one-line ValueError."""
    names = [a.strip() for a in against.split(",") if a.strip()]
    if not names or any(a not in POOL for a in names):
        raise ValueError(f"--sprt-against takes pool members: {', '.join(POOL)}")
    if not elo:
        return names, None
    try:
        e0, e1 = (float(x) for x in elo.split(","))
    except ValueError:
        raise ValueError(f"--sprt-elo takes E0,E1, e.g. 0,35, not {elo!r}") from None
    if not e0 < e1:
        raise ValueError("--sprt-elo needs E0 < E1")
    return names, (e0, e1)


def sprt_table(
    gs: str,
    pairs,
    specs: dict,
    preset: str,
    max_games: int,
    workers: int,
    executor: str,
    out: Path,
    filler: str = "ab",
    seed: int = 0,
    elo: tuple[float, float] | None = None,
    read: bool = False,
) -> list[str]:
    """One SPRT per (A, B) pair of agent names (``tournament.sprt``), as table lines;
    ``filler``: who takes the other seats (``ab``: copies of A and B, else an agent spec);
    ``elo``: the Elo bounds, instead of the preset's. An SPRT whose ledger is already in
    ``out`` resumes from it (a finished one only reports); ``read``: nothing is played,
    each ledger is reported as it stands, under the code version that played it."""
    others = "copies of A and B" if filler == "ab" else f"`{filler}`"
    e0, e1 = elo or PRESETS[preset]
    named = f"SPRTs, preset `{preset}` (" if elo is None else "SPRTs ("
    how = "; read from their ledgers as they stand" if read else ""
    lines = [
        f"{named}Elo bounds {e0:g}, {e1:g}; alpha = beta = 0.05; duplicate sets, master seed "
        f"{seed}, the other seats {others}{how}; `played by code`: the code version of the "
        "ledger's games):",
        "",
        "| A | B | verdict | SPRT-confirmed | games | Elo of A over B (95%, at the stop) "
        "| played by code |",
        "|---|---|---|---|---|---|---|",
    ]
    for a, b in pairs:
        req = SprtRequest(gs, specs[a], specs[b], Bounds(e0, e1), filler, max_games, seed)
        where = out / f"sprt-{a}-{b}"
        if read:
            v, manifest = read_sprt(where)
            _same_test(manifest, req, where)
        else:
            v, _, _ = play_sprt(req, where, workers, executor=executor)
            manifest = read_manifest(where)
        lines.append(
            f"| {a} | {b} | {v.verdict or 'not finished'} | {'yes' if v.verdict == 'H1' else 'no'} "
            f"| {v.games} | {v.elo:+.0f} ({_elo_span(v)}) "
            f"| {manifest['code_version']} |"
        )
    return lines


def _elo_span(v) -> str:
    """An SPRT's Elo interval; n/a while it has too few sets to have one (NaN)."""
    if math.isnan(v.elo_low) or math.isnan(v.elo_high):
        return "n/a: too few sets"
    return f"{v.elo_low:+.0f} .. {v.elo_high:+.0f}"


def _same_test(manifest: dict, req: SprtRequest, where: Path) -> None:
    """A ledger read as it stands must be the test the table's heading names."""
    t = manifest["config"]["tournament"]
    agents = manifest["config"]["agents"]
    named = {"A": req.spec_a, "B": req.spec_b}
    if req.filler != "ab":
        named["filler"] = req.filler
    side = (read_sidecar(where) or {})["bounds"]  # read_sprt has checked it
    if (
        agents != named
        or t["seed"] != req.seed
        or Bounds(**side) != req.bounds  # as the test compares them (run._other_test)
        or str(spiel_games.load_game(req.game)) != t["game"]  # the config's game string
    ):
        raise ValueError(f"{where} holds another test than the one asked for")
