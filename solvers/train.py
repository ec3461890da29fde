"""Training driver behind ``meeple solve``: iterations, reports, checkpoints, resume.

    result = solve(SolveConfig("python_coloretto(players=3)", "mccfr-os", 10000, "b.npz"))

``validate(cfg)`` checks the whole request (solver, counts, game, abstraction, the output
path, workers) before anything runs; ``solve`` calls it first. The output's suffix picks
its format: ``.npz`` a blueprint (``solvers.blueprint``, MCCFR only), anything else a
Parquet policy file (``solvers.policy_file``). Without ``out`` the result goes to
``runs/policies/<game>-<solver>-<8 hex digits of the request>.parquet``.

Exact solvers (``cfr``, ``cfr+``, ``dcfr``) checkpoint to ``<out>.ckpt.parquet`` (key,
action, regret, average-strategy sum, with JSON metadata) every ``report_every``
iterations and when interrupted. MCCFR (``mccfr-es``, ``mccfr-os``) trains in rounds of
batches, serially or on Ray workers, and checkpoints to the directory ``<out>.ckpt/``
after every round (``solvers.mccfr_train``). Running the same command again resumes;
a checkpoint written for another game, solver, abstraction or seed is refused.

Reports: ``nash_conv`` where exploitability is computable (exact solvers; 2-player tiny
configurations and OpenSpiel reference games); on full games the blueprint's share of
finishes ahead of the heuristic on fixed deals (``ahead``), its coverage, the table's
keys and mean visits per key, and ``avg_regret``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import spiel_games
from solvers import efg_cfr, mccfr_train
from solvers.blueprint import blueprint_arrays, from_arrays, save_blueprint
from solvers.blueprint_eval import evaluate
from solvers.mccfr import DEFAULT_MAX_KEYS, average_policy_table, positive_regret_mean
from solvers.mccfr_tables import Tables
from solvers.policy_file import NO_ABSTRACTION, canonical_game_string, table_rows, write_policy
from spiel_games.common.errors import MeepleError, one_line

SOLVERS = ("cfr", "cfr+", "dcfr", "mccfr-es", "mccfr-os")
ES_LEAVES = 32  # most playouts per traversal of windowed mccfr-es on full games
FULL_BATCH = 32  # iterations per batch on full games (one per batch where exact)
FULL_EPSILON = 0.3  # exploration of the outcome-sampling traverser on full games (0.6 where exact)
EVAL_DEALS = 4  # deals of the progress figure on full games (each played from every seat)
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
    workers: int = 1  # MCCFR batches per round, each on its own Ray worker when > 1
    address: str | None = None  # a Ray cluster (None: a local session when workers > 1)
    batch: int | None = None  # MCCFR iterations per batch (None: 1 where exact, else 32)
    eval_deals: int | None = None  # deals of the progress figure (None: 4 on full games)
    min_visits: int = 1  # a blueprint keeps the keys met at least this often
    weighting: str | None = None  # MCCFR-OS: None = counterfactual where exact, else sampled
    baselines: bool | None = None  # MCCFR-OS VR baselines: None = off where exact, else on
    epsilon: float | None = None  # MCCFR-OS exploration: None = 0.6 where exact, else FULL_EPSILON
    linear: bool | None = None  # Linear CFR discounting: None = off where exact, else on


@dataclass
class SolveResult:
    iterations: int
    resumed_from: int
    reports: list[tuple[int, str, float]] = field(default_factory=list)  # headline figure
    figures: list[dict[str, float]] = field(default_factory=list)  # every figure per report
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time training (MCCFR; Ray workers apart)
    policy_keys: int = 0
    untracked: int = 0  # MCCFR visits to keys beyond --max-keys
    file_bytes: int = 0
    out: str = ""


def checkpoint_path(out: str | Path, solver: str = "cfr") -> Path:
    """Exact solvers: ``<out>.ckpt.parquet``; MCCFR: the directory ``<out>.ckpt``."""
    out = Path(out)
    if solver.startswith("mccfr"):
        return out.with_name(out.name + ".ckpt")
    return out.with_name(out.name + ".ckpt.parquet")


def default_out(game_string: str, solver: str, abstraction: str | None, seed: int) -> Path:
    """``runs/policies/<game>-<solver>-<hash>.parquet``: one file per distinct request, so
    a rerun resumes its own checkpoint and never meets another request's."""
    short = game_string.split("(")[0].removeprefix("python_")
    digest = hashlib.sha256(
        json.dumps([game_string, solver, abstraction, seed]).encode()
    ).hexdigest()[:8]
    return Path("runs") / "policies" / f"{short}-{solver}-{digest}.parquet"


def _check_out(out: Path, solver: str) -> None:
    """Refuse an output path that cannot become a file, before the run starts."""
    if out.is_dir():
        raise SolveError(f"--out {out}: {out} is a directory; give a file path")
    ckpt = checkpoint_path(out, solver)
    if ckpt.exists() and ckpt.is_dir() != solver.startswith("mccfr"):
        raise SolveError(f"--out {out}: {ckpt} is in the way of the checkpoint")
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
    for name, value in (("--workers", cfg.workers), ("--batch", cfg.batch)):
        if value is not None and value < 1:
            raise SolveError(f"{name} must be >= 1")
    if cfg.eval_deals is not None and cfg.eval_deals < 0:
        raise SolveError("--eval-deals must be >= 0")
    if cfg.min_visits < 1:
        raise SolveError("--min-visits must be >= 1")
    game = spiel_games.load_game(cfg.game, any_openspiel=True)
    abstraction, version = _resolve_abstraction(game, cfg)
    is_exact = cfg.solver in efg_cfr.KINDS
    if is_exact and game.num_players() != 2:
        raise SolveError(f"{cfg.solver} needs a 2-player game (use a tiny configuration)")
    if is_exact and (cfg.workers > 1 or cfg.address):
        raise SolveError(f"{cfg.solver} runs in one process (--workers and --address are MCCFR's)")
    out = (
        Path(cfg.out)
        if cfg.out is not None
        else default_out(str(game), cfg.solver, cfg.abstraction, cfg.seed)
    )
    if out.suffix == ".npz" and is_exact:
        raise SolveError(f"--out {out}: blueprints (.npz) come from MCCFR; use a .parquet file")
    _check_out(out, cfg.solver)
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


Reporter = Callable[[int, dict[str, float]], None]


def solve(
    cfg: SolveConfig,
    on_iteration: Callable[[int, int], None] | None = None,
    on_report: Reporter | None = None,
) -> SolveResult:
    """Run the request; ``on_report(iteration, figures)`` after every report."""
    plan = validate(cfg)
    if plan.is_exact:
        return _solve_exact(cfg, plan, on_iteration, on_report)
    try:
        return _solve_mccfr(cfg, plan, on_iteration, on_report)
    except mccfr_train.CheckpointError as e:
        raise CheckpointError(str(e)) from None


def _identity(cfg: SolveConfig, plan: Plan) -> dict:
    return {
        "game": str(plan.game),
        "solver": cfg.solver,
        "abstraction": plan.abstraction,
        "abstraction_version": plan.version,
        "seed": cfg.seed,
    }


def _solve_exact(cfg: SolveConfig, plan: Plan, on_iteration, on_report) -> SolveResult:
    game = plan.game
    identity = _identity(cfg, plan)
    solver = efg_cfr.ExactCFR(efg_cfr.export_efg(game), cfg.solver)
    ckpt = checkpoint_path(plan.out, cfg.solver)
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
            solver.load_rows(rows, start)
        except (KeyError, TypeError, IndexError) as e:
            raise CheckpointError(
                f"checkpoint {ckpt} cannot be resumed ({one_line(e)}); delete it to start over"
            ) from None

    def save(iteration: int) -> None:
        _write_checkpoint(ckpt, solver.rows(), dict(identity, iteration=iteration))

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
        while it < cfg.iterations:
            solver.iterate()
            it += 1
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
    meta = {**identity, "iterations": it, last[1]: _finite(last[2])}
    result.file_bytes = write_policy(plan.out, table, meta)
    return result


def train_spec(cfg: SolveConfig, plan: Plan) -> mccfr_train.TrainSpec:
    """The sampled computation of an MCCFR request (defaults depend on the game's size)."""
    exact = exploitability_computable(plan.game)
    return mccfr_train.TrainSpec(
        game=str(plan.game),
        variant="es" if cfg.solver == "mccfr-es" else "os",
        abstraction=plan.abstraction,
        abstraction_version=plan.version,
        seed=cfg.seed,
        epsilon=cfg.epsilon if cfg.epsilon is not None else 0.6 if exact else FULL_EPSILON,
        weighting=cfg.weighting or ("counterfactual" if exact else "sampled"),
        baselines=(not exact) if cfg.baselines is None else cfg.baselines,
        # plain external sampling where exploitability is computable, windowed elsewhere
        es_leaves=0 if exact or cfg.solver == "mccfr-os" else ES_LEAVES,
        batch=cfg.batch or (1 if exact else FULL_BATCH),
        max_keys=cfg.max_keys,
        linear=not exact if cfg.linear is None else cfg.linear,
    )


def _solve_mccfr(cfg: SolveConfig, plan: Plan, on_iteration, on_report) -> SolveResult:
    game = plan.game
    spec = train_spec(cfg, plan)
    journal = mccfr_train.Journal(checkpoint_path(plan.out, cfg.solver), spec)
    tables, done, rounds = journal.load()
    result = SolveResult(iterations=done, resumed_from=done, out=str(plan.out))
    exact = exploitability_computable(game)
    deals = cfg.eval_deals if cfg.eval_deals is not None else (0 if exact else EVAL_DEALS)
    key_fn = spec.traversals().key
    export = efg_cfr.export_efg(game, key_fn=key_fn) if exact else None

    def report(t: Tables, progress: mccfr_train.Progress) -> dict:
        figures: dict[str, float] = {}
        if export is not None:
            figures["nash_conv"] = efg_cfr.nash_conv(
                export, average_policy_table(t), alt_keys=True
            )
        if deals and t.rows:
            bp = from_arrays(game, blueprint_arrays(t, cfg.min_visits), _meta(plan, spec, 0))
            ev = evaluate(game, bp, deals)
            figures["ahead"], figures["coverage"] = ev["ahead"], ev["coverage"]
        figures["keys"] = float(t.rows)
        figures["visits_per_key"] = float(t.visits.sum()) / max(1, t.rows)
        figures["avg_regret"] = positive_regret_mean(t, progress.iterations)
        name = "nash_conv" if "nash_conv" in figures else "ahead" if deals else "avg_regret"
        result.reports.append((progress.iterations, name, figures[name]))
        result.figures.append(figures)
        if on_report:
            on_report(progress.iterations, figures)
        return {"iteration": progress.iterations, **{k: _finite(v) for k, v in figures.items()}}

    executor = _executor(spec, cfg)
    try:
        progress = mccfr_train.train(
            spec,
            cfg.iterations,
            tables,
            done,
            rounds,
            journal,
            executor,
            cfg.workers,
            cfg.report_every,
            report,
            on_iteration,
        )
    finally:
        executor.close()
    if not result.reports or result.reports[-1][0] != progress.iterations:
        report(tables, progress)
    result.iterations = progress.iterations
    result.seconds = progress.seconds
    result.cpu_seconds = progress.cpu_seconds
    result.untracked = tables.untracked
    meta = _meta(plan, spec, progress.iterations)
    meta.update({k: _finite(v) for k, v in result.figures[-1].items()})
    meta["train_seconds"] = round(progress.seconds, 1)  # this run's, evaluations excluded
    meta["train_cpu_seconds"] = round(progress.cpu_seconds, 1)  # this process's CPU time
    if plan.out.suffix == ".npz":
        arrays = blueprint_arrays(tables, cfg.min_visits)
        result.policy_keys = int(arrays["rows_count"][0])
        result.file_bytes = save_blueprint(plan.out, arrays, meta)
    else:
        table = average_policy_table(tables)
        result.policy_keys = len(table)
        result.file_bytes = write_policy(plan.out, table_rows(table), meta)
    return result


def _meta(plan: Plan, spec: mccfr_train.TrainSpec, iterations: int) -> dict:
    return {
        "game": spec.game,
        "solver": f"mccfr-{spec.variant}",
        "abstraction": plan.abstraction,
        "abstraction_version": plan.version,
        "seed": spec.seed,
        "iterations": iterations,
        "weighting": spec.weighting,
        "baselines": spec.baselines,
        "epsilon": spec.epsilon,
    }


def _executor(spec: mccfr_train.TrainSpec, cfg: SolveConfig):
    if cfg.workers > 1 or cfg.address:
        return mccfr_train.RayExecutor(spec, cfg.workers, cfg.address)
    return mccfr_train.SerialExecutor(spec)
