"""`meeple solve` (CFR family)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from tournament.cli.common import (
    FAILED,
    USAGE,
    domain_errors,
    fail,
    refuse_inside_ledger,
    stdout_console,
    workers_option,
)
from tournament.cli.stdout import own_stdout, stdout_closed
from tournament.signals import stop_signals, stop_words

_Solver = Annotated[
    str, typer.Option(help="cfr, cfr+, dcfr (exact, 2-player tiny games), mccfr-es or mccfr-os")
]
_Iterations = Annotated[
    int,
    typer.Option(
        help="Total iterations, at most 10^9 (a resumed run counts those done; MCCFR "
        "checkpoints whole rounds only, so a larger N later gives exactly an uninterrupted "
        "run of N)"
    ),
]
_Out = Annotated[
    str | None,
    typer.Option(
        "--out",
        "-o",
        help="File to write: FILE.npz (any case) a blueprint (MCCFR), else a Parquet policy "
        "file; default runs/policies/<game>-<solver>-<hash>.parquet",
    ),
]
_Abstraction = Annotated[
    str | None,
    typer.Option(help="Information abstraction for MCCFR: the game's (default) or 'none'"),
]
_ReportEvery = Annotated[
    int, typer.Option(help="Report the metric and write a checkpoint every K iterations")
]
_Seed = Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the solver's sampling")]
_MaxKeys = Annotated[
    int | None,
    typer.Option(
        min=1,
        show_default=False,
        help="MCCFR table bound (default 2,000,000); keys met once it is full are played "
        "uniformly. A resumed run may raise it, never set it below the checkpoint's keys",
    ),
]
_Workers = Annotated[int, workers_option("MCCFR: batches per round, each on a Ray worker if > 1")]
_Address = Annotated[str | None, typer.Option("--address", help="MCCFR: a Ray cluster address")]
_Batch = Annotated[
    int | None,
    typer.Option(min=1, help="MCCFR iterations per batch (default 1 on tiny games, else 64)"),
]
_EvalDeals = Annotated[
    int | None,
    typer.Option(
        min=0,
        help="MCCFR on full games: deals (each from every seat) of the progress figure "
        "against the heuristic; 0 = none (default 4; 0 on a game without a heuristic)",
    ),
]
_Rnr = Annotated[
    float,
    typer.Option(
        help="MCCFR: restricted Nash response; in each traversal every other seat plays the "
        "game's heuristic with this probability, the learned strategy otherwise (0 = self-play)",
    ),
]
_MinVisits = Annotated[
    int | None,
    typer.Option(
        min=1,
        show_default=False,
        help="A blueprint (.npz) keeps the keys met at least this often (default 1); an "
        "empty one is never written over an existing file",
    ),
]


def solve(
    game: Annotated[str, typer.Argument(help="Game string, e.g. 'python_coloretto(players=4)'")],
    solver: _Solver = "mccfr-os",
    iterations: _Iterations = 1000,
    out: _Out = None,
    abstraction: _Abstraction = None,
    report_every: _ReportEvery = 100,
    seed: _Seed = 0,
    max_keys: _MaxKeys = None,
    workers: _Workers = 1,
    address: _Address = None,
    batch: _Batch = None,
    eval_deals: _EvalDeals = None,
    min_visits: _MinVisits = None,
    rnr: _Rnr = 0.0,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            help="No progress bar (shown only on a terminal: stdout, else stderr), and none "
            "of Ray's own messages",
        ),
    ] = False,
) -> None:
    """Train a policy with CFR, CFR+, DCFR or MCCFR; checkpoints let an interrupted run resume.

    MCCFR on a full game writes a blueprint when --out ends in .npz (play it with
    blueprint(path=FILE)); --workers N runs N batches per round on Ray (a local session, or
    the cluster at --address) with the same result as one process."""
    from solvers.train import SolveConfig, checkpoint_path, validate  # deferred: fast --help

    cfg = SolveConfig(
        game=game,
        solver=solver,
        iterations=iterations,
        out=out,
        abstraction=abstraction,
        report_every=report_every,
        seed=seed,
        max_keys=max_keys,
        workers=workers,
        address=address,
        batch=batch,
        eval_deals=eval_deals,
        min_visits=min_visits,
        rnr=rnr,
    )
    with domain_errors(USAGE):  # the whole request, before anything runs
        plan = validate(cfg)
    if address:
        from tournament.cluster import check_address  # deferred: fast --help

        with domain_errors(FAILED):  # an unreachable cluster fails now, not in ray.init
            check_address(address)
    refuse_inside_ledger("--out", plan.out)  # the checkpoint goes beside it
    cfg.out = str(plan.out)
    ckpt = checkpoint_path(plan.out, solver)
    from solvers.solve_header import header  # deferred: fast --help

    # on Ray Ray's own prints go to stderr (--quiet: nowhere); stdout keeps what is ours
    with own_stdout(quiet) as stdout:
        progress = _SolveProgress(solver, quiet, ckpt, stdout, header(cfg, plan))
        result = _run_solve(cfg, ckpt, progress)
        progress.head()  # (printed already, unless the run had nothing to do)
        _report_solve(cfg, result, stdout)


def _report_solve(cfg, result, out: TextIO) -> None:
    """What `meeple solve` wrote, with the last report's figure."""
    if result.kept:  # was: rewritten from the checkpoint, a finished run's last round lost
        kept = f"the checkpoint's {result.resumed_from:,}: nothing was trained; {cfg.out}"
        return typer.echo(
            f"note: --iterations {cfg.iterations:,} asks no more than {kept} left as it was",
            file=out,
        )
    path, rnr, last = cfg.out, cfg.rnr, result.reports[-1]
    if result.resumed_from > cfg.iterations:  # was: nothing said of it
        done = f"the checkpoint's {result.resumed_from:,}: nothing was trained, the file holds it"
        typer.echo(f"note: --iterations {cfg.iterations:,} is below {done}", file=out)
    if result.untracked:
        typer.echo(
            f"note: {result.untracked} visits to keys beyond --max-keys were not learned", file=out
        )
    learned = int(result.figures[-1].get("keys", 0))
    if cfg.min_visits and result.policy_keys < learned:
        kept = f"{result.policy_keys:,} of the {learned:,} keys"
        typer.echo(f"note: --min-visits {cfg.min_visits:,} kept {kept}", file=out)
        if not result.policy_keys:
            typer.echo(
                f"warning: {path} is an empty blueprint (--min-visits {cfg.min_visits:,} "
                "kept no key): it plays uniformly everywhere; rerun with a lower --min-visits",
                err=True,
            )
    ahead = _interval(result.figures[-1]) if last[1] == "ahead" else ""
    typer.echo(
        f"wrote {path}: {result.policy_keys} keys, {result.file_bytes} bytes, "
        f"{result.iterations} iterations ({result.iterations - result.resumed_from} this run); "
        f"{_figure(last[1], last[2])}{ahead}"
        + (f"; a restricted Nash response (--rnr {rnr:g}), not an equilibrium" if rnr else ""),
        file=out,
    )


class _SolveProgress:
    """The progress bar (none with --quiet) and the report lines of `meeple solve`; the
    lines go to ``out`` (``own_stdout``'s stream), one line each whatever its width. The
    bar shows only on a terminal: on stdout when that is one (the lines printed above it),
    else on stderr when that is one; a stdout redirected to a file gets the lines alone.
    The header is printed once a checkpoint is accepted (or there is none): a refused one
    leaves the error line alone."""

    def __init__(self, solver: str, quiet: bool, ckpt: Path, out: TextIO, header: str):
        self.header: str | None = header
        self.solver = solver
        self.ckpt = ckpt
        self.out = out
        self.task: Any = None  # rich's TaskID once the bar shows
        self.bar: Any = None
        self.lines_on_bar = False  # the lines go through the bar's console (both on stdout)
        console = None if quiet else _bar_console(out)
        if console is not None:
            from rich.progress import (  # deferred: fast --help
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.lines_on_bar = console.file is out
            self.bar = Progress(
                TextColumn(f"{solver}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[metric]}"),
                TimeRemainingColumn(),
                console=console,
                # not rich's default: on a terminal it would route sys.stdout/sys.stderr
                # (Ray's prints, which own_stdout sends to stderr) onto the result's stdout
                redirect_stdout=False,
                redirect_stderr=False,
            )

    @property
    def callbacks(self) -> tuple:
        return self.on_iteration, self.on_report, self.on_resume

    def on_iteration(self, it: int, total: int) -> None:
        self.head()
        if self.bar is not None:
            if self.task is None:
                self.task = self.bar.add_task(self.solver, total=total, completed=it, metric="")
            self.bar.update(self.task, completed=it)

    def on_resume(self, it: int) -> None:
        """Called once the checkpoint is accepted (``it`` iterations) or there is none
        (``it`` 0): the header, then where the run resumes."""
        self.head()
        if it:
            self._say(f"resuming from checkpoint {self.ckpt} at iteration {it}")

    def head(self) -> None:
        if self.header is not None:
            typer.echo(self.header, file=self.out)  # before the bar starts
            self.header = None

    def _say(self, line: str) -> None:
        """One line on ``out``: above the bar when both are on stdout (soft-wrapped, so a
        long line stays one line), else straight to the stream."""
        if self.lines_on_bar:
            self.bar.console.print(line, soft_wrap=True, markup=False, highlight=False)
        else:
            typer.echo(line, file=self.out)

    def on_report(self, it: int, figures: dict[str, float]) -> None:
        shown = {k: v for k, v in figures.items() if k not in ("ahead_low", "ahead_high")}
        line = f"iteration {it}: " + ", ".join(
            _figure(k, v) + (_interval(figures) if k == "ahead" else "") for k, v in shown.items()
        )
        if self.bar is not None and self.task is not None:
            name, value = next(iter(figures.items()))
            self.bar.update(self.task, metric=f"{name} {value:.4g}")
        self._say(line)


def _bar_console(out: TextIO):
    """The console the progress bar shows on: stdout's (``out``) when it is a terminal,
    else stderr's when that is one; None (no bar) when neither is: rich would print the
    bar's last frame into a file, and cut the report lines at 80 columns."""
    console = stdout_console(out)  # a reader gone: BrokenPipeError, not rich's exit 1
    if console.is_terminal:
        return console
    from rich.console import Console  # deferred: fast --help

    console = Console(stderr=True)
    return console if console.is_terminal else None


def _run_solve(cfg, ckpt, progress: _SolveProgress):
    """Train (domain errors and interruptions as one-line failures; the checkpoint stays;
    a tree over the exact solvers' bound, found only by walking it, exit 2 as in validate)."""
    from solvers.train import NotTinyError  # deferred: fast --help
    from solvers.train import solve as run  # deferred: fast --help

    try:
        with stop_signals(), domain_errors(FAILED):  # SIGTERM, SIGHUP: as Ctrl-C
            try:
                if progress.bar is not None:
                    with progress.bar:
                        return run(cfg, *progress.callbacks)
                return run(cfg, *progress.callbacks)
            except NotTinyError as e:  # the whole tree asked of a larger game: a wrong request
                raise fail(str(e), USAGE) from None
    except KeyboardInterrupt as stop:
        word, code = stop_words(stop)
        raise fail(
            f"{word}: checkpoint saved to {ckpt}; rerun the same command to resume", code
        ) from None
    except BrokenPipeError as e:
        if stdout_closed():  # the reader of the report lines went away: a quiet 141
            raise  # (MeepleGroup.invoke); the checkpoint keeps the rounds done
        raise fail(f"cannot write {cfg.out}: {e.strerror or e}", FAILED) from None
    except OSError as e:  # the disk filled up writing the checkpoint or the policy: name it
        raise fail(f"cannot write {e.filename or cfg.out}: {e.strerror or e}", FAILED) from None


_FIGURES = {
    "ahead": "ahead of heuristic",
    "visits_per_key": "visits/key",
    # the mean over keys of the largest positive cumulative sampled (and, on full games,
    # discounted) regret, per iteration: no average regret and no sum_I R+/T bound
    "avg_regret": "mean max sampled regret",
}


def _interval(figures: dict[str, float]) -> str:
    """The progress figure's 95% interval, when the report has one (few deals: wide)."""
    low, high = figures.get("ahead_low"), figures.get("ahead_high")
    return "" if low is None or high is None else f" (95% {low:.2f}-{high:.2f})"


def _figure(name: str, value: float) -> str:
    """One report figure as shown: shares as shares, counts as counts."""
    shown = _FIGURES.get(name, name)
    if name == "keys":
        return f"{int(value):,} keys"
    if name in ("ahead", "coverage"):
        return f"{shown} {value:.2f}"
    if name == "visits_per_key":
        return f"{value:.0f} {shown}"
    if name == "avg_regret":
        return f"{shown} = {value:.6g} (not a regret bound)"
    return f"{shown} = {value:.6g}"


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("solve")(solve)
