"""``meeple review``: a move-by-move review of one player's game, in the manner of KataGo's
and chess engines' game review.

For every decision of the reviewed player, the agent analyses the position from that
player's information state (exactly as ``meeple advise --ply N --player P --seed S`` would)
and reports its best move with value and 95% interval, the value of the move played, and
the loss (best value minus played value, 0 when the played move is the agent's choice).
The summary gives the average loss and the three biggest mistakes, each with the position
as the player saw it. Values are the game's returns for the reviewed player (``rank``
utility by default; play a game string with ``utility=score`` to review in points).

The game comes from a record (``meeple play``, table mode, ``meeple replay --save``) or a
ledger game (replayed exactly from its seed). Records with ``?`` are reviewed from the
world the record's ``me`` seat saw.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import spiel_games
from solvers.registry import AgentSpec, resolve
from tournament.advice.advise import advise_state
from tournament.advice.items import CHANCE, HistoryError, check_player
from tournament.advice.play import readable_observation
from tournament.advice.positions import GameRecord, read_record, record_viewer, replay_record_world
from tournament.ledger import read_ledger
from tournament.replay import replay as replay_ledger

MISTAKES = 3


@dataclass
class Decision:
    ply: int  # actions before this decision (chance included); `advise --ply` takes it
    played: str
    best: str
    best_value: float | None
    ci_low: float | None
    ci_high: float | None
    played_value: float | None
    loss: float | None  # None when the agent gives no value for the played move
    view: str = ""  # the position through the player's own view

    def to_json(self, view: bool = False) -> dict:
        out = {
            "ply": self.ply,
            "played": self.played,
            "best": self.best,
            "best_value": self.best_value,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "played_value": self.played_value,
            "loss": self.loss,
        }
        if view:
            out["view"] = self.view
        return out


@dataclass
class Review:
    game: str
    player: int
    agent: str
    seed: int
    decisions: list[Decision] = field(default_factory=list)
    forced: int = 0  # forced moves of the player (one legal action), skipped

    @property
    def scored(self) -> list[Decision]:
        return [d for d in self.decisions if d.loss is not None]

    @property
    def average_loss(self) -> float | None:
        scored = self.scored
        return sum(d.loss for d in scored) / len(scored) if scored else None  # type: ignore[misc]

    def mistakes(self, k: int = MISTAKES) -> list[Decision]:
        """The ``k`` biggest losses (ties: the earlier decision first); only losses > 0."""
        ranked = sorted(
            (d for d in self.scored if d.loss and d.loss > 0),
            key=lambda d: (-d.loss, d.ply),  # type: ignore[operator]
        )
        return ranked[:k]

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "player": self.player,
            "agent": self.agent,
            "seed": self.seed,
            "decisions": [d.to_json() for d in self.decisions],
            "summary": {
                "decisions": len(self.decisions),
                "forced_skipped": self.forced,
                "average_loss": self.average_loss,
                "mistakes": [d.to_json(view=True) for d in self.mistakes()],
            },
        }


def load_game_record(source: str, game_id: str | None) -> GameRecord:
    """A record file, or game ``game_id`` of the ledger directory ``source``."""
    if Path(source).is_dir():
        if not game_id:
            raise HistoryError(f"{source} is a ledger: give the GAME_ID to review")
        return replay_ledger(source, game_id).record()
    if game_id:
        raise HistoryError(f"{source} is a game record: give no GAME_ID")
    return read_record(source)


DEFAULT_AGENT = "ismcts(sims=800)"


def review(
    record: GameRecord,
    agent: str | AgentSpec = DEFAULT_AGENT,
    *,
    player: int | None = None,
    seed: int = 0,
    game_string: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every unforced decision of ``player`` (default: the record's ``me``/``human``
    seat). A forced move (one legal action) is skipped: no budget is spent on it and it
    does not count. ``on_progress(done, total)`` is called before the first decision and
    after each one."""
    game_string = game_string or record.game
    game = spiel_games.load_game(game_string)
    if player is None:
        player = record_viewer(record)
        if player is None:
            raise HistoryError("give --player: the record has no single 'me' or 'human' seat")
    check_player(game, player)
    spec = resolve(agent)
    world = replay_record_world(game, record, viewer=player)
    result = Review(game=game_string, player=player, agent=str(spec), seed=seed)
    todo = [
        i
        for i, s in enumerate(world.states[: len(world.actions)])
        if not s.is_chance_node() and s.current_player() == player
    ]
    result.forced = sum(1 for i in todo if len(world.states[i].legal_actions()) == 1)
    todo = [i for i in todo if len(world.states[i].legal_actions()) > 1]
    if on_progress is not None:
        on_progress(0, len(todo))
    for done, i in enumerate(todo, start=1):
        played = world.actions[i]
        state = world.states[i]
        legal = state.legal_actions()
        adv = advise_state(
            game_string, state, spec, player=player, top=len(legal), seed=seed, ply=i
        )
        best = adv.moves[0]
        mine = next((m for m in adv.moves if m.action_id == played), None)
        played_value = None if mine is None else mine.value
        if played == best.action_id:
            loss: float | None = 0.0
        elif played_value is None or best.value is None:
            loss = None
        else:
            loss = best.value - played_value
        result.decisions.append(
            Decision(
                ply=i,
                played=state.action_to_string(player, played),
                best=best.action,
                best_value=best.value,
                ci_low=best.ci_low,
                ci_high=best.ci_high,
                played_value=played_value,
                loss=loss,
                view=readable_observation(state, player),
            )
        )
        if on_progress is not None:
            on_progress(done, len(todo))
    if not result.decisions:
        raise HistoryError(f"P{player + 1} has no unforced decision in this game")
    return result


def ledger_games(directory: str | Path) -> list[dict]:
    """One row per game of a ledger: its id, seats (agent names in seat order), scores and
    ranks, in the ledger's order (for ``meeple review LEDGER --list``)."""
    ledger = read_ledger(directory)
    names = {a["id"]: a["name"] for a in ledger.manifest["agents"]}
    rows = ledger.table.select(["game_id", "agents", "scores", "ranks", "failure"]).to_pylist()
    return [
        {
            "game_id": r["game_id"],
            "seats": [names.get(i, i) for i in r["agents"]],
            "scores": r["scores"],
            "ranks": r["ranks"],
            "failure": r["failure"],
        }
        for r in rows
    ]


# ----- rendering ----------------------------------------------------------------------
def _f(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def render(rv: Review) -> str:
    lines = [
        f"{rv.game}: review of P{rv.player + 1}'s {len(rv.decisions)} decisions by"
        f" {rv.agent} (seed {rv.seed}); values for P{rv.player + 1}"
        + (f"; {rv.forced} forced moves skipped" if rv.forced else ""),
        "",
    ]
    w = max(6, *(len(d.played) for d in rv.decisions), *(len(d.best) for d in rv.decisions))
    lines.append(
        f"  {'ply':>4}  {'played':<{w}}  {'value':>7}  {'best':<{w}}  {'value':>7}"
        f"  {'95% CI':<17}  {'loss':>6}"
    )
    for d in rv.decisions:
        ci = "-" if d.ci_low is None else f"[{d.ci_low:.3f}, {d.ci_high:.3f}]"
        best = "=" if d.best == d.played else d.best
        lines.append(
            f"  {d.ply:>4}  {d.played:<{w}}  {_f(d.played_value):>7}  {best:<{w}}"
            f"  {_f(d.best_value):>7}  {ci:<17}  {_f(d.loss):>6}"
        )
    lines.append("")
    avg = rv.average_loss
    unscored = len(rv.decisions) - len(rv.scored)
    lines.append(
        f"average loss {_f(avg)} over {len(rv.scored)} decisions"
        + (f" ({unscored} without a value for the move played)" if unscored else "")
    )
    mistakes = rv.mistakes()
    if not mistakes:
        lines.append("no mistakes: every move played was the agent's choice or as good")
    for k, d in enumerate(mistakes, start=1):
        lines.append("")
        lines.append(
            f"mistake {k}: ply {d.ply}: played {d.played} ({_f(d.played_value)}),"
            f" best {d.best} ({_f(d.best_value)}), loss {_f(d.loss)}"
        )
        lines.extend("    " + line for line in d.view.splitlines())
    return "\n".join(lines)


def value_plot_png(rv: Review) -> bytes:
    """The best value and the played move's value at each decision, as a PNG."""
    import matplotlib  # third-party, loaded only for --html

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [d.ply for d in rv.decisions]
    fig, ax = plt.subplots(figsize=(8, 3.2), dpi=100)
    nan = float("nan")
    best = [nan if d.best_value is None else d.best_value for d in rv.decisions]
    played = [nan if d.played_value is None else d.played_value for d in rv.decisions]
    ax.plot(xs, best, marker="o", label="best move")
    ax.plot(xs, played, marker="x", label="move played")
    for d in rv.mistakes():
        ax.annotate(
            f"ply {d.ply}",
            (d.ply, d.played_value),
            textcoords="offset points",
            xytext=(0, -14),
            ha="center",
            fontsize=8,
            color="firebrick",
        )
    ax.set_xlabel("ply")
    ax.set_ylabel(f"value for P{rv.player + 1}")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def render_html(rv: Review) -> str:
    png = base64.b64encode(value_plot_png(rv)).decode("ascii")
    e = html.escape
    rows = "\n".join(
        f"<tr><td>{d.ply}</td><td>{e(d.played)}</td><td>{_f(d.played_value)}</td>"
        f"<td>{e(d.best)}</td><td>{_f(d.best_value)}</td>"
        f"<td>{'-' if d.ci_low is None else f'[{d.ci_low:.3f}, {d.ci_high:.3f}]'}</td>"
        f"<td>{_f(d.loss)}</td></tr>"
        for d in rv.decisions
    )
    mistakes = "\n".join(
        f"<h3>Mistake {k}: ply {d.ply}, loss {_f(d.loss)}</h3>"
        f"<p>played <b>{e(d.played)}</b> ({_f(d.played_value)}); best <b>{e(d.best)}</b>"
        f" ({_f(d.best_value)})</p><pre>{e(d.view)}</pre>"
        for k, d in enumerate(rv.mistakes(), start=1)
    )
    title = f"Review of P{rv.player + 1}: {rv.game}"
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{e(title)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px}}</style></head>
<body><h1>{e(title)}</h1>
<p>agent {e(rv.agent)}, seed {rv.seed}; average loss {_f(rv.average_loss)} over
{len(rv.scored)} decisions</p>
<img alt="value over time" src="data:image/png;base64,{png}">
<h2>Biggest mistakes</h2>
{mistakes or "<p>none</p>"}
<h2>Every decision</h2>
<table><tr><th>ply</th><th>played</th><th>value</th><th>best</th><th>value</th><th>95% CI</th>
<th>loss</th></tr>
{rows}
</table></body></html>
"""


__all__ = [
    "CHANCE",
    "DEFAULT_AGENT",
    "Decision",
    "Review",
    "ledger_games",
    "load_game_record",
    "render",
    "render_html",
    "review",
]
