"""What a running tournament prints: a live view on a terminal, plain lines everywhere else.

- ``live``: a rich progress bar with ETA and interim standings, on stderr (a terminal).
- ``plain``: one line on stderr per finished batch (games done/total, games/s, ETA, top 3
  of the interim standings), for logs, CI and schedulers, where a live view prints nothing
  until the end.
- ``off``: nothing (``--quiet``).

Independently, ``verbose`` prints one result line per game on stdout, as cutechess-cli does.

``tournament.runner`` owns no display; ``meeple tournament run`` passes a :class:`Display`'s
``on_start`` and ``on_batch`` methods as the runner's hooks.
"""

from __future__ import annotations

import sys
import time

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from tournament.runner import RunSummary

MODES = ("live", "plain", "off")


def choose_mode(quiet: bool, stream=None) -> str:
    """off with --quiet, live when the stream (stderr) is a terminal, else plain."""
    if quiet:
        return "off"
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return "live" if callable(isatty) and isatty() else "plain"


class Standings:
    """Interim standings while a tournament runs: pairwise score rate per agent."""

    def __init__(self, names: dict[str, str]):
        self.names = names
        self.points: dict[str, float] = {}
        self.pairs: dict[str, int] = {}
        self.games: dict[str, int] = {}

    def add_table_rows(self, rows: list[dict]) -> None:
        for r in rows:
            ids, ranks = r["agents"], r["ranks"]
            for a in ids:
                self.games[a] = self.games.get(a, 0) + 1
            if ranks is None:
                continue
            for i in range(len(ids)):
                for j in range(len(ids)):
                    if i == j or ids[i] == ids[j]:
                        continue
                    pts = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                    self.points[ids[i]] = self.points.get(ids[i], 0.0) + pts
                    self.pairs[ids[i]] = self.pairs.get(ids[i], 0) + 1

    def rows(self) -> list[tuple[str, int, float]]:
        out = []
        for a, name in self.names.items():
            n = self.pairs.get(a, 0)
            out.append(
                (name, self.games.get(a, 0), self.points.get(a, 0.0) / n if n else float("nan"))
            )
        return sorted(out, key=lambda r: -(r[2] if r[2] == r[2] else -1))


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def game_line(number: int, total: int, row: dict, names: dict[str, str]) -> str:
    """One finished game, cutechess style: who played (seat order), ranks, scores, id."""
    seats = [names.get(a, a) for a in row["agents"]]
    ranks = row["ranks"]
    result = "*" if ranks is None else "-".join(str(r) for r in ranks)
    if row["failure"]:
        seat = row["failed_seat"]
        why = f"{row['failure']} by {seats[seat]} (seat {seat + 1})"
        if row.get("detail"):
            why += f": {row['detail']}"
    else:
        why = "scores " + " ".join(f"{x:g}" for x in row["scores"])
    return (
        f"Finished game {number} of {total} ({' vs '.join(seats)}): {result} {{{why}}} "
        f"id {row['game_id']}"
    )


class Display:
    """Progress of one run, driven by the runner's ``on_start`` / ``on_batch`` hooks."""

    def __init__(self, mode: str, names: dict[str, str], verbose: bool = False, err=None, out=None):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        self.mode = mode
        self.names = names
        self.verbose = verbose
        self.err = err  # plain lines go here (stderr when None)
        self.out = out  # verbose lines go here (stdout when None) unless the live view shows
        self.standings = Standings(names)
        self.live: Live | None = None
        self.total = 0
        self.done = 0
        self.played = 0
        self.t0 = time.perf_counter()

    def _plain(self, text: str) -> None:
        print(text, file=self.err or sys.stderr, flush=True)

    def on_start(self, summary: RunSummary, rows: list[dict]) -> None:
        self.standings.add_table_rows(rows)
        self.total, self.done = summary.scheduled, summary.already_done
        self.t0 = time.perf_counter()
        if self.mode == "plain":
            self._plain(
                f"tournament: {self.total} games scheduled, {self.done} already in the ledger"
            )
        if self.mode != "live":
            return
        self.progress = Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        self.task = self.progress.add_task("games", total=self.total, completed=self.done)
        self.live = Live(
            self._render(), console=Console(stderr=True), refresh_per_second=4, transient=False
        )
        self.live.__enter__()

    def _render(self) -> Group:
        table = Table(title="interim standings (pairwise score rate)", title_justify="left")
        table.add_column("agent")
        table.add_column("games", justify="right")
        table.add_column("score rate", justify="right")
        for name, games, rate in self.standings.rows():
            table.add_row(name, str(games), "-" if rate != rate else f"{rate:.3f}")
        return Group(self.progress, table)

    def status_line(self) -> str:
        """games done/total, games/s of this run, ETA and the top 3 of the interim standings."""
        elapsed = max(time.perf_counter() - self.t0, 1e-9)
        rate = self.played / elapsed
        left = self.total - self.done
        eta = _clock(left / rate) if rate > 0 else "?"
        pct = 100.0 * self.done / self.total if self.total else 100.0
        top = ", ".join(
            f"{name} {score:.3f}" for name, _, score in self.standings.rows()[:3] if score == score
        )
        width = len(str(self.total))
        return (
            f"[{self.done:>{width}}/{self.total} {pct:5.1f}%] {rate:.1f} games/s, "
            f"ETA {eta}; top (share of pairwise results won): {top or '-'}"
        )

    def on_batch(self, i: int, rows: list[dict]) -> None:
        self.standings.add_table_rows(rows)
        for row in rows:
            self.done += 1
            self.played += 1
            if self.verbose:  # stdout; under the live view rich prints it above the bar
                to = sys.stdout if self.live is not None or self.out is None else self.out
                print(game_line(self.done, self.total, row, self.names), file=to, flush=True)
        if self.live is not None:
            self.progress.advance(self.task, len(rows))
            self.live.update(self._render())
        elif self.mode == "plain":
            self._plain(self.status_line())

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc) -> None:
        if self.live is not None:
            self.live.__exit__(*exc)
            self.live.console.line()  # what follows starts on its own line
            self.live = None
