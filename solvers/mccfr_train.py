"""Synchronous MCCFR training in rounds, serial or on Ray, with a crash-safe checkpoint.

A run is a sequence of *rounds*. In a round, ``workers`` batches of ``batch`` iterations
each traverse against the same snapshot of the tables (``Tables.view``); their deltas are
then merged in batch order by the one merger (this process). Batch j of round k draws
its random numbers from a seed derived from (seed, k, j) alone, so the tables after any
round are the same whether the batches ran here one after another (``serial``) or on Ray
workers, and a lost batch is recomputed exactly.

Ray workers are actors holding the game and a mirror of the tables' key and slot maps;
each round they receive the rows and slots added since their last round and the
snapshot's two arrays (positive regrets, baselines). A worker that dies is replaced and
its batch recomputed. Ray is imported only when a run uses it (local session by default,
a cluster with ``address``), following the tournament runner's conventions.

Every merged round goes to the run's checkpoint (``solvers.mccfr_checkpoint``) before the
next one starts, so a killed worker loses its batch (recomputed) and a killed driver the
round in progress (one batch per worker), plus on tiny games the rounds of the last
second. Only whole rounds (``workers`` x ``batch`` iterations) go to the checkpoint: a run
whose total is not a multiple ends with a short round that is merged into the output only,
so a larger ``iterations`` later redoes it as a whole round, as an uninterrupted run does
(Linear CFR weighs by round number, so a short round kept would shift every later round).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from solvers.mccfr_checkpoint import CheckpointError, ForeignCheckpointError, Journal
from solvers.mccfr_spec import TrainSpec
from solvers.mccfr_tables import Tables, View
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.signals import kept_handlers

__all__ = [
    "CheckpointError",
    "ForeignCheckpointError",
    "Journal",
    "RayExecutor",
    "SerialExecutor",
    "TrainSpec",
    "train",
]


def batch_rng(seed: int, round_no: int, batch: int) -> random.Random:
    state = np.random.SeedSequence([seed, round_no, batch]).generate_state(2)
    return random.Random(int(state[0]) << 32 | int(state[1]))


def round_plan(done: int, total: int, workers: int, batch: int) -> list[int]:
    """Iterations of each batch of the next round (fewer at the end of the run: a short
    round, which ``train`` keeps out of the checkpoint)."""
    out = []
    left = total - done
    for _ in range(workers):
        n = min(batch, left)
        if n <= 0:
            break
        out.append(n)
        left -= n
    return out


# ----- executors -------------------------------------------------------------------
class SerialExecutor:
    """Every batch in this process, one after another."""

    def __init__(self, spec: TrainSpec):
        self.spec = spec
        self.trav = spec.traversals()
        self.players = self.trav.players

    def run_round(self, tables: Tables, view: View, round_no: int, plan: list[int]) -> list:
        out = []
        for j, n in enumerate(plan):
            d = self.trav.run(view, batch_rng(self.spec.seed, round_no, j), self._order(n))
            out.append(d.to_arrays())
        return out

    def _order(self, iterations: int) -> list[int]:
        return list(range(self.players)) * iterations

    def close(self) -> None:
        pass


class Worker:
    """A Ray actor: the traversals of one worker and a mirror of the tables' maps."""

    def __init__(self, spec: dict):
        self.spec = TrainSpec(**spec)
        self.trav = self.spec.traversals()
        self.index: dict[str, int] = {}
        self.slot_maps: list[dict[int, int]] = []
        self.slots = 0

    def run(self, new_keys, new_slots, positive, baseline, round_no: int, j: int, n: int):
        for key in new_keys:
            self.index[key] = len(self.slot_maps)
            self.slot_maps.append({})
        for row, action in new_slots:
            self.slot_maps[row][action] = self.slots
            self.slots += 1
        view = View(
            self.index,
            self.slot_maps,
            positive.tolist(),
            baseline.tolist(),
            len(self.slot_maps),
            self.slots,
        )
        order = list(range(self.trav.players)) * n
        return self.trav.run(view, batch_rng(self.spec.seed, round_no, j), order).to_arrays()

    def cpu_seconds(self) -> float:
        """This worker process's CPU time (benchmarks: the work the distribution adds)."""
        return time.process_time()


WAIT_SECONDS = 10.0  # between checks of the cluster's CPUs while a batch runs
WAIT_CHECKS = 6  # checks short of CPUs in a row before the run gives up (a minute)


class RayExecutor:
    """Batches on Ray actors, one per worker of ``spec.workers`` (a local session of that
    many CPUs, or a cluster at ``address``)."""

    def __init__(self, spec: TrainSpec, address: str | None = None):
        import ray

        self.ray = ray
        self.spec = spec
        self.workers = workers = spec.workers
        self.actors: list = [None] * workers
        self.synced: list[tuple[int, int]] = [(0, 0)] * workers
        self.started = False
        if not ray.is_initialized():
            _init_ray(ray, workers, address)
            self.started = True
        cpus = self.cpus()
        if cpus < workers:  # the actors could never all be placed: the run would wait forever
            self.close()
            raise MeepleError(
                f"--workers {workers} needs {workers} CPUs (one per worker); the Ray cluster "
                f"has {cpus:g}"
            )
        self.remote = ray.remote(num_cpus=1, max_restarts=0)(Worker)

    def cpus(self) -> float:
        return float(self.ray.cluster_resources().get("CPU", 0.0))

    def _await(self, ref, patience: int = WAIT_CHECKS):
        """The batch's result; MeepleError when the cluster has had fewer CPUs than workers
        for ``patience`` checks in a row (a node lost: a replaced worker cannot be placed,
        and the run would wait forever). The checkpoint keeps every finished round."""
        short = 0
        while True:
            ready, _ = self.ray.wait([ref], timeout=WAIT_SECONDS)
            if ready:
                return self.ray.get(ref)
            short = short + 1 if self.cpus() < self.workers else 0
            if short >= patience:
                raise MeepleError(
                    f"the Ray cluster has {self.cpus():g} CPUs for {self.workers} workers (a"
                    " node was lost?); rerun once it has them again: the checkpoint resumes"
                )

    def _actor(self, j: int):
        if self.actors[j] is None:
            self.actors[j] = self.remote.remote(asdict(self.spec))
            self.synced[j] = (0, 0)
        return self.actors[j]

    def run_round(self, tables: Tables, view: View, round_no: int, plan: list[int]) -> list:
        ray = self.ray
        positive = ray.put(np.maximum(tables.regret, 0.0))
        baseline = ray.put(tables.baseline.copy())
        results: list = [None] * len(plan)
        for _attempt in range(5):
            pending = {}
            for j, n in enumerate(plan):
                if results[j] is not None:
                    continue
                actor = self._actor(j)
                rows, slots = self.synced[j]
                keys = tables.keys[rows : view.rows]
                new_slots = list(
                    zip(
                        tables.slot_row[slots : view.slots].tolist(),
                        tables.slot_action[slots : view.slots].tolist(),
                        strict=True,
                    )
                )
                ref = actor.run.remote(keys, new_slots, positive, baseline, round_no, j, n)
                pending[j] = ref
                self.synced[j] = (view.rows, view.slots)
            for j, ref in pending.items():
                try:
                    results[j] = self._await(ref)
                except ray.exceptions.RayActorError:
                    self.actors[j] = None  # replaced next attempt; its batch is recomputed
                except ray.exceptions.RayError as e:
                    raise MeepleError(
                        f"a training batch failed on a Ray worker: {one_line(e)}"
                    ) from None
            if all(r is not None for r in results):
                return results
        raise MeepleError("Ray workers kept dying; the checkpoint holds every finished round")

    def worker_cpu_seconds(self) -> float:
        """The live workers' CPU time, summed (benchmarks)."""
        live = [a for a in self.actors if a is not None]
        return sum(self.ray.get([a.cpu_seconds.remote() for a in live]))

    def close(self) -> None:
        for a in self.actors:
            if a is not None:
                self.ray.kill(a)
        if self.started:
            self.ray.shutdown()


def _init_ray(ray, workers: int, address: str | None) -> None:
    import logging

    try:
        with kept_handlers():  # ray.init's own SIGTERM handler would replace the command's
            _ray_init(ray, workers, address, logging.ERROR)
    except (ConnectionError, RuntimeError, TimeoutError, ValueError) as e:
        where = f"the Ray cluster at {address}" if address else "a local Ray session"
        raise MeepleError(f"cannot reach {where}: {one_line(e)}") from None


def _ray_init(ray, workers: int, address: str | None, level: int) -> None:
    if address:
        ray.init(address=address, logging_level=level, log_to_driver=False)
    else:
        ray.init(
            address="local",  # a session of its own, even beside a running cluster
            num_cpus=workers,
            include_dashboard=False,
            logging_level=level,
            log_to_driver=False,
        )


# ----- the loop ------------------------------------------------------------------------
@dataclass
class Progress:
    iterations: int
    rounds: int
    seconds: float  # this run's training time (evaluations excluded)
    cpu_seconds: float = 0.0  # the same in this process's CPU time


def train(
    spec: TrainSpec,
    iterations: int,
    tables: Tables,
    done: int,
    rounds: int,
    journal: Journal | None,
    executor,
    report_every: int,
    on_report: Callable[[Tables, Progress], dict],
    on_iteration: Callable[[int, int], None] | None = None,
) -> Progress:
    """Rounds until ``iterations`` are done; ``on_report(tables, progress)`` every
    ``report_every`` iterations (and at the end) returns the figures saved with the
    checkpoint. A short last round (``round_plan``) is not journaled: the checkpoint is
    snapshotted before it, so it resumes at the last whole round."""
    reports: list = []
    seconds = cpu = 0.0
    next_report = (done // report_every + 1) * report_every
    progress = Progress(done, rounds, 0.0)
    log = journal  # None for a short round
    try:
        while done < iterations:
            plan = round_plan(done, iterations, spec.workers, spec.batch)
            if sum(plan) < spec.workers * spec.batch and journal is not None:
                log = None
                journal.this_run = (seconds, cpu)
                if rounds:  # the whole rounds so far, and their reports
                    journal.snapshot(tables, rounds, done, reports, force=True)
                else:  # none yet: an empty checkpoint still marks the output as this run's
                    journal.start()
            t, c = time.perf_counter(), time.process_time()
            view = tables.view()
            deltas = executor.run_round(tables, view, rounds + 1, plan)
            if log is not None:
                log.append(rounds + 1, done + sum(plan), view, deltas)
            spec.merge(tables, rounds + 1, view, deltas)
            seconds += time.perf_counter() - t
            cpu += time.process_time() - c
            rounds += 1
            done += sum(plan)
            progress = Progress(done, rounds, seconds, cpu)
            if on_iteration is not None:
                on_iteration(done, iterations)
            made = None
            if done >= next_report or done >= iterations:
                made = on_report(tables, progress)
                reports.append(made)
                next_report = (done // report_every + 1) * report_every
            if log is not None:
                log.this_run = (seconds, cpu)
                log.settle(tables, rounds, done, reports, made)
    except BaseException:
        if journal is not None:
            journal.flush()  # every merged round is kept; the snapshot is left as it was
        raise
    if log is not None and rounds:
        log.snapshot(tables, rounds, done, reports, force=True)
    return progress
