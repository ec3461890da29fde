"""`meeple tournament run`, `meeple ratings`, `meeple replay` and `meeple demo`.

Thin commands: options are merged into the config in one validated step, then the work is
delegated to tournament.runner / ratings / report / replay. Every domain error is one line
on stderr and a non-zero exit code; nothing has run when a config error is reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournament.cli.common import (
    AddressOption,
    ExecutorOption,
    WorkersOption,
    check_executor,
    check_ledger_out,
    check_output_path,
    domain_errors,
    fail,
    ledger_arguments,
    refuse_inside_ledger,
)
from tournament.cli.reports import emit, rate, report_path
from tournament.cli.stdout import own_stdout, stdout_closed
from tournament.keys import TOURNAMENT_KEYS, option_help
from tournament.run_summary import failures_text
from tournament.signals import stop_signals, stop_words

tournament_app = typer.Typer(
    help="Run tournaments (Ray or in-process) into a Parquet ledger.", no_args_is_help=True
)

REPO_ROOT = Path(__file__).resolve().parents[2]  # tournament/cli/ -> the checkout
DEMO_CONFIG = REPO_ROOT / "configs" / "tournaments" / "demo.toml"


def _resolve(path: Path | None, raw: dict | None, sets: list[str], options: dict):
    """The one resolve step: load, merge and validate the config, every agent included
    (built once for the game: ranges, choices, policy files). ``--dry-run`` runs exactly
    this; the game is loaded and the code hashed here once, and passed down."""
    from tournament.config import build_config, load_toml, parse_override  # deferred: fast --help

    option_keys = {k.name for k in TOURNAMENT_KEYS if k.option}
    with domain_errors(2):
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
            assert name in option_keys, name
            if value is not None:
                overrides[f"tournament.{name}"] = value
        return build_config(data, overrides)


def _run(
    cfg,
    out: Path,
    workers: int,
    address: str | None,
    executor: str,
    quiet: bool,
    verbose: bool = False,
):
    """Play the run with its progress; the summary line on stdout. Ray's own prints (a lost
    node's last log lines) go to stderr meanwhile (``own_stdout``)."""
    from tournament.cli.progress import Display, choose_mode  # deferred: fast --help

    mode, names = choose_mode(quiet), {a.agent_id: a.name for a in cfg.agents}
    with own_stdout(quiet) as stdout:
        display = Display(mode, names, verbose, out=stdout)
        summary, source = _play(cfg, out, workers, address, executor, display)
        for note in summary.notes:
            typer.echo(f"note: {note}", err=True)
        fails = failures_text(summary, names)  # by kind, then by the agent that failed
        typer.echo(
            f"{summary.played} game(s) played, {summary.already_done} already in the ledger, "
            f"{summary.scheduled} scheduled; failures: {fails}; {summary.seconds:.1f} s; "
            f"ledger: {out}",
            file=stdout,
        )
    if summary.played:
        typer.echo(f"executor: {summary.executor}", err=True)
    if source is not None and source.decision is not None:
        d = source.decision
        state = f"stopped: {d.reason}" if d.done else "not finished: rerun to go on"
        typer.echo(f"adaptive: {source.rounds} round(s), {state}; {source.summary()}", err=True)
    typer.echo(f"ratings: meeple ratings {out}", err=True)
    return summary


def _play(cfg, out: Path, workers: int, address: str | None, executor: str, display):
    """run_tournament with the display; every failure is one line (the ledger keeps what
    finished). Returns the summary and the adaptive source (None for a fixed schedule)."""
    from tournament.runner import run_tournament  # deferred: fast --help (imports ray lazily)
    from tournament.schedule import schedule  # deferred: fast --help

    tasks = schedule(cfg)
    source = None
    if cfg.schedule == "adaptive":
        from tournament.adaptive import AdaptiveSource  # deferred: fast --help

        source = AdaptiveSource(cfg, tasks)
    try:
        with stop_signals(), domain_errors(1), display:  # SIGTERM, SIGHUP: as Ctrl-C
            summary = run_tournament(
                cfg,
                out,
                workers=workers,
                address=address,
                executor=executor,
                on_start=display.on_start,
                on_batch=display.on_batch,
                tasks=tasks,
                source=source,
            )
    except KeyboardInterrupt as stop:
        kept = _kept(out)
        word, code = stop_words(stop)
        raise fail(f"{word}; {kept}: rerun the same command to resume", code) from None
    except typer.Exit:  # a domain error, already reported in one line
        raise
    except Exception as e:  # a bug or a system failure: the ledger keeps what finished
        if isinstance(e, BrokenPipeError) and stdout_closed():
            raise  # --verbose's reader went away: a quiet exit (MeepleGroup.invoke)
        text = str(e).strip().splitlines()[0] if str(e).strip() else ""
        if isinstance(e, OSError) and e.strerror:  # a full disk: its words, not "[Errno 28]"
            text = e.strerror + (f": {e.filename}" if e.filename else "")
        why = f"tournament stopped ({type(e).__name__}: {text})"
        raise fail(f"{why}; {_kept(out)}: rerun to resume", 1) from None
    return summary, source


def _kept(out: Path) -> str:
    """What a stopped run leaves in ``out``, as the files there say (a resumed ledger keeps
    the batches of earlier runs; one whose manifest alone was written holds none)."""
    from tournament.ledger_open import batch_files  # deferred: fast --help

    return f"finished batches are in {out}" if batch_files(out) else "no batch had finished"


def _check_out(cfg, out: Path) -> None:
    """``--dry-run``: what the run would refuse about ``--out`` (another tournament, other
    files: exit 2; a corrupt manifest: 1), read only: ``out`` is neither made nor changed."""
    from tournament.config import num_games  # deferred: fast --help
    from tournament.ledger import MANIFEST, make_manifest, read_ledger  # deferred: fast --help
    from tournament.ledger_open import check_manifest  # deferred: fast --help

    with domain_errors(1):  # ForeignOutputError: 2 whatever the code
        check_manifest(out, make_manifest(cfg, num_games(cfg), {}))
        if (out / MANIFEST).exists():  # its files, as the run reads them (was: a truncated
            read_ledger(out, ["game_id"])  # batch or a foreign folder passed, the run failed)


def _default_out(stem: str, cfg) -> Path:
    return Path("runs") / f"{stem}-{cfg.run_id[:8]}"


@tournament_app.command("run")
def run(
    config: Annotated[Path, typer.Argument(help="Tournament TOML file (see docs/tournaments.md)")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Ledger directory; default runs/<config>-<run id>"),
    ] = None,
    workers: WorkersOption = 2,
    address: AddressOption = None,
    executor: ExecutorOption = "auto",
    game: Annotated[str | None, typer.Option(help=option_help("game"))] = None,
    seeds_per_lineup: Annotated[
        int | None, typer.Option(help=option_help("seeds_per_lineup"))
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help=option_help("seed"))] = None,
    schedule: Annotated[str | None, typer.Option(help=option_help("schedule"))] = None,
    focus: Annotated[str | None, typer.Option(help=option_help("focus"))] = None,
    seating: Annotated[str | None, typer.Option(help=option_help("seating"))] = None,
    failure_policy: Annotated[str | None, typer.Option(help=option_help("failure_policy"))] = None,
    time_limit: Annotated[float | None, typer.Option(help=option_help("time_limit"))] = None,
    batch_size: Annotated[int | None, typer.Option(help=option_help("batch_size"))] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Any key, the value in TOML or a bare word: --set agents.mcts='mcts(sims=50)', "
            "--set 'ladder.values=[10,30]'",
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Validate and print the schedule size only")
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="No progress (live view or plain lines), and none of Ray's own messages",
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="One result line per finished game on stdout"),
    ] = False,
) -> None:
    """Play every game of CONFIG that is missing from the ledger (reruns resume).

    Progress goes to stderr: a live view on a terminal, otherwise one line per finished
    batch (games done/total, games/s, ETA, top 3 of the interim standings)."""
    from tournament.config import num_games  # deferred: fast --help

    check_executor(executor)
    cfg = _resolve(
        config,
        None,
        set_ or [],
        {
            "game": game,
            "seeds_per_lineup": seeds_per_lineup,
            "seed": seed,
            "schedule": schedule,
            "focus": focus,
            "seating": seating,
            "failure_policy": failure_policy,
            "time_limit": time_limit,
            "batch_size": batch_size,
        },
    )
    out = out or _default_out(config.stem, cfg)
    check_ledger_out(out)
    if dry_run:  # counted, not scheduled: instant for any size
        _check_out(cfg, out)
        most = "at most " if cfg.schedule == "adaptive" else ""
        typer.echo(
            f"{most}{num_games(cfg)} games, {len(cfg.agents)} agents, run id {cfg.run_id}, "
            f"ledger {out}"
        )
        return
    _run(cfg, out, workers, address, executor, quiet, verbose)


def ratings(
    dirs: Annotated[
        list[Path], typer.Argument(help="One or more ledger directories, rated jointly")
    ],
    anchor: Annotated[
        str | None,
        typer.Option(
            "--anchor",
            metavar="AGENT[=ELO]",
            help="Fix AGENT's rating at ELO, in [-2000, 2000] (AGENT alone: 0); default: the "
            "mean rating is 0 (as Ordo)",
        ),
    ] = None,
    bootstrap: Annotated[
        int,
        typer.Option(
            "--bootstrap", min=0, max=100_000, help="Bootstrap resamples of duplicate sets for CIs"
        ),
    ] = 200,
    fmt: Annotated[
        str, typer.Option("--format", help="table (or text), md, csv or json")
    ] = "table",
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json")] = False,
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML report")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Bootstrap RNG seed")] = 0,
    luck_adjusted: Annotated[
        bool,
        typer.Option(
            "--luck-adjusted",
            help="Elo on pairwise results less the luck of chance events and of the decisions "
            "of known-strategy agents (replays every game "
            "once; cached in DIR/.luck.json and .moves.json)",
        ),
    ] = False,
    luck_value: Annotated[
        str,
        typer.Option(
            "--luck-value",
            help="The value function luck is measured with: lookahead (the game's evaluation "
            "after the heuristic plays to the next chance event), evaluation, or rollouts "
            "(plays to the end by the seats' known strategies; some 30x the cost)",
        ),
    ] = "lookahead",
) -> None:
    """Joint Bradley–Terry Elo (pyspiel.elo) with bootstrap CIs, Plackett–Luce on finishing
    orders with a seat term, crosstable, seats, α-Rank."""
    from tournament.ratings.report import FORMATS  # deferred: fast --help

    fmt = "json" if as_json else "table" if fmt == "text" else fmt  # one --format everywhere
    if fmt not in FORMATS:
        raise fail(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}", 2)
    if seed < 0:
        raise fail(f"--seed must be >= 0, got {seed}", 2)
    from tournament.luck import VALUES  # deferred: fast --help

    if luck_value not in VALUES:
        raise fail(f"--luck-value must be one of {', '.join(VALUES)}, got {luck_value!r}", 2)
    with report_path(html):
        r, extra = rate(dirs, anchor, bootstrap, seed, luck_adjusted, luck_value)
        emit(r, extra, fmt, html)


def replay(
    ledger: Annotated[Path, typer.Argument(help="Ledger directory")],
    game_id: Annotated[
        str,
        typer.Argument(help="Game id (16 hex digits) from the ledger: meeple review LEDGER --list"),
    ],
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Also write the game record (JSON) for advise --game-file"),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --save overwrite a file")] = False,
) -> None:
    """Replay one recorded game exactly, move by move."""
    from tournament.replay import replay as do_replay  # deferred: fast --help

    if save is not None:
        check_output_path(str(save), "--save")
        refuse_inside_ledger("--save", save)  # was: --force replaced its manifest or a batch
        if save.exists() and not force:
            raise fail(f"--save {str(save)!r} exists; pass --force to overwrite it", 2)

    with domain_errors(1), ledger_arguments():  # no ledger there, no such game: exit 2
        rep = do_replay(ledger, game_id)
    if save is not None:  # before printing: a reader that goes away does not cost the file
        try:
            rep.record().save(save)
        except OSError as e:
            raise fail(f"cannot write {save}: {e.strerror or e}", 1) from None
    typer.echo("\n".join(rep.lines))
    if save is not None:
        typer.echo(f"game record written to {save}")
    if not rep.matches:
        raise typer.Exit(1)


def demo(
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Ledger directory; default runs/demo-<run id>"),
    ] = None,
    workers: WorkersOption = 2,
    executor: ExecutorOption = "auto",
    config: Annotated[Path, typer.Option("--config", help="Demo tournament file")] = DEMO_CONFIG,
    html: Annotated[
        Path | None, typer.Option("--html", help="HTML report; default <out>-report.html")
    ] = None,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=0, max=100_000, help="Bootstrap resamples")
    ] = 200,
) -> None:
    """A small Coloretto tournament (baselines and small search agents): Elo table + HTML report."""
    from solvers.registry import KINDS  # deferred: fast --help
    from solvers.spec import parse_spec  # deferred: fast --help
    from tournament.config import load_toml, num_games  # deferred: fast --help

    check_executor(executor)
    with domain_errors(2):
        raw = load_toml(config)
    agents = dict(raw.get("agents", {}))
    for name, spec in list(agents.items()):
        kind = parse_spec(spec)[0] if isinstance(spec, str) else ""
        if kind not in KINDS:  # search agents may not be installed yet: play without them
            typer.echo(
                f"note: agent kind {kind!r} not available; demo runs without {name!r}", err=True
            )
            del agents[name]
    raw = {**raw, "agents": agents}
    cfg = _resolve(None, raw, [], {})
    out = out or _default_out("demo", cfg)
    # beside the ledger, not in it: a ledger directory holds only ledger files
    html = html or out.with_name(out.name + "-report.html")
    with report_path(html):
        typer.echo(
            f"demo: {num_games(cfg)} games of {cfg.game} between "
            + ", ".join(a.name for a in cfg.agents)
        )
        _run(cfg, out, workers, None, executor, quiet=False)
        r, extra = rate([out], None, bootstrap)
        emit(r, extra, "table", html)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.add_typer(tournament_app, name="tournament")
    app.command("ratings")(ratings)
    app.command("replay")(replay)
    app.command("demo")(demo)
