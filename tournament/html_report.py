"""The mark of an HTML report meeple writes (``ratings --html``, ``review --html``, ``demo
--html``): an existing file is replaced only when it carries it (an earlier report) or is
empty (``--html "$(mktemp --suffix .html)"``), never any other page that merely starts
like HTML."""

from __future__ import annotations

from pathlib import Path

MARK = '<meta name="generator" content="meeple-arena">'
_HEAD = 4096  # the mark sits in the <head>, within the first bytes of every report


def is_report(path: Path) -> bool:
    """True for an empty file or a report meeple wrote (its ``MARK`` in the head)."""
    try:
        with open(path, "rb") as f:
            head = f.read(_HEAD)
    except OSError:
        return False
    return not head.strip() or MARK.encode() in head
