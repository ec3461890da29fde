"""Training driver behind ``meeple solve``: iterations, reports, checkpoints, resume.

    result = solve(SolveConfig("python_coloretto(players=4)", "mccfr-os", 10000, "p.parquet"))

``validate(cfg)`` checks the whole request (solver, counts, game, abstraction, the output
path) before anything runs; ``solve`` calls it first. Without ``out`` the policy goes to
``runs/policies/<game>-<solver>-<8 hex digits of the request>.parquet``.

A checkpoint (``<out>.ckpt.parquet``: key, action, regret, average-strategy sum,
with JSON metadata holding the iteration count and the RNG state) is written every
``report_every`` iterations and when the run is interrupted. Running the same
command again resumes from it; a checkpoint written for another game, solver,
abstraction or seed is refused. The policy file is written at the end.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import spiel_games
from solvers import efg_cfr
from solvers.mccfr import DEFAULT_MAX_KEYS, MCCFR
from solvers.policy_file import NO_ABSTRACTION, canonical_game_string, write_policy
from spiel_games.common.errors import MeepleError, one_line

SOLVERS = ("cfr", "cfr+", "dcfr", "mccfr-es", "mccfr-os")
ES_LEAVES = 32  # most playouts per traversal of windowed mccfr-es on full games
_CKPT_KEY = b"meeple_checkpoint"


class SolveError(MeepleError):
    """A bad solve request (one-line message)."""


class CheckpointError(SolveError):
    """A checkpoint that cannot be resumed: unreadable, or written for another request."""


@dataclass
class SolveConfig:
    game: str
    solver: str
    iterations: int
    out: str | None = None  # None: default_out(...) under runs/policies/
    abstraction: str | None = None  # None: the game's abstraction for MCCFR, `none` for exact
    report_every: int = 100
    seed: int = 0
    max_keys: int = DEFAULT_MAX_KEYS  # MCCFR table bound (keys beyond it are played uniformly)


@dataclass
class SolveResult:
    iterations: int
    resumed_from: int
    reports: list[tuple[int, str, float]] = field(default_factory=list)
    seconds: float = 0.0
    policy_keys: int = 0
    untracked: int = 0  # MCCFR visits to keys beyond --max-keys
    file_bytes: int = 0
    out: str = ""


def checkpoint_path(out: str | Path) -> Path:
    out = Path(out)
    return out.with_name(out.name + ".ckpt.parquet")


def default_out(game_string: str, solver: str, abstraction: str | None, seed: int) -> Path:
    """``runs/policies/<game>-<solver>-<hash>.parquet``: one file per distinct request, so
    a rerun resumes its own checkpoint and never meets another request's."""
    short = game_string.split("(")[0].removeprefix("python_")
    digest = hashlib.sha256(
        json.dumps([game_string, solver, abstraction, seed]).encode()
    ).hexdigest()[:8]
    return Path("runs") / "policies" / f"{short}-{solver}-{digest}.parquet"


def _check_out(out: Path) -> None:
    """Refuse an output path that cannot become a file, before the run starts."""
    for path in (out, checkpoint_path(out)):
        if path.is_dir():
            raise SolveError(f"--out {out}: {path} is a directory; give a file path")
    parent = out.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise SolveError(f"--out {out}: {parent} is not a directory")


@dataclass
class Plan:
    """A validated request: the loaded game and everything derived from the config."""

    game: Any
    out: Path
    abstraction: str
    version: int
    is_exact: bool


def validate(cfg: SolveConfig) -> Plan:
    """Check the whole request before anything runs; SolveError names what is wrong."""
    if cfg.solver not in SOLVERS:
        raise SolveError(f"unknown solver {cfg.solver!r}; valid: {', '.join(SOLVERS)}")
    if cfg.iterations < 1:
        raise SolveError("--iterations must be >= 1")
    if cfg.report_every < 1:
        raise SolveError("--report-every must be >= 1")
    if cfg.max_keys < 1:
        raise SolveError("--max-keys must be >= 1")
    if cfg.seed < 0:
        raise SolveError("--seed must be >= 0")
    game = spiel_games.load_game(cfg.game, any_openspiel=True)
    abstraction, version = _resolve_abstraction(game, cfg)
    is_exact = cfg.solver in efg_cfr.KINDS
    if is_exact and game.num_players() != 2:
        raise SolveError(f"{cfg.solver} needs a 2-player game (use a tiny configuration)")
    out = (
        Path(cfg.out)
        if cfg.out is not None
        else default_out(str(game), cfg.solver, cfg.abstraction, cfg.seed)
    )
    _check_out(out)
    return Plan(game, out, abstraction, version, is_exact)


def _resolve_abstraction(game, cfg: SolveConfig) -> tuple[str, int]:
    name = cfg.abstraction
    try:
        spec = spiel_games.get_spec(game.get_type().short_name)
    except KeyError:
        spec = None
    if cfg.solver in efg_cfr.KINDS:
        if name not in (None, NO_ABSTRACTION):
            raise SolveError(
                f"{cfg.solver} is exact: it uses every information state (abstraction none)"
            )
        return NO_ABSTRACTION, 0
    if name is None:
        name = (
            spec.abstraction_name
            if spec is not None and spec.abstraction is not None
            else NO_ABSTRACTION
        )
    if name == NO_ABSTRACTION:
        return name, 0
    if spec is None or spec.abstraction is None or name != spec.abstraction_name:
        valid = [NO_ABSTRACTION] + (
            [spec.abstraction_name] if spec is not None and spec.abstraction else []
        )
        raise SolveError(f"unknown abstraction {name!r} for this game; valid: {', '.join(valid)}")
    return name, spec.abstraction_version


def exploitability_computable(game) -> bool:
    """True for 2-player games small enough for a full best response: a registered
    game's tiny configurations, or a non-meeple OpenSpiel game (e.g. kuhn_poker)."""
    if game.num_players() != 2:
        return False
    short = game.get_type().short_name
    try:
        spec = spiel_games.get_spec(short)
    except KeyError:
        return True
    here = str(game)
    return any(canonical_game_string(t) == here for t in spec.tiny_configs)


def _rng_state_json(rng: random.Random) -> list:
    v, internal, gauss = rng.getstate()
    return [v, list(internal), gauss]


def _rng_from_json(data) -> tuple:
    return (data[0], tuple(data[1]), data[2])


def _finite(value: Any) -> Any:
    """JSON-safe metadata: a non-finite metric is stored as null, never as NaN."""
    return value if not isinstance(value, float) or math.isfinite(value) else None


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
    tmp = path.with_name(path.name + ".tmp")
    try:
        pq.write_table(t, tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


_CKPT_TYPES = {
    "key": pa.types.is_string,
    "action": pa.types.is_integer,
    "regret": pa.types.is_floating,
    "avg": pa.types.is_floating,
}


def _read_checkpoint(path: Path) -> tuple[dict, list]:
    """(metadata, rows) of a checkpoint; CheckpointError for anything unreadable."""
    try:
        t = pq.read_table(path)
    except (OSError, pa.ArrowException) as e:
        raise CheckpointError(
            f"checkpoint {path} is unreadable ({one_line(e)}); delete it to start over"
        ) from None
    try:
        meta = json.loads((t.schema.metadata or {})[_CKPT_KEY])
    except (KeyError, ValueError):
        meta = None
    if not isinstance(meta, dict) or not isinstance(meta.get("iteration"), int):
        raise CheckpointError(
            f"checkpoint {path} has no valid meeple metadata; delete it to start over"
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


def solve(
    cfg: SolveConfig,
    on_iteration: Callable[[int, int], None] | None = None,
    on_report: Callable[[int, str, float], None] | None = None,
) -> SolveResult:
    plan = validate(cfg)
    game, abstraction, version, is_exact = plan.game, plan.abstraction, plan.version, plan.is_exact
    game_string = str(game)
    computable = is_exact or exploitability_computable(game)

    identity = {
        "game": game_string,
        "solver": cfg.solver,
        "abstraction": abstraction,
        "abstraction_version": version,
        "seed": cfg.seed,
    }
    solver: Any  # efg_cfr.ExactCFR (exact) or MCCFR
    rng: random.Random | None = None
    if is_exact:
        solver = efg_cfr.ExactCFR(efg_cfr.export_efg(game), cfg.solver)
        rows_fn = solver.rows
    else:
        # Plain external sampling where exploitability is computable (small games);
        # windowed external sampling on full games (see solvers/mccfr.py).
        leaves = 0 if computable else ES_LEAVES
        solver = MCCFR(
            game,
            "es" if cfg.solver == "mccfr-es" else "os",
            abstraction,
            seed=cfg.seed,
            es_leaves=leaves,
            max_keys=cfg.max_keys,
        )
        rows_fn = solver.rows
        rng = solver.rng

    ckpt = checkpoint_path(plan.out)
    ckpt.parent.mkdir(parents=True, exist_ok=True)
    start = 0
    if ckpt.exists():
        meta, rows = _read_checkpoint(ckpt)
        mismatch = [k for k, v in identity.items() if meta.get(k) != v]
        if mismatch:
            raise CheckpointError(
                f"checkpoint {ckpt} was written for a different {', '.join(mismatch)}; "
                "delete it or choose another --out"
            )
        start = meta["iteration"]
        try:
            if is_exact:
                solver.load_rows(rows, start)
            else:
                solver.load_rows(rows)
                solver.iterations = start
                assert rng is not None
                rng.setstate(_rng_from_json(meta["rng"]))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise CheckpointError(
                f"checkpoint {ckpt} cannot be resumed ({one_line(e)}); delete it to start over"
            ) from None

    eval_export = None

    def metric() -> tuple[str, float]:
        nonlocal eval_export
        if is_exact:
            return "nash_conv", solver.nash_conv()
        if computable:
            # MCCFR keys may be an abstraction: the export records each information
            # set's abstraction key, and OpenSpiel's nash_conv runs on the EFG game.
            if eval_export is None:
                eval_export = efg_cfr.export_efg(game, key_fn=solver.key)
            return "nash_conv", efg_cfr.nash_conv(
                eval_export, solver.average_policy_table(), alt_keys=True
            )
        return "average_regret", solver.average_regret()

    def save(iteration: int) -> None:
        meta = dict(identity, iteration=iteration)
        if rng is not None:
            meta["rng"] = _rng_state_json(rng)
        _write_checkpoint(ckpt, rows_fn(), meta)

    result = SolveResult(iterations=start, resumed_from=start, out=str(plan.out))
    t0 = time.perf_counter()
    it = start
    try:
        while it < cfg.iterations:
            if is_exact:
                solver.iterate()
            else:
                solver.iteration()
            it += 1
            if on_iteration:
                on_iteration(it, cfg.iterations)
            if it % cfg.report_every == 0 or it == cfg.iterations:
                name, value = metric()
                result.reports.append((it, name, value))
                if on_report:
                    on_report(it, name, value)
                save(it)
    except KeyboardInterrupt:
        save(it)
        raise
    result.iterations = it
    result.seconds = time.perf_counter() - t0
    if not result.reports or result.reports[-1][0] != it:
        name, value = metric()
        result.reports.append((it, name, value))
        save(it)
    if is_exact:
        table = solver.policy_table()
        result.policy_keys = len(table)
        rows = table
    else:
        result.policy_keys = solver.policy_size()
        rows = solver.average_policy_rows()
    result.untracked = 0 if is_exact else solver.untracked
    last = result.reports[-1]
    result.file_bytes = write_policy(
        plan.out,
        rows,
        {
            **identity,
            "iterations": it,
            last[1]: _finite(last[2]),
        },
    )
    return result
