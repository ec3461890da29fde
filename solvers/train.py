"""Training driver behind ``meeple solve``: iterations, reports, checkpoints, resume.

    result = solve(SolveConfig("python_coloretto(players=3)", "mccfr-os", 10000, "b.npz"))

``validate(cfg)`` checks the whole request (solver, counts, game, abstraction, the output
path, workers) before anything runs; ``solve`` calls it first. The output's suffix picks
its format: ``.npz`` (in any case: ``.NPZ`` too) a blueprint (``solvers.blueprint``, MCCFR
only), anything else a Parquet policy file (``solvers.policy_file``). Without ``out`` the result goes to
``runs/policies/<game>-<solver>-<8 hex digits of the request>.parquet``.

Exact solvers (``cfr``, ``cfr+``, ``dcfr``) checkpoint to ``<out>.ckpt.parquet`` (key,
action, regret (always NaN), the average policy's probability, with JSON metadata) every
``report_every`` iterations and when interrupted. MCCFR (``mccfr-es``, ``mccfr-os``) trains in rounds of
batches, serially or on Ray workers, and checkpoints to the directory ``<out>.ckpt/``
after every round (``solvers.mccfr_train``). Running the same command again resumes;
a checkpoint written for another game, solver, abstraction or seed is refused.

Reports: ``nash_conv`` where exploitability is computable (exact solvers; 2-player tiny
configurations, and non-meeple OpenSpiel games of any number of players, whose tree must
fit the export's bound);
for MCCFR it is the policy as ``policy(path=FILE,fallback=random)`` plays it (through
the abstraction's labels; uniform where the table has nothing, which the default
heuristic fallback plays otherwise: ``policy_file.to_openspiel_policy``). On full games
the blueprint's share of finishes ahead of the heuristic on fixed deals (``ahead``; no
deals on a game without a heuristic), its coverage, the table's keys and mean visits
per key, and ``avg_regret``.
"""

from __future__ import annotations

from collections.abc import Callable

from solvers import efg_cfr, mccfr_train
from solvers.blueprint import blueprint_arrays, blueprint_meta, from_arrays, save_blueprint
from solvers.blueprint_eval import evaluate
from solvers.mccfr import DEFAULT_MAX_KEYS
from solvers.mccfr_tables import Tables, average_policy_table, positive_regret_mean
from solvers.policy_file import (
    PolicyFileError,
    key_function,
    label_function,
    read_meta,
    table_rows,
    write_policy,
)
from solvers.solve_request import (
    SOLVERS,
    CheckpointError,
    ForeignCheckpointError,
    NotTinyError,
    Plan,
    SolveConfig,
    SolveError,
    SolveResult,
    checkpoint_path,
    default_out,
    exploitability_computable,
    finite,
    has_heuristic,
    validate,
    writes_blueprint,
)
from solvers.train_exact import solve_exact
from spiel_games.common.files import run_lock

__all__ = [
    "SOLVERS",
    "CheckpointError",
    "NotTinyError",
    "SolveConfig",
    "SolveError",
    "SolveResult",
    "checkpoint_path",
    "default_out",
    "solve",
    "validate",
]

ES_LEAVES = 32  # most playouts per traversal of windowed mccfr-es on full games
# iterations per batch on full games (one per batch where exact); measured on Bruxelles at 2
# workers, serial CPU / the distributed run's CPU was 0.85 at 32 and 0.95 at 64
FULL_BATCH = 64
FULL_EPSILON = 0.3  # exploration of the outcome-sampling traverser on full games (0.6 where exact)
EVAL_DEALS = 4  # deals of the progress figure on full games (each played from every seat)


Reporter = Callable[[int, dict[str, float]], None]


def solve(
    cfg: SolveConfig,
    on_iteration: Callable[[int, int], None] | None = None,
    on_report: Reporter | None = None,
    on_resume: Callable[[int], None] | None = None,
) -> SolveResult:
    """Run the request; ``on_report(iteration, figures)`` after every report,
    ``on_resume(iterations)`` once a checkpoint has been accepted and loaded, or with 0
    when there is none, before the first iteration (never for a refused checkpoint)."""
    plan = validate(cfg)
    try:
        if plan.is_exact:  # locks its checkpoint file (file_lock)
            return solve_exact(cfg, plan, on_iteration, on_report, on_resume)
        with run_lock(checkpoint_path(plan.out, cfg.solver), CheckpointError):
            return _solve_mccfr(cfg, plan, on_iteration, on_report, on_resume)
    except mccfr_train.ForeignCheckpointError as e:
        raise ForeignCheckpointError(str(e)) from None
    except mccfr_train.CheckpointError as e:
        raise CheckpointError(str(e)) from None
    except efg_cfr.TreeTooLarge as e:  # over the bound, though validate's estimate was not
        raise NotTinyError.of(cfg, plan.game, e.max_nodes) from None


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
        workers=cfg.workers,
        max_keys=cfg.max_keys if cfg.max_keys is not None else DEFAULT_MAX_KEYS,
        linear=not exact if cfg.linear is None else cfg.linear,
        model_share=cfg.rnr,
    )


def _solve_mccfr(cfg: SolveConfig, plan: Plan, on_iteration, on_report, on_resume) -> SolveResult:
    game = plan.game
    spec = train_spec(cfg, plan)
    journal = mccfr_train.Journal(checkpoint_path(plan.out, cfg.solver), spec)
    tables, done, rounds = journal.load()
    if on_resume:
        on_resume(done)
    result = SolveResult(iterations=done, resumed_from=done, out=str(plan.out))
    exact = exploitability_computable(game)
    default_deals = 0 if exact or not has_heuristic(game) else EVAL_DEALS
    deals = cfg.eval_deals if cfg.eval_deals is not None else default_deals
    export = _nash_conv_export(game, plan.abstraction, exact)
    min_visits = cfg.min_visits or 1
    # what each point of the learning curve measured (runs resumed with other values mix)
    how: dict = {"eval_deals": deals} if deals else {}
    if deals and writes_blueprint(plan.out):
        how["min_visits"] = min_visits

    def report(t: Tables, progress: mccfr_train.Progress) -> dict:
        figures: dict[str, float] = {}
        if export is not None:
            figures["nash_conv"] = efg_cfr.nash_conv(export, average_policy_table(t), alt_keys=True)
        if deals and t.rows:
            bp = from_arrays(game, blueprint_arrays(t, min_visits), _meta(plan, spec, 0))
            ev = evaluate(game, bp, deals)
            for k in ("ahead", "ahead_low", "ahead_high", "coverage"):
                figures[k] = ev[k]
        figures["keys"] = float(t.rows)
        figures["visits_per_key"] = float(t.visits.sum()) / max(1, t.rows)
        figures["avg_regret"] = positive_regret_mean(t, progress.iterations)
        name = "nash_conv" if "nash_conv" in figures else "ahead" if deals else "avg_regret"
        result.reports.append((progress.iterations, name, figures[name]))
        result.figures.append(figures)
        if on_report:
            on_report(progress.iterations, figures)
        return {
            "iteration": progress.iterations,
            **{k: finite(v) for k, v in figures.items()},
            **how,
        }

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
            cfg.report_every,
            report,
            on_iteration,
        )
    finally:
        executor.close()
    if progress.iterations == done and _holds_more(plan.out, done, min_visits):
        result.kept = True  # (was: rewritten from the checkpoint, its short last round lost)
        return result
    if not result.reports or result.reports[-1][0] != progress.iterations:
        report(tables, progress)
    result.iterations = progress.iterations
    result.seconds = progress.seconds
    result.cpu_seconds = progress.cpu_seconds
    result.untracked = tables.untracked
    meta = _meta(plan, spec, progress.iterations)
    meta.update({k: finite(v) for k, v in result.figures[-1].items()})
    # every run's training (evaluations excluded), and the driver process's CPU time
    meta["train_seconds"] = round(journal.earlier[0] + progress.seconds, 1)
    meta["train_cpu_seconds"] = round(journal.earlier[1] + progress.cpu_seconds, 1)
    meta["min_visits"] = min_visits
    meta["reports"] = _curve(journal.reports, result, how)
    _write(plan.out, tables, min_visits, meta, result)
    return result


def _holds_more(out, done: int, min_visits: int) -> bool:
    """Whether ``out`` holds more than the checkpoint's ``done`` iterations (a finished
    run's short last round, which the checkpoint does not keep) with the same
    ``min_visits``: a rerun that trains nothing leaves such a file alone; any other (a
    stale one, another threshold asked) is written from the checkpoint."""
    try:
        meta = blueprint_meta(out) if writes_blueprint(out) else read_meta(out)
    except PolicyFileError:
        return False
    iterations = meta.get("iterations")
    same = meta.get("min_visits", 1) == min_visits
    return isinstance(iterations, int) and iterations > done and same


def _curve(earlier: list[dict], result: SolveResult, how: dict) -> list[dict]:
    """The learning curve, earlier runs first; a rerun's report at an iteration replaces
    the earlier one there (was: listed twice). ``how``: what each point was measured with."""
    mine = [
        {"iteration": it, **{k: finite(v) for k, v in f.items()}, **how}
        for (it, _, _), f in zip(result.reports, result.figures, strict=True)
    ]
    again = {r["iteration"] for r in mine}
    return [r for r in earlier if r.get("iteration") not in again] + mine


def _write(out, tables: Tables, min_visits: int, meta: dict, result: SolveResult) -> None:
    """The blueprint (``.npz``) or Parquet policy file of ``tables``; an empty blueprint
    (``min_visits`` kept no key) is never written over an existing file."""
    if writes_blueprint(out):
        arrays = blueprint_arrays(tables, min_visits)
        result.policy_keys = int(arrays["rows_count"][0])
        if not result.policy_keys and tables.rows and out.exists():
            raise SolveError(
                f"--min-visits {min_visits:,} keeps none of the {tables.rows:,} keys (the most "
                f"visited was met {int(tables.visits.max()):,} times): an empty blueprint is "
                f"not written over {out}; rerun with a lower --min-visits (the checkpoint "
                "resumes)"
            )
        result.file_bytes = save_blueprint(out, arrays, meta)
    else:
        table = average_policy_table(tables)
        result.policy_keys = len(table)
        result.file_bytes = write_policy(out, table_rows(table), meta)


def _nash_conv_export(game, abstraction: str, exact: bool) -> efg_cfr.EFGExport | None:
    """The EFG export ``nash_conv`` is reported on where exploitability is computable (a
    registered game's 2-player tiny configurations, non-meeple OpenSpiel games of any
    number of players); None elsewhere, where the figures are ``ahead`` (against the
    heuristic) or ``avg_regret``. It records the abstraction's keys and labels, so the
    figure is that of the policy as the ``policy`` agent plays it."""
    if not exact:
        return None
    key_fn, labels_fn = key_function(game, abstraction), label_function(game, abstraction)
    return efg_cfr.export_efg(game, key_fn=key_fn, labels_fn=labels_fn)


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
        "linear": spec.linear,
        "algorithm": spec.algorithm,
        "rnr": spec.model_share,
    }


def _executor(spec: mccfr_train.TrainSpec, cfg: SolveConfig):
    if cfg.workers > 1 or cfg.address:
        return mccfr_train.RayExecutor(spec, cfg.address)
    return mccfr_train.SerialExecutor(spec)
