"""Shared CLI plumbing: the one place where errors become `error: <line>` + exit code.

Exit codes, the same for every command:

- 0: success;
- 2: the command line is wrong: an unknown option or command, a missing argument, an
  option value out of range, an unknown game, agent kind or solver, a bad config, an
  ``--out`` that holds another run or other files (``ForeignOutputError``, found before
  any work, whatever ``domain_errors``' code), a ledger path that holds no ledger or a
  game id it does not hold (``ledger_arguments``), a game record path that names no
  file (``NoRecordError``). Nothing has run;
- 1: the request was well formed but failed while working: a corrupt file (a corrupt or
  foreign record, ledger part or checkpoint), a position that does not exist, an agent
  that fails, a lock held by another run;
- 130: interrupted (Ctrl-C; before a command's own handlers too); 143 and 129 (128 +
  the signal) for SIGTERM and SIGHUP where a command stops on them as on Ctrl-C.

A reader of stdout that goes away (``meeple ratings DIR | head -1``) ends the command
quietly with 141 (128 + SIGPIPE, the status a shell reports for a Unix tool that a closed
pipe stops; ``tournament.cli.group.MeepleGroup.invoke``): nothing on stderr, the files
the command writes (an HTML report, a saved game) written before its result is printed;
a tournament stopped so keeps its finished games for the rerun. A broken pipe that is not stdout's is an error
(exit 1). (``advise --serve``, whose client ending the session is its normal end, exits 0.)

Every error is one line on stderr: ``error: <what>``. typer/click's own usage errors
(boxed, several lines) are turned into that line by ``tournament.cli.group``'s
``MeepleGroup``, the root group's class. Commands import their work lazily (each such line marked ``# deferred:
fast --help``) so that ``meeple --help`` does not load pyspiel or Ray.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from tournament.html_report import HEAD, marks_report
from tournament.signals import stop_words

# `-h` as well as `--help`; click passes this to every sub-command's context.
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}

USAGE = 2  # exit code: the command line is wrong, nothing ran
FAILED = 1  # exit code: the command ran and failed
STDOUT_GONE = 141  # exit code: the reader of stdout went away (128 + SIGPIPE), quietly
MAX_LINE = 2000  # spiel_games.common.errors.MAX_LINE, which this module must not import


def fail(message: str, code: int = FAILED) -> typer.Exit:
    """Print a one-line error on stderr (its first line, cut as ``one_line`` cuts a long
    one) and return the Exit to raise."""
    print(f"error: {_cut(str(message))}", file=sys.stderr)
    return typer.Exit(code)


def _cut(message: str) -> str:
    """The message's first line, cut by ``one_line`` when long. The cutter is imported
    only then: importing spiel_games loads pyspiel, which a usage error must not wait for."""
    lines = message.strip().splitlines()
    if not lines:
        return "error"
    if len(lines[0]) <= MAX_LINE:
        return lines[0]
    from spiel_games.common.errors import one_line  # deferred: fast --help

    return one_line(message)


@contextmanager
def domain_errors(code: int = FAILED) -> Iterator[None]:
    """Turn any MeepleError raised inside into ``error: <one line>`` and exit ``code``
    (2 for bad input that stopped anything from running, 1 for a failure while working);
    an ``--out`` holding another run (ForeignOutputError) is always 2."""
    # importing spiel_games registers every game (pyspiel): deferred: fast --help
    from spiel_games.common.errors import (  # deferred: fast --help
        ForeignOutputError,
        MeepleError,
        one_line,
    )

    try:
        yield
    except MeepleError as e:
        raise fail(one_line(e), USAGE if isinstance(e, ForeignOutputError) else code) from None


def refuse_inside_ledger(option: str, path, *more) -> None:
    """Refuse (exit 2) an output ``path`` that lies inside a tournament ledger's folder: any
    file or folder written there makes every later read of that ledger refuse it (a
    foreign file), so ``ratings`` would stop reading the tournament. ``more``: further
    (option, path) pairs, each checked so (a path None is not given). A name the system
    cannot look up (a part over 255 bytes) is refused first."""
    from spiel_games.common.files import lookup_problem  # deferred: fast --help
    from tournament.ledger_open import ledger_around  # deferred: fast --help

    if path is not None and (why := lookup_problem(path)):
        raise fail(f"{option} {path}: {why}", USAGE)
    if more:
        refuse_inside_ledger(*more)
    around = ledger_around(path) if path is not None else None
    if around is not None:
        raise fail(
            f"{option} {path} is inside the tournament ledger {around}, which holds only its "
            "own files (anything else there makes every read of it refuse it); choose a path "
            "outside it",
            USAGE,
        )


def os_error_line(e: OSError) -> str:
    """An ``OSError`` that ended a command as one line, naming its file when it names one
    (every write of ``spiel_games.common.files`` does): ``runs/t/part-00003.parquet: No
    space left on device``."""
    why = e.strerror or str(e)
    return f"{e.filename}: {why}" if e.filename else why


@contextmanager
def run_ended(then: str) -> Iterator[None]:
    """A resumable run's stop (Ctrl-C, SIGTERM, SIGHUP: ``stop_words``' status) or failed
    write (an OSError: a full disk; status 1) as one line, ``then`` saying how to go on
    from what it wrote: ``error: terminated; <then>``, ``error: <file>: No space left on
    device; <then>``."""
    try:
        yield
    except KeyboardInterrupt as stop:
        word, code = stop_words(stop)
        raise fail(f"{word}; {then}", code) from None
    except OSError as e:
        raise fail(f"{os_error_line(e)}; {then}", FAILED) from None


@contextmanager
def ledger_arguments() -> Iterator[None]:
    """A ledger path that holds no ledger (nothing there, a file, a directory without a
    manifest) or a game id the ledger does not hold, given on the command line: exit 2,
    the command line is wrong; a damaged ledger stays exit 1 (``domain_errors``)."""
    from spiel_games.common.errors import one_line  # deferred: fast --help
    from tournament.ledger import LedgerArgumentError  # deferred: fast --help

    try:
        yield
    except LedgerArgumentError as e:  # no ledger there, an unknown game id, one given twice
        raise fail(one_line(e), USAGE) from None


class OutputFormat(StrEnum):
    """``--format``: what every command that prints a result can print."""

    text = "text"
    json = "json"


FormatOption = Annotated[
    OutputFormat, typer.Option("--format", help="Output: text or json (one JSON object)")
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Same as --format json")]
OpponentsOption = Annotated[
    str | None,
    typer.Option(
        "--opponents",
        help="Opponent model the search values assume: auto, heuristic, search, infer or blueprint "
        "(learned from the moves so far); sets the agents' opponents=",
    ),
]


def stdout_console(file: TextIO | None = None):
    """A rich Console on stdout (or ``file``: ``own_stdout``'s stream) whose closed reader
    raises BrokenPipeError, ended quietly by :meth:`tournament.cli.group.MeepleGroup.invoke` (rich's own exits 1
    without a word)."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True  # print no more
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    return _Console(file=file)


def json_text(obj: Any, indent: int | None = 1) -> str:
    """``obj`` as strict JSON (a value not measured is null): a NaN or Infinity left in a
    result is a bug, one line and exit 1, never a non-standard ``NaN`` on stdout."""
    try:
        return json.dumps(obj, indent=indent, allow_nan=False)
    except ValueError as e:
        raise fail(f"the result cannot be written as JSON: {e}", FAILED) from None


def wants_json(fmt: OutputFormat | str, as_json: bool) -> bool:
    """True when ``--format json`` or its alias ``--json`` was given."""
    return as_json or str(getattr(fmt, "value", fmt)) == "json"


def opponent_line(game_string: str, spec) -> str:
    """The line naming the opponent model an agent's values assume."""
    import pyspiel  # deferred: fast --help

    from solvers.assumptions import assumed_opponents  # deferred: fast --help

    return f"Opponent model ({spec}): " + assumed_opponents(pyspiel.load_game(game_string), spec)


def with_opponents(spec, model: str | None):
    """``spec`` with ``opponents=model`` when given (solvers.assumptions)."""
    from solvers import assumptions  # deferred: fast --help

    return assumptions.with_opponents(spec, model)


def check_output_path(path: str, option: str, *, report: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work is done: a directory,
    a device, a pipe or a socket (symlinks followed: the file a symlink names is the one
    written; ``spiel_games.common.files``), or a directory that is missing or read-only. A
    ``report`` (HTML) replaces only an earlier HTML report, never another file (a saved
    game, a ledger's manifest)."""
    from spiel_games.common.files import NotRegularFile, write_target  # deferred: fast --help

    try:
        target = write_target(path)  # where the new file goes: beside a symlink's target
    except NotRegularFile as e:
        raise fail(f"{option} {path!r} {e}", 2) from None
    except OSError as e:  # a symlink loop, a name too long
        raise fail(f"{option} {path!r}: {e.strerror or e}", 2) from None
    own = _own_output(path)
    if own:  # `--html out.html > out.html`, /proc/self/fd/1: what is printed would be lost
        raise fail(f"{option} {path!r} is this command's {own}; choose another file", 2)
    if target.parent.exists() and not target.parent.is_dir():
        raise fail(f"{option} {path!r}: {str(target.parent)!r} is not a directory", 2)
    if not target.parent.is_dir():
        raise fail(f"{option} {path!r}: the directory {str(target.parent)!r} does not exist", 2)
    if not os.access(target.parent, os.W_OK):  # a read-only disk: say so before the work
        raise fail(f"{option} {path!r}: the directory {str(target.parent)!r} is not writable", 2)
    if report:
        check_report_target(Path(path), option)


def _own_output(path: str) -> str:
    """ "standard output" or "standard error" when ``path`` names the file the command
    prints to (a shell redirection to it, a symlink to /proc/self/fd/1), else ""."""
    try:
        st = os.stat(path)
    except OSError:
        return ""
    for fd, name in ((1, "standard output"), (2, "standard error")):
        try:
            if os.path.samestat(st, os.fstat(fd)):
                return name
        except OSError:  # started with the descriptor closed
            continue
    return ""


def check_ledger_out(out: Path) -> None:
    """An ``--out`` ledger directory that is an existing file (a saved game, a report) is
    a wrong command line: refused before anything runs, the file kept; so is a name the
    system cannot look up (a part over 255 bytes)."""
    from spiel_games.common.files import lookup_problem  # deferred: fast --help

    if why := lookup_problem(out):
        raise fail(f"--out {str(out)!r}: {why}", 2)
    if out.exists() and not out.is_dir():
        raise fail(f"--out {str(out)!r} exists and is not a directory (a ledger directory)", 2)


def check_report_target(target: Path, option: str) -> None:
    """An existing ``target`` may be replaced only by a report: an earlier HTML report
    meeple wrote (``tournament.html_report.MARK``) or an empty file (``--html "$(mktemp
    --suffix .html)"``), never a saved game, a ledger's manifest, another HTML page or
    anything that is not a regular file (a device, a pipe: never read)."""
    if target.exists() and not is_report(target):
        raise fail(
            f"{option} {str(target)!r} exists and is not a meeple HTML report; choose another path",
            2,
        )


def is_report(path: str | Path) -> bool:
    """True for an empty regular file or a report meeple wrote (``marks_report``); False
    for anything that is not a regular file (symlinks followed), found before a byte is
    read (``open_regular``): a device is not an empty file, a pipe is not waited on."""
    from spiel_games.common.files import open_regular  # deferred: fast --help

    try:
        with open_regular(path, sys.maxsize) as f:
            return marks_report(f.read(HEAD))
    except OSError:
        return False


# ----- Ray options, the same on every command that runs games or batches on Ray -----------
EXECUTOR_HELP = (
    "auto (serial while Ray would not pay off, see docs/tournaments.md), ray, or serial "
    "(in-process)"
)
# every --workers (Ray CPUs, MCCFR's batches per round, tune's and review's processes): a
# bound no machine or cluster this runs on reaches, checked on the command line (was an
# OverflowError or a MemoryError where a session or a pool of that size was made)
MAX_WORKERS = 1024


def workers_option(help: str) -> Any:
    """A ``--workers``/``-w`` option of 1 to ``MAX_WORKERS``, saying ``help``."""
    return typer.Option("--workers", "-w", min=1, max=MAX_WORKERS, help=help)


WorkersOption = Annotated[int, workers_option("CPUs for the local Ray session")]
AddressOption = Annotated[
    str | None, typer.Option("--address", help="Ray cluster address (or set RAY_ADDRESS)")
]
ExecutorOption = Annotated[str, typer.Option("--executor", help=EXECUTOR_HELP)]


def check_executor(executor: str) -> None:
    if executor not in ("auto", "ray", "serial"):
        raise fail(f"--executor must be auto, ray or serial, got {executor!r}", USAGE)
