"""`meeple sprt`: a sequential probability ratio test between two agents.

Thin command: the options become one ``SprtRequest`` (bounds checked first), the test runs
through ``tournament.sprt.run.play_sprt`` into a resumable ledger, the LLR is shown as it
moves, and the verdict is printed (or one JSON object with ``--format json``).
"""

from __future__ import annotations

import math
import sys
from contextlib import suppress
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from tournament.cli.common import (
    FAILED,
    AddressOption,
    ExecutorOption,
    FormatOption,
    JsonFlag,
    OutputFormat,
    WorkersOption,
    check_executor,
    check_ledger_out,
    domain_errors,
    fail,
    json_text,
    os_error_line,
)
from tournament.cli.stdout import own_stdout
from tournament.signals import stop_signals, stop_words

PRESET_HELP = (
    "gain (elo0 0, elo1 20: is A stronger?) or nonreg (elo0 -20, elo1 5: is A no weaker?); "
    "--elo0/--elo1 given as well win. Default: gain"
)
LLR_HELP = (
    "empirical (fishtest's GSPRT: at least ~50 sets however large the gap) or normal (a "
    "normal model of the set score: a few sets when the gap is far outside the bounds; "
    "assumes roughly symmetric set scores). Default: empirical"
)
MAX_GAMES_HELP = (
    "Stop as inconclusive after this many games, rounded up to whole duplicate sets (a set: "
    "one deal in every seat order of the line-ups)"
)
VERDICTS = {
    "H1": "H1 accepted: A is stronger by at least {elo1:g}",
    "H0": "H0 accepted: A is not stronger than {elo0:g}",
    "inconclusive": "inconclusive: --max-games reached before either bound",
    "": "not finished: rerun the same command to resume",
}

ESTIMATES = {  # the JSON's elo_estimate for Verdict.estimate
    "median-unbiased": "median-unbiased at the stop",
    "plain mean": "plain mean near the fewest sets",
    "plain mean (inconclusive)": "plain mean, fixed-sample interval (inconclusive)",
}


def _signed(x: float) -> str:
    return f"{x:+.1f}"


def _interval(v) -> str:
    """The estimate's interval, or nothing while a test has too few sets to have one."""
    if math.isnan(v.elo_low):
        return ""
    return f" [{_signed(v.elo_low)}, {_signed(v.elo_high)}]"


def step_line(v, bounds) -> str:
    """One line of the live view: sets, games, LLR against its bounds, the estimate (the
    mean so far; its normal interval from LIVE_MIN_SETS sets on, for orientation only)."""
    return (
        f"sets {v.sets} ({v.games} games)  LLR {v.llr:.2f} ({v.lower:.2f}, {v.upper:.2f}) "
        f"[{bounds.elo0:g}, {bounds.elo1:g}]  elo {_signed(v.elo)}{_interval(v)}"
    )


def _how(v) -> str:
    """How the reported estimate was made, for the text report."""
    if v.estimate == "plain mean":
        return (
            f"95%, plain mean and fixed-sample interval: stopped within a few sets of the "
            f"fewest that could cross ({v.fewest_sets}), where the stopping time says "
            "nothing of how large the gap is"
        )
    if v.estimate == "plain mean (inconclusive)":
        return (
            "95%, plain mean and fixed-sample interval: the test reached --max-games without "
            "crossing a bound, so its stopping rule never acted"
        )
    if v.estimate == "median-unbiased":
        return "95%, median-unbiased at the stop"
    if math.isnan(v.elo_low):
        return "mean so far; no interval on so few sets"
    return "mean so far, normal interval for orientation only: not a confidence statement"


class SprtProgress:
    """A live line on a terminal; elsewhere a plain line whenever the LLR has moved by a
    tenth of the distance between the bounds (and at the stop). Nothing with --quiet."""

    def __init__(self, mode: str, bounds):
        self.mode, self.bounds = mode, bounds
        self.live: Any = None
        self.shown = 0.0

    def on_step(self, v) -> None:
        text = step_line(v, self.bounds)
        if self.mode == "live":
            if self.live is None:
                from rich.console import Console  # deferred: fast --help
                from rich.live import Live  # deferred: fast --help

                self.live = Live(text, console=Console(stderr=True), refresh_per_second=4)
                self.live.__enter__()
            self.live.update(text)
        elif self.mode == "plain" and (
            abs(v.llr - self.shown) >= 0.1 * (v.upper - v.lower) or v.sets == 1 or v.verdict
        ):
            print(text, file=sys.stderr, flush=True)
            self.shown = v.llr

    def close(self) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)
            self.live = None


def _request(
    game, spec_a, spec_b, elo0, elo1, alpha, beta, preset, model, filler, max_games, seed, llr
):
    from tournament.sprt.gsprt import PRESETS, Bounds, SprtError  # deferred: fast --help
    from tournament.sprt.run import SprtRequest  # deferred: fast --help

    with domain_errors(2):
        name = preset or "gain"
        if name not in PRESETS:
            raise SprtError(f"--preset must be one of {', '.join(PRESETS)}, got {name!r}")
        p0, p1 = PRESETS[name]
        if model != "logistic" and preset is not None:
            raise SprtError("--preset bounds are logistic Elo; give --elo0 and --elo1 instead")
        bounds = Bounds(
            p0 if elo0 is None else elo0, p1 if elo1 is None else elo1, alpha, beta, model, llr
        )
        if max_games < 1:
            raise SprtError(f"--max-games must be >= 1, got {max_games}")
        return SprtRequest(game, spec_a, spec_b, bounds, filler, max_games, seed)


def _report(req, v, out: Path, played: int, as_json: bool, stdout: TextIO) -> None:
    b = req.bounds
    if as_json:
        obj = {
            "game": req.game,
            "a": req.spec_a,
            "b": req.spec_b,
            "filler": req.filler,
            "bounds": {
                "elo0": b.elo0,
                "elo1": b.elo1,
                "alpha": b.alpha,
                "beta": b.beta,
                "elo_model": b.model,
                "llr": b.llr,
            },
            "verdict": v.verdict or "running",
            "sets": v.sets,
            "games": v.games,
            "llr": round(v.llr, 4),
            "llr_bounds": [round(v.lower, 4), round(v.upper, 4)],
            "elo": round(v.elo, 2),
            "elo_ci": None  # an open end (every set won or lost) is null, as in ratings
            if math.isnan(v.elo_low)
            else [_finite_or_none(v.elo_low), _finite_or_none(v.elo_high)],
            "elo_estimate": ESTIMATES.get(v.estimate, v.estimate),
            "fewest_sets": v.fewest_sets or None,
            "score": round(v.score, 4),
            "score_sd": None if math.isnan(v.sd) else round(v.sd, 4),
            "void_sets": v.void_sets,
            "sets_after_stop": v.extra_sets,
            "max_games_asked": req.max_games,
            "max_sets": v.max_sets,
            "max_games": v.max_sets * v.games_per_set,
            "games_per_set": v.games_per_set,
            "fewest_sets_to_cross": v.to_cross,
            "warnings": v.warnings,
            "played_now": played,
            "ledger": str(out),
        }
        stdout.write(json_text(obj, indent=2) + "\n")
        return
    filler = "copies of A and B" if req.filler == "ab" else req.filler
    if v.players == 2:  # A and B take every seat (sprt_config)
        filler = "none (two players)"
    unit = "Elo" if b.model == "logistic" else "normalized Elo"
    lines = [
        f"SPRT {req.game}: A = {req.spec_a}, B = {req.spec_b}, other seats: {filler}",
        b.describe(),
        f"verdict: {VERDICTS[v.verdict].format(elo0=b.elo0, elo1=b.elo1)} "
        f"({v.sets} sets, {v.games} games)",
        f"LLR {v.llr:.2f} (bounds {v.lower:.2f}, {v.upper:.2f})",
        f"{unit} of A over B: {_signed(v.elo)}{_interval(v)} ({_how(v)})",
        f"mean set score {v.score:.3f}, per-set SD {v.sd:.3f}",
    ]
    if v.extra_sets:
        lines.append(f"{v.extra_sets} set(s) finished after the stop: in the ledger, not counted")
    if v.void_sets:
        lines.append(f"{v.void_sets} set(s) without a rated game skipped")
    lines += [f"warning: {w}" for w in v.warnings]
    lines.append(f"ledger: {out} (meeple ratings {out})")
    typer.echo("\n".join(lines), file=stdout)


def sprt(
    game: Annotated[str, typer.Argument(help="Game string, e.g. python_coloretto(players=3)")],
    spec_a: Annotated[str, typer.Argument(help="Agent A (the change), e.g. ismcts(sims=800)")],
    spec_b: Annotated[str, typer.Argument(help="Agent B (the reference)")],
    elo0: Annotated[float | None, typer.Option("--elo0", help="H0: A is at most this")] = None,
    elo1: Annotated[float | None, typer.Option("--elo1", help="H1: A is at least this")] = None,
    alpha: Annotated[float, typer.Option(help="False H1 rate (A weaker, H1 accepted)")] = 0.05,
    beta: Annotated[float, typer.Option(help="False H0 rate (A stronger, H0 accepted)")] = 0.05,
    preset: Annotated[str | None, typer.Option("--preset", help=PRESET_HELP)] = None,
    elo_model: Annotated[
        str,
        typer.Option(
            "--elo-model",
            help="logistic (the Elo of meeple ratings) or normalized (fishtest's nElo)",
        ),
    ] = "logistic",
    llr: Annotated[str, typer.Option("--llr", help=LLR_HELP)] = "empirical",
    filler: Annotated[
        str,
        typer.Option(help="Who fills the other seats: ab (copies of A and B) or an agent spec"),
    ] = "ab",
    max_games: Annotated[int, typer.Option("--max-games", help=MAX_GAMES_HELP)] = 20_000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Master seed")] = 0,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Ledger directory; default runs/sprt-<run id>"),
    ] = None,
    workers: WorkersOption = 2,
    address: AddressOption = None,
    executor: ExecutorOption = "auto",
    fmt: FormatOption = OutputFormat.text,
    as_json: JsonFlag = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No live LLR, and none of Ray's own messages")
    ] = False,
) -> None:
    """Is A stronger than B? Play duplicate sets until the LLR crosses a bound.

    Each observation is one deal played in every seat order of the test's line-ups; the
    LLR (generalized SPRT on the set scores) is shown as it moves, and the test resumes
    from its ledger when rerun (see docs/tournaments.md, "SPRT")."""
    from tournament.cli.progress import choose_mode  # deferred: fast --help
    from tournament.sprt.run import sprt_config  # deferred: fast --help

    check_executor(executor)
    req = _request(
        game, spec_a, spec_b, elo0, elo1, alpha, beta, preset, elo_model, filler, max_games, seed,
        llr,
    )  # fmt: skip
    from spiel_games import load_game  # deferred: fast --help

    with domain_errors(2):  # a bad game or agent spec: before the --out ledger is compared
        cfg, _ = sprt_config(req, load_game(game).num_players())
    if out is None:
        out = Path("runs") / f"sprt-{cfg.run_id[:8]}"
    check_ledger_out(out)
    if address:
        from tournament.cluster import check_address  # deferred: fast --help

        with domain_errors(1):  # unreachable: a failure, as in tournament run and solve
            check_address(address)
    progress = SprtProgress(choose_mode(quiet), req.bounds)
    as_json = as_json or fmt == OutputFormat.json
    # Ray's own prints go to stderr (-q: nowhere); SIGTERM, SIGHUP stop as Ctrl-C, and a
    # second one while the stopped test says where it stands is ignored (stop_signals)
    with own_stdout(quiet) as stdout, stop_signals():
        try:
            v, played = _play(req, out, workers, address, executor, progress)
        except _Interrupted as stop:  # still says where the test stands (JSON: "running")
            if stop.standing is not None:
                v, played = stop.standing
                with suppress(KeyboardInterrupt):  # a second Ctrl-C cuts the report short
                    _report(req, v, out, played, as_json, stdout)
            word, code = stop_words(stop.stop)
            raise fail(f"{word}; finished sets are in {out}: rerun to resume", code) from None
        _report(req, v, out, played, as_json, stdout)


class _Interrupted(Exception):
    """Ctrl-C during the test; ``standing`` is (verdict, games played now) read from the
    ledger's finished sets, or None when the ledger cannot be read."""

    def __init__(self, standing, stop: KeyboardInterrupt):
        super().__init__("interrupted")
        self.standing = standing
        self.stop = stop  # Ctrl-C, or SIGTERM/SIGHUP (signals.Stopped)


def _play(req, out: Path, workers: int, address, executor: str, progress: SprtProgress):
    """Play (or resume) the test: its verdict and the games played now. A bad request is
    exit 2 while nothing has been played; a lost cluster or a failed worker is exit 1;
    Ctrl-C is ``_Interrupted``, with where the test stands."""
    from spiel_games.common.errors import one_line  # deferred: fast --help
    from tournament.cluster import RunnerError  # deferred: fast --help
    from tournament.sprt.run import play_sprt  # deferred: fast --help

    before: list[int] = []  # the games the ledger held when the run started
    try:
        with domain_errors(2 if not out.exists() else 1):
            try:
                v, summary, _ = play_sprt(
                    req,
                    out,
                    workers,
                    address,
                    executor,
                    on_start=lambda _summary, rows: _started(req, before, rows),
                    on_step=progress.on_step,
                )
            except RunnerError as e:  # the cluster or a worker failed, not the command line
                raise fail(one_line(e), FAILED) from None
            except OSError as e:  # a full disk: one line, the finished games kept
                raise fail(f"{os_error_line(e)}; rerun to resume from {out}", FAILED) from None
    except KeyboardInterrupt as stop:
        progress.close()
        raise _Interrupted(_standing(req, out, before), stop) from None
    finally:
        progress.close()
    return v, summary.played


def _started(req, before: list[int], rows: list) -> None:
    """The ledger is open and checked: note the games it holds, and warn (before a game is
    played, time to stop it) when --max-games is below the fewest sets to cross a bound."""
    from spiel_games import load_game  # deferred: fast --help
    from tournament.sprt.run import sprt_config  # deferred: fast --help
    from tournament.sprt.state import fewest_to_cross, reach_warnings  # deferred: fast --help

    before.append(len(rows))
    cfg, per_set = sprt_config(req, load_game(req.game).num_players())
    for w in reach_warnings(fewest_to_cross(req.bounds, per_set), cfg.seeds_per_lineup, per_set):
        typer.echo(f"warning: {w}", err=True)


def _standing(req, out: Path, before: list[int]):
    """Where a stopped test stands, from its ledger's finished sets (as a rerun counts
    them), and the games this run played; None when the ledger cannot be read."""
    from spiel_games import load_game  # deferred: fast --help
    from spiel_games.common.errors import MeepleError  # deferred: fast --help
    from tournament.ledger import MANIFEST, read_ledger  # deferred: fast --help
    from tournament.sprt.run import SprtState, sprt_config  # deferred: fast --help

    try:
        cfg, per_set = sprt_config(req, load_game(req.game).num_players())
        rows = []
        if (out / MANIFEST).exists():
            rows = read_ledger(out, ["agents", "ranks", "seed_index"]).table.to_pylist()
    except (MeepleError, OSError, KeyboardInterrupt):  # a second Ctrl-C: stop reading
        return None
    state = SprtState(cfg, req.bounds, per_set)
    state.add(rows)
    return state.result(), len(rows) - before[0] if before else 0


def register(app: typer.Typer) -> None:
    app.command("sprt")(sprt)


def _finite_or_none(x: float) -> float | None:
    return round(x, 2) if math.isfinite(x) else None
