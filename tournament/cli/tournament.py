"""`meeple tournament run`, `meeple ratings`, `meeple replay` and `meeple demo`.

Thin commands: options are merged into the config in one validated step, then the work is
delegated to tournament.runner / ratings / report / replay. Every domain error is one line
on stderr and a non-zero exit code; nothing has run when a config error is reported.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from tournament.cli_common import fail

tournament_app = typer.Typer(
    help="Run tournaments (Ray or in-process) into a Parquet ledger.", no_args_is_help=True
)

_OPTION_KEYS = {
    "game": "tournament.game",
    "seeds_per_lineup": "tournament.seeds_per_lineup",
    "seed": "tournament.seed",
    "schedule": "tournament.schedule",
    "focus": "tournament.focus",
    "failure_policy": "tournament.failure_policy",
    "time_limit": "tournament.time_limit",
    "batch_size": "tournament.batch_size",
}
REPO_ROOT = Path(__file__).resolve().parent.parent
DEMO_CONFIG = REPO_ROOT / "configs" / "tournaments" / "demo.toml"


def _config(path: Path | None, raw: dict | None, sets: list[str], options: dict):
    """Load, merge and validate: returns (config, number of games)."""
    from tournament.config import ConfigError, build_config, load_toml, parse_override
    from tournament.schedule import schedule

    try:
        if raw is not None:
            data = raw
        elif path is not None:
            data = load_toml(path)
        else:
            raise ValueError("a config path or a raw config is required")
        overrides: dict[str, object] = {}
        for text in sets:
            key, value = parse_override(text)
            overrides[key] = value
        for name, value in options.items():
            if value is not None:
                overrides[_OPTION_KEYS[name]] = value
        cfg = build_config(data, overrides)
        return cfg, len(schedule(cfg))
    except ConfigError as e:
        raise fail(str(e), 2) from None


def _run(cfg, out: Path, workers: int, address: str | None, executor: str, quiet: bool):
    from tournament.ledger import LedgerError
    from tournament.runner import run_tournament

    try:
        summary = run_tournament(
            cfg, out, workers=workers, address=address, executor=executor, show_progress=not quiet
        )
    except LedgerError as e:
        raise fail(str(e), 1) from None
    except KeyboardInterrupt:
        raise fail(
            f"interrupted; finished batches are in {out}: rerun the same command to resume", 130
        ) from None
    except Exception as e:  # e.g. a Ray task that failed for good: the ledger keeps what finished
        raise fail(
            f"tournament stopped ({type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}); "
            f"finished batches are in {out}: rerun to resume",
            1,
        ) from None
    for note in summary.notes:
        typer.echo(f"note: {note}", err=True)
    fails = ", ".join(f"{k} {v}" for k, v in sorted(summary.failures.items())) or "none"
    typer.echo(
        f"{summary.played} game(s) played, {summary.already_done} already in the ledger, "
        f"{summary.scheduled} scheduled; failures: {fails}; {summary.seconds:.1f} s; ledger: {out}"
    )
    typer.echo(f"ratings: meeple ratings {out}", err=True)
    return summary


def _default_out(stem: str, cfg) -> Path:
    return Path("runs") / f"{stem}-{cfg.run_id[:8]}"


@tournament_app.command("run")
def run(
    config: Annotated[Path, typer.Argument(help="Tournament TOML file (see docs/tournaments.md)")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Ledger directory; default runs/<config>-<run id>"),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="CPUs for the local Ray session")
    ] = 2,
    address: Annotated[
        str | None, typer.Option("--address", help="Ray cluster address (or set RAY_ADDRESS)")
    ] = None,
    executor: Annotated[str, typer.Option("--executor", help="ray or serial (in-process)")] = "ray",
    game: Annotated[str | None, typer.Option(help="Override tournament.game")] = None,
    seeds_per_lineup: Annotated[
        int | None, typer.Option(help="Override tournament.seeds_per_lineup")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Override tournament.seed")] = None,
    schedule: Annotated[str | None, typer.Option(help="Override tournament.schedule")] = None,
    focus: Annotated[str | None, typer.Option(help="Override tournament.focus (gauntlet)")] = None,
    failure_policy: Annotated[
        str | None, typer.Option(help="Override tournament.failure_policy")
    ] = None,
    time_limit: Annotated[
        float | None, typer.Option(help="Override tournament.time_limit (s/move)")
    ] = None,
    batch_size: Annotated[int | None, typer.Option(help="Override tournament.batch_size")] = None,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="Any key: --set agents.mcts='mcts(sims=50)'")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Validate and print the schedule size only")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar")] = False,
) -> None:
    """Play every game of CONFIG that is missing from the ledger (reruns resume)."""
    if executor not in ("ray", "serial"):
        raise fail(f"--executor must be ray or serial, got {executor!r}", 2)
    cfg, n = _config(
        config,
        None,
        set_ or [],
        {
            "game": game,
            "seeds_per_lineup": seeds_per_lineup,
            "seed": seed,
            "schedule": schedule,
            "focus": focus,
            "failure_policy": failure_policy,
            "time_limit": time_limit,
            "batch_size": batch_size,
        },
    )
    out = out or _default_out(config.stem, cfg)
    if dry_run:
        typer.echo(f"{n} games, {len(cfg.agents)} agents, run id {cfg.run_id}, ledger {out}")
        return
    _run(cfg, out, workers, address, executor, quiet)


def _ratings(dirs: list[Path], anchor: str | None, bootstrap: int, seed: int = 0):
    from tournament.ledger import LedgerError
    from tournament.ratings import RatingsError, parse_anchor, ratings_from_ledgers

    try:
        return ratings_from_ledgers(
            dirs, bootstrap=bootstrap, anchor=parse_anchor(anchor), seed=seed
        )
    except (LedgerError, RatingsError) as e:
        raise fail(str(e), 1) from None


def _emit(r, extra: dict, fmt: str, html: Path | None) -> None:
    from tournament import report

    if fmt == "table":
        report.print_table(r)
    else:
        sys.stdout.write(report.render(r, fmt).rstrip("\n") + "\n")
    if html is not None:
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text(report.to_html(r, context=extra))
        typer.echo(f"HTML report: {html}", err=fmt != "table")


def ratings(
    dirs: Annotated[
        list[Path], typer.Argument(help="One or more ledger directories, rated jointly")
    ],
    anchor: Annotated[
        str | None, typer.Option("--anchor", help="AGENT=ELO; default random (or lowest) = 0")
    ] = None,
    bootstrap: Annotated[
        int,
        typer.Option("--bootstrap", min=0, help="Bootstrap resamples of duplicate sets for CIs"),
    ] = 200,
    fmt: Annotated[str, typer.Option("--format", help="table, md, csv or json")] = "table",
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML report")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Bootstrap RNG seed")] = 0,
) -> None:
    """Joint Bradley–Terry Elo (pyspiel.elo) with bootstrap CIs, crosstable, seats, α-Rank."""
    from tournament.report import FORMATS

    if fmt not in FORMATS:
        raise fail(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}", 2)
    if html is not None and any(html.resolve().parent == d.resolve() for d in dirs):
        raise fail(
            "--html must not point inside a ledger directory (it holds only ledger files)", 2
        )
    r, extra = _ratings(dirs, anchor, bootstrap, seed)
    _emit(r, extra, fmt, html)


def replay(
    ledger: Annotated[Path, typer.Argument(help="Ledger directory")],
    game_id: Annotated[str, typer.Argument(help="Game id (16 hex digits) from the ledger")],
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Also write the game record (JSON) for advise --game-file"),
    ] = None,
) -> None:
    """Replay one recorded game exactly, move by move."""
    from tournament.ledger import LedgerError
    from tournament.replay import replay as do_replay

    try:
        rep = do_replay(ledger, game_id)
    except LedgerError as e:
        raise fail(str(e), 1) from None
    typer.echo("\n".join(rep.lines))
    if save is not None:
        try:
            rep.record().save(save)
        except OSError as e:
            raise fail(f"cannot write {save}: {e.strerror or e}", 1) from None
        typer.echo(f"game record written to {save}")
    if not rep.matches:
        raise typer.Exit(1)


def demo(
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Ledger directory; default runs/demo-<run id>"),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="CPUs for the local Ray session")
    ] = 2,
    executor: Annotated[str, typer.Option("--executor", help="ray or serial")] = "ray",
    config: Annotated[Path, typer.Option("--config", help="Demo tournament file")] = DEMO_CONFIG,
    html: Annotated[
        Path | None, typer.Option("--html", help="HTML report; default <out>-report.html")
    ] = None,
    bootstrap: Annotated[int, typer.Option("--bootstrap", min=0, help="Bootstrap resamples")] = 200,
) -> None:
    """A small Coloretto tournament (baselines and small search agents): Elo table + HTML report."""
    from solvers.registry import KINDS, all_kinds
    from solvers.spec import parse_spec
    from tournament.config import load_toml

    if executor not in ("ray", "serial"):
        raise fail(f"--executor must be ray or serial, got {executor!r}", 2)
    try:
        raw = load_toml(config)
    except ValueError as e:
        raise fail(str(e), 2) from None
    all_kinds()
    agents = dict(raw.get("agents", {}))
    for name, spec in list(agents.items()):
        kind = parse_spec(spec)[0] if isinstance(spec, str) else ""
        if kind not in KINDS:  # search agents may not be installed yet: play without them
            typer.echo(
                f"note: agent kind {kind!r} not available; demo runs without {name!r}", err=True
            )
            del agents[name]
    raw = {**raw, "agents": agents}
    cfg, n = _config(None, raw, [], {})
    out = out or _default_out("demo", cfg)
    typer.echo(f"demo: {n} games of {cfg.game} between {', '.join(a.name for a in cfg.agents)}")
    _run(cfg, out, workers, None, executor, quiet=False)
    r, extra = _ratings([out], None, bootstrap)
    # beside the ledger, not in it: a ledger directory holds only ledger files
    _emit(r, extra, "table", html or out.with_name(out.name + "-report.html"))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.add_typer(tournament_app, name="tournament")
    app.command("ratings")(ratings)
    app.command("replay")(replay)
    app.command("demo")(demo)
