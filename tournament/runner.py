"""Run a tournament: the only module that imports ray.

Executors:
- ``ray`` (default): a local Ray session with ``workers`` CPUs, or a running cluster via
  ``address`` / ``RAY_ADDRESS``. Each task plays a batch of whole games. A lost worker or
  node makes Ray retry the batch, which replays the same seeds and so returns the same rows.
- ``serial``: everything in this process (debugging, unit tests).

The driver alone writes the ledger, one file per finished batch, so a retried batch is
never written twice, and a rerun after Ctrl-C or ``kill -9`` plays only missing games.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tournament.batch import BatchSpec, play_batch
from tournament.config import TournamentConfig
from tournament.ledger import (
    exclusive,
    make_manifest,
    open_for_run,
    read_ledger,
    remove_unfinished,
    write_batch,
)
from tournament.schedule import GameTask, auto_batch_size, batches, schedule

EXECUTORS = ("ray", "serial")
TASK_RETRIES = 5


@dataclass
class RunSummary:
    directory: Path
    scheduled: int
    already_done: int
    played: int
    batches: int
    seconds: float
    failures: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def batch_spec(cfg: TournamentConfig) -> BatchSpec:
    return BatchSpec(
        run_id=cfg.run_id,
        game=cfg.game,
        agents={a.name: (a.spec, a.agent_id) for a in cfg.agents},
        failure_policy=cfg.failure_policy,
        time_limit=cfg.time_limit,
    )


def seeds_by_lineup(tasks: list[GameTask]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for t in tasks:
        if t.rotation == 0:
            out.setdefault(",".join(t.lineup), []).append(t.seed)
    return out


def run_tournament(
    cfg: TournamentConfig,
    out: str | Path,
    workers: int = 2,
    address: str | None = None,
    executor: str = "ray",
    show_progress: bool = True,
    on_batch: Callable[[int, list[dict]], None] | None = None,
) -> RunSummary:
    """Play every scheduled game missing from ``out``; returns what was done."""
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}")
    t0 = time.perf_counter()
    tasks = schedule(cfg)
    manifest = make_manifest(cfg, len(tasks), seeds_by_lineup(tasks))
    directory = Path(out)
    open_for_run(directory, manifest)
    with exclusive(directory):
        return _run_locked(
            cfg, directory, tasks, workers, address, executor, show_progress, on_batch, t0
        )


def _run_locked(
    cfg, directory, tasks, workers, address, executor, show_progress, on_batch, t0
) -> RunSummary:
    notes = remove_unfinished(directory)
    ledger = read_ledger(directory, columns=["game_id", "agents", "ranks"])
    done = ledger.game_ids
    pending = [t for t in tasks if t.game_id not in done]
    size = cfg.batch_size or auto_batch_size(len(tasks), workers)
    chunks = batches(pending, size)
    spec = batch_spec(cfg)
    summary = RunSummary(directory, len(tasks), len(done), 0, len(chunks), 0.0, notes=notes)
    standings = Standings({a.agent_id: a.name for a in cfg.agents})
    standings.add_table_rows(ledger.table.to_pylist())

    if executor == "serial":
        results: Iterator[list[dict]] = (play_batch(spec, c) for c in chunks)
    else:
        results = _ray_results(spec, chunks, workers, address)
    with _Display(show_progress, len(tasks), len(done), standings) as display:
        for i, rows in enumerate(results):
            write_batch(directory, rows)
            summary.played += len(rows)
            for r in rows:
                if r["failure"]:
                    summary.failures[r["failure"]] = summary.failures.get(r["failure"], 0) + 1
            standings.add_table_rows(rows)
            display.advance(len(rows))
            if on_batch is not None:
                on_batch(i, rows)
    summary.seconds = time.perf_counter() - t0
    return summary


def _ray_results(
    spec: BatchSpec, chunks: list[list[GameTask]], workers: int, address: str | None
) -> Iterator[list[dict]]:
    import ray

    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        if address:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        else:
            ray.init(
                num_cpus=workers,
                logging_level=logging.ERROR,
                log_to_driver=False,
                include_dashboard=False,
            )
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=TASK_RETRIES, retry_exceptions=False)(
            play_batch
        )
        spec_ref = ray.put(spec)
        # Keep a bounded number of tasks in flight so finished batches reach the ledger early.
        limit = max(2, 2 * int(ray.cluster_resources().get("CPU", workers)))
        queue = list(reversed(chunks))
        in_flight: list = []
        while queue or in_flight:
            while queue and len(in_flight) < limit:
                in_flight.append(remote.remote(spec_ref, queue.pop()))
            ready, in_flight = ray.wait(in_flight, num_returns=1)
            yield ray.get(ready[0])
    finally:
        if started:
            ray.shutdown()


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


class _Display:
    """A rich progress bar with ETA and a live standings table (no-op when disabled)."""

    def __init__(self, enabled: bool, total: int, done: int, standings: Standings):
        self.enabled, self.total, self.done, self.standings = enabled, total, done, standings

    def __enter__(self):
        if not self.enabled:
            return self
        from rich.live import Live
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

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
        self.live = Live(self._render(), refresh_per_second=4, transient=False)
        self.live.__enter__()
        return self

    def _render(self):
        from rich.console import Group
        from rich.table import Table

        table = Table(title="interim standings (pairwise score rate)", title_justify="left")
        table.add_column("agent")
        table.add_column("games", justify="right")
        table.add_column("score rate", justify="right")
        for name, games, rate in self.standings.rows():
            table.add_row(name, str(games), "-" if rate != rate else f"{rate:.3f}")
        return Group(self.progress, table)

    def advance(self, n: int) -> None:
        if self.enabled:
            self.progress.advance(self.task, n)
            self.live.update(self._render())

    def __exit__(self, *exc):
        if self.enabled:
            self.live.__exit__(*exc)
            self.live.console.line()  # what follows starts on its own line
        return False
