"""Run a tournament: the only module that imports ray.

Executors:
- ``ray`` (default): a local Ray session with ``workers`` CPUs, or a running cluster via
  ``address`` / ``RAY_ADDRESS``. Each task plays a batch of whole games. A lost worker or
  node makes Ray retry the batch, which replays the same seeds and so returns the same rows.
- ``serial``: everything in this process (debugging, unit tests).

The driver alone writes the ledger, one file per finished batch, so a retried batch is
never written twice, and a rerun after Ctrl-C or ``kill -9`` plays only missing games.

Progress is reported through two hooks: ``on_start(summary, rows)`` once, with the rows
already in the ledger, and ``on_batch(i, rows)`` after each batch is written (the command
line's progress display, ``tournament.cli.progress``, is driven by them).
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
    on_batch: Callable[[int, list[dict]], None] | None = None,
    on_start: Callable[[RunSummary, list[dict]], None] | None = None,
    tasks: list[GameTask] | None = None,
) -> RunSummary:
    """Play every scheduled game missing from ``out``; returns what was done.

    ``tasks`` is ``schedule(cfg)`` when the caller already built it."""
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}")
    t0 = time.perf_counter()
    if tasks is None:
        tasks = schedule(cfg)
    manifest = make_manifest(cfg, len(tasks), seeds_by_lineup(tasks))
    directory = Path(out)
    open_for_run(directory, manifest)
    with exclusive(directory):
        return _run_locked(
            cfg, directory, tasks, workers, address, executor, on_batch, on_start, t0
        )


def _run_locked(
    cfg, directory, tasks, workers, address, executor, on_batch, on_start, t0
) -> RunSummary:
    notes = remove_unfinished(directory)
    ledger = read_ledger(directory, columns=["game_id", "agents", "ranks"])
    done = ledger.game_ids
    pending = [t for t in tasks if t.game_id not in done]
    size = cfg.batch_size or auto_batch_size(len(tasks), workers)
    chunks = batches(pending, size)
    spec = batch_spec(cfg)
    summary = RunSummary(directory, len(tasks), len(done), 0, len(chunks), 0.0, notes=notes)
    if on_start is not None:
        on_start(summary, ledger.table.to_pylist())

    if executor == "serial":
        results: Iterator[list[dict]] = (play_batch(spec, c) for c in chunks)
    else:
        results = _ray_results(spec, chunks, workers, address)
    for i, rows in enumerate(results):
        write_batch(directory, rows)
        summary.played += len(rows)
        for r in rows:
            if r["failure"]:
                summary.failures[r["failure"]] = summary.failures.get(r["failure"], 0) + 1
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
