"""The live view of a running tournament: progress bar, ETA and interim standings.

``tournament.runner`` owns no display; ``meeple tournament run`` passes a :class:`Display`'s
``on_start`` and ``on_batch`` methods as the runner's hooks.
"""

from __future__ import annotations

from rich.console import Group
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


class Display:
    """A rich progress bar with ETA and a live standings table, driven by the runner's
    ``on_start`` / ``on_batch`` hooks (a no-op when disabled)."""

    def __init__(self, enabled: bool, names: dict[str, str]):
        self.enabled = enabled
        self.standings = Standings(names)
        self.live: Live | None = None

    def on_start(self, summary: RunSummary, rows: list[dict]) -> None:
        self.standings.add_table_rows(rows)
        if not self.enabled:
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
        self.task = self.progress.add_task(
            "games", total=summary.scheduled, completed=summary.already_done
        )
        self.live = Live(self._render(), refresh_per_second=4, transient=False)
        self.live.__enter__()

    def _render(self) -> Group:
        table = Table(title="interim standings (pairwise score rate)", title_justify="left")
        table.add_column("agent")
        table.add_column("games", justify="right")
        table.add_column("score rate", justify="right")
        for name, games, rate in self.standings.rows():
            table.add_row(name, str(games), "-" if rate != rate else f"{rate:.3f}")
        return Group(self.progress, table)

    def on_batch(self, i: int, rows: list[dict]) -> None:
        self.standings.add_table_rows(rows)
        if self.live is not None:
            self.progress.advance(self.task, len(rows))
            self.live.update(self._render())

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc) -> None:
        if self.live is not None:
            self.live.__exit__(*exc)
            self.live.console.line()  # what follows starts on its own line
            self.live = None
