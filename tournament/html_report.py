"""The mark of an HTML report meeple writes (``ratings --html``, ``review --html``, ``demo
--html``): an existing file is replaced only when it carries it (an earlier report) or is
an empty regular file (``--html "$(mktemp --suffix .html)"``), never any other page that
merely starts like HTML, nor a device, a pipe or a socket (``tournament.cli.common
.is_report`` reads the head of a regular file only)."""

from __future__ import annotations

MARK = '<meta name="generator" content="meeple-arena">'
HEAD = 4096  # the mark sits in the <head>, within the first bytes of every report


def marks_report(head: bytes) -> bool:
    """Whether a file whose first ``HEAD`` bytes are ``head`` is a report meeple wrote (its
    ``MARK`` there) or empty."""
    return not head.strip() or MARK.encode() in head
