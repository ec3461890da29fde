"""`meeple tune`: NTBEA over an agent's tunable parameters against the pool, the marginal
effect of each value, and an SPRT that decides whether the recommendation is adopted.

Thin command: the options become one ``TuneRequest``; ``tournament.tune`` runs (or resumes)
the search into ``--out`` and ``tournament.tune_report`` confirms and prints it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated

import typer

from tournament.cli.common import (
    FAILED,
    FormatOption,
    JsonFlag,
    OutputFormat,
    check_executor,
    domain_errors,
    fail,
    refuse_inside_ledger,
    run_ended,
    workers_option,
)
from tournament.cli.stdout import own_stdout
from tournament.signals import stop_signals, stop_words

PARAMS_HELP = (
    "Comma-separated parameters to tune (see `meeple agents`: the tunable ones); "
    "default: uct_c,prior_w,unprune,rollout_depth,opp_share,opp_prior"
)


def _params(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _request(game, agent, params, budget, opponents, levels, repeats, k, neighbours, seed):
    from tournament.tune import TuneRequest  # deferred: fast --help

    extra: dict = {}
    if params is not None:
        extra["params"] = params
    if opponents:
        extra["opponents"] = tuple(opponents)
    return TuneRequest(game, agent, budget=budget, levels=levels, repeats=repeats, k=k,
                       neighbours=neighbours, seed=seed, **extra)  # fmt: skip


def _progress(budget: int):
    def on_game(row: dict) -> None:
        line = f"game {row['index'] + 1}/{budget}: fitness {row['fitness']:.2f}"
        print(line, file=sys.stderr, flush=True)

    return on_game


def _default_out(req) -> Path:
    from dataclasses import asdict  # deferred: fast --help

    key = hashlib.sha256(json.dumps(asdict(req), sort_keys=True).encode()).hexdigest()
    return Path("runs") / f"tune-{key[:8]}"


def _warn_strays(out: Path) -> None:
    """One line on stderr naming the files in the run directory the command did not write
    (they are ignored, not read: a log copied in under another name is not resumed)."""
    from tournament.tune import strays  # deferred: fast --help

    names = strays(out)
    if names:
        shown = ", ".join(repr(n) for n in names[:3])
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        line = f"warning: {out} holds what meeple tune did not write (ignored): {shown}{more}"
        typer.echo(line, err=True)


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """``out`` held by this run (spiel_games.common.files.run_lock): a second run on it is
    refused (exit 1); a file there, or a directory that cannot be made or written, is a bad
    --out (2)."""
    from spiel_games.common.files import run_lock  # deferred: fast --help
    from tournament.tune import TuneError  # deferred: fast --help

    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} exists and is not a directory", 2)
    with ExitStack() as held:
        try:
            with domain_errors(1):
                held.enter_context(run_lock(out, TuneError))
        except OSError as e:
            verb = "cannot write it" if out.is_dir() else "cannot make it"
            raise fail(f"--out {out}: {verb} ({e.strerror or e})", 2) from None
        yield


def _prepare(req, out: Path, confirm_filler: str, confirm: int):
    """Check the request and the run directory (bad input: exit 2, nothing written; a
    resumed log is checked whole) and warn about strays there and about a --confirm too
    short to adopt anything (before the tuning's games: time to stop); the search space."""
    try:
        with domain_errors(2):
            from spiel_games.common.errors import one_line  # deferred: fast --help
            from tournament import tune_report  # deferred: fast --help
            from tournament.tune import prepare, space  # deferred: fast --help
            from tournament.tune_log import TuneFileError  # deferred: fast --help

            sp = space(req)  # the agent and its parameters first: the filler is for later
            tune_report.check_filler(confirm_filler, req.game, req.agent)
            for w in tune_report.confirm_warnings(req.game, confirm, confirm_filler):
                typer.echo(f"warning: {w}", err=True)
            try:
                sp = prepare(req, out, sp)
            except TuneFileError as e:  # a damaged file or a full disk: not a wrong command line
                raise fail(one_line(e), FAILED) from None
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP (stop_signals)
        word, code = stop_words(stop)
        raise fail(f"{word} before any game was played", code) from None
    _warn_strays(out)
    _note_budget(req)
    return sp


def _note_budget(req) -> None:
    """One line on stderr when NTBEA's whole iterations do not play ``--budget`` games."""
    from tournament.tune import games  # deferred: fast --help

    played = games(req)
    if played != req.budget:
        typer.echo(
            f"note: --budget {req.budget} is not a multiple of --repeats {req.repeats} (games "
            f"per NTBEA iteration): the tuning plays {played} games",
            err=True,
        )


# Bounds no real tuning reaches, checked on the command line (was: no bound at all;
# --repeats 1000000000 with --budget 4 played one iteration of 10^9 games, eating 6 GB
# before the first; --levels 10000000 built a 1.35 GB grid; --neighbours 1000000000 hung
# in the first iteration's search). A grid of more than 100 values per parameter is never
# explored by a budget of games; more than 10,000 mutations of a point of a few parameters
# only repeat the same ones; more than 1,000 games per iteration leave the search no
# iterations to move in.
MAX_LEVELS = 100
MAX_REPEATS = 1000
MAX_NEIGHBOURS = 10_000
_Levels = Annotated[
    int,
    typer.Option(min=2, max=MAX_LEVELS, help="Values tried per numeric parameter"),
]
_Repeats = Annotated[
    int,
    typer.Option(
        min=1,
        max=MAX_REPEATS,
        help="Games per NTBEA iteration (in parallel); --budget is played in whole iterations",
    ),
]
_Neighbours = Annotated[
    int,
    typer.Option(min=1, max=MAX_NEIGHBOURS, help="Mutations looked at per iteration"),
]
_Budget = Annotated[
    int,
    typer.Option(
        "--budget",
        help="Games to play while tuning, in whole NTBEA iterations of --repeats games "
        "(rounded, with a note, when not a multiple)",
    ),
]
_Workers = Annotated[
    int,
    workers_option(
        "Processes playing the tuning's games (a local pool); the confirming SPRT gets at most 2"
    ),
]
_Executor = Annotated[
    str,
    typer.Option(
        "--executor",
        help="Where the confirming SPRT (--confirm) runs: auto, ray or serial, as in "
        "meeple sprt; the tuning's own games always run in the local pool of --workers",
    ),
]


def tune(
    game: Annotated[str, typer.Argument(help="Game string, e.g. python_coloretto(players=3)")],
    agent: Annotated[
        str, typer.Option("--agent", help="The agent whose parameters are tuned")
    ] = "ismcts(sims=400)",
    params: Annotated[str | None, typer.Option("--params", help=PARAMS_HELP)] = None,
    budget: _Budget = 200,
    opponent: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            help="An opponent spec (repeatable); default: heuristic, noisy(eps=0.3) and the "
            "references H and S of docs/STRENGTH.md",
        ),
    ] = None,
    levels: _Levels = 5,
    repeats: _Repeats = 2,
    k: Annotated[float, typer.Option("--k", help="UCB exploration weight")] = 1.0,
    neighbours: _Neighbours = 50,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Tuning master seed")] = 2033,
    confirm: Annotated[
        int,
        typer.Option(
            "--confirm",
            help="Most games of the confirming SPRT (recommended vs --agent; adopted on H1); "
            "0: print its command only",
        ),
    ] = 0,
    confirm_filler: Annotated[
        str, typer.Option("--confirm-filler", help="Who fills the SPRT's other seats")
    ] = "heuristic",
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Run directory (resumable); default runs/tune-<hash>"),
    ] = None,
    workers: _Workers = 1,
    executor: _Executor = "auto",
    fmt: FormatOption = OutputFormat.text,
    as_json: JsonFlag = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No line per game, and none of Ray's own messages")
    ] = False,
) -> None:
    """Tune an agent's search parameters for one game by NTBEA against the pool.

    Each evaluation is one game of the candidate setting against opponents drawn from the
    pool, on the tuning's own seeds (never the benchmark's). Prints the recommended
    setting, the marginal effect of each value, and the confirming SPRT (docs/STRENGTH.md,
    "Tuning")."""
    from tournament.tune import tune as run_tune  # deferred: fast --help
    from tournament.tune_report import confirm as run_confirm  # deferred: fast --help
    from tournament.tune_report import summary, text  # deferred: fast --help

    check_executor(executor)
    if confirm < 0:
        raise fail(f"--confirm must be >= 0, got {confirm}", 2)
    req = _request(game, agent, _params(params), budget, opponent, levels, repeats, k,
                   neighbours, seed)  # fmt: skip
    out = out if out is not None else _default_out(req)
    refuse_inside_ledger("--out", out / "tune.json")  # out itself, or a folder above it

    # the confirming SPRT may run on Ray: its prints go to stderr, the result to stdout
    # another run on --out: refused at once; SIGTERM, SIGHUP stop as Ctrl-C from here on
    with _locked(out), own_stdout(quiet) as stdout, stop_signals():
        sp = _prepare(req, out, confirm_filler, confirm)
        # a stop, or a full disk under the confirming SPRT's ledger: the games stay
        with run_ended(f"finished games are in {out}: rerun to resume"), domain_errors(1):
            progress = None if quiet else _progress(req.budget)
            tuned = run_tune(req, out, workers, progress, sp)
            s = summary(tuned, out)
            s["confirmation"] = run_confirm(
                s, out, confirm, confirm_filler, seed + 1, min(workers, 2), executor
            )
        if as_json or fmt == OutputFormat.json:
            stdout.write(json.dumps(s, indent=2) + "\n")
        else:
            typer.echo(text(s), file=stdout)


def register(app: typer.Typer) -> None:
    app.command("tune")(tune)
