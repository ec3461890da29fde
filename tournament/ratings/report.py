"""Render ratings: terminal table, Markdown, CSV, JSON, and a self-contained HTML report.

JSON and CSV: ``tournament.ratings.export`` (the JSON an object with the ratings, the
unrated agents, the method, the games, groups, warnings and notes; the CSV the bare
table). Agents are ranked within their comparison group (``1a``, ``2a``, ``1b`` when the
graph is disconnected). The HTML report embeds its PNG plots (matplotlib, Agg backend)
as base64, so it is one file.
"""

from __future__ import annotations

import html
import math

from tournament.html_report import MARK
from tournament.ratings.export import to_csv, to_json
from tournament.ratings.fit import Ratings
from tournament.ratings.notes import notes
from tournament.ratings.plots import plot_crosstable, plot_elo, plot_ladder

FORMATS = ("table", "md", "csv", "json")
__all__ = ["FORMATS", "notes", "print_table", "render", "to_csv", "to_html", "to_json"]


def _f(x: float, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"


def _ranks(r: Ratings, order: list[int]) -> list[str]:
    """Rank within the comparison group; with several groups, the group too (1a, 2a, 1b)."""
    groups, out = r.groups(), []
    seen: dict[int, int] = {}
    for i in order:
        g = int(groups[i])
        seen[g] = seen.get(g, 0) + 1
        out.append(f"{seen[g]}{chr(ord('a') + g)}" if len(r.components) > 1 else str(seen[g]))
    return out


def main_rows(r: Ratings) -> list[list[str]]:
    rows = []
    order = r.order()
    for rank, i in zip(_ranks(r, order), order, strict=True):
        row = [
            rank,
            r.agents[i].name,
            _f(r.elo[i]),
            _f(r.ci_low[i]),
            _f(r.ci_high[i]),
            str(int(r.games[i])),
        ]
        if r.alpharank is not None and r.shows_alpharank():
            row.append(_f(r.alpharank[i], 3))
        rows.append(row)
    return rows


def main_header(r: Ratings) -> list[str]:
    h = ["#", "agent", "elo", "95% low", "95% high", "games"]
    return h + (["alpharank"] if r.shows_alpharank() else [])


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


PL_HEADER = ["#", "agent", "pl_elo", "95% low", "95% high", "elo"]
PL_SEAT_HEADER = ["players", "seat", "seat term (Elo)", "95% low", "95% high"]


def pl_rows(r: Ratings) -> list[list[str]]:
    """Plackett-Luce ratings (best first by PL) beside the agent's Elo."""
    pl = r.plackett_luce
    if pl is None:
        return []
    order = r.order(pl.elo)
    return [
        [
            rank,
            r.agents[i].name,
            _f(pl.elo[i]),
            _f(pl.ci_low[i]),
            _f(pl.ci_high[i]),
            _f(r.elo[i]),
        ]
        for rank, i in zip(_ranks(r, order), order, strict=True)
    ]


def pl_seat_rows(r: Ratings) -> list[list[str]]:
    pl = r.plackett_luce
    if pl is None:
        return []
    return [
        [str(s["players"]), str(s["seat"])]
        + (
            [_f(s["elo"]), _f(s["ci_low"]), _f(s["ci_high"])]
            if s.get("measured", True)
            else ["not measured", "-", "-"]  # the notes say why
        )
        for s in pl.seats
    ]


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


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(r: Ratings) -> str:
    parts = ["## Ratings", "", _md_table(main_header(r), main_rows(r)), ""]
    parts += [f"- {n}" for n in notes(r)]
    if r.plackett_luce is not None:
        parts += ["", "## Plackett-Luce", "", _md_table(PL_HEADER, pl_rows(r)), ""]
        parts += ["### Seat terms", "", _md_table(PL_SEAT_HEADER, pl_seat_rows(r))]
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
    tables = [("Elo ratings", main_header(r), main_rows(r))]
    if r.plackett_luce is not None:
        tables += [
            ("Plackett-Luce (finishing orders, seat term; Elo scale)", PL_HEADER, pl_rows(r)),
            ("Plackett-Luce seat terms (Elo)", PL_SEAT_HEADER, pl_seat_rows(r)),
        ]
    tables += [
        ("Crosstable", CROSS_HEADER, crosstable_rows(r)),
        ("Seat advantage", SEAT_HEADER, seat_rows(r)),
    ]
    for title, header, rows in tables:
        t = Table(title=title, title_justify="left")
        for i, h in enumerate(header):
            t.add_column(h, justify="left" if h in ("agent", "opponent") or i == 1 else "right")
        for row in rows:
            t.add_row(*row)
        console.print(t)
    for n in notes(r):
        console.print(n, markup=False, highlight=False)


def render(r: Ratings, fmt: str, extra: dict | None = None) -> str:
    """``extra``: what the loader read (ledgers, games), for the JSON."""
    if fmt == "json":
        return to_json(r, extra)
    if fmt == "csv":
        return to_csv(r)
    if fmt == "md":
        return to_markdown(r)
    raise ValueError(f"unknown format {fmt!r}")


# ---------------------------------------------------------------------------------------
# HTML


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
    if r.plackett_luce is not None:
        sections += [
            "<h2>Plackett-Luce (finishing orders, seat term; Elo scale)</h2>",
            _html_table(PL_HEADER, pl_rows(r)),
            "<h3>Seat terms</h3>",
            _html_table(PL_SEAT_HEADER, pl_seat_rows(r)),
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
        f"<!DOCTYPE html><html><head><meta charset='utf-8'>{MARK}"
        f"<title>{html.escape(title)}</title><style>{style}</style></head><body>"
        + "\n".join(sections)
        + "</body></html>\n"
    )
