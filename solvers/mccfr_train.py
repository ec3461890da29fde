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

The checkpoint is a directory ``<out>.ckpt/`` (never pickle):

    manifest.json            identity of the run, the current snapshot, the last report
    tables-<round>.npz       the tables after that round (plain arrays)
    rounds-<k>.npz           the deltas merged in rounds k, k+1, ... (as they were merged)

Merged rounds are written atomically (``spiel_games.common.files``) at least every
``FLUSH_SECONDS`` (after every round on full games, where a round takes longer); every
``SNAPSHOT_SECONDS`` and at the end a new snapshot is written, then the manifest is
switched to it, then older files are removed. Resuming loads the snapshot and re-applies
the rounds after it in order, so a killed worker loses its batch (recomputed) and a
killed driver the round in progress (one batch per worker) plus, on tiny games, the
rounds of the last second.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

import spiel_games
from solvers.mccfr import DEFAULT_MAX_KEYS, Traversals
from solvers.mccfr_tables import Tables, TablesError, View, load_npz, save_npz
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.files import TMP_PREFIX, atomic_write_text

MANIFEST = "manifest.json"
_ROUNDS = re.compile(r"^rounds-(\d+)\.npz$")
_SNAPSHOT = re.compile(r"^tables-(\d+)\.npz$")
SNAPSHOT_SECONDS = 300.0
FLUSH_SECONDS = 1.0


class CheckpointError(MeepleError):
    """A checkpoint that cannot be resumed: unreadable, or written for another run."""


@dataclass(frozen=True)
class TrainSpec:
    """Everything that decides the sampled computation (the checkpoint's identity)."""

    game: str
    variant: str  # "es" or "os"
    abstraction: str
    abstraction_version: int
    seed: int
    epsilon: float = 0.6
    weighting: str = "counterfactual"
    baselines: bool = False
    es_leaves: int = 0
    batch: int = 1  # iterations per batch
    max_keys: int = DEFAULT_MAX_KEYS
    linear: bool = False  # Linear CFR: discount the tables by k / (k + 1) before round k

    def merge(self, tables: Tables, round_no: int, view: View, deltas: list) -> None:
        """Apply round ``round_no``'s deltas (the one place both training and replay merge)."""
        if self.linear and round_no > 1:
            tables.discount((round_no - 1) / round_no)
        tables.apply(view, deltas)

    def traversals(self) -> Traversals:
        game = spiel_games.load_game(self.game, any_openspiel=True)
        return Traversals(
            game,
            self.variant,
            self.abstraction,
            self.epsilon,
            self.weighting,
            self.baselines,
            self.es_leaves,
            self.max_keys,
        )


def batch_rng(seed: int, round_no: int, batch: int) -> random.Random:
    state = np.random.SeedSequence([seed, round_no, batch]).generate_state(2)
    return random.Random(int(state[0]) << 32 | int(state[1]))


def round_plan(done: int, total: int, workers: int, batch: int) -> list[int]:
    """Iterations of each batch of the next round (fewer at the end of the run)."""
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


class RayExecutor:
    """Batches on Ray actors (a local session of ``workers`` CPUs, or a cluster)."""

    def __init__(self, spec: TrainSpec, workers: int, address: str | None):
        import ray

        self.ray = ray
        self.spec = spec
        self.started = False
        if not ray.is_initialized():
            _init_ray(ray, workers, address)
            self.started = True
        self.remote = ray.remote(num_cpus=1, max_restarts=0)(Worker)
        self.actors: list = [None] * workers
        self.synced: list[tuple[int, int]] = [(0, 0)] * workers

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
                    results[j] = ray.get(ref)
                except ray.exceptions.RayActorError:
                    self.actors[j] = None  # replaced next attempt; its batch is recomputed
                except ray.exceptions.RayError as e:
                    raise MeepleError(f"a training batch failed on a Ray worker: {one_line(e)}")
            if all(r is not None for r in results):
                return results
        raise MeepleError("Ray workers kept dying; the checkpoint holds every finished round")

    def close(self) -> None:
        for a in self.actors:
            if a is not None:
                self.ray.kill(a)
        if self.started:
            self.ray.shutdown()


def _init_ray(ray, workers: int, address: str | None) -> None:
    import logging

    try:
        if address:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                logging_level=logging.ERROR,
                log_to_driver=False,
            )
    except (ConnectionError, RuntimeError, TimeoutError) as e:
        where = f"the Ray cluster at {address}" if address else "a local Ray session"
        raise MeepleError(f"cannot reach {where}: {one_line(e)}") from None


# ----- the checkpoint ----------------------------------------------------------------
class Journal:
    """The checkpoint directory (see the module docstring)."""

    def __init__(self, directory: Path, spec: TrainSpec):
        self.dir = Path(directory)
        self.spec = spec
        self.identity = asdict(spec)
        self.last_snapshot = time.monotonic()
        self._flushed = time.monotonic()
        self._pending: list = []

    def _manifest(self) -> dict | None:
        path = self.dir / MANIFEST
        if not path.exists():
            return None
        try:
            m = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            raise CheckpointError(
                f"checkpoint {path} is unreadable ({one_line(e)}); delete it to start over"
            ) from None
        if not isinstance(m, dict) or not isinstance(m.get("identity"), dict):
            raise CheckpointError(
                f"checkpoint {path} has no valid meeple manifest; delete it to start over"
            )
        return m

    def load(self) -> tuple[Tables, int, int]:
        """(tables, iterations done, rounds done) from the checkpoint, or empty tables."""
        m = self._manifest()
        if m is None:
            return Tables(self.identity["max_keys"]), 0, 0
        old = m["identity"]
        ignore = {"batch", "max_keys"}  # may change between runs of one request
        diff = [k for k in self.identity if k not in ignore and old.get(k) != self.identity[k]]
        if diff:
            raise CheckpointError(
                f"checkpoint {self.dir} was written for a different {', '.join(diff)}; "
                "delete it or choose another --out"
            )
        try:
            return self._replay(m)
        except (TablesError, KeyError, IndexError, ValueError) as e:
            raise CheckpointError(
                f"checkpoint {self.dir} cannot be resumed ({one_line(e)}); delete it to start over"
            ) from None

    def _replay(self, m: dict) -> tuple[Tables, int, int]:
        rounds = int(m.get("snapshot_round", 0))
        iterations = int(m.get("snapshot_iterations", 0))
        if m.get("snapshot"):
            _, arrays = load_npz(self.dir / m["snapshot"])
            tables = Tables.from_arrays(arrays, self.identity["max_keys"])
        else:
            tables = Tables(self.identity["max_keys"])
        files = {int(g.group(1)): p for p in self.dir.iterdir() if (g := _ROUNDS.match(p.name))}
        while rounds + 1 in files:
            meta, arrays = load_npz(files[rounds + 1])
            for r in meta["rounds"]:
                if r["rows"] != tables.rows or r["slots"] != tables.slots:
                    raise TablesError(f"round {r['round']} does not follow the tables")
                view = View(tables.index, tables.slot_maps, [], [], tables.rows, tables.slots)
                prefix = f"r{r['round']}"
                self.spec.merge(tables, r["round"], view, _split(arrays, prefix, r["batches"]))
                rounds = r["round"]
                iterations = int(r["iterations"])
        return tables, iterations, rounds

    def append(self, round_no: int, iterations: int, view: View, deltas: list) -> None:
        """Record round ``round_no``'s deltas (against ``view``); written to disk at most
        ``FLUSH_SECONDS`` later (``flush``), so a crash loses at most that much."""
        self._pending.append(
            (
                {
                    "round": round_no,
                    "iterations": iterations,
                    "rows": view.rows,
                    "slots": view.slots,
                    "batches": len(deltas),
                },
                deltas,
            )
        )
        if time.monotonic() - self._flushed >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        if not (self.dir / MANIFEST).exists():
            self._write_manifest(None, 0, 0, [])
        arrays = {
            f"r{meta['round']}b{j}_{k}": v
            for meta, deltas in self._pending
            for j, d in enumerate(deltas)
            for k, v in d.items()
        }
        first = self._pending[0][0]["round"]
        rounds = [meta for meta, _ in self._pending]
        save_npz(self.dir / f"rounds-{first}.npz", arrays, {"rounds": rounds})
        self._pending = []
        self._flushed = time.monotonic()

    def snapshot(
        self, tables: Tables, round_no: int, iterations: int, reports: list, force: bool = False
    ) -> None:
        if not force and time.monotonic() - self.last_snapshot < SNAPSHOT_SECONDS:
            return
        self._pending = []  # the snapshot holds them
        self.dir.mkdir(parents=True, exist_ok=True)
        name = f"tables-{round_no}.npz"
        save_npz(self.dir / name, tables.to_arrays(), {"round": round_no})
        self._write_manifest(name, round_no, iterations, reports)
        for p in self.dir.iterdir():
            m = _ROUNDS.match(p.name)
            s = _SNAPSHOT.match(p.name)
            if (m and int(m.group(1)) <= round_no) or (s and p.name != name):
                p.unlink()
            elif p.name.startswith(TMP_PREFIX):
                p.unlink()
        self.last_snapshot = time.monotonic()

    def _write_manifest(self, snapshot, round_no: int, iterations: int, reports: list) -> None:
        body = {
            "identity": self.identity,
            "snapshot": snapshot,
            "snapshot_round": round_no,
            "snapshot_iterations": iterations,
            "reports": reports,
        }
        atomic_write_text(self.dir / MANIFEST, json.dumps(body, indent=1, allow_nan=False))


def _split(arrays: dict[str, np.ndarray], prefix: str, batches: int) -> list[dict]:
    out: list[dict[str, np.ndarray]] = [{} for _ in range(batches)]
    for name, value in arrays.items():
        head, _, key = name.partition("_")
        if head.startswith(prefix + "b"):
            out[int(head[len(prefix) + 1 :])][key] = value
    return out


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
    workers: int,
    report_every: int,
    on_report: Callable[[Tables, Progress], dict],
    on_iteration: Callable[[int, int], None] | None = None,
) -> Progress:
    """Rounds until ``iterations`` are done; ``on_report(tables, progress)`` every
    ``report_every`` iterations (and at the end) returns the figures saved with the
    checkpoint."""
    reports: list = []
    seconds = cpu = 0.0
    next_report = (done // report_every + 1) * report_every
    progress = Progress(done, rounds, 0.0)
    try:
        while done < iterations:
            plan = round_plan(done, iterations, workers, spec.batch)
            t, c = time.perf_counter(), time.process_time()
            view = tables.view()
            deltas = executor.run_round(tables, view, rounds + 1, plan)
            if journal is not None:
                journal.append(rounds + 1, done + sum(plan), view, deltas)
            spec.merge(tables, rounds + 1, view, deltas)
            seconds += time.perf_counter() - t
            cpu += time.process_time() - c
            rounds += 1
            done += sum(plan)
            progress = Progress(done, rounds, seconds, cpu)
            if on_iteration is not None:
                on_iteration(done, iterations)
            if done >= next_report or done >= iterations:
                reports.append(on_report(tables, progress))
                next_report = (done // report_every + 1) * report_every
            if journal is not None:
                journal.snapshot(tables, rounds, done, reports)
    except BaseException:
        if journal is not None:
            journal.flush()  # every merged round is kept; the snapshot is left as it was
        raise
    if journal is not None and rounds:
        journal.snapshot(tables, rounds, done, reports, force=True)
    return progress
