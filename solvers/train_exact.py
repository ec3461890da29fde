"""``meeple solve`` with an exact solver (``cfr``, ``cfr+``, ``dcfr``): iterations, reports
and the Parquet checkpoint ``<out>.ckpt.parquet`` (key, action, regret: always NaN, avg:
the average policy's normalised probability, as ``efg_cfr.ExactCFR.rows`` gives them;
JSON metadata: the identity of the request and the iteration), written every
``report_every`` iterations and when interrupted. Resuming replays the deterministic
iterations and checks they reproduce the checkpoint (``efg_cfr.ExactCFR.load_rows``); an
iteration count over ``base.MAX_COUNT`` (the most ``--iterations`` accepts) is refused
before the replay, which would not end. A run holds ``<out>.ckpt.parquet.lock``
(``file_lock``) from before it reads the checkpoint until the policy is written: a second
run on the same ``--out`` is refused at once."""

from __future__ import annotations

import gc
import json
import signal
import threading
import time
import traceback
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from solvers import efg_cfr
from solvers.base import MAX_COUNT
from solvers.checkpoint_identity import mismatch as mismatch_line
from solvers.policy_file import write_policy
from solvers.solve_request import (
    CheckpointError,
    ForeignCheckpointError,
    Plan,
    SolveConfig,
    SolveResult,
    checkpoint_path,
    finite,
    identity,
)
from spiel_games.common import json_read
from spiel_games.common.errors import one_line
from spiel_games.common.files import ANY_SIZE, atomic_file, file_lock, open_regular

_CKPT_KEY = b"meeple_checkpoint"


def _write_checkpoint(path: Path, rows, meta: dict) -> None:
    keys, acts, regs, avgs = [], [], [], []
    for k, a, r, s in rows:
        keys.append(k)
        acts.append(int(a))
        regs.append(float(r))
        avgs.append(float(s))
    t = pa.table(
        {
            "key": pa.array(keys, pa.string()),
            "action": pa.array(acts, pa.int64()),
            "regret": pa.array(regs, pa.float64()),
            "avg": pa.array(avgs, pa.float64()),
        }
    ).replace_schema_metadata({_CKPT_KEY: json.dumps(meta, allow_nan=False).encode()})
    with atomic_file(path) as f:  # synced, then renamed: a crash keeps the last checkpoint
        pq.write_table(t, f)


_CKPT_TYPES = {
    "key": pa.types.is_string,
    "action": pa.types.is_integer,
    "regret": pa.types.is_floating,
    "avg": pa.types.is_floating,
}


def _read_checkpoint(path: Path) -> tuple[dict, list]:
    """(metadata, rows) of a checkpoint; CheckpointError for anything unreadable."""
    try:
        with open_regular(path, ANY_SIZE) as f:  # a pipe would hang the read
            t = pq.read_table(f)
    except (OSError, pa.ArrowException) as e:
        raise CheckpointError(
            f"checkpoint {path} is unreadable ({one_line(e)}); delete it to start over"
        ) from None
    try:
        meta = json_read.loads((t.schema.metadata or {})[_CKPT_KEY])
    except (KeyError, ValueError):
        meta = None
    count = meta.get("iteration") if isinstance(meta, dict) else None
    if type(count) is not int or count < 0:  # a boolean or a negative count: hand-edited
        raise CheckpointError(
            f"checkpoint {path} has no valid meeple metadata; delete it to start over"
        )
    if count > MAX_COUNT:  # more than any run makes: its replay (_resume) would never end
        raise CheckpointError(
            f"checkpoint {path}: iteration {count:,} is more than --iterations accepts"
            f" ({MAX_COUNT:,}); delete it to start over"
        )
    for name, ok in _CKPT_TYPES.items():
        if name not in t.column_names or not ok(t.schema.field(name).type):
            raise CheckpointError(
                f"checkpoint {path}: column {name!r} is missing or of the wrong type; "
                "delete it to start over"
            )
    rows = list(
        zip(
            t.column("key").to_pylist(),
            t.column("action").to_pylist(),
            t.column("regret").to_pylist(),
            t.column("avg").to_pylist(),
            strict=True,
        )
    )
    return meta, rows


_STOPS = {getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)}


class _HeldStops:
    """Ctrl-C, SIGTERM and SIGHUP held back while the loop runs (installed once, not per
    iteration: swapping six handlers an iteration cost a third of a small tree's time),
    handled as they would have been at ``check()``, between two iterations, so the
    solver is whole when one stops the run and the checkpoint is saved. Outside the main
    thread (where handlers cannot be set) nothing is held."""

    def __init__(self):
        self.held: list[int] = []
        self.old: dict = {}

    def __enter__(self) -> _HeldStops:
        if threading.current_thread() is threading.main_thread():
            hold = lambda signum, _frame: self.held.append(signum)  # noqa: E731
            self.old = {sig: signal.signal(sig, hold) for sig in _STOPS}
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self.old.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)

    def check(self) -> None:
        """Handle the first stop held since the loop began, as its own handler would."""
        if not self.held:
            return
        signum = self.held[0]
        handler = self.old.get(signum)
        if handler == signal.SIG_IGN:  # ignored before the loop: ignored now
            self.held.clear()
            return
        self.__exit__()
        if callable(handler):
            handler(signum, None)  # KeyboardInterrupt, or the command's own stop
        signal.raise_signal(signum)  # the default action (or a handler set outside Python)


def solve_exact(
    cfg: SolveConfig, plan: Plan, on_iteration, on_report, on_resume=None
) -> SolveResult:
    solver = efg_cfr.ExactCFR(efg_cfr.export_efg(plan.game), cfg.solver)
    ckpt = checkpoint_path(plan.out, cfg.solver)
    ckpt.parent.mkdir(parents=True, exist_ok=True)
    # one run at a time from the checkpoint's reading to the policy's writing (a second
    # copy read a checkpoint the first was replacing, and both wrote its temporary file)
    try:
        with file_lock(ckpt, CheckpointError):
            return _solve_locked(cfg, plan, solver, ckpt, on_iteration, on_report, on_resume)
    except BaseException as e:  # OpenSpiel's solver freed now, not at the interpreter's
        # teardown, where it aborted one refused resume in about eight ("terminate called
        # without an active exception", exit 134): the traceback's frames held it
        traceback.clear_frames(e.__traceback__)
        del solver
        gc.collect()
        raise


def _resume(solver: efg_cfr.ExactCFR, ckpt: Path, request: dict, on_resume) -> int:
    """The iterations done by the checkpoint ``ckpt`` (0 without one), loaded into
    ``solver`` once checked: written for this ``request`` and reproduced by the replay."""
    if not ckpt.exists():
        if on_resume:
            on_resume(0)
        return 0
    meta, rows = _read_checkpoint(ckpt)
    mismatch = [k for k, v in request.items() if meta.get(k) != v]
    if mismatch:
        raise ForeignCheckpointError(mismatch_line(ckpt, mismatch, meta, request))
    start = meta["iteration"]
    try:
        solver.load_rows(rows, start)
    except (KeyError, TypeError, IndexError, ValueError) as e:  # ValueError: not reproduced
        raise CheckpointError(
            f"checkpoint {ckpt} cannot be resumed ({one_line(e)}); delete it to start over"
        ) from None
    if on_resume:
        on_resume(start)
    return start


def _solve_locked(
    cfg: SolveConfig, plan: Plan, solver, ckpt: Path, on_iteration, on_report, on_resume
) -> SolveResult:
    request = identity(cfg, plan)
    start = _resume(solver, ckpt, request, on_resume)

    def save(iteration: int) -> None:
        _write_checkpoint(ckpt, solver.rows(), dict(request, iteration=iteration))

    result = SolveResult(iterations=start, resumed_from=start, out=str(plan.out))

    def report(it: int) -> None:
        value = solver.nash_conv()
        result.reports.append((it, "nash_conv", value))
        result.figures.append({"nash_conv": value})
        if on_report:
            on_report(it, {"nash_conv": value})
        save(it)

    t0 = time.perf_counter()
    it = start
    try:
        with _HeldStops() as stops:  # a stop mid-iteration would save a half-updated solver
            while it < cfg.iterations:
                solver.iterate()
                it += 1
                stops.check()
                if on_iteration:
                    on_iteration(it, cfg.iterations)
                if it % cfg.report_every == 0 or it == cfg.iterations:
                    report(it)
    except KeyboardInterrupt:
        save(it)
        raise
    result.iterations = it
    result.seconds = time.perf_counter() - t0
    if not result.reports or result.reports[-1][0] != it:
        report(it)
    table = solver.policy_table()
    result.policy_keys = len(table)
    last = result.reports[-1]
    meta = {**request, "iterations": it, last[1]: finite(last[2])}
    result.file_bytes = write_policy(plan.out, table, meta)
    return result
