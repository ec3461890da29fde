"""The budget ladder (issue 33): what a doubling of the search's simulations buys.

Budgets 100, 200, .. ``top`` of the default search; each budget meets twice itself at a
table whose third seat holds ``S`` (the same search modelling its opponents by search), so
the gain is measured with another searcher at the table, not against the heuristic. Every
table is played by the tournament runner on duplicate deals in balanced seating; its
ledger is crash-safe, so a ladder killed at its expensive top rungs resumes where it
stopped, and ``read`` reports a ledger as it stands (the games played so far).

Reported: seconds per decision at each budget, each rung's share of games the doubled
budget finished ahead (ties half) with a 95% bootstrap interval over deals, that share as
Elo per doubling (logistic, as the ratings), the same pooled over every rung (intervals
stretched for the number of deals and widened on fewer than 5, as
``tournament.pool.deal_intervals`` does), and the
ratings of every budget on one scale.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import spiel_games
from tournament.ledger import read_ledger, read_manifest
from tournament.pool import (
    BOOT,
    DEFAULT,
    POOL,
    deal_intervals,
    intervals,
    orders_played,
    pair_outcomes,
    play,
    rating_table,
    shares,
    span,
)
from tournament.ratings.load import ratings_from_ledgers

SEED = 11  # the benchmark's tables' master seed


def scaled(spec: str, factor: int) -> str:
    """``spec`` with every search budget (``sims=``, CFR ``iterations=``) divided by
    ``factor`` (at least 1)."""
    return re.sub(
        r"\b(sims|iterations)=(\d+)",
        lambda m: f"{m.group(1)}={max(1, int(m.group(2)) // factor)}",
        spec,
    )


def budgets(top: int) -> list[int]:
    """100, 200, 400, .. up to ``top``."""
    out, n = [], 100
    while n <= top:
        out.append(n)
        n *= 2
    return out


def ladder_tables(top: int, factor: int = 1) -> tuple[dict, list[list[str]]]:
    """Budgets 100, 200, .. ``top`` of the default (``tournament.pool.DEFAULT``): each
    against twice itself, ``S`` in the third seat."""
    steps = budgets(top)
    agents = {
        f"sims{n}": scaled(re.sub(r"\bsims=\d+", f"sims={n}", DEFAULT), factor) for n in steps
    }
    agents["S"] = scaled(POOL["S"], factor)
    return agents, [[f"sims{a}", f"sims{2 * a}", "S"] for a in steps[:-1]]


def elo(share: float) -> float:
    """The Elo difference of a share of games finished ahead (logistic, as the ratings);
    infinite at 0 and 1."""
    if share <= 0.0 or share >= 1.0:
        return math.inf if share >= 1.0 else -math.inf
    return 400.0 * math.log10(share / (1.0 - share))


def ladder_lines(
    r, ci: dict, rungs: list[int], speeds: dict[str, float] | None = None
) -> list[str]:
    """One row per rung (each budget of ``rungs`` past the first): the doubled budget ahead
    of its half (share, Elo, intervals); a rung without games yet says so."""
    speeds = speeds or {}
    lines = [
        "| budget | s per decision | ahead of half the budget | 95% interval "
        "| Elo per doubling | 95% interval | pairs |",
        "|---|---|---|---|---|---|---|",
    ]
    found = {(a, b): (s, n) for a, b, s, n, _ in shares(r)}
    for top in rungs[1:]:
        a, b = f"sims{top}", f"sims{top // 2}"
        sec = f"{speeds[a]:.2f}" if a in speeds else "n/a"
        if (a, b) not in found:
            lines.append(f"| {top} | {sec} | not played yet | | | | 0 |")
            continue
        s, n = found[(a, b)]
        lo, hi = ci[(a, b)][:2]
        elos = span(elo(lo), elo(hi), "+.0f") if not math.isnan(lo) else span(lo, hi, "")
        lines.append(
            f"| {top} | {sec} | {s:.2f} | {span(lo, hi, '.2f')} | {elo(s):+.0f} | {elos} | {n} |"
        )
    return lines


def pooled_doubling(out: Path, r, draws: int = BOOT, seed: int = 0) -> tuple[float, ...]:
    """(share, low, high, pairs): every rung's games pooled, the share of pairs in which the
    doubled budget finished ahead of its half (ties half), with a 95% interval over deals
    (each rung's deal one block, since every table is dealt its own; bootstrapped and, on
    fewer than ``FEW_DEALS`` deals in all, widened as ``intervals`` does for one pair). One
    figure for "what a doubling buys", far steadier than any rung's."""
    by_seed: dict[int, tuple[list[float], list[float]]] = {}
    for (a, b), seeds in pair_outcomes(out, r).items():
        if a.startswith("sims") and b.startswith("sims") and int(a[4:]) == 2 * int(b[4:]):
            for k, (aheads, _) in seeds.items():
                by_seed.setdefault(k, ([], []))[0].extend(aheads)
    every = [x for aheads, _ in by_seed.values() for x in aheads]
    if not every:
        return (math.nan,) * 3 + (0,)
    lo, hi = deal_intervals(by_seed, random.Random(seed), draws)[:2]
    return sum(every) / len(every), lo, hi, len(every)


def check_ladder(out: Path, game_string: str, agents: dict, seeds: int) -> int:
    """The ledger in ``out`` must be this ladder (game, agents, deals, seed); returns its
    games played so far (failed games included). A one-line ValueError naming the first
    difference otherwise."""
    try:
        m = read_manifest(out)
    except Exception as e:  # LedgerError: no ledger there, or not one
        raise ValueError(str(e)) from None
    t = m["config"]["tournament"]
    checks = (
        ("its budgets or agents (--ladder N, --quick)", m["config"]["agents"] == agents),
        (f"its deals, {t['seeds_per_lineup']} (--ladder-seeds)", t["seeds_per_lineup"] == seeds),
        (f"its master seed, {t['seed']}", t["seed"] == SEED),
        ("its game", t["game"] == str(spiel_games.load_game(game_string))),
    )
    differs = [what for what, same in checks if not same]
    if differs:
        raise ValueError(f"{out} holds another ladder than the one asked for: {differs[0]}")
    return read_ledger(out, ["seed"]).table.num_rows


def ladder_block(
    game_string: str,
    top: int,
    seeds: int,
    run: tuple[int, str, Path],
    factor: int = 1,
    read: bool = False,
    speeds: dict[str, float] | None = None,
) -> list[str]:
    """The ladder as Markdown lines. ``run`` = (workers, executor, ledger directory): an
    existing ledger of the same ladder resumes; ``read``: nothing is played, the ledger is
    reported as it stands (its games so far out of those scheduled)."""
    workers, executor, out = run
    agents, seats = ladder_tables(top, factor)
    if read:
        played = check_ladder(out, game_string, agents, seeds)
        r, _ = ratings_from_ledgers([out])
        m = read_manifest(out)
        state = (
            f"read from its ledger as it stands: {played} of {m['num_games']} games played "
            f"by code {m['code_version']}; "
        )
    else:
        r = play(game_string, agents, seeds, workers, executor, out, seats, seed=SEED)
        state = ""
    head = (
        f"Budget ladder of `{DEFAULT}` (`S` in the third seat), {state}{seeds} deals a table, "
        f"{orders_played(seats[0], seeds)}, master seed {SEED}. Seconds per decision: 8 fixed "
        "positions, timed when the block was written. Intervals rest on the few deals "
        "(stretched for their number, as the ratings' bounds are; on fewer than 5 also "
        "widened to the Wilson interval counting each deal as one game); `every rung` "
        "pools the doublings:"
    )
    lines = ladder_lines(r, intervals(out, r), budgets(top), speeds)
    share, lo, hi, n = pooled_doubling(out, r)
    if n:
        elos = span(elo(lo), elo(hi), "+.0f") if not math.isnan(lo) else span(lo, hi, "")
        lines.append(
            f"| every rung | | {share:.2f} | {span(lo, hi, '.2f')} | {elo(share):+.0f} "
            f"| {elos} | {n} |"
        )
    return [head, "", *lines, "", *rating_table(r)]
