"""`meeple train`: a value model for eval=learned, fitted to self-play games."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tournament.cli.common import (
    FAILED,
    USAGE,
    AddressOption,
    ExecutorOption,
    WorkersOption,
    check_executor,
    domain_errors,
    refuse_inside_ledger,
    run_ended,
)
from tournament.cli.stdout import own_stdout
from tournament.signals import stop_signals

KindOption = Annotated[
    str, typer.Option(help="Value model kind: linear, or mlp (linear plus a small network)")
]
PoolOption = Annotated[
    list[str] | None,
    typer.Option(
        help="An earlier run's work directory of this game string whose positions also train "
        "(repeatable; never held out; its games identical to this run's are left out)"
    ),
]


class _ReplayProgress:
    """The positions phase of `meeple train` (after the self-play games): a bar when live,
    a line per update when plain."""

    def __init__(self, mode: str, display) -> None:
        self.mode, self.display = mode, display
        self.bar: Any = None  # rich.progress.Progress, made when first needed
        self.task: Any = None

    def update(self, done: int, total: int) -> None:
        self.display.__exit__(None, None, None)  # the games are over: close their live view
        if self.mode == "plain":
            typer.echo(f"positions: {done}/{total} games replayed", err=True)
        if self.mode != "live":
            return
        if self.bar is None:
            from rich.console import Console  # deferred: fast --help
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self.bar = Progress(
                TextColumn("replaying games for positions"),
                BarColumn(),
                MofNCompleteColumn(),
                console=Console(stderr=True),
            )
            self.bar.start()
            self.task = self.bar.add_task("positions", total=total, completed=done)
        self.bar.update(self.task, completed=done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def train(
    game: Annotated[str, typer.Argument(help="Game string, e.g. 'python_bruxelles(players=3)'")],
    games: Annotated[
        int,
        typer.Option("--games", "-n", help="Self-play games (one per seed; a fifth is held out)"),
    ] = 300,
    agent: Annotated[
        str, typer.Option(help="Agent spec that plays every seat of the self-play games")
    ] = "noisy(eps=0.1)",
    every: Annotated[int, typer.Option(help="Keep every K-th decision position of a game")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Master seed of the games")] = 0,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", "-o", help="Model file (JSON); default runs/models/<game>-<hash>.json"
        ),
    ] = None,
    work: Annotated[
        str | None,
        typer.Option(
            help="Work directory (self-play ledger and positions); default "
            "runs/train/<game>-<hash of the request>"
        ),
    ] = None,
    kind: KindOption = "linear",
    pool: PoolOption = None,
    workers: WorkersOption = 2,
    address: AddressOption = None,
    executor: ExecutorOption = "auto",
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress, and none of Ray's own messages")
    ] = False,
) -> None:
    """Fit a value model (eval=learned) to self-play games; reruns resume.

    The tournament runner plays the games into a resumable ledger (on Ray once it pays), each
    game is replayed to collect its positions' features and final scores, and a model is
    fitted: linear with stage-dependent weights, or that plus a small network (--kind mlp);
    held-out R^2 reported next to the hand-set evaluation's. Use the model with
    ismcts(eval=learned,model=FILE)."""
    from tournament.cli.progress import Display, choose_mode  # deferred: fast --help
    from tournament.training import (  # deferred: fast --help
        TrainConfig,
        tournament_config,
        validate,
        work_dir,
    )
    from tournament.training import train as run  # deferred: fast --help

    check_executor(executor)
    cfg = TrainConfig(
        game, games, agent, seed, every, work=work, out=out, kind=kind, pool=tuple(pool or ())
    )
    with domain_errors(USAGE):  # the whole request, before anything runs
        validate(cfg)
        names = {a.agent_id: a.name for a in tournament_config(cfg).agents}
    where = work_dir(cfg)
    refuse_inside_ledger("--work", Path(where) / "games", "--out", out)  # work: it or above
    mode = choose_mode(quiet)
    display = Display(mode, names, False)
    replay = _ReplayProgress(mode, display)

    with own_stdout(quiet) as stdout:  # Ray's own prints go to stderr (--quiet: nowhere)
        # a stop or a full disk: what was written stays, the rerun goes on from it
        resume = run_ended(f"rerun the same command to resume from {where}")
        try:  # SIGTERM, SIGHUP: as Ctrl-C
            with resume, stop_signals(), domain_errors(FAILED), display:
                result = run(
                    cfg,
                    workers=workers,
                    address=address,
                    executor=executor,
                    on_start=display.on_start,
                    on_batch=display.on_batch,
                    on_progress=replay.update,
                )
        finally:
            replay.stop()
        _report_training(result, stdout)


def _report_training(result, out) -> None:
    """What `meeple train` made: games, positions, the held-out fit, the model file."""
    r = result.report
    failed = f", {result.failed} failed self-play game(s) left out" if result.failed else ""
    pooled = r.get("pooled_games", 0)
    typer.echo(
        f"{result.games - pooled} self-play games, {result.positions} positions{failed} "
        f"(work: {result.work})",
        file=out,
    )
    if pooled:
        typer.echo(
            f"{pooled} games of earlier runs also train (--pool), positions counted above", file=out
        )
    if r.get("pooled_left_out"):
        typer.echo(
            f"{r['pooled_left_out']} pooled games left out: the same games (move lists) as "
            "this run's or an earlier --pool's",
            file=out,
        )
    if "r2_heldout" in r:
        linear = f", linear {r['r2_linear']:.3f}" if "r2_linear" in r else ""
        typer.echo(
            f"held-out R^2 of score differences on {r['heldout_games']} games: learned "
            f"({r['kind']}) {r['r2_heldout']:.3f}{linear}, hand-set evaluation "
            f"{r['r2_hand']:.3f}, points alone {r['r2_points']:.3f}",
            file=out,
        )
    typer.echo(
        f"wrote {result.model_path}; use it as ismcts(eval=learned,model={result.model_path})",
        file=out,
    )


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("train")(train)
