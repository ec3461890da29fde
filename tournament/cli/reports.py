"""The ratings report shared by `meeple ratings` and `meeple demo`: ledgers rated with a
note on foreign files, the table or format on stdout, and the HTML report's path checked
before any work (``report_path``, which `meeple review --html` uses too) and written before
the result is printed (``emit``)."""

from __future__ import annotations

import sys
from contextlib import contextmanager, suppress
from pathlib import Path

import typer

from tournament.cli.common import (
    check_output_path,
    domain_errors,
    fail,
    ledger_arguments,
    stdout_console,
)
from tournament.ledger_open import SIDECARS
from tournament.signals import stop_signals, stop_words


def rate(
    dirs: list[Path],
    anchor: str | None,
    bootstrap: int,
    seed: int = 0,
    luck: bool = False,
    luck_value: str = "lookahead",
):
    from tournament.ratings.fit import AnchorError, parse_anchor  # deferred: fast --help
    from tournament.ratings.load import ratings_from_ledgers  # deferred: fast --help

    with domain_errors(2):  # a malformed --anchor is a wrong command line: nothing read
        anchored = parse_anchor(anchor)
    try:
        with stop_signals(), domain_errors(1), ledger_arguments():  # no ledger there: exit 2
            try:
                r, extra = ratings_from_ledgers(
                    dirs,
                    bootstrap=bootstrap,
                    anchor=anchored,
                    seed=seed,
                    luck_adjusted=luck,
                    luck_value=luck_value,
                )
            except AnchorError as e:  # an agent the ledgers do not have: a wrong command line
                raise fail(str(e), 2) from None
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP (was: exit 130, no word)
        word, code = stop_words(stop)
        kept = (
            "the luck measured so far is kept in each ledger's .luck.json: rerun to go on"
            if luck
            else "nothing was written"
        )
        raise fail(f"{word}: the ratings did not finish; {kept}", code) from None
    ignored = [p for p in extra.get("ignored", []) if Path(p).name not in SIDECARS]
    if ignored:
        names = ", ".join(Path(p).name for p in ignored[:3])
        more = f" and {len(ignored) - 3} more" if len(ignored) > 3 else ""
        typer.echo(f"note: ignored files that are not ledger files: {names}{more}", err=True)
    return r, extra


def emit(r, extra: dict, fmt: str, html: Path | None) -> None:
    """The HTML report written first, then the result printed: a reader of stdout that
    goes away (``| head -1``) does not cost the report."""
    from tournament.ratings import report  # deferred: fast --help

    if html is not None:
        from spiel_games.common.files import atomic_write_text  # deferred: fast --help

        try:
            atomic_write_text(html, report.to_html(r, context=extra))  # never a torn page
        except OSError as e:
            raise fail(f"cannot write {str(html)!r}: {e.strerror or e}") from None
    if fmt == "table":
        report.print_table(r, stdout_console())
    else:
        sys.stdout.write(report.render(r, fmt, extra).rstrip("\n") + "\n")
    if html is not None:
        typer.echo(f"HTML report: {html}", err=fmt != "table")


@contextmanager
def report_path(html: Path | None):
    """Before any work: the report's missing directories are made (a one-line usage error
    when they cannot be) and an existing file there must be a report
    (``check_report_target``). When the command fails after that, the directories it made
    are removed again (when still empty): a failed command leaves nothing behind."""
    if html is None:
        yield
        return
    try:
        missing = [d for d in html.parents if not d.exists()]
    except OSError as e:  # a name over 255 bytes (was a traceback)
        raise fail(f"--html {str(html)!r}: {e.strerror or e}", 2) from None
    from tournament.ledger_open import ledger_spoiled_by  # deferred: fast --help

    spoiled = ledger_spoiled_by(html)  # was: `ratings L --html L/x.parquet` broke ledger L
    if spoiled is not None:
        raise fail(
            f"--html {str(html)!r} would be a foreign file in the ledger {spoiled} (a folder or"
            " a .parquet file there stops every read of it); write the report beside the"
            " batches or outside the ledger",
            2,
        )
    made: list[Path] = []
    try:
        try:
            for d in reversed(missing):
                d.mkdir()
                made.append(d)
        except OSError as e:
            raise fail(f"--html {str(html)!r}: cannot make {str(d)!r} ({e.strerror})", 2) from None
        check_output_path(str(html), "--html", report=True)
        yield
    except BaseException:
        for d in reversed(made):
            with suppress(OSError):
                d.rmdir()
        raise
