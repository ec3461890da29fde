"""Playing strength of the search agents against the heuristic (issue 11): writes docs/STRENGTH.md.

Per game, the line-up ``heuristic``, ``ismcts(sims=400)`` and ``ismcts(sims=1600)``
(3 players: every game has all three; 4 players: the heuristic also takes the fourth
seat, a fixed table), in every seat order (``seating = "balanced"``: each seed is played
in every seat rotation of one order of play around the table, and the orders of play
take turns over the seeds, so every seat order is played, each on its own deals; an
agent that plays right after another gains or loses by it), duplicate seeds, played by
the project's tournament runner and rated by its Elo fit. Win shares and score
differences come with 95% bootstrap intervals over the seeds (duplicate sets). With
``--robust``, at 4 players a second table puts ``random`` in the fourth seat instead
(robustness: the search models every other player as the heuristic, and a random player
is the one it predicts worst; off by default to keep the whole run within about an hour). A smaller run of ``heuristic``
against ``random`` checks the baseline. Also measures simulations per second and seconds
per searched decision at sims=400, for the old search settings (``eval=score,prior=none``)
and the new defaults.

    python scripts/bench_strength.py        # every game, default seeds (SEEDS), Ray, 2 workers
    python scripts/bench_strength.py --games rococo --seeds 4 --executor serial
    python scripts/bench_strength.py --games coloretto --robust   # + the random-filler table
    python scripts/bench_strength.py --quick              # 2 seeds, serial: a smoke run
    python scripts/bench_strength.py --games rococo --sprt     # + SPRTs of the comparisons

With ``--sprt`` each game's section also runs the benchmark's comparisons (1600 against
400 simulations, 400 simulations against the heuristic) as sequential tests (`meeple
sprt`'s module, ``tournament.sprt``: duplicate sets, preset ``--sprt-preset``) and lists
which are SPRT-confirmed (H1 accepted).

Each game's section of the output file is replaced on its own (the others are kept),
so games can be measured in separate runs; every section names the command that wrote it.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyspiel

import spiel_games  # noqa: F401  (registers the games)
from solvers.registry import make_agent
from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.ratings.load import ratings_from_ledgers
from tournament.runner import run_tournament
from tournament.seating import cyclic_orders
from tournament.sprt.gsprt import PRESETS, Bounds
from tournament.sprt.run import SprtRequest, play_sprt

GAMES = {
    "coloretto": ["python_coloretto(players=3)", "python_coloretto(players=4)"],
    "rococo": ["python_rococo(players=3)"],
    "bruxelles": ["python_bruxelles(players=3)"],
    "staufer": ["python_staufer(players=3)"],
}
# Seeds per line-up when --seeds is not given, each played in the rotations of one order
# of play: 10 at 3 players (30 games, the minimum, within its hour for every game
# together; 5 seeds in each of the 2 orders of play); Coloretto's games take seconds, so
# 20 seeds at 3 players (60 games) and 12 at 4 players (48 games: the table with the
# heuristic in two seats has 3 orders of play of 4 rotations each).
SEEDS = {"python_coloretto(players=3)": 20, "python_coloretto(players=4)": 12}
DEFAULT_SEEDS = 10
BOOT = 2000  # bootstrap draws for the intervals
LINEUP = {
    "heuristic": "heuristic",
    "ismcts400": "ismcts(sims=400)",
    "ismcts1600": "ismcts(sims=1600)",
}
BASELINE = {"heuristic": "heuristic", "random": "random"}
SPRT_PAIRS = (("ismcts1600", "ismcts400"), ("ismcts400", "heuristic"))  # (A, B): is A stronger?
OLD = "ismcts(sims=400,eval=score,prior=none)"
NEW = "ismcts(sims=400)"
TITLE = "# Playing strength of the search agents"


def sample_positions(game, count: int = 8, seed: int = 5) -> list:
    """Decision points spread over a few random games (same for every spec measured)."""
    rng = random.Random(seed)
    out = []
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


def speed(game, spec: str, positions) -> tuple[float, float]:
    """(simulations per second, seconds per decision) of `spec` over `positions`."""
    agent = make_agent(spec, game, seed=1)
    sims = 0
    t = time.perf_counter()
    for s in positions:
        agent.step(s)
        sims += agent.last_sims
    dt = time.perf_counter() - t
    return sims / dt, dt / len(positions)


def tables(players: int, filler: str = "heuristic") -> tuple[dict, list[list[str]]]:
    """The agents and the one table of the benchmark: the three measured agents, and
    ``filler`` in any further seat (``heuristic`` or ``random``)."""
    agents = dict(LINEUP)
    if filler != "heuristic":
        agents[filler] = filler
    seats = list(LINEUP) + [filler] * (players - len(LINEUP))
    return agents, [seats]


def play(
    game_string: str,
    agents: dict,
    seeds: int,
    workers: int,
    executor: str,
    out: Path,
    seats: list[list[str]] | None = None,
):
    """The round robin of ``agents`` (one per seat), or exactly the tables ``seats``."""
    t = {
        "game": game_string,
        "seeds_per_lineup": seeds,
        "seed": 11,
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
    scores (a failure under ``rank-last``) counts in the share but not the difference."""
    names = {x.id: x.name for x in r.agents}
    games = read_ledger(out, ["seed", "agents", "ranks", "scores"]).table.to_pylist()
    by_pair: dict = {}  # (a, b) -> seed -> ([ahead, ...], [difference, ...])
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
    rng = random.Random(seed)
    out_ci = {}
    for pair, by_seed in by_pair.items():
        seeds = sorted(by_seed)
        boot_s, boot_d = [], []
        for _ in range(draws):
            pick = [by_seed[rng.choice(seeds)] for _ in seeds]
            aheads = [x for a, _ in pick for x in a]
            diffs = [x for _, d in pick for x in d]
            boot_s.append(sum(aheads) / len(aheads))
            if diffs:
                boot_d.append(sum(diffs) / len(diffs))
        s_lo, s_hi = _quantiles(boot_s)
        d_lo, d_hi = _quantiles(boot_d) if boot_d else (math.nan, math.nan)
        out_ci[pair] = (s_lo, s_hi, d_lo, d_hi)
    return out_ci


def _quantiles(values: list[float]) -> tuple[float, float]:
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


def _bound(x, side: str) -> str:
    """An interval bound; None is the open side of a one-sided interval (an agent that
    won or lost every game)."""
    return f"{x:.0f}" if x is not None else ("-inf" if side == "low" else "+inf")


def table(r, ci: dict | None = None) -> list[str]:
    """The pair table (with ``ci``: 95% intervals of the share and the score difference)
    and the Elo table."""
    if ci is None:
        lines = [
            "| agent | ahead of | win share | pairs | score difference |",
            "|---|---|---|---|---|",
        ]
        lines += [f"| {a} | {b} | {s:.2f} | {n} | {d:+.1f} |" for a, b, s, n, d in shares(r)]
    else:
        lines = [
            "| agent | ahead of | win share | 95% interval | pairs | score difference "
            "| 95% interval |",
            "|---|---|---|---|---|---|---|",
        ]
        for a, b, s, n, d in shares(r):
            s_lo, s_hi, d_lo, d_hi = ci[(a, b)]
            lines.append(
                f"| {a} | {b} | {s:.2f} | {s_lo:.2f} .. {s_hi:.2f} | {n} | {d:+.1f} "
                f"| {d_lo:+.1f} .. {d_hi:+.1f} |"
            )
    lines += ["", "| agent | Elo | 95% interval | games |", "|---|---|---|---|"]
    lines += [
        f"| {x['agent']} | {x['elo']:.0f} | {_bound(x['ci_low'], 'low')} .. "
        f"{_bound(x['ci_high'], 'high')} "
        f"| {x['games']} |"
        for x in r.as_records()
    ]
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


def sprt_table(
    gs: str,
    pairs,
    specs: dict,
    preset: str,
    max_games: int,
    workers: int,
    executor: str,
    out: Path,
) -> list[str]:
    """One SPRT per (A, B) pair of agent names (``tournament.sprt``), as table lines."""
    lines = [
        f"SPRTs, preset `{preset}` (Elo bounds {PRESETS[preset][0]:g}, {PRESETS[preset][1]:g}; "
        "alpha = beta = 0.05; duplicate sets, the other seats copies of A and B):",
        "",
        "| A | B | verdict | SPRT-confirmed | games | Elo of A over B (95%, at the stop) |",
        "|---|---|---|---|---|---|",
    ]
    for a, b in pairs:
        req = SprtRequest(gs, specs[a], specs[b], Bounds(*PRESETS[preset]), max_games=max_games)
        v, _, _ = play_sprt(req, out / f"sprt-{a}-{b}", workers, executor=executor)
        lines.append(
            f"| {a} | {b} | {v.verdict or 'not finished'} | {'yes' if v.verdict == 'H1' else 'no'} "
            f"| {v.games} | {v.elo:+.0f} ({v.elo_low:+.0f} .. {v.elo_high:+.0f}) |"
        )
    return lines


def section(gs: str, args, command: str, seeds: int) -> list[str]:
    t_all = time.perf_counter()
    game = pyspiel.load_game(gs)
    pos = sample_positions(game)
    old_sps, old_spd = speed(game, OLD, pos)
    new_sps, new_spd = speed(game, NEW, pos)
    t0 = time.perf_counter()
    n = game.num_players()
    with tempfile.TemporaryDirectory() as tmp:
        agents, seats = tables(n)
        r = play(gs, agents, seeds, args.workers, args.executor, Path(tmp) / "run", seats)
        ci = intervals(Path(tmp) / "run", r)
        sprt = []
        if getattr(args, "sprt", False):
            sprt = sprt_table(
                gs,
                SPRT_PAIRS,
                LINEUP,
                args.sprt_preset,
                args.sprt_max_games,
                args.workers,
                args.executor,
                Path(tmp),
            )
        minutes = (time.perf_counter() - t0) / 60
        robust = None
        if args.robust and n > len(LINEUP):
            ragents, rseats = tables(n, "random")
            robust = play(
                gs, ragents, seeds, args.workers, args.executor, Path(tmp) / "rnd", rseats
            )
            robust_ci = intervals(Path(tmp) / "rnd", robust)
        base = None
        if args.baseline_seeds > 0:
            base = play(
                gs, BASELINE, args.baseline_seeds, args.workers, args.executor, Path(tmp) / "b"
            )
    total = (time.perf_counter() - t_all) / 60
    lines = [f"<!-- game: {gs} -->", f"## {gs}", "", "Command:", "", f"    {command}", ""]
    lines += [
        "| search at sims=400 | sims/s | s per decision |",
        "|---|---|---|",
        f"| old settings `{OLD}` | {old_sps:.0f} | {old_spd:.3f} |",
        f"| defaults `{NEW}` | {new_sps:.0f} | {new_spd:.3f} |",
    ]
    shown = "`, `".join(agents[x] for x in seats[0])
    lines += ["", f"Line-up `{shown}`, {orders_played(seats[0], seeds)} ({minutes:.0f} min):", ""]
    lines += table(r, ci)
    if sprt:
        lines += [""] + sprt
    if robust is not None:
        shown = "`, `".join(ragents[x] for x in rseats[0])
        lines += [
            "",
            f"Robustness: line-up `{shown}` (a random player at the table), "
            f"{orders_played(rseats[0], seeds)}:",
            "",
        ]
        lines += table(robust, robust_ci)
    if base is not None:
        lines += ["", "Baseline, `heuristic` against `random`:", ""]
        lines += [x for x in table(base) if "| random | heuristic |" not in x]
    lines += ["", f"Whole section: {total:.0f} min (speed checks, tables, baseline).", ""]
    lines += [f"<!-- /game: {gs} -->"]
    return lines


def merge(path: Path, header: list[str], sections: dict[str, list[str]]) -> str:
    """The file with each given game's section replaced (or appended), others kept."""
    text = path.read_text() if path.exists() else ""
    if not text.startswith(TITLE):
        text = "\n".join(header) + "\n"
    for gs, lines in sections.items():
        block = "\n".join(lines)
        pat = re.compile(
            rf"<!-- game: {re.escape(gs)} -->.*?<!-- /game: {re.escape(gs)} -->", re.DOTALL
        )
        if pat.search(text):
            text = pat.sub(lambda _m, b=block: b, text)
        else:
            text = text.rstrip("\n") + "\n\n" + block + "\n"
    return text


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    ap.add_argument(
        "--seeds",
        type=int,
        help="seeds per line-up (each in the rotations of one order of play; a multiple of "
        f"the number of orders of play plays every seat order); default {DEFAULT_SEEDS}, "
        + ", ".join(f"{g} {n}" for g, n in SEEDS.items()),
    )
    ap.add_argument(
        "--baseline-seeds", type=int, default=2, help="seeds per heuristic/random line-up"
    )
    ap.add_argument(
        "--robust",
        action="store_true",
        help="at 4 players also play the table with random in the fourth seat",
    )
    ap.add_argument("--quick", action="store_true", help="2 seeds, serial: a smoke run")
    ap.add_argument(
        "--sprt", action="store_true", help="also run the comparisons as SPRTs (meeple sprt)"
    )
    ap.add_argument("--sprt-preset", default="gain", choices=sorted(PRESETS))
    ap.add_argument("--sprt-max-games", type=int, default=3000, help="games per SPRT at most")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--executor", default="ray", choices=("ray", "serial"))
    ap.add_argument("--out", default="docs/STRENGTH.md")
    args = ap.parse_args(argv)
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    bad = [g for g in names if g not in GAMES]
    if bad:
        print(f"error: unknown game {bad[0]!r}; choose from {', '.join(GAMES)}", file=sys.stderr)
        return 1
    if (args.seeds is not None and args.seeds < 1) or args.baseline_seeds < 0 or args.workers < 1:
        print("error: --seeds and --workers must be >= 1, --baseline-seeds >= 0", file=sys.stderr)
        return 1
    if args.quick:
        args.seeds, args.baseline_seeds, args.executor = 2, 1, "serial"
    command = "python scripts/bench_strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    header = [
        TITLE,
        "",
        "Written by `scripts/bench_strength.py` (issue 11); each game's section names the",
        "command that wrote it. Win share = games the row agent finished ahead of the column",
        "agent, ties counted half, over `pairs` (one per game where both sat at the table;",
        "more when an agent held two seats); every line-up is played under every seat",
        "order with duplicate seeds. Elo: the project's fit (`meeple ratings`), 95%",
        "bootstrap intervals.",
        "Speeds are measured on 8 fixed positions per game, on a shared 2-core machine.",
    ]
    out = Path(args.out)
    t0 = time.perf_counter()
    for name in names:
        for gs in GAMES[name]:
            seeds = args.seeds or SEEDS.get(gs, DEFAULT_SEEDS)
            lines = section(gs, args, command.strip(), seeds)
            out.write_text(merge(out, header, {gs: lines}))
            minutes = (time.perf_counter() - t0) / 60
            print(f"{gs}: done ({minutes:.0f} min so far)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
