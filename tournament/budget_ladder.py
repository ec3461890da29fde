"""The budget ladder (issue 33): what a doubling of the search's simulations buys.

Budgets 100, 200, .. ``top`` of the default search; each budget meets twice itself at a
table whose third seat holds ``S`` (the same search modelling its opponents by search), so
the gain is measured with another searcher at the table, not against the heuristic. Every
table is played by the tournament runner on duplicate deals in balanced seating; its
ledger is crash-safe, so a ladder killed at its expensive top rungs resumes where it
stopped, and ``read`` reports a ledger as it stands (the games played so far).

Reported: seconds per decision at each budget, each rung's share of games the doubled
budget finished ahead (ties half) with a 95% bootstrap interval over deals, that share as
Elo per doubling (logistic, as the ratings), and the ratings of every budget on one scale.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import spiel_games
from tournament.ledger import read_ledger, read_manifest
from tournament.pool import (
    POOL,
    intervals,
    orders_played,
    play,
    rating_table,
    shares,
    span,
)
from tournament.ratings.load import ratings_from_ledgers

BASE = "ismcts(sims=400)"  # the default; its sims= is what the ladder varies
SEED = 11  # the benchmark's tables' master seed


def scaled(spec: str, factor: int) -> str:
    """``spec`` with every search budget (``sims=``, CFR ``iterations=``) divided by
    ``factor`` (at least 1)."""
    return re.sub(
        r"(sims|iterations)=(\d+)",
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
    """Budgets 100, 200, .. ``top``: each against twice itself, ``S`` in the third seat."""
    steps = budgets(top)
    agents = {f"sims{n}": scaled(BASE.replace("sims=400", f"sims={n}"), factor) for n in steps}
    agents["S"] = scaled(POOL["S"], factor)
    return agents, [[f"sims{a}", f"sims{2 * a}", "S"] for a in steps[:-1]]


def elo(share: float) -> float:
    """The Elo difference of a share of games finished ahead (logistic, as the ratings);
    infinite at 0 and 1."""
    if share <= 0.0 or share >= 1.0:
        return math.inf if share >= 1.0 else -math.inf
    return 400.0 * math.log10(share / (1.0 - share))


def ladder_lines(r, ci: dict, speeds: dict[str, float] | None = None) -> list[str]:
    """One row per rung: the doubled budget ahead of its half (share, Elo, intervals)."""
    speeds = speeds or {}
    lines = [
        "| budget | s per decision | ahead of half the budget | 95% interval "
        "| Elo per doubling | 95% interval | pairs |",
        "|---|---|---|---|---|---|---|",
    ]
    for a, b, s, n, _ in shares(r):
        if not (a.startswith("sims") and b.startswith("sims")):
            continue
        if int(a[4:]) != 2 * int(b[4:]):
            continue
        lo, hi = ci[(a, b)][:2]
        elos = span(elo(lo), elo(hi), "+.0f") if not math.isnan(lo) else span(lo, hi, "")
        sec = f"{speeds[a]:.2f}" if a in speeds else "n/a"
        lines.append(
            f"| {a[4:]} | {sec} | {s:.2f} | {span(lo, hi, '.2f')} | {elo(s):+.0f} | {elos} | {n} |"
        )
    return lines


def check_ladder(out: Path, game_string: str, agents: dict, seeds: int) -> int:
    """The ledger in ``out`` must be this ladder (game, agents, deals, seed); returns its
    games played so far. A one-line ValueError otherwise."""
    try:
        m = read_manifest(out)
    except Exception as e:  # LedgerError: no ledger there, or not one
        raise ValueError(str(e)) from None
    t = m["config"]["tournament"]
    if (
        m["config"]["agents"] != agents
        or t["seeds_per_lineup"] != seeds
        or t["seed"] != SEED
        or t["game"] != str(spiel_games.load_game(game_string))  # the full game string
    ):
        raise ValueError(f"{out} holds another ladder than the one asked for")
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
        scheduled = read_manifest(out)["num_games"]
        state = f"read from its ledger as it stands: {played} of {scheduled} games played; "
    else:
        r = play(game_string, agents, seeds, workers, executor, out, seats, seed=SEED)
        state = ""
    head = (
        f"Budget ladder of `{BASE}` (`S` in the third seat), {state}{seeds} deals a table, "
        f"{orders_played(seats[0], seeds)}, master seed {SEED}:"
    )
    return [head, "", *ladder_lines(r, intervals(out, r), speeds), "", *rating_table(r)]
