"""The checkpoint of an MCCFR run: a directory of plain files, resumable after a crash.

    manifest.json            identity of the run, the current snapshot, every report so far
    tables-<round>.npz       the tables after that round (plain arrays, never pickle)
    rounds-<k>.npz           the deltas merged in rounds k, k+1, ... (as they were merged)

Merged rounds are written atomically (``spiel_games.common.files``) at least every
``FLUSH_SECONDS`` (after every round on full games, where a round takes longer); every
``SNAPSHOT_SECONDS`` and at the end a new snapshot is written, then the manifest is
switched to it, then older files are removed. Resuming loads the snapshot and re-applies
the rounds after it in order (``TrainSpec.merge``, the trainer's own merge), so the
tables are exactly those of the run that wrote them.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from solvers.base import MAX_COUNT
from solvers.checkpoint_identity import mismatch
from solvers.mccfr import DEFAULT_MAX_KEYS
from solvers.mccfr_tables import Tables, TablesError, View, load_npz, save_npz
from spiel_games.common import json_read
from spiel_games.common.errors import ForeignOutputError, MeepleError, one_line
from spiel_games.common.files import ANY_SIZE, TMP_PREFIX, atomic_write_text, read_regular

if TYPE_CHECKING:
    from solvers.mccfr_spec import TrainSpec

RUN_FIELDS = ("game", "variant", "abstraction", "abstraction_version", "seed")
MANIFEST = "manifest.json"
_ROUNDS = re.compile(r"^rounds-(\d+)\.npz$")
_SNAPSHOT = re.compile(r"^tables-(\d+)\.npz$")
SNAPSHOT_SECONDS = 300.0
FLUSH_SECONDS = 1.0


class CheckpointError(MeepleError):
    """A checkpoint that cannot be resumed: unreadable, or written for another run."""


class ForeignCheckpointError(CheckpointError, ForeignOutputError):
    """A checkpoint written for another request (exit 2), refused before any round."""


class Journal:
    """The checkpoint directory (see the module docstring)."""

    def __init__(self, directory: Path, spec: TrainSpec):
        self.dir = Path(directory)
        self.spec = spec
        self.identity = asdict(spec)
        self.last_snapshot = time.monotonic()
        self._flushed = time.monotonic()
        self._pending: list = []
        self.reports: list[dict] = []  # the reports of earlier runs (``load``)
        self.earlier = (0.0, 0.0)  # training seconds and CPU seconds of earlier runs
        self.this_run = (0.0, 0.0)  # the same of this run, set by the trainer

    def _manifest(self) -> dict | None:
        path = self.dir / MANIFEST
        if not path.exists():
            return None
        try:  # a pipe or device is refused unread (read_regular): it would hang the resume
            m = json_read.loads(read_regular(path, ANY_SIZE))
        except (OSError, ValueError) as e:
            raise CheckpointError(
                f"checkpoint {path} is unreadable ({one_line(e)}); delete it to start over"
            ) from None
        if not isinstance(m, dict) or not isinstance(m.get("identity"), dict):
            raise CheckpointError(
                f"checkpoint {path} has no valid meeple manifest; delete it to start over"
            )
        if wrong := _wrong_field(m):  # a hand-edited manifest: refused before any round
            raise CheckpointError(
                f"checkpoint {self.dir} cannot be resumed ({MANIFEST}: {wrong}); "
                "delete it to start over"
            )
        return m

    def load(self) -> tuple[Tables, int, int]:
        """(tables, iterations done, rounds done) from the checkpoint, or empty tables."""
        m = self._manifest()
        if m is None:
            return Tables(self.identity["max_keys"]), 0, 0
        old = m["identity"]
        # --max-keys may grow between runs of one request (a table that filled up); batch
        # and workers shape every round's samples, so another value is another computation
        ignore = {"max_keys"}
        # a field added since the checkpoint was written counts with its default
        default = {f.name: f.default for f in fields(self.spec)}
        diff = [
            k
            for k in self.identity
            if k not in ignore and old.get(k, default[k]) != self.identity[k]
        ]
        if diff:
            raise ForeignCheckpointError(mismatch(self.dir, diff, old, self.identity))
        self.reports = [r for r in m.get("reports", []) if isinstance(r, dict)]
        self.earlier = (float(m.get("train_seconds", 0.0)), float(m.get("train_cpu_seconds", 0.0)))
        # replayed under the bound its rounds were merged with, then held to this run's
        bound = _int(old.get("max_keys"), DEFAULT_MAX_KEYS)
        try:
            tables, iterations, rounds = self._replay(m, bound)
        except (TablesError, KeyError, IndexError, TypeError, ValueError) as e:
            raise CheckpointError(
                f"checkpoint {self.dir} cannot be resumed ({one_line(e)}); delete it to start over"
            ) from None
        if tables.rows > self.identity["max_keys"]:
            raise ForeignCheckpointError(
                f"checkpoint {self.dir} holds {tables.rows:,} keys, more than --max-keys "
                f"{self.identity['max_keys']:,}; --max-keys may grow between runs, never fall "
                f"below the keys learned (give at least {tables.rows:,}, or another --out)"
            )
        tables.max_rows = self.identity["max_keys"]
        return tables, iterations, rounds

    def _run(self) -> dict:
        """What a tables file says of the run that wrote it (``RUN_FIELDS`` of its identity):
        a file copied in from another run's checkpoint is refused, not merged."""
        return {k: self.identity[k] for k in RUN_FIELDS if k in self.identity}

    def _same_run(self, name: str, meta: dict) -> None:
        run = meta.get("run")  # absent in files written before it was recorded
        if not isinstance(run, dict):
            return
        for k, v in self._run().items():
            if run.get(k) != v:
                raise TablesError(f"{name} was written by another run ({k} {run.get(k)!r})")

    def _replay(self, m: dict, bound: int) -> tuple[Tables, int, int]:
        rounds = int(m.get("snapshot_round", 0))
        iterations = int(m.get("snapshot_iterations", 0))
        if m.get("snapshot"):
            meta, arrays = load_npz(self.dir / m["snapshot"])
            self._same_run(m["snapshot"], meta)
            tables = Tables.from_arrays(arrays, bound)
        else:
            tables = Tables(bound)
        files = {int(g.group(1)): p for p in self.dir.iterdir() if (g := _ROUNDS.match(p.name))}
        while rounds + 1 in files:
            meta, arrays = load_npz(files[rounds + 1])
            self._same_run(files[rounds + 1].name, meta)
            for r in meta["rounds"]:
                if r["rows"] != tables.rows or r["slots"] != tables.slots:
                    raise TablesError(f"round {r['round']} does not follow the tables")
                view = View(tables.index, tables.slot_maps, [], [], tables.rows, tables.slots)
                prefix = f"r{r['round']}"
                self.spec.merge(tables, r["round"], view, _split(arrays, prefix, r["batches"]))
                rounds = r["round"]
                iterations = int(r["iterations"])
                if isinstance(r.get("report"), dict):  # made after the snapshot
                    self.reports.append(r["report"])
                if isinstance(r.get("seconds"), list) and len(r["seconds"]) == 2:
                    self.earlier = (float(r["seconds"][0]), float(r["seconds"][1]))
        return tables, iterations, rounds

    def append(self, round_no: int, iterations: int, view: View, deltas: list) -> None:
        """Record round ``round_no``'s deltas (against ``view``); ``settle`` writes them to
        disk at most ``FLUSH_SECONDS`` later, so a crash loses at most that much."""
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

    def settle(self, tables: Tables, round_no: int, iterations: int, reports: list, made) -> None:
        """After round ``round_no`` (``made``: its report, if it made one): the report and the
        training seconds so far go with the round's deltas, so a crash before the next
        snapshot keeps them too; the rounds are written, and a snapshot taken, when due."""
        if self._pending:
            meta = self._pending[-1][0]
            if made is not None:
                meta["report"] = made
            meta["seconds"] = [
                round(a + b, 3) for a, b in zip(self.earlier, self.this_run, strict=True)
            ]
        if time.monotonic() - self._flushed >= FLUSH_SECONDS:
            self.flush()
        self.snapshot(tables, round_no, iterations, reports)

    def start(self) -> None:
        """The directory and a manifest of no rounds, unless there is one already."""
        self.dir.mkdir(parents=True, exist_ok=True)
        if not (self.dir / MANIFEST).exists():
            self._write_manifest(None, 0, 0, [])

    def flush(self) -> None:
        if not self._pending:
            return
        self.start()
        arrays = {
            f"r{meta['round']}b{j}_{k}": v
            for meta, deltas in self._pending
            for j, d in enumerate(deltas)
            for k, v in d.items()
        }
        first = self._pending[0][0]["round"]
        rounds = [meta for meta, _ in self._pending]
        save_npz(self.dir / f"rounds-{first}.npz", arrays, {"rounds": rounds, "run": self._run()})
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
        save_npz(self.dir / name, tables.to_arrays(), {"round": round_no, "run": self._run()})
        self._write_manifest(name, round_no, iterations, reports)
        for p in self.dir.iterdir():
            m = _ROUNDS.match(p.name)
            s = _SNAPSHOT.match(p.name)
            if (
                (m and int(m.group(1)) <= round_no)
                or (s and p.name != name)
                or p.name.startswith(TMP_PREFIX)
            ):
                p.unlink()
        self.last_snapshot = time.monotonic()

    def _write_manifest(self, snapshot, round_no: int, iterations: int, reports: list) -> None:
        body = {
            "identity": self.identity,
            "snapshot": snapshot,
            "snapshot_round": round_no,
            "snapshot_iterations": iterations,
            "reports": self.reports + reports,
            "train_seconds": round(self.earlier[0] + self.this_run[0], 1),
            "train_cpu_seconds": round(self.earlier[1] + self.this_run[1], 1),
        }
        atomic_write_text(self.dir / MANIFEST, json.dumps(body, indent=1, allow_nan=False))


def _wrong_field(m: dict) -> str | None:
    """What is wrong with a manifest's fields beside its identity (each as
    ``_write_manifest`` writes it; a missing one counts as none), or None."""
    snapshot = m.get("snapshot")
    if snapshot is not None and not (isinstance(snapshot, str) and _SNAPSHOT.match(snapshot)):
        return f"snapshot is {_shown(snapshot)}, not null or a file name tables-<round>.npz"
    for key in ("snapshot_round", "snapshot_iterations"):
        if _int(m.get(key, 0), -1) < 0:
            return f"{key} is {_shown(m[key])}, not a count (an integer >= 0)"
        if _int(m.get(key, 0), 0) > MAX_COUNT:  # more than a run makes: the run would be "done"
            return f"{key} is {_shown(m[key])}, more than --iterations accepts ({MAX_COUNT:,})"
    for key in ("train_seconds", "train_cpu_seconds"):
        x = m.get(key, 0.0)
        if isinstance(x, bool) or not isinstance(x, int | float) or not 0 <= x < math.inf:
            return f"{key} is {_shown(x)}, not a number of seconds (>= 0)"
    if not isinstance(m.get("reports", []), list):
        return f"reports is {_shown(m['reports'])}, not an array"
    return None


def _shown(value) -> str:
    """A manifest's value as JSON writes it, cut short."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(value, default: int) -> int:
    """A manifest's count, or ``default`` where it holds none (or not a count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _split(arrays: dict[str, np.ndarray], prefix: str, batches: int) -> list[dict]:
    out: list[dict[str, np.ndarray]] = [{} for _ in range(batches)]
    for name, value in arrays.items():
        head, _, key = name.partition("_")
        if head.startswith(prefix + "b"):
            out[int(head[len(prefix) + 1 :])][key] = value
    return out
