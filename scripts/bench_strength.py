"""Playing strength of the search agents against a fixed pool (issue 33): writes docs/STRENGTH.md.

Per game (3 players), the measured agent (the default ``ismcts(sims=400)``, and any
``--candidate``) plays the pool's tables: each table seats it with two members of the pool
(``TABLES``: every member at least once, and a searcher at every table but one), in every seat
order (balanced seating: each deal is played in every rotation of one order of play, the orders
of play taking turns over the deals), on duplicate deals from master seed 11, through the
project's tournament runner. Reported per game: seconds per decision; the head-to-head share of
games finished ahead of each member, ties half, and the mean score difference, each with a 95%
interval over deals (``deal_intervals``); ratings over all who sat (Elo and Plackett-Luce, 95%
intervals); the issue's targets checked on those figures; with ``--sprt``, sequential tests of
the default against both fixed references (a third seat held by the heuristic;
``--sprt-against``, ``--sprt-filler``, ``--sprt-seed`` and ``--sprt-elo`` change that, and
``--sprt-dir`` keeps their ledgers: a rerun resumes them; ``--sprt-only`` writes them in a block
of their own, and ``--sprt-read`` reports the ledgers in ``--sprt-dir`` as they stand, played by
whichever code version); with ``--ladder N``, the gain per doubling of simulations from 100 to
N, each budget against twice its budget with ``S`` at the table (``tournament.budget_ladder``;
``--ladder-only`` writes it in a block of its own with seconds per decision per budget,
``--ladder-dir`` keeps its ledger, resumed by a rerun, and ``--ladder-read`` reports that ledger
as it stands; ``--ladder-seeds`` deals); with ``--equal-time T``, the default, ``H`` and ``S``
at one table with T seconds per decision each (``time=`` budgets, not reproducible move for
move; ``--equal-time-seeds`` deals, kept under ``--quick``); with ``--tune N``, ``meeple tune``
of the default (NTBEA over ``TUNE_PARAMS``, N games against the pool on the tuning's own seeds)
and, with ``--tune-confirm M``, the SPRT of its recommendation against the default that decides
adoption (``--tune-dir`` keeps the logs: a rerun replays them).

    python scripts/bench_strength.py                          # every game, Ray, 2 workers
    python scripts/bench_strength.py --games rococo --seeds 4 --executor serial
    python scripts/bench_strength.py --games coloretto --sprt --ladder 1600
    python scripts/bench_strength.py --candidate I=ismcts(sims=400,opponents=infer)
    python scripts/bench_strength.py --games rococo --tune 200 --tune-confirm 600
    python scripts/bench_strength.py --quick --games coloretto --out /tmp/x.md  # format smoke run

``--quick`` divides every search budget (simulations, CFR iterations) by 50 and plays one
deal per table, serially (unless ``--executor`` says otherwise): a check that every part of
the report is produced, not a measurement. Each game's section of the output file is
replaced on its own (the others are kept) and names its command.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
import time
from pathlib import Path

import pyspiel

import spiel_games  # noqa: F401  (registers the games)
from tournament.budget_ladder import ladder_block, ladder_tables, scaled
from tournament.pool import (  # noqa: F401  (intervals, orders_played: the tests read them)
    DEFAULT,
    POOL,
    intervals,
    orders_played,
    play,
    sample_positions,
    shares,
    span,
    speed,
    sprt_options,
    sprt_table,
    table,
    widened,
)
from tournament.sprt.gsprt import SprtError
from tournament.tune import TuneRequest, tune
from tournament.tune_report import confirm, markdown, summary

GAMES = {
    "coloretto": "python_coloretto(players=3)",
    "rococo": "python_rococo(players=3)",
    "bruxelles": "python_bruxelles(players=3)",
    "staufer": "python_staufer(players=3)",
}
DEFAULT_SEEDS = 4  # deals per table: 7 tables x 4 deals x 3 rotations = 84 games
MEASURED = {"default": DEFAULT}
# the two pool members beside the measured agent at each table
TABLES = (
    ("heuristic", "S"),
    ("noisy", "S"),
    ("random", "H"),
    ("openspiel", "H"),
    ("H", "S"),
    ("blueprint", "H"),
    ("cfr", "S"),
)
SPRT_AGAINST = ("H", "S")
SPRT_SEED = 33  # not the tables' 11
QUICK = 50  # --quick divides every search budget by this (never the tuning's)
TUNE_AGENT = MEASURED["default"]
TUNE_LIST = "uct_c,prior_w,unprune,rollout_depth,opponents,opp_share,opp_prior"  # --params
TUNE_PARAMS = tuple(TUNE_LIST.split(","))
TUNE_OPPONENTS = tuple(POOL[m] for m in ("heuristic", "noisy", "H", "S"))
TITLE = "# Playing strength of the search agents"
HEADER = [
    TITLE,
    "",
    "Written by `scripts/bench_strength.py` (issue 33); each game's section names the command",
    "that wrote it and is the current report for that game. The pool, one table per line "
    "beside the measured agent:",
    "",
    *[f"- `{POOL[a]}` and `{POOL[b]}`" for a, b in TABLES],
    "",
    "`default` models the other players with `opponents=infer` (the heuristic plays a",
    "player's decisions inside the tree as often as its moves so far matched the heuristic's,",
    "the rest are searched; docs/solvers.md). `H` and `S` are the two fixed references: the",
    "same search modelling every other player as the heuristic (`opponents=heuristic`, the",
    "default before issue 33) or by search (`opponents=search`); `openspiel` is",
    "OpenSpiel's own Python IS-MCTS bot (no game knowledge); `blueprint` plays the game's",
    "shipped MCCFR blueprint and `cfr` solves a depth-limited subgame by CFR+ at every",
    "decision (the CFR agents, docs/CFR.md). Win share = games the row agent finished",
    "ahead of the column agent, ties half; every table is played in every seat order on",
    "duplicate deals; intervals: 95% bootstrap over the deals, stretched by the small-sample",
    "factor of their number (tournament.pool.deal_intervals), on fewer",
    "than 5 deals `widened` to contain the Wilson interval (each deal one game) and the t",
    "interval of the deals' mean differences. Elo: the project's pairwise fit; Plackett-Luce:",
    "whole finishing orders with a seat term, on the same scale (`meeple ratings`). An",
    "interval open at one end (`-inf .. X`) belongs to separated results (the agent, alone or",
    "in a group, finished behind every other agent it met in every game, or ahead): only the",
    "bound X is measured, the rating is where the fit's prior stops it. Seconds",
    "per decision: 8 fixed positions per game, on a shared 2-core machine.",
    "",
    "A section's command says what it is: `--quick` sections divide every search budget",
    "(simulations, CFR iterations) by 50 and play one deal per table (a format check, not",
    "a measurement; their equal-time and tuning parts are not scaled). `--equal-time` seats",
    "the default, `H` and `S` at one table with the same seconds per decision. `--tune`",
    "runs `meeple tune` (NTBEA over the default's search parameters against the pool, on the tuning's own",
    "seeds, never the tables' 11 or the SPRTs' 33; docs/solvers.md) and its confirming",
    "SPRT: a tuned setting becomes the default only when that SPRT accepts H1.",
    "`--sprt-only` writes a game's sequential tests on their own, after its section, with",
    "their command (line-up, seed and bounds stated): runs apart from the pool tables.",
    "`--ladder-only` does the same for the budget ladder: the default at 100, 200, ..",
    "simulations, each budget against twice itself with `S` in the third seat.",
    "A `--sprt-read` or `--ladder-read` command reported ledgers kept in the folder it names;",
    "one under /tmp is gone: without `--sprt-read` (`--ladder-read`) it plays them again from",
    "their seeds. A confirming SPRT shorter than 318 games (3 players, a filler) could never",
    "accept H1 (`meeple tune` now warns): its 'not adopted' measures nothing. Plackett-Luce",
    "intervals in sections older than 2026-12-07 can be surer than the data where an agent",
    "won or lost every game (read Elo's bound there).",
]


def tables(measured: dict[str, str], factor: int = 1) -> tuple[dict, list[list[str]]]:
    """Every agent (the pool's budgets divided by ``factor``) and every table: each
    measured agent at each of the pool's tables."""
    agents = {**{k: scaled(v, factor) for k, v in POOL.items()}, **measured}
    return agents, [[m, a, b] for m in measured for a, b in TABLES]


def targets(r, ci: dict, measured: str, speeds: dict) -> list[str]:
    """The issue's targets for the measured agent, on this section's figures."""
    rows = {b: (s, d) for a, b, s, _, d in shares(r) if a == measured and b in POOL}
    misses = [f"{m} ({s:.2f}, {d:+.1f} points)" for m, (s, d) in rows.items() if s < 0.55 or d <= 0]
    worst = min(rows, key=lambda m: rows[m][0])
    h = rows.get("heuristic", (math.nan, math.nan))[0]
    lo, hi = ci.get((measured, "heuristic"), (math.nan,) * 4)[:2]
    sec = speeds[measured]
    return [
        "| target | holds | figure |",
        "|---|---|---|",
        f"| ahead of every pool member in >= 0.55 of games, positive point difference "
        f"| {'no' if misses else 'yes'} | "
        + (
            f"missed against {', '.join(misses)}"
            if misses
            else f"lowest {worst} {rows[worst][0]:.2f}"
        )
        + " |",
        f"| ahead of the heuristic in >= 0.90 of games, `S` at the table "
        f"| {'yes' if h >= 0.90 else 'no'} | {h:.2f} (95% interval {span(lo, hi, '.2f')}) |",
        f"| at most 0.5 s per decision at sims=400 | {'yes' if sec <= 0.5 else 'no'} "
        f"| {sec:.3f} s |",
    ]


def timed(spec: str, seconds: float) -> str:
    """``spec`` with its simulation budget replaced by ``seconds`` per decision."""
    return re.sub(r"sims=\d+", f"time={seconds:g}", spec)


def equal_time(gs: str, args, tmp: Path) -> list[str]:
    """The default, ``H`` and ``S`` at one table, each given the same seconds per
    decision, every seat order, ``--seeds`` deals (master seed 11)."""
    agents = {k: timed(v, args.equal_time) for k, v in (("default", MEASURED["default"]),
              ("H", POOL["H"]), ("S", POOL["S"]))}  # fmt: skip
    seats = [["default", "H", "S"]]
    n = args.equal_time_seeds or args.seeds
    r = play(gs, agents, n, args.workers, args.executor, tmp / "t", seats)
    lines = ["", f"Equal time ({args.equal_time:g} s per decision each), {n} deals, "
             f"{orders_played(seats[0], n)}{widened(n)}:", ""]  # fmt: skip
    return lines + table(r, intervals(tmp / "t", r), rows={"default"})


def tuning(gs: str, args, tmp: Path) -> list[str]:
    """``meeple tune`` of the default on this game (its log in ``--tune-dir`` when given:
    rerunning replays it) and its confirming SPRT, as Markdown lines."""
    req = TuneRequest(gs, TUNE_AGENT, TUNE_PARAMS, args.tune, TUNE_OPPONENTS)
    out = Path(args.tune_dir or tmp) / f"tune-{gs.split('(')[0]}"
    s = summary(tune(req, out, args.workers), out)
    s["confirmation"] = confirm(
        s, out, args.tune_confirm, "heuristic", req.seed + 1, args.workers, args.executor
    )
    cmd = (
        f"meeple tune '{gs}' --params {','.join(TUNE_PARAMS)} --budget {args.tune} "
        f"--confirm {args.tune_confirm} --workers {args.workers}"
    )
    return ["", "Tuning (never scaled by `--quick`), as run by:", "", f"    {cmd}", ""] + markdown(
        s
    )


def section(gs: str, args, command: str) -> list[str]:
    t_all = time.perf_counter()
    factor = QUICK if args.quick else 1
    measured = {k: scaled(v, factor) for k, v in {**MEASURED, **args.candidates}.items()}
    game = pyspiel.load_game(gs)
    pos = sample_positions(game)
    budgeted = {**measured, **POOL}.items()  # searchers and cfr-search: worth timing
    searchers = {k: scaled(v, factor) for k, v in budgeted if re.search(r"sims=|iterations=", v)}
    speeds = {k: speed(game, v, pos) for k, v in searchers.items()}
    lines = [f"<!-- game: {gs} -->", f"## {gs}", "", "Command:", "", f"    {command}", ""]
    lines += ["| agent | spec | s per decision |", "|---|---|---|"]
    lines += [f"| {k} | `{v}` | {speeds[k]:.3f} |" for k, v in searchers.items()]
    with tempfile.TemporaryDirectory() as tmp:
        agents, seats = tables(measured, factor)
        run = Path(tmp) / "pool"
        r = play(gs, agents, args.seeds, args.workers, args.executor, run, seats)
        ci, n = intervals(run, r), args.seeds
        lines += ["", f"Pool tables, {orders_played(seats[0], n)}{widened(n)}:", ""]
        lines += table(r, ci, rows=set(measured))
        lines += ["", "Targets (`default`):", ""] + targets(r, ci, "default", speeds)
        if args.sprt:
            lines += [""] + sprt_table(
                gs,
                [("default", m) for m in args.sprt_against],
                agents,
                args.sprt_preset,
                args.sprt_max_games,
                args.workers,
                args.executor,
                Path(args.sprt_dir) / gs.split("(")[0] if args.sprt_dir else Path(tmp),
                filler=args.sprt_filler,
                seed=args.sprt_seed,
                elo=args.sprt_elo,
            )
        if args.ladder:
            where = Path(args.ladder_dir or tmp) / f"ladder-{gs.split('(')[0]}"
            run = (args.workers, args.executor, where)
            lines += [""] + ladder_block(gs, args.ladder, args.ladder_seeds, run, factor)
        if args.equal_time:
            lines += equal_time(gs, args, Path(tmp))
        if args.tune:
            lines += tuning(gs, args, Path(tmp))
    total = (time.perf_counter() - t_all) / 60
    return lines + ["", f"Whole section: {total:.0f} min.", "", f"<!-- /game: {gs} -->"]


def merge(path: Path, sections: dict[str, list[str]], tag: str = "game") -> str:
    """The header and every game's blocks in ``GAMES`` order (its section, then its
    ``--sprt-only`` block): the given ``tag`` blocks new, the others as the file at
    ``path`` has them (anything else there is dropped)."""
    text = path.read_text() if path.exists() else ""
    blocks = []
    for gs in GAMES.values():
        for kind in ("game", "sprt", "ladder"):
            if kind == tag and gs in sections:
                blocks.append("\n".join(sections[gs]))
                continue
            g = re.escape(gs)
            found = re.search(rf"<!-- {kind}: {g} -->.*?<!-- /{kind}: {g} -->", text, re.DOTALL)
            if found:
                blocks.append(found.group(0))
    return "\n\n".join(["\n".join(HEADER), *blocks]) + "\n"


def sprt_section(gs: str, args, command: str) -> list[str]:
    """``--sprt-only``: the game's SPRTs of the default, without the pool tables."""
    agents = {**MEASURED, **POOL}
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(args.sprt_dir) / gs.split("(")[0] if args.sprt_dir else Path(tmp)
        pairs = [("default", m) for m in args.sprt_against]
        rows = sprt_table(gs, pairs, agents, args.sprt_preset, args.sprt_max_games,
                          args.workers, args.executor, where, filler=args.sprt_filler,
                          seed=args.sprt_seed, elo=args.sprt_elo, read=args.sprt_read)  # fmt: skip
    head = [f"<!-- sprt: {gs} -->", f"### Sequential tests, {gs}", "", "Command:", ""]
    return head + [f"    {command}", "", *rows, "", f"<!-- /sprt: {gs} -->"]


def ladder_section(gs: str, args, command: str) -> list[str]:
    """``--ladder-only``: the game's budget ladder in a block of its own (its ledger kept
    and resumed in ``--ladder-dir``; ``--ladder-read`` reports it as it stands)."""
    factor = QUICK if args.quick else 1
    game = pyspiel.load_game(gs)
    pos = sample_positions(game)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(args.ladder_dir or tmp) / f"ladder-{gs.split('(')[0]}"
        run = (args.workers, args.executor, where)
        agents, _ = ladder_tables(args.ladder, factor)  # timed now, also when reading
        speeds = {k: speed(game, v, pos) for k, v in agents.items() if k != "S"}
        rows = ladder_block(gs, args.ladder, args.ladder_seeds, run, factor,
                            read=args.ladder_read, speeds=speeds)  # fmt: skip
    head = [f"<!-- ladder: {gs} -->", f"### Budget ladder, {gs}", "", "Command:", ""]
    return head + [f"    {command}", "", *rows, "", f"<!-- /ladder: {gs} -->"]


def _candidates(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, spec = item.partition("=")
        if not sep or not name.isidentifier() or name in POOL or name in MEASURED:
            raise ValueError(f"--candidate wants NAME=SPEC with a new name, got {item!r}")
        out[name] = spec
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    ap.add_argument("--seeds", type=int, default=DEFAULT_SEEDS, help="deals per table")
    ap.add_argument("--candidate", action="append", default=[], help="NAME=SPEC, also measured")
    ap.add_argument("--quick", action="store_true", help="budgets / 50, 1 deal: a format check")
    ap.add_argument("--sprt", action="store_true", help="SPRTs of the default against H and S")
    ap.add_argument("--sprt-preset", default="gain", choices=("gain", "nonreg"))
    ap.add_argument("--sprt-max-games", type=int, default=600, help="games per SPRT at most")
    ap.add_argument("--sprt-elo", default="", help="E0,E1: Elo bounds instead of the preset's")
    ap.add_argument("--sprt-against", default=",".join(SPRT_AGAINST), help="pool members")
    ap.add_argument("--sprt-seed", type=int, default=SPRT_SEED, help="the SPRTs' master seed")
    ap.add_argument("--sprt-filler", default="heuristic", help="the third seat: ab or a spec")
    ap.add_argument("--sprt-dir", default="", help="keep (and resume) the SPRT ledgers here")
    ap.add_argument("--sprt-only", action="store_true", help="only the SPRTs, in their block")
    ap.add_argument("--sprt-read", action="store_true", help="--sprt-only: report, never play")
    ap.add_argument("--ladder", type=int, default=0, help="budget ladder from 100 to this")
    ap.add_argument("--ladder-seeds", type=int, default=0, help="its deals (0: --seeds)")
    ap.add_argument("--ladder-only", action="store_true", help="only the ladder, in its block")
    ap.add_argument("--ladder-dir", default="", help="keep (and resume) the ladder's ledger")
    ap.add_argument("--ladder-read", action="store_true", help="--ladder-only: report, never play")
    ap.add_argument("--equal-time", type=float, default=0.0, help="default, H, S at s/decision")
    ap.add_argument("--equal-time-seeds", type=int, default=0, help="its deals (0: --seeds)")
    ap.add_argument("--tune", type=int, default=0, help="meeple tune games per game (0: none)")
    ap.add_argument("--tune-confirm", type=int, default=0, help="games of its SPRT at most")
    ap.add_argument("--tune-dir", default="", help="keep (and resume) the tuning logs here")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--executor", default=None, choices=("ray", "serial"), help="ray (--quick: serial)"
    )
    ap.add_argument("--out", default="docs/STRENGTH.md")
    args = ap.parse_args(argv)
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    bad = [g for g in names if g not in GAMES]
    try:
        if bad:
            raise ValueError(f"unknown game {bad[0]!r}; choose from {', '.join(GAMES)}")
        if args.seeds < 1 or args.workers < 1 or min(args.ladder, args.tune, args.tune_confirm) < 0:
            raise ValueError("--seeds and --workers must be >= 1, --ladder and --tune* >= 0")
        if args.equal_time < 0 or args.equal_time_seeds < 0:
            raise ValueError("--equal-time must be >= 0 seconds, --equal-time-seeds >= 0")
        args.candidates = _candidates(args.candidate)
        args.sprt_against, args.sprt_elo = sprt_options(args.sprt_against, args.sprt_elo)
        if args.sprt_read and not (args.sprt_only and args.sprt_dir):
            raise ValueError("--sprt-read reports the ledgers in --sprt-dir, with --sprt-only")
        if args.ladder_only and (args.ladder < 200 or args.sprt_only):
            raise ValueError("--ladder-only needs --ladder N (N >= 200), not --sprt-only")
        if args.ladder_read and not (args.ladder_only and args.ladder_dir):
            raise ValueError("--ladder-read reports the ledger in --ladder-dir, with --ladder-only")
        if args.ladder_seeds < 0:
            raise ValueError("--ladder-seeds must be >= 0")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.quick:
        args.seeds = 1
    args.ladder_seeds = args.ladder_seeds or args.seeds
    args.executor = args.executor or ("serial" if args.quick else "ray")
    command = "python scripts/bench_strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    t0 = time.perf_counter()
    for name in names:
        gs = GAMES[name]
        if args.sprt_only or args.ladder_only:
            tag, write = ("sprt", sprt_section) if args.sprt_only else ("ladder", ladder_section)
            try:
                block = write(gs, args, command.strip())
            except (ValueError, SprtError) as e:  # a ledger that is not the test asked for
                print(f"error: {e}", file=sys.stderr)
                return 1
            out.write_text(merge(out, {gs: block}, tag=tag))
        else:
            out.write_text(merge(out, {gs: section(gs, args, command.strip())}))
        print(f"{gs}: done ({(time.perf_counter() - t0) / 60:.0f} min)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
