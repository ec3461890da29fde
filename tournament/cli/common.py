"""Shared CLI plumbing: the one place where domain errors become `error: <line>` + exit code.

Commands import their work lazily (inside the command, each such line marked
``# deferred: fast --help``) so that ``meeple --help`` does not load pyspiel or Ray.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print a one-line error on stderr and return the Exit to raise."""
    first = str(message).strip().splitlines()[0] if str(message).strip() else "error"
    print(f"error: {first}", file=sys.stderr)
    return typer.Exit(code)


@contextmanager
def domain_errors(code: int = 1) -> Iterator[None]:
    """Turn any MeepleError raised inside into ``error: <one line>`` and exit ``code``
    (2 for bad input that stopped anything from running, 1 for a failure while working)."""
    # importing spiel_games registers every game (pyspiel): deferred: fast --help
    from spiel_games.common.errors import MeepleError, one_line  # deferred: fast --help

    try:
        yield
    except MeepleError as e:
        raise fail(one_line(e), code) from None
