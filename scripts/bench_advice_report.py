"""docs/ADVICE.md from the figures of scripts/bench_advice.py (nothing typed by hand)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
GRID = [round(1.0 + 0.05 * k, 2) for k in range(0, 181)]  # widenings tried: 1.00 .. 10.00
UNITS = ("value", "margin", "first")


def covered(row, widen: float) -> bool:
    mean, se, big = row
    return abs(big - mean) <= Z95 * widen * se + 1e-12


def coverage(rows: list[dict], widen: float, units=UNITS, best_only: bool = False):
    hits = n = 0
    for r in rows:
        for m in r["moves"]:
            if best_only and m["rank"]:
                continue
            for u in units:
                hits += covered(m[u], widen)
                n += 1
    return hits, n


def fitted_widen(rows: list[dict], target: float = 0.95) -> float:
    """The least widening whose coverage on ``rows`` (every unit of every listed move)
    reaches ``target``."""
    for w in GRID:
        hits, n = coverage(rows, w)
        if n and hits / n >= target:
            return w
    return GRID[-1]


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.3f} [{lo:.2f}, {hi:.2f}] ({k}/{n})" if n else "-"


def render_calibration(cal: dict, widen: dict) -> list[str]:
    out = [
        "## Honest intervals",
        "",
        "For each game, positions from games of the heuristic with 15% random moves: the"
        " listed moves at the default budget, and the same moves' values in a search with"
        " 8 times the budget (another seed). The raw interval (mean +- 1.96 standard errors"
        " of the paired samples) is widened by a factor fitted on the *fit* positions (the"
        " least factor whose coverage reaches 0.95 there); the coverage is then measured on"
        " the separate *eval* positions. Target: at least 0.90 at 95%. Coverage with its"
        " 95% Wilson interval (hits/intervals); every listed move and unit counts.",
        "",
        "| game | budgets | positions fit / eval | raw coverage (eval) | widening fitted |"
        " in code | coverage (eval) | best move only | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for game, c in cal.items():
        fit = fitted_widen(c["fit"])
        w = widen.get(game.split("(")[0], 1.0)
        raw = coverage(c["eval"], 1.0)
        k, n = coverage(c["eval"], w)
        best = coverage(c["eval"], w, best_only=True)
        ok = "met" if n and k / n >= 0.90 else "**missed**"
        out.append(
            f"| {game} | {c['small']} vs {c['big']} | {len(c['fit'])} / {len(c['eval'])} |"
            f" {_rate(*raw)} | {fit:.2f} | {w:.2f} | {_rate(k, n)} | {_rate(*best)} | {ok} |"
        )
    out.append("")
    for game, c in cal.items():
        w = widen.get(game.split("(")[0], 1.0)
        per = ", ".join(f"{u} {_rate(*coverage(c['eval'], w, units=(u,)))}" for u in UNITS)
        out.append(f"- {game}, per unit: {per}")
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
        lines += render_calibration(data["calibration"], dict(analysis.WIDEN))
    return "\n".join(lines)
