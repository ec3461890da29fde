"""The ratings report's plots (Elo with intervals, the cross table, the ladder), as PNG data
URIs for the HTML page; matplotlib is imported only when a plot is drawn."""

from __future__ import annotations

import base64
import io
import math

import numpy as np

from tournament.ratings.fit import Ratings


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _intervals(ax, at, est, lo, hi, vertical: bool, colour: str) -> None:
    """Interval bars at positions ``at`` around ``est``: a finite end gets a cap; an
    unbounded end (inf) runs to the edge of the plot, uncapped, and is labelled; an
    unmeasured one (NaN: no resamples) draws nothing."""
    finite = [x for x in (*est, *lo, *hi) if math.isfinite(x)]
    span = (max(finite) - min(finite)) or 100.0
    edge = (min(finite) - 0.15 * span, max(finite) + 0.15 * span)
    for p, e, a, b in zip(at, est, lo, hi, strict=True):
        ends = [edge[0] if a == -math.inf else a, edge[1] if b == math.inf else b]
        for end, inf in ((ends[0], a == -math.inf), (ends[1], b == math.inf)):
            if math.isnan(end):
                continue
            line = ([p, p], [e, end]) if vertical else ([e, end], [p, p])
            ax.plot(*line, color=colour, linewidth=1.2, linestyle=":" if inf else "-")
            if not inf:  # a cap: a marker, the same size on any axis scale
                xy = ([p], [end]) if vertical else ([end], [p])
                ax.plot(*xy, marker="_" if vertical else "|", markersize=9, color=colour)
        up, down = b == math.inf, a == -math.inf
        if up or down:
            label = (
                "unbounded both ways"
                if up and down
                else "unbounded above"
                if up
                else "unbounded below"
            )
            ax.annotate(
                label,
                (p, e) if vertical else (e, p),
                textcoords="offset points",
                xytext=(6, 6),
                fontsize=7,
            )
    if vertical:
        ax.set_ylim(*edge)
    else:
        ax.set_xlim(*edge)


def plot_elo(r: Ratings) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = r.order()[::-1]
    names = [r.agents[i].name for i in order]
    elo = np.array([r.elo[i] for i in order])
    lo = [r.ci_low[i] for i in order]
    hi = [r.ci_high[i] for i in order]
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(names)))
    ax.plot(elo, range(len(names)), "o", color="#2a6ebb")
    _intervals(ax, range(len(names)), list(elo), lo, hi, False, "#2a6ebb")
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
    ax.plot(b, e, "o-", color="#bb5a2a")
    _intervals(ax, list(b), list(e), list(lo), list(hi), True, "#bb5a2a")
    if b.min() > 0:
        ax.set_xscale("log")
    ax.set_xlabel("budget")
    ax.set_ylabel("Elo (95% CI)")
    ax.grid(alpha=0.3)
    return _png(fig)
