"""A review as text and as an HTML page (value and luck over the game, mistakes marked)."""

from __future__ import annotations

import base64
import html
import io

from tournament.advice.advise_text import count, percent, points, value_unit
from tournament.advice.review import MARKS, Decision, Review
from tournament.html_report import MARK


def units(rv: Review) -> str:
    return (
        f"units: value = {value_unit(rv.game)}; points = final score minus the best other"
        " player's; first = chance to finish first; loss value, loss pts, loss first = what"
        " the move played gives up in each (points and first against the compared move best"
        " in that unit); accuracy in % (Lichess's formula on the loss in chance to finish"
        " first)"
    )


def _f(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _loss(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def summary_lines(rv: Review) -> list[str]:
    marks = rv.marks()
    limits = ", ".join(f"{m} >= {t:g}" for m, t in zip(MARKS, rv.thresholds, strict=True))
    out = [
        f"error rate: {_loss(rv.error_rate_points)} points and"
        f" {percent(rv.error_rate_first)} chance to finish first lost per decision"
        f" ({count(len(rv.decisions), 'unforced decision')});"
        f" average loss {_f(rv.average_loss)} in value",
        f"accuracy: {_f(rv.accuracy, 1)}%",
        "marks: "
        + ", ".join(f"{marks[m]} {m}" for m in MARKS)
        + f" (the lower end of the points lost's 95% range: {limits})",
    ]
    luck = rv.luck
    if luck is not None:
        out.append(
            f"luck: {points(luck.points)} points, {100 * luck.first:+.0f}% chance to finish first"
            f" over {count(len(luck.events), 'chance event')} seen;"
            f" {'result' if luck.finished else 'the game is not over: expected result now'}"
            f" {points(luck.result_points)} points ({percent(luck.result_first)} first),"
            f" luck-adjusted {points(luck.adjusted_points)} points"
            f" ({percent(luck.adjusted_first)} first)"
        )
    return out


def render(rv: Review) -> str:
    lines = [
        f"{rv.game}: review of P{rv.player + 1}'s {count(len(rv.decisions), 'decision')} by"
        f" {rv.agent} (seed {rv.seed}), each from P{rv.player + 1}'s information state at the"
        f" time; values for P{rv.player + 1}"
        + (f"; {count(rv.forced, 'forced move')} skipped" if rv.forced else ""),
        "",
    ]
    w = max(6, *(len(d.played) for d in rv.decisions), *(len(d.best) for d in rv.decisions))
    lines.append(
        f"  {'ply':>4}  {'played':<{w}}  {'value':>6}  {'points':>6}  {'best':<{w}}  {'value':>6}"
        f"  {'points':>6}  {'loss value':>10}  {'loss pts':>8}  {'loss first':>10}  mark"
    )
    for d in rv.decisions:
        best = "=" if d.best == d.played else d.best
        lines.append(
            f"  {d.ply:>4}  {d.played:<{w}}  {_f(d.played_value):>6}  {points(d.played_points):>6}"
            f"  {best:<{w}}  {_f(d.best_value):>6}  {points(d.best_points):>6}  {_f(d.loss):>10}"
            f"  {_loss(d.loss_points):>8}  {percent(d.loss_first):>10}  {d.mark or ''}".rstrip()
        )
    lines += ["", *summary_lines(rv), units(rv)]
    mistakes = rv.mistakes()
    if not mistakes:
        lines.append("no mistakes: every move played was the agent's choice or as good")
    for k, d in enumerate(mistakes, start=1):
        lines.append("")
        lines.append(
            f"mistake {k}: ply {d.ply}: played {d.played} ({_f(d.played_value)}),"
            f" best {d.best} ({_f(d.best_value)}), loss {_f(d.loss)}"
            f" ({_loss(d.loss_points)} points, {percent(d.loss_first)} first)"
            + (f", {d.mark}" if d.mark else "")
        )
        lines.extend("    " + line for line in d.view.splitlines())
    return "\n".join(lines)


def plot_png(rv: Review) -> bytes:
    """Chance to finish first after the best and the played move at each decision, the
    luck of each chance event seen (bars, in chance to finish first), mistakes marked."""
    import matplotlib  # third-party, loaded only for --html

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nan = float("nan")
    fig, (ax, lx) = plt.subplots(2, 1, figsize=(8, 5), dpi=100, sharex=True)
    xs = [d.ply for d in rv.decisions]
    unit, scale = ("first", 100.0) if rv.decisions[0].best_first is not None else ("value", 1.0)

    def y(d: Decision, which: str) -> float:
        x = getattr(d, f"{which}_{unit}")
        return nan if x is None else scale * x

    ax.plot(xs, [y(d, "best") for d in rv.decisions], marker="o", ms=3, label="best move")
    ax.plot(xs, [y(d, "played") for d in rv.decisions], marker="x", ms=4, label="move played")
    colour = {"doubtful": "goldenrod", "bad": "darkorange", "very bad": "firebrick"}
    for d in rv.decisions:
        if d.mark:
            ax.plot([d.ply], [y(d, "played")], "o", ms=9, mfc="none", color=colour[d.mark])
            ax.annotate(
                d.mark,
                (d.ply, y(d, "played")),
                textcoords="offset points",
                xytext=(0, -14),
                ha="center",
                fontsize=7,
                color=colour[d.mark],
            )
    ax.set_ylabel("chance to finish first (%)" if unit == "first" else "value (rank score)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    if rv.luck is not None:
        ev = [e for e in rv.luck.events if e.ply >= 0]
        lx.bar(
            [e.ply for e in ev],
            [100 * e.first for e in ev],
            color=["seagreen" if e.first >= 0 else "indianred" for e in ev],
        )
    lx.axhline(0, color="grey", lw=0.8)
    lx.set_ylabel("luck (% first)")
    lx.set_xlabel("ply")
    lx.grid(alpha=0.3)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def render_html(rv: Review) -> str:
    png = base64.b64encode(plot_png(rv)).decode("ascii")
    e = html.escape
    rows = "\n".join(
        f"<tr><td>{d.ply}</td><td>{e(d.played)}</td><td>{_f(d.played_value)}</td>"
        f"<td>{points(d.played_points)}</td><td>{percent(d.played_first)}</td>"
        f"<td>{e(d.best)}</td><td>{_f(d.best_value)}</td><td>{points(d.best_points)}</td>"
        f"<td>{percent(d.best_first)}</td><td>{_f(d.loss)}</td><td>{_loss(d.loss_points)}</td>"
        f"<td>{percent(d.loss_first)}</td><td>{e(d.mark or '')}</td></tr>"
        for d in rv.decisions
    )
    mistakes = "\n".join(
        f"<h3>Mistake {k}: ply {d.ply}, loss {_loss(d.loss_points)} points"
        f" ({percent(d.loss_first)} first){', ' + e(d.mark) if d.mark else ''}</h3>"
        f"<p>played <b>{e(d.played)}</b> ({_f(d.played_value)}); best <b>{e(d.best)}</b>"
        f" ({_f(d.best_value)})</p><pre>{e(d.view)}</pre>"
        for k, d in enumerate(rv.mistakes(), start=1)
    )
    summary = "".join(f"<li>{e(line)}</li>" for line in summary_lines(rv))
    title = f"Review of P{rv.player + 1}: {rv.game}"
    return f"""<!doctype html>
<html><head><meta charset="utf-8">{MARK}<title>{e(title)}</title>
<style>body{{font-family:sans-serif;max-width:70em;margin:auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px}}</style></head>
<body><h1>{e(title)}</h1>
<p>agent {e(rv.agent)}, seed {rv.seed}</p><ul>{summary}</ul><p>{e(units(rv))}</p>
<img alt="chance to finish first and luck over the game" src="data:image/png;base64,{png}">
<h2>Biggest mistakes</h2>
{mistakes or "<p>none</p>"}
<h2>Every decision</h2>
<table><tr><th>ply</th><th>played</th><th>value</th><th>points</th><th>first</th><th>best</th>
<th>value</th><th>points</th><th>first</th><th>loss (value)</th><th>loss (points)</th>
<th>loss (first)</th><th>mark</th></tr>
{rows}
</table></body></html>
"""
