"""docs/ADVICE-MEASURED.md from the figures of scripts/bench_advice.py (nothing typed by hand)."""

from __future__ import annotations

import math

from scipy.stats import binomtest

from solvers.base import Z95  # the one 95% normal quantile the project shares

UNITS = ("value", "margin", "first")


BOOT = 200  # resamples of the fit positions
BOOT_LEVEL = 0.9  # the floor is this upper quantile of the resampled 95% floors
BOOT_SEED = 29


def _parts(row) -> tuple[float, float, float, float]:
    """(mean, se, reference, reference se) of one unit's row; rows measured before the
    reference's standard error was recorded have none (0)."""
    mean, se, big = row[:3]
    return mean, se, big, row[3] if len(row) > 3 else 0.0


def covered(row, floor: float) -> bool:
    """Whether the range mean +- Z95 sqrt(se^2 + floor^2) holds the larger search's value,
    that value's own sampling noise (its standard error) allowed for."""
    mean, se, big, big_se = _parts(row)
    return abs(big - mean) <= Z95 * math.sqrt(se * se + floor * floor + big_se * big_se) + 1e-12


def coverage(rows: list[dict], floors: dict, units=UNITS, best_only: bool = False):
    hits = n = 0
    for r in rows:
        for m in r["moves"]:
            if best_only and m["rank"]:
                continue
            for u in units:
                hits += covered(m[u], floors.get(u, 0.0))
                n += 1
    return hits, n


def _needed(m: dict, u: str) -> float:
    """The least floor with which this interval covers: sqrt((d / z)^2 - se^2 - ref se^2)."""
    mean, se, big, big_se = _parts(m[u])
    return math.sqrt(max(0.0, ((big - mean) / Z95) ** 2 - se * se - big_se * big_se))


def _floor_95(rows: list[dict], u: str, target: float) -> float:
    need = sorted(_needed(m, u) for r in rows for m in r["moves"])
    return need[max(0, math.ceil(target * len(need)) - 1)] if need else 0.0


def fitted_floors(rows: list[dict], target: float = 0.95) -> dict[str, float]:
    """Per unit, the floor for the code: the least floor whose coverage on ``rows`` (every
    listed move) reaches ``target``, made robust to the few fit positions. The moves of one
    position miss together, so a 95% point from 20 positions rests on two or three of them
    and is often too low; the floor is the BOOT_LEVEL upper quantile of that 95% floor over
    BOOT resamples of the positions (a fixed seed: the same rows give the same floors)."""
    import numpy as np

    rng = np.random.default_rng(BOOT_SEED)
    picks = [rng.integers(0, len(rows), len(rows)) for _ in range(BOOT)] if rows else []
    out = {}
    for u in UNITS:
        boot = sorted(_floor_95([rows[i] for i in pick], u, target) for pick in picks)
        k = max(0, math.ceil(BOOT_LEVEL * len(boot)) - 1)
        out[u] = float(f"{boot[k] * 1.0005:.3g}") if boot else 0.0  # 3 digits, rounded up
    return out


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n trials (scipy's)."""
    if n == 0:
        return 0.0, 1.0
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def _rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.3f} [{lo:.2f}, {hi:.2f}] ({k}/{n})" if n else "-"


def _floors(f: dict) -> str:
    return ", ".join(f"{u} {f[u]:g}" for u in UNITS)


def _ref_se(c: dict) -> str:
    rows = [m["value"] for r in c["eval"] for m in r["moves"]]
    return "recorded" if rows and all(len(x) > 3 for x in rows) else "not recorded"


def compared(c: dict) -> int:
    """The moves a game's calibration compared and listed at the default budget (rows
    measured before it was recorded compared the 3 most searched)."""
    return int(c.get("compared", 3))


def render_calibration(cal: dict, floors: dict) -> list[str]:
    from tournament.advice.advise import COMPARED  # what advice compares: what is measured

    out = [
        "## Honest intervals",
        "",
        "For each game, positions from games of the heuristic with 15% random moves: the"
        f" listed moves (up to {COMPARED}, the most searched, as advice compares and lists"
        " them by default) at the default budget, and the same moves' values in a"
        " search with 8 times the budget (another seed). The raw interval (mean +- 1.96"
        " standard errors of the paired samples) covers the larger search's value far less"
        " often than 95%: the larger search's deeper tree moves the values. So the interval"
        " is mean +- 1.96 sqrt(se^2 + floor^2), with a floor per game and unit (value, points,"
        " chance to finish first) fitted on the *fit* positions only: the least floor whose"
        " coverage reaches 0.95 there, taken at its 90% upper bound over"
        f" {BOOT} resamples of the fit positions (the moves of one position miss together, so"
        " the plain 95% point of a few positions is often too low). The coverage is then"
        " measured on the separate *eval* positions (other games, other seeds). The larger"
        " search's value has its own sampling noise: an interval counts as covering when"
        " |reference - mean| <= 1.96 sqrt(se^2 + floor^2 + reference se^2) (column"
        " *reference se*: whether that standard error was recorded; when it was not, it"
        " counts as 0, which only lowers the coverage). Target: at least 0.90. Coverage with"
        " its 95% Wilson interval (hits/intervals); every listed move and unit counts.",
        "",
        "| game | budgets | positions fit / eval | reference se | raw coverage (eval) |"
        " floors fitted | floors in code | coverage (eval) | best move only | target |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    zero = dict.fromkeys(UNITS, 0.0)
    for game, c in cal.items():
        fit = fitted_floors(c["fit"])
        f = floors.get(game.split("(")[0], zero)
        raw = coverage(c["eval"], zero)
        k, n = coverage(c["eval"], f)
        best = coverage(c["eval"], f, best_only=True)
        ok = "met" if n and k / n >= 0.90 else "**missed**"
        out.append(
            f"| {game} | {c['small']} vs {c['big']} | {len(c['fit'])} / {len(c['eval'])} |"
            f" {_ref_se(c)} | {_rate(*raw)} | {_floors(fit)} | {_floors(f)} | {_rate(k, n)} | {_rate(*best)}"
            f" | {ok} |"
        )
    out.append("")
    other = [f"{game} ({compared(c)})" for game, c in cal.items() if compared(c) != COMPARED]
    if other:
        out += [
            f"Not measured with the {COMPARED} moves advice compares yet (moves compared):"
            f" {', '.join(other)}. Their coverage describes that many moves, not what advice"
            " shows now.",
            "",
        ]
    stale = [game for game, c in cal.items() if _ref_se(c) == "not recorded"]
    if stale:
        out += [
            f"Not measured again yet: {', '.join(stale)}. These rows were measured before the"
            " default opponent model became opponents=infer, on eval positions that the choice"
            " of the floor-fitting rule (the resampling) has seen, so their coverage is not an"
            " independent test; the rows with a recorded reference se are.",
            "",
        ]
    for game, c in cal.items():
        f = floors.get(game.split("(")[0], zero)
        per = ", ".join(f"{u} {_rate(*coverage(c['eval'], f, units=(u,)))}" for u in UNITS)
        out.append(f"- {game}, per unit: {per}")
    return [*out, ""]


def spearman(x: list[float], y: list[float]) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(x, y).statistic)


def loss_floor(noise: dict) -> float:
    """How far a loss in points moves between two reviews with different seeds beyond its
    paired standard error: f with var(loss_a - loss_b) = se_a^2 + se_b^2 + 2 f^2, the moment
    estimate over the decisions where either review finds a loss (3 digits, rounded up)."""
    total = n = 0.0
    for g in noise["games"]:
        (la, lb), (wa, wb) = g["loss"], g["low"]
        for a, b, lo_a, lo_b in zip(la, lb, wa, wb, strict=True):
            if a is None or b is None or lo_a is None or lo_b is None or not (a or b):
                continue
            se_a, se_b = (a - lo_a) / Z95, (b - lo_b) / Z95
            total += (a - b) ** 2 - se_a * se_a - se_b * se_b
            n += 1
    f = math.sqrt(max(0.0, total / (2 * n))) if n else 0.0
    return float(f"{f * 1.0005:.3g}")


def render_noise(noise: dict, floors: dict) -> list[str]:
    out = [
        "## How far a loss moves between reviews",
        "",
        "Development games (game seeds 8 and 9, never the game the marks are measured on"
        " below), P1 reviewed twice with seeds 0 and 1 at the default agent: the loss in"
        " points of each decision moves between the two reviews more than its paired standard"
        " error says (the searched trees differ). The floor f solves var(loss_a - loss_b) ="
        " se_a^2 + se_b^2 + 2 f^2 over the decisions where either review finds a loss; a mark"
        " reads the lower end loss - 1.96 sqrt(se^2 + f^2) (docs/advice.md).",
        "",
        "| game | agent | games | decisions | floor fitted (points) | floor in code |",
        "|---|---|---|---|---|---|",
    ]
    for game, c in noise.items():
        n = sum(len(g["loss"][0]) for g in c["games"])
        code = floors.get(game.split("(")[0], 0.0)
        out.append(
            f"| {game} | {c['agent']} | {len(c['games'])} | {n} | {loss_floor(c):g} | {code:g} |"
        )
    return [*out, ""]


def render_marks(marks: dict) -> list[str]:
    out = [
        "## Marks that do not depend on the seed, and review time",
        "",
        "One 3-player game per game (P1 the heuristic with 30% random moves, the others the"
        " heuristic), P1 reviewed twice with seeds 0 and 1: the share of unforced decisions"
        " that get the same mark (no mark counts as a mark; a mark is the highest threshold"
        " the lower end of the loss's 95% range reaches, that range including the game's loss"
        " floor above; docs/advice.md). Target: at least 0.90. The review time is the wall"
        " time of the first review at the default agent (luck included) with `--workers`"
        " processes analysing its decisions; CPU time is that of the review and its workers"
        " together. Load: the machine's 1-minute load average at the start and the end of the"
        " review (2 cores, shared with other work: a load above 2 stretches the wall time)."
        " Target: at most 60 s of wall time. *CPU / workers* is what the wall time would be"
        " on an otherwise idle machine if the workers shared the work perfectly (an estimate,"
        " not a measurement; its verdict is marked as such).",
        "",
        "| game | agent | decisions | marked (seed 0 / 1) | same mark | target |"
        " workers | review time (s) | CPU time (s) | load | target | CPU / workers (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for game, m in marks.items():
        k, n = m["same"], m["decisions"]
        ok = "met" if n and k / n >= 0.90 else "**missed**"
        secs = m["seconds"][0]
        ok_t = "met" if secs <= 60 else "**missed**"
        workers = m.get("workers", 1)
        cpu, idle = "-", "-"
        if "cpu_seconds" in m:
            cpu = f"{m['cpu_seconds'][0]:.0f}"
            est = m["cpu_seconds"][0] / workers
            idle = f"{est:.0f} ({'met' if est <= 60 else 'missed'}, estimate)"
        load = "-" if "load" not in m else " to ".join(f"{x:.1f}" for x in m["load"][0])
        out.append(
            f"| {game} | {m['agent']} | {n} | {m['marked'][0]} / {m['marked'][1]} |"
            f" {_rate(k, n)} | {ok} | {workers} | {secs:.0f} | {cpu} | {load} | {ok_t} |"
            f" {idle} |"
        )
    return [*out, ""]


def render_ladder(lad: dict) -> list[str]:
    rates = lad["error_rate"]
    pairs = [(e, r) for e, r in zip(lad["elo"], rates, strict=True) if r is not None]
    rho = spearman([e for e, _ in pairs], [-r for _, r in pairs]) if len(pairs) > 2 else None
    out = [
        "## The review measures playing strength",
        "",
        f"A round robin of {len(lad['agents'])} agents on {lad['game']} ({lad['games']} games,"
        " each pair in both seat orders); Elo by OpenSpiel's Bradley-Terry fit (random at 0)."
        f" Each agent's error rate is its average loss in points per unforced decision,"
        f" reviewed by {lad['agent']}, in the games it played first against each of its two"
        " neighbours on the ladder (the two ends count as neighbours; two games each)."
        " Target: Spearman rank correlation between Elo and minus the error rate at least 0.9.",
        "",
        "| agent | Elo | decisions reviewed | error rate (points) |",
        "|---|---|---|---|",
    ]
    for a, e, d, r in zip(lad["agents"], lad["elo"], lad["decisions"], rates, strict=True):
        out.append(f"| {a} | {e:.0f} | {d} | {'-' if r is None else f'{r:.3f}'} |")
    ok = "met" if rho is not None and rho >= 0.9 else "**missed**"
    out += ["", f"Spearman rank correlation: {'-' if rho is None else f'{rho:.2f}'} ({ok})", ""]
    if not lad.get("opponents_infer"):
        out += [
            "Not measured again yet: measured before the default opponent model became"
            " opponents=infer (issue 33).",
            "",
        ]
    return out


def render_serve(serve: dict) -> list[str]:
    out = [
        "## The engine answers during the search",
        "",
        "`meeple advise --serve` with `reportDuringSearchEvery` 0.1 s at a decision sampled"
        " from a game of the heuristic (the history as action ids, `ply` actions long; the"
        " game already loaded): seconds from the query to the first partial answer (target:"
        " at most 0.2 s; replaying the history and dealing the advised player's view come"
        " first) and to the final answer. Load: the machine's 1-minute load average when the"
        " query was sent (2 cores; above 2, other work shares them).",
        "",
        "| game | ply | agent | first partial answer (s) | target | final answer (s) | answers |"
        " load |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game, r in serve.items():
        first = r["first_partial"]
        ok = "met" if first is not None and first <= 0.2 else "**missed**"
        shown = "none" if first is None else f"{first:.3f}"
        load = f"{r['load']:.1f}" if "load" in r else "-"
        out.append(
            f"| {game} | {r.get('ply', '-')} | {r['agent']} | {shown} | {ok} |"
            f" {r['total']:.2f} | {r['answers']} | {load} |"
        )
    return [*out, ""]


def render(data: dict) -> str:
    from solvers.search import analysis

    lines = [
        "# Advice, measured",
        "",
        "Written by `python scripts/bench_advice.py render` from docs/data/advice.json"
        " (each phase: `python scripts/bench_advice.py PHASE`); docs/advice.md explains"
        " the numbers.",
        "",
    ]
    if "calibration" in data:
        lines += render_calibration(data["calibration"], dict(analysis.FLOOR))
    if "noise" in data:
        from tournament.advice.review import LOSS_FLOOR

        lines += render_noise(data["noise"], dict(LOSS_FLOOR))
    if "marks" in data:
        lines += render_marks(data["marks"])
    if "ladder" in data:
        lines += render_ladder(data["ladder"])
    if "serve" in data:
        lines += render_serve(data["serve"])
    missing = [p for p in ("calibration", "noise", "marks", "ladder", "serve") if p not in data]
    if missing:
        lines += ["## Not measured yet", "", ", ".join(missing), ""]
    return "\n".join(lines)
