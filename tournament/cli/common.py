"""Shared CLI plumbing: one-line errors and exit codes."""

from __future__ import annotations

import sys

import typer


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print a one-line error on stderr and return the Exit to raise."""
    first = str(message).strip().splitlines()[0] if str(message).strip() else "error"
    print(f"error: {first}", file=sys.stderr)
    return typer.Exit(code)
