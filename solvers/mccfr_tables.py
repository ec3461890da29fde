"""MCCFR tables as numpy arrays: one row per abstract key, one slot per (key, action).

A key may cover states whose legal actions differ, so a row has one slot per action id
met at it (in the order met) and regret matching runs over the slots of the actions legal
in the state at hand. ``index`` maps a key to its row, ``slot_maps[row]`` an action id to
its slot; per slot the arrays hold ``slot_row``, ``slot_action``, the cumulative regret,
the average-strategy sum and the VR-MCCFR baseline (the mean of the values seen after the
action, over at most about ``BASELINE_WINDOW`` observations); per row, ``visits`` (the
decisions met at the key).

Training is synchronous: traversals read a snapshot (``View``: positive regrets and
baselines as Python lists, cheap to read per decision), return ``Deltas``, and
``Tables.apply`` merges them in a fixed order. The same deltas applied in the same order
give the same tables, wherever the traversals ran.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np

from spiel_games.common import json_read
from spiel_games.common.files import ANY_SIZE, atomic_write_bytes, open_regular

BASELINE_WINDOW = 50.0  # observations a baseline averages over (older ones fade out)
FORMAT = 1


class TablesError(ValueError):
    """Table data that cannot be used (a corrupt or foreign file)."""


class _Grow:
    """A numpy array with amortised appends."""

    def __init__(self, dtype):
        self.a = np.zeros(64, dtype=dtype)
        self.n = 0

    def extend(self, count: int) -> None:
        need = self.n + count
        if need > len(self.a):
            bigger = np.zeros(max(need, 2 * len(self.a)), dtype=self.a.dtype)
            bigger[: self.n] = self.a[: self.n]
            self.a = bigger
        self.n = need

    @property
    def view(self) -> np.ndarray:
        return self.a[: self.n]


@dataclass
class View:
    """What traversals read: a snapshot of the positive regrets and the baselines.

    ``index`` and ``slot_maps`` are the tables' own maps (read only while traversing; they
    only ever grow). Rows and slots a traversal meets that the snapshot lacks are its own
    (``Deltas.new_rows`` / ``new_slots``), numbered from ``rows`` / ``slots`` on."""

    index: dict[str, int]
    slot_maps: list[dict[int, int]]
    positive: list[float]  # max(regret, 0) per slot
    baseline: list[float]
    rows: int
    slots: int


@dataclass
class Deltas:
    """What one batch of traversals changes, in its View's numbering."""

    new_rows: list[str] = field(default_factory=list)
    new_slots: list[tuple[int, int]] = field(default_factory=list)  # (row, action)
    regret_slot: list[int] = field(default_factory=list)
    regret: list[float] = field(default_factory=list)
    avg_slot: list[int] = field(default_factory=list)
    avg: list[float] = field(default_factory=list)
    base_slot: list[int] = field(default_factory=list)  # a value seen after the action
    base_value: list[float] = field(default_factory=list)
    visit_row: list[int] = field(default_factory=list)
    untracked: int = 0  # decisions at keys beyond the table bound (played uniformly)
    traversals: int = 0

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Plain arrays (for Ray transfer and delta files; never pickle)."""
        return {
            "new_rows": encode_keys(self.new_rows),
            "new_rows_count": np.asarray([len(self.new_rows)], np.int64),
            "new_slots": np.asarray(self.new_slots, np.int64).reshape(-1, 2),
            "regret_slot": np.asarray(self.regret_slot, np.int64),
            "regret": np.asarray(self.regret, np.float64),
            "avg_slot": np.asarray(self.avg_slot, np.int64),
            "avg": np.asarray(self.avg, np.float64),
            "base_slot": np.asarray(self.base_slot, np.int64),
            "base_value": np.asarray(self.base_value, np.float64),
            "visit_row": np.asarray(self.visit_row, np.int64),
            "counts": np.asarray([self.untracked, self.traversals], np.int64),
        }


def encode_keys(keys: list[str]) -> np.ndarray:
    """Keys as UTF-8 joined by NUL, as uint8 (keys never hold NUL)."""
    return np.frombuffer("\0".join(keys).encode(), np.uint8).copy()


def decode_keys(blob: np.ndarray, count: int) -> list[str]:
    if count == 0:
        return []
    keys = blob.tobytes().decode().split("\0")
    if len(keys) != count:
        raise TablesError(f"expected {count} keys, found {len(keys)}")
    return keys


class Tables:
    """Regret, average-strategy and baseline tables over abstract keys."""

    def __init__(self, max_rows: int = 2_000_000):
        self.max_rows = max_rows
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.slot_maps: list[dict[int, int]] = []
        self._slot_row = _Grow(np.int64)
        self._slot_action = _Grow(np.int64)
        self._regret = _Grow(np.float64)
        self._avg = _Grow(np.float64)
        self._base = _Grow(np.float64)
        self._base_n = _Grow(np.float64)
        self._visits = _Grow(np.int64)
        self.untracked = 0
        self.traversals = 0

    # ----- shape -----------------------------------------------------------------
    @property
    def rows(self) -> int:
        return len(self.keys)

    @property
    def slots(self) -> int:
        return self._regret.n

    regret = property(lambda self: self._regret.view)
    avg = property(lambda self: self._avg.view)
    baseline = property(lambda self: self._base.view)
    visits = property(lambda self: self._visits.view)
    slot_row = property(lambda self: self._slot_row.view)
    slot_action = property(lambda self: self._slot_action.view)

    def add_row(self, key: str) -> int | None:
        """The key's row, adding it if new; None when the table is full."""
        r = self.index.get(key)
        if r is not None:
            return r
        if self.rows >= self.max_rows:
            return None
        r = self.rows
        self.index[key] = r
        self.keys.append(key)
        self.slot_maps.append({})
        self._visits.extend(1)
        return r

    def add_slot(self, row: int, action: int) -> int:
        m = self.slot_maps[row]
        s = m.get(action)
        if s is None:
            s = m[action] = self.slots
            for g in (self._slot_row, self._slot_action, self._regret, self._avg):
                g.extend(1)
            for g in (self._base, self._base_n):
                g.extend(1)
            self._slot_row.view[s] = row
            self._slot_action.view[s] = action
        return s

    def view(self) -> View:
        return View(
            self.index,
            self.slot_maps,
            np.maximum(self.regret, 0.0).tolist(),
            self.baseline.tolist(),
            self.rows,
            self.slots,
        )

    # ----- merging ---------------------------------------------------------------
    def discount(self, factor: float) -> None:
        """Scale the cumulative regrets and average-strategy sums (Linear CFR's discount:
        by k / (k + 1) before round k's deltas, round k counts k times as much as round 1)."""
        np.multiply(self.regret, factor, out=self.regret)
        np.multiply(self.avg, factor, out=self.avg)

    def apply(self, view: View, deltas: Iterable[dict[str, np.ndarray]]) -> None:
        """Merge batches computed against ``view`` (this table's snapshot), in order."""
        for d in deltas:
            self._apply_one(view, d)

    def _apply_one(self, view: View, d: dict[str, np.ndarray]) -> None:
        new_rows = decode_keys(d["new_rows"], int(d["new_rows_count"][0]))
        row_map = np.arange(view.rows + len(new_rows), dtype=np.int64)
        for j, key in enumerate(new_rows):
            real = self.add_row(key)
            row_map[view.rows + j] = -1 if real is None else real
        new_slots = d["new_slots"]
        slot_map = np.arange(view.slots + len(new_slots), dtype=np.int64)
        for j, (row, action) in enumerate(new_slots.tolist()):
            real = int(row_map[row])
            slot_map[view.slots + j] = -1 if real < 0 else self.add_slot(real, action)
        visits = row_map[d["visit_row"]]
        np.add.at(self.visits, visits[visits >= 0], 1)
        self._add(self.regret, slot_map[d["regret_slot"]], d["regret"])
        self._add(self.avg, slot_map[d["avg_slot"]], d["avg"])
        self._observe(slot_map[d["base_slot"]], d["base_value"])
        self.untracked += int(d["counts"][0]) + int((visits < 0).sum())
        self.traversals += int(d["counts"][1])

    @staticmethod
    def _add(target: np.ndarray, slots: np.ndarray, values: np.ndarray) -> None:
        keep = slots >= 0
        if keep.any():
            target += np.bincount(slots[keep], weights=values[keep], minlength=len(target))

    def _observe(self, slots: np.ndarray, values: np.ndarray) -> None:
        """Baselines: the mean of the values seen after each action, over a sliding
        window of about BASELINE_WINDOW observations."""
        keep = slots >= 0
        if not keep.any():
            return
        slots, values = slots[keep], values[keep]
        m = self.slots
        count = np.bincount(slots, minlength=m).astype(np.float64)
        total = np.bincount(slots, weights=values, minlength=m)
        seen = count > 0
        n = np.minimum(self._base_n.view[seen], BASELINE_WINDOW)
        b = self.baseline[seen]
        self.baseline[seen] = (b * n + total[seen]) / (n + count[seen])
        self._base_n.view[seen] = n + count[seen]

    # ----- results ---------------------------------------------------------------
    def average(self) -> np.ndarray:
        """The average strategy per slot, normalised over the row's slots (uniform over them
        where nothing accumulated). Playing renormalises over the legal actions."""
        avg = np.maximum(self.avg, 0.0)
        rows = self.slot_row
        sums = np.bincount(rows, weights=avg, minlength=self.rows)
        width = np.bincount(rows, minlength=self.rows)
        safe = np.where(sums > 0, sums, 1.0)
        return np.where(sums[rows] > 0, avg / safe[rows], 1.0 / np.maximum(width[rows], 1))

    # ----- files (npz of plain arrays + a JSON manifest; never pickle) -------------
    def to_arrays(self) -> dict[str, np.ndarray]:
        return {
            "keys": encode_keys(self.keys),
            "rows_count": np.asarray([self.rows], np.int64),
            "slot_row": self.slot_row.copy(),
            "slot_action": self.slot_action.copy(),
            "regret": self.regret.copy(),
            "avg": self.avg.copy(),
            "baseline": self.baseline.copy(),
            "baseline_n": self._base_n.view.copy(),
            "visits": self.visits.copy(),
            "counts": np.asarray([self.untracked, self.traversals], np.int64),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], max_rows: int) -> Tables:
        try:
            keys = decode_keys(arrays["keys"], int(arrays["rows_count"][0]))
            t = cls(max_rows=max(max_rows, len(keys)))
            for key in keys:
                t.add_row(key)
            for row, action in zip(
                arrays["slot_row"].tolist(), arrays["slot_action"].tolist(), strict=True
            ):
                if not 0 <= row < t.rows:
                    raise TablesError(f"slot of row {row} outside the {t.rows} rows")
                t.add_slot(row, action)
            for name, grow in (
                ("regret", t._regret),
                ("avg", t._avg),
                ("baseline", t._base),
                ("baseline_n", t._base_n),
                ("visits", t._visits),
            ):
                a = arrays[name]
                if a.shape != grow.view.shape:
                    raise TablesError(f"array {name!r} has shape {a.shape}, not {grow.view.shape}")
                grow.view[:] = a
            t.untracked, t.traversals = (int(x) for x in arrays["counts"])
        except KeyError as e:
            raise TablesError(f"no array {e.args[0]!r}") from None
        except ValueError as e:
            raise TablesError(str(e)) from None
        t.max_rows = max_rows
        return t


def average_policy_table(tables: Tables) -> dict[str, dict[int, float]]:
    """{key: {action: probability}} of the average strategy."""
    probs = tables.average().tolist()
    out: dict[str, dict[int, float]] = {}
    for key, m in zip(tables.keys, tables.slot_maps, strict=True):
        out[key] = {a: probs[s] for a, s in m.items()}
    return out


def positive_regret_mean(tables: Tables, iterations: int) -> float:
    """Mean over rows of the largest positive cumulative regret, divided by the
    iterations (``meeple solve``'s "mean max sampled regret"). The regrets are sampled
    estimates, weighted as the run weighs them (sampled weighting, Linear CFR's discount
    on full games) and not divided by the discounted weight sum: not the average regret,
    not the sum over information sets of R+/T that bounds exploitability, and it moves
    with --batch and --workers. Only with counterfactual weighting and no discount (tiny
    configurations) is it the classic sampled estimate of the average regret."""
    if tables.rows == 0 or iterations == 0:
        return float("nan")
    best = np.zeros(tables.rows)
    np.maximum.at(best, tables.slot_row, np.maximum(tables.regret, 0.0))
    return float(best.mean()) / iterations


def save_npz(path: str | Path, arrays: dict[str, np.ndarray], meta: dict) -> int:
    """Arrays plus a JSON manifest (``meta``) in one .npz, written atomically; its size."""
    buf = io.BytesIO()
    payload = dict(arrays)
    payload["meta"] = np.frombuffer(
        json.dumps({"format": FORMAT, **meta}, allow_nan=False).encode(), np.uint8
    ).copy()
    np.savez_compressed(buf, **payload)  # type: ignore[arg-type]
    data = buf.getvalue()
    atomic_write_bytes(path, data)
    return len(data)


def load_npz(path: str | Path, file: BinaryIO | None = None) -> tuple[dict, dict[str, np.ndarray]]:
    """(manifest, arrays) of a file written by ``save_npz`` (read from ``file``, opened
    from ``path``, when given); TablesError if unreadable."""
    arrays = _read_arrays(path, file)
    raw = arrays.pop("meta", None)
    try:
        meta = json_read.loads(raw.tobytes()) if raw is not None else None
    except ValueError:
        meta = None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise TablesError(f"{path} has no meeple manifest (format {FORMAT})")
    return meta, arrays


def _read_arrays(path: str | Path, file: BinaryIO | None = None) -> dict[str, np.ndarray]:
    """Every array of an .npz file; TablesError, naming the file, for a missing, truncated
    or corrupt one (a cut-off zip, a damaged member) or one that is not an .npz at all."""
    try:
        if file is None:  # a pipe or device named like a table would hang the resume
            with open_regular(path, ANY_SIZE) as f:
                return _read_arrays(path, f)
        z = np.load(file, allow_pickle=False)
        if isinstance(z, np.ndarray):
            raise TablesError(f"{path} is a single .npy array, not an .npz file")
        with z:
            arrays = {k: z[k] for k in z.files}
    except TablesError:
        raise
    except OSError as e:
        raise TablesError(f"{path} is unreadable ({e.strerror or e})") from None
    except (ValueError, EOFError, NotImplementedError, zipfile.BadZipFile, zlib.error) as e:
        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if "pickled" in why:  # np.load's word for a file that is neither .npz nor .npy
            why = "not a zip archive"
        raise TablesError(f"{path} is truncated, corrupt or not an .npz file ({why})") from None
    if not all(isinstance(a, np.ndarray) for a in arrays.values()):
        raise TablesError(f"{path} holds a member that is not a numpy array")
    return arrays
