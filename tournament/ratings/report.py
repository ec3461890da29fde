"""Render ratings: terminal table, Markdown, CSV, JSON, and a self-contained HTML report.

The JSON form is a list of {agent, elo, ci_low, ci_high, games}, best first (the unbounded
side of a one-sided interval is null; the notes say which agent and why). The HTML
report embeds its PNG plots (matplotlib, Agg backend) as base64, so it is one file.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import math

import numpy as np

from tournament.ratings.fit import Ratings

FORMATS = ("table", "md", "csv", "json")


def _f(x: float, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"


def main_rows(r: Ratings) -> list[list[str]]:
    rows = []
    for rank, i in enumerate(r.order(), 1):
        row = [
            str(rank),
            r.agents[i].name,
            _f(r.elo[i]),
            _f(r.ci_low[i]),
            _f(r.ci_high[i]),
            str(int(r.games[i])),
        ]
        if r.alpharank is not None:
            row.append(_f(r.alpharank[i], 3))
        rows.append(row)
    return rows


def main_header(r: Ratings) -> list[str]:
    h = ["#", "agent", "elo", "ci_low", "ci_high", "games"]
    return h + (["alpharank"] if r.alpharank is not None else [])


def crosstable_rows(r: Ratings) -> list[list[str]]:
    """Per ordered pair that met: wins, draws, losses, mean score difference, LOS."""
    out = []
    order = r.order()
    for i in order:
        for j in order:
            if i == j:
                continue
            n = r.wins[i, j] + r.wins[j, i] + r.draws[i, j]
            if n == 0:
                continue
            out.append(
                [
                    r.agents[i].name,
                    r.agents[j].name,
                    str(int(r.wins[i, j])),
                    str(int(r.draws[i, j])),
                    str(int(r.wins[j, i])),
                    _f(r.score_diff[i, j], 2),
                    _f(r.los[i, j], 3),
                ]
            )
    return out


CROSS_HEADER = ["agent", "opponent", "wins", "draws", "losses", "score diff", "LOS"]
SEAT_HEADER = ["players", "seat", "games", "mean rank", "win rate", "mean score"]


def seat_rows(r: Ratings) -> list[list[str]]:
    return [
        [
            str(s["players"]),
            str(s["seat"]),
            str(s["games"]),
            _f(s["mean_rank"], 3),
            _f(s["win_rate"], 3),
            _f(s["mean_score"], 2),
        ]
        for s in r.seats
    ]


def notes(r: Ratings) -> list[str]:
    ci = (
        f"{r.bootstrap} bootstrap resamples of {r.blocks} duplicate sets"
        if r.bootstrap
        else "no CI"
    )
    out = [
        f"anchor: {r.anchor}; 95% CI from {ci}; pairwise results by rank, ties as draws",
        f"prior: {r.prior}",
    ]
    for i in r.order():
        if r.one_sided and r.one_sided[i]:
            side = "lower" if r.one_sided[i].startswith("won") else "upper"
            out.append(
                f"{r.agents[i].name} {r.one_sided[i]}: one-sided interval ({side} bound only); "
                "its Elo is what the prior allows, not a measurement"
            )
    for i in r.order():
        a = r.agents[i]
        if a.coverage is not None:
            out.append(
                f"{a.name}: {a.coverage:.0%} of its decisions played from its table "
                f"(coverage, mean of {a.coverage_games} games; the rest by its fallback)"
            )
    if r.void_games:
        out.append(f"{r.void_games} void game(s) left out")
    if r.alpharank is None:
        out.append("alpharank: not shown (some pair of agents never met)")
    return out + [f"warning: {w}" for w in r.warnings]


def to_json(r: Ratings) -> str:
    return json.dumps(r.as_records(), indent=2)


def to_csv(r: Ratings) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["agent", "elo", "ci_low", "ci_high", "games"])
    for rec in r.as_records():
        w.writerow([rec["agent"], rec["elo"], rec["ci_low"], rec["ci_high"], rec["games"]])
    return buf.getvalue()


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(r: Ratings) -> str:
    parts = ["## Ratings", "", _md_table(main_header(r), main_rows(r)), ""]
    parts += [f"- {n}" for n in notes(r)]
    parts += [
        "",
        "## Crosstable",
        "",
        _md_table(CROSS_HEADER, crosstable_rows(r)),
        "",
        "## Seat advantage",
        "",
        _md_table(SEAT_HEADER, seat_rows(r)),
        "",
    ]
    return "\n".join(parts)


def print_table(r: Ratings, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    for title, header, rows in (
        ("Elo ratings", main_header(r), main_rows(r)),
        ("Crosstable", CROSS_HEADER, crosstable_rows(r)),
        ("Seat advantage", SEAT_HEADER, seat_rows(r)),
    ):
        t = Table(title=title, title_justify="left")
        for i, h in enumerate(header):
            t.add_column(h, justify="left" if h in ("agent", "opponent") or i == 1 else "right")
        for row in rows:
            t.add_row(*row)
        console.print(t)
    for n in notes(r):
        console.print(n, markup=False, highlight=False)


def render(r: Ratings, fmt: str) -> str:
    if fmt == "json":
        return to_json(r)
    if fmt == "csv":
        return to_csv(r)
    if fmt == "md":
        return to_markdown(r)
    raise ValueError(f"unknown format {fmt!r}")


# ---------------------------------------------------------------------------------------
# HTML


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def plot_elo(r: Ratings) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = r.order()[::-1]
    names = [r.agents[i].name for i in order]
    elo = np.array([r.elo[i] for i in order])
    # an unbounded side is drawn as an arrow-less open bar to the edge (no finite number)
    lo = np.nan_to_num(elo - np.array([r.ci_low[i] for i in order]), posinf=0.0)
    hi = np.nan_to_num(np.array([r.ci_high[i] for i in order]) - elo, posinf=0.0)
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(names)))
    ax.errorbar(elo, range(len(names)), xerr=[lo, hi], fmt="o", capsize=4, color="#2a6ebb")
    for y, i in enumerate(order):
        if r.one_sided and r.one_sided[i]:
            ax.annotate(
                "→ unbounded" if r.one_sided[i].startswith("won") else "unbounded ←",
                (elo[y], y),
                textcoords="offset points",
                xytext=(8 if r.one_sided[i].startswith("won") else -8, 6),
                ha="left" if r.one_sided[i].startswith("won") else "right",
                fontsize=7,
            )
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("Elo (95% CI)")
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def plot_crosstable(r: Ratings) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = r.order()
    names = [r.agents[i].name for i in order]
    n = r.wins + r.wins.T + r.draws
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = (r.wins + 0.5 * r.draws) / n
    rate = rate[np.ix_(order, order)]
    fig, ax = plt.subplots(figsize=(1.2 + 0.7 * len(names), 1 + 0.6 * len(names)))
    cmap = plt.get_cmap("RdBu")
    im = ax.imshow(np.ma.masked_invalid(rate), cmap=cmap, vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not math.isnan(rate[i, j]):
                colour = text_colour(cmap(float(rate[i, j])))
                ax.text(
                    j, i, f"{rate[i, j]:.2f}", ha="center", va="center", fontsize=8, color=colour
                )
    ax.set_title("score rate of row against column")
    fig.colorbar(im, ax=ax, shrink=0.8)
    return _png(fig)


def text_colour(rgba) -> str:
    """Black or white, whichever reads on a cell of this colour (WCAG relative luminance)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgba[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    # contrast with black (L + 0.05) / 0.05 beats white's 1.05 / (L + 0.05) above L ~ 0.18
    return "black" if luminance > 0.179 else "white"


def ladder_points(r: Ratings) -> list[tuple[float, float, float, float]]:
    pts = [
        (a.budget, r.elo[i], r.ci_low[i], r.ci_high[i])
        for i, a in enumerate(r.agents)
        if a.budget is not None
    ]
    return sorted(pts)


def plot_ladder(r: Ratings) -> str | None:
    pts = ladder_points(r)
    if len(pts) < 2:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    b, e, lo, hi = (np.array(x) for x in zip(*pts, strict=True))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    yerr = [np.nan_to_num(e - lo, posinf=0.0), np.nan_to_num(hi - e, posinf=0.0)]
    ax.errorbar(b, e, yerr=yerr, fmt="o-", capsize=4, color="#bb5a2a")
    if b.min() > 0:
        ax.set_xscale("log")
    ax.set_xlabel("budget")
    ax.set_ylabel("Elo (95% CI)")
    ax.grid(alpha=0.3)
    return _png(fig)


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def to_html(r: Ratings, title: str = "meeple-arena ratings", context: dict | None = None) -> str:
    ctx = context or {}
    imgs = [
        ("Elo with 95% confidence intervals", plot_elo(r)),
        ("Crosstable (score rate)", plot_crosstable(r)),
    ]
    ladder = plot_ladder(r)
    if ladder:
        imgs.append(("Elo against budget (ladder)", ladder))
    los_header = ["agent"] + [r.agents[i].name for i in r.order()]
    los_rows = [
        [r.agents[i].name] + ["" if i == j else _f(r.los[i, j], 3) for j in r.order()]
        for i in r.order()
    ]
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        "<p>"
        + "<br>".join(
            html.escape(x)
            for x in [
                f"ledgers: {', '.join(ctx.get('ledgers', []))}",
                f"games: {ctx.get('games', '?')}",
                *ctx.get("lines", []),
                *notes(r),
            ]
        )
        + "</p>",
        "<h2>Elo</h2>",
        _html_table(main_header(r), main_rows(r)),
    ]
    for caption, data in imgs:
        sections.append(
            f"<h2>{html.escape(caption)}</h2><img alt='{html.escape(caption)}' "
            f"src='data:image/png;base64,{data}'>"
        )
    sections += [
        "<h2>Crosstable</h2>",
        _html_table(CROSS_HEADER, crosstable_rows(r)),
        "<h2>Likelihood of superiority (row over column)</h2>",
        _html_table(los_header, los_rows),
        "<h2>Seat advantage</h2>",
        _html_table(SEAT_HEADER, seat_rows(r)),
    ]
    style = (
        "body{font-family:sans-serif;max-width:960px;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
        "text-align:right}th{background:#f0f0f0}img{max-width:100%}"
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{style}</style></head><body>"
        + "\n".join(sections)
        + "</body></html>\n"
    )
