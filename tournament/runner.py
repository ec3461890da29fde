"""Run a tournament: the only module that imports ray.

Executors:
- ``auto`` (default): in this process while that is faster, on Ray once it pays. Ray
  costs 16-21 s before it plays on a 2-core machine, so a run switches to Ray only when the games
  still to play would take longer than ``BREAK_EVEN_SECONDS`` played serially (measured in
  docs/BENCHMARKS.md); the first duplicate sets, played serially, time the games. With
  ``workers=1`` it stays serial; with a cluster ``address`` it uses Ray.
- ``ray``: a local Ray session with ``workers`` CPUs, or a running cluster via ``address`` /
  ``RAY_ADDRESS``. Each task plays a batch of whole games. A lost worker or node makes Ray
  retry the batch, which replays the same seeds and so returns the same rows. A lost head
  stops the run in one line some 35 s later (``cluster.HeadWatch``; Ray's core would end
  the process at 60 s). Workers run at normal priority and die with the raylet (so with
  this driver, for a local session).
- ``serial``: everything in this process.

A cluster address is checked (a TCP connection with a timeout) before anything is written,
and Ray is never started when no game is missing.

The driver alone writes the ledger, one file per finished batch, so a retried batch is
never written twice, and a rerun after Ctrl-C or ``kill -9`` plays only missing games. The
ledger's lock is taken before its manifest is written; a run that stops before its first
batch removes the ledger it created, so a corrected config can use the same directory.

Progress is reported through two hooks: ``on_start(summary, rows)`` once, with the rows
already in the ledger, and ``on_batch(i, rows)`` after each batch is written (the command
line's progress display, ``tournament.cli.progress``, is driven by them).
"""

from __future__ import annotations

import ctypes
import logging
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.signals import kept_handlers
from tournament.batch import BatchSpec, play_batch
from tournament.cluster import CONNECT_TIMEOUT, HeadWatch, RunnerError, check_address
from tournament.config import TournamentConfig
from tournament.ledger import SCHEMA, make_manifest, read_ledger, write_batch
from tournament.ledger_open import discard_new, open_for_run, remove_unfinished
from tournament.run_summary import RunSummary, count_failures
from tournament.schedule import GameTask, auto_batch_size, batches, schedule

EXECUTORS = ("auto", "ray", "serial")
TASK_RETRIES = 5
# auto: switch to Ray when the games left would take longer than this played serially.
# Ray at 2 workers costs S = 16-21 s here before it plays (start-up, workers importing the
# games and building agents) and then plays at most twice as fast: it wins past 2 S of
# serial play (docs/BENCHMARKS.md, "Serial or Ray").
BREAK_EVEN_SECONDS = 40.0
PROBE_SECONDS = 0.5  # auto: serial play that times the games before deciding


class TaskSource(Protocol):
    """Hands the runner duplicate sets as results come in, instead of a fixed schedule (a
    sequential test, an adaptive schedule). The runner calls ``start`` once with the rows
    already in the ledger, then ``take(room)`` whenever it could start ``room`` more sets
    (an empty list: nothing to start until a running set finishes, or nothing at all when
    none is running), and ``finished`` with the rows of every set written to the ledger.
    Games already in the ledger are never played again, whatever ``take`` returns."""

    def start(self, rows: list[dict]) -> None: ...

    def take(self, room: int) -> list[list[GameTask]]: ...

    def finished(self, rows: list[dict]) -> None: ...

    def expected_games(self) -> int:
        """Games still expected (``auto`` weighs them against Ray's start-up)."""
        ...


def batch_spec(cfg: TournamentConfig) -> BatchSpec:
    return BatchSpec(
        run_id=cfg.run_id,
        game=cfg.game,
        agents={a.name: (a.spec, a.agent_id) for a in cfg.agents},
        failure_policy=cfg.failure_policy,
        time_limit=cfg.time_limit,
        record_moves=cfg.record_moves,
    )


def seeds_by_lineup(tasks: list[GameTask]) -> dict[str, list[int]]:
    """Each line-up's chance seeds, one per duplicate set, in schedule order."""
    out: dict[str, list[int]] = {}
    seen: set[tuple[tuple[str, ...], int]] = set()
    for t in tasks:
        if t.duplicate_set not in seen:
            seen.add(t.duplicate_set)
            out.setdefault(",".join(t.lineup), []).append(t.seed)
    return out


def run_tournament(
    cfg: TournamentConfig,
    out: str | Path,
    workers: int = 2,
    address: str | None = None,
    executor: str = "auto",
    on_batch: Callable[[int, list[dict]], None] | None = None,
    on_start: Callable[[RunSummary, list[dict]], None] | None = None,
    tasks: list[GameTask] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    source: TaskSource | None = None,
) -> RunSummary:
    """Play every scheduled game missing from ``out``; returns what was done.

    ``tasks`` is ``schedule(cfg)`` when the caller already built it. With a ``source``,
    ``tasks`` is every game it may hand out (the manifest records them) and the games
    played are the ones it hands out."""
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}")
    t0 = time.perf_counter()
    address = address or os.environ.get("RAY_ADDRESS") or None
    if executor != "serial" and address:
        check_address(address, connect_timeout)  # before anything is written
    if tasks is None:
        tasks = schedule(cfg)
    manifest = make_manifest(cfg, len(tasks), seeds_by_lineup(tasks))
    directory = Path(out)
    with open_for_run(directory, manifest) as created:
        try:
            if source is not None:
                return _run_source(
                    cfg, directory, tasks, source, workers, address, executor, on_batch, on_start
                )
            return _run_locked(
                cfg, directory, tasks, workers, address, executor, on_batch, on_start, t0
            )
        except BaseException:
            if created:
                discard_new(directory)  # only when no batch was written
            raise


def _duplicate_sets(pending: list[GameTask]) -> list[list[GameTask]]:
    return batches(pending, 1)  # a chunk never splits a set, so size 1 gives one set each


def _regroup(sets: list[list[GameTask]], size: int) -> list[list[GameTask]]:
    return batches([t for s in sets for t in s], size)


def _run_locked(
    cfg, directory, tasks, workers, address, executor, on_batch, on_start, t0
) -> RunSummary:
    notes = remove_unfinished(directory)
    ledger = read_ledger(directory, columns=["game_id", "agents", "ranks"])
    done = ledger.game_ids
    pending = [t for t in tasks if t.game_id not in done]
    size = cfg.batch_size or auto_batch_size(len(tasks), workers)
    spec = batch_spec(cfg)
    summary = RunSummary(directory, len(tasks), len(done), 0, 0, 0.0, notes=notes)
    if on_start is not None:
        on_start(summary, ledger.table.to_pylist())

    index = 0

    def record(rows: list[dict]) -> None:
        nonlocal index
        write_batch(directory, rows)
        summary.played += len(rows)
        summary.batches += 1
        count_failures(summary, rows)
        if on_batch is not None:
            on_batch(index, rows)
        index += 1

    if not pending:  # nothing to play: no executor, no Ray start-up
        summary.executor = "none"
    elif executor == "serial" or (executor == "auto" and workers < 2 and not address):
        summary.executor = "serial"
        for chunk in batches(pending, size):
            record(play_batch(spec, chunk))
    elif executor == "ray" or address:
        summary.executor = "ray"
        for rows in _ray_results(spec, batches(pending, size), workers, address):
            record(rows)
    else:
        summary.executor = "serial"
        sets = _duplicate_sets(pending)
        played, seconds = 0, 0.0
        # probe: play whole duplicate sets serially until they time the games
        while sets and (not played or seconds < PROBE_SECONDS):
            s = sets.pop(0)
            t = time.perf_counter()
            record(play_batch(spec, s))
            seconds += time.perf_counter() - t
            played += len(s)
        left = sum(len(s) for s in sets)
        if left and seconds / played * left > BREAK_EVEN_SECONDS:
            summary.executor = "serial, then ray"
            for rows in _ray_results(spec, _regroup(sets, size), workers, None):
                record(rows)
        else:
            for chunk in _regroup(sets, size):
                record(play_batch(spec, chunk))
    summary.seconds = time.perf_counter() - t0
    return summary


def _run_source(
    cfg, directory, tasks, source, workers, address, executor, on_batch, on_start
) -> RunSummary:
    """Play what ``source`` hands out, one duplicate set per task, until it hands out
    nothing more; ``auto`` times the first sets serially, then weighs the games the source
    still expects against Ray's start-up, as for a fixed schedule."""
    t0 = time.perf_counter()
    notes = remove_unfinished(directory)
    ledger = read_ledger(directory, [c for c in SCHEMA.names if c != "moves"])
    done = set(ledger.game_ids)
    rows = ledger.table.to_pylist()
    spec = batch_spec(cfg)
    summary = RunSummary(directory, len(tasks), len(done), 0, 0, 0.0, notes=notes)
    source.start(rows)
    if on_start is not None:
        on_start(summary, rows)

    def give(room: int) -> list[list[GameTask]]:
        """What the source hands out, less games already played (a set it hands out
        whole in the ledger is skipped, and the source asked again)."""
        while handed := source.take(room):
            sets = [[t for t in s if t.game_id not in done] for s in handed]
            if sets := [s for s in sets if s]:
                return sets
        return []

    def record(new: list[dict]) -> None:
        write_batch(directory, new)
        done.update(r["game_id"] for r in new)
        summary.played += len(new)
        count_failures(summary, new)
        source.finished(new)
        if on_batch is not None:
            on_batch(summary.batches, new)
        summary.batches += 1

    serial = executor == "serial" or (executor == "auto" and workers < 2 and not address)
    use_ray = executor == "ray" or bool(address)
    summary.executor = "serial" if not use_ray else "ray"
    played, seconds = 0, 0.0
    while not use_ray:
        sets = give(1)
        if not sets:
            break
        t = time.perf_counter()
        record(play_batch(spec, sets[0]))
        seconds += time.perf_counter() - t
        played += len(sets[0])
        if serial or seconds < PROBE_SECONDS:
            continue
        if seconds / played * source.expected_games() > BREAK_EVEN_SECONDS:
            use_ray = True
            summary.executor = "serial, then ray"
    if use_ray:
        for new in _ray_stream(spec, give, workers, address):
            record(new)
    if not summary.played:
        summary.executor = "none"
    summary.seconds = time.perf_counter() - t0
    return summary


def die_with_parent() -> None:
    """Ray worker setup hook: on Linux, have the kernel kill this worker when its parent
    (the raylet) dies, instead of the worker noticing a minute later."""
    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)


def _ray_error(e: BaseException) -> MeepleError:
    """A Ray failure as the project's one-line error (no RayTaskError wrapper, no ANSI)."""
    cause = getattr(e, "cause", None)
    if isinstance(cause, MeepleError):
        return cause  # the worker's own one-line error
    inner = cause if isinstance(cause, BaseException) else e
    text = re.sub(r"\x1b\[[0-9;]*m", "", one_line(inner))
    return RunnerError(f"a batch failed on a Ray worker: {type(inner).__name__}: {text}")


def _ray_init(ray, workers: int, address: str | None, hook: dict) -> None:
    """``ray.init`` of the cluster at ``address``, else of a local session of ``workers``."""
    if address:
        ray.init(
            address=address, runtime_env=hook, logging_level=logging.ERROR, log_to_driver=False
        )
        return
    ray.init(
        address="local",  # a session of its own, even beside a running cluster
        num_cpus=workers,
        include_dashboard=False,
        runtime_env=hook,
        logging_level=logging.ERROR,
        log_to_driver=False,
        # Ray starts workers at niceness 15; a tournament is the job, not background
        _system_config={"worker_niceness": 0},
    )


@contextmanager
def _ray_session(workers: int, address: str | None) -> Iterator[tuple[object, object, int]]:
    """A Ray session (started here unless one is running, then stopped here): yields
    (ray, the remote ``play_batch``, how many tasks to keep in flight)."""
    import ray

    started = False
    if not ray.is_initialized():
        hook = {"worker_process_setup_hook": f"{__name__}.die_with_parent"}
        try:
            with kept_handlers():  # ray.init's own SIGTERM handler would replace the command's
                _ray_init(ray, workers, address, hook)
        except (ConnectionError, RuntimeError, TimeoutError) as e:
            if address:
                raise RunnerError(
                    f"cannot reach the Ray cluster at {address}: {one_line(e)}"
                ) from None
            raise RunnerError(f"cannot start a local Ray session: {one_line(e)}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=TASK_RETRIES, retry_exceptions=False)(
            play_batch
        )
        # Keep a bounded number of tasks in flight so finished batches reach the ledger early.
        limit = max(2, 2 * int(ray.cluster_resources().get("CPU", workers)))
        yield ray, remote, limit
    finally:
        if started:
            ray.shutdown()


def _ray_stream(
    spec: BatchSpec,
    take: Callable[[int], list[list[GameTask]]],
    workers: int,
    address: str | None,
) -> Iterator[list[dict]]:
    """Play on Ray what ``take(room)`` hands out (``room``: tasks that may start now), one
    finished batch at a time, until it hands out nothing and nothing runs."""
    watch = HeadWatch(address or "auto")
    with _ray_session(workers, address) as (ray, remote, limit):
        spec_ref = ray.put(spec)  # type: ignore[attr-defined]
        in_flight: list = []
        while True:
            for chunk in take(limit - len(in_flight)) if len(in_flight) < limit else []:
                in_flight.append(remote.remote(spec_ref, chunk))  # type: ignore[attr-defined]
            if not in_flight:
                return
            ready, in_flight = watch.wait(ray, in_flight)
            try:
                rows = ray.get(ready)  # type: ignore[attr-defined]
            except ray.exceptions.RayError as e:  # type: ignore[attr-defined]
                raise _ray_error(e) from None
            yield rows


def _ray_results(
    spec: BatchSpec, chunks: list[list[GameTask]], workers: int, address: str | None
) -> Iterator[list[dict]]:
    queue = list(reversed(chunks))

    def take(room: int) -> list[list[GameTask]]:
        return [queue.pop() for _ in range(min(room, len(queue)))]

    yield from _ray_stream(spec, take, workers, address)
