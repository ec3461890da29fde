"""The command's result on stdout, kept apart from what Ray prints there while it runs
(``own_stdout``), and whether the reader of that result went away (``stdout_closed``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TextIO

# the descriptor the command's result goes to: 1, or its copy while ``own_stdout`` runs
_result_fd = [1]


def stdout_closed() -> bool:
    """Whether the reader of the result's file descriptor has gone away (a pipe whose
    reading end is closed reports POLLERR, a closed socket POLLHUP); False where it cannot
    be told."""
    import select

    if not hasattr(select, "poll"):
        return False
    try:
        poller = select.poll()
        poller.register(_result_fd[-1], 0)  # POLLERR, POLLHUP, POLLNVAL: always reported
        events = poller.poll(0)
    except (OSError, ValueError):
        return False
    return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in events)


@contextmanager
def own_stdout(quiet: bool = False) -> Iterator[TextIO]:
    """Stdout for the command's result alone while Ray may run; yields the stream to write
    the result to (where stdout was).

    Ray prints on the driver's stdout: a lost node's last raylet log lines (some 20) and a
    dead worker's "A worker died or was killed" warning, from one of Ray's threads through
    ``sys.stdout`` (``log_to_driver=False`` does not stop them); native code (Ray's C++
    core, a game's) may write to file descriptor 1. Inside, both go to stderr: fd 1 points
    at fd 2 and ``sys.stdout`` is ``sys.stderr``, whenever Ray's threads write and for any
    child process started meanwhile, so a JSON result stays one parseable object. With
    ``quiet`` (``--quiet``) they go to the null device, and Python's logging (Ray's ``ray``
    loggers; meeple logs nothing) is off: stderr keeps the command's own lines alone, its
    one-line errors (a lost head's) among them. All is restored on the way out, after
    ending a Ray session begun inside and left open (whose shutdown prints again what Ray
    held back). Where ``sys.stdout`` is not fd 1 (a test's captured stream), the result
    goes to that stream."""
    real = sys.stdout
    real.flush()
    saved = _divert_fd_1(quiet)
    out: TextIO = real
    if saved is not None and _on_fd(real, 1):
        out = open(  # noqa: SIM115 - closed in the finally below, the fd kept open
            saved, "w", buffering=1, encoding=real.encoding, errors=real.errors, closefd=False
        )
    ray_before = _ray_on()
    logging_before = _quiet_logging() if quiet else None
    sys.stdout = _null_stream() if quiet else sys.stderr
    if saved is not None:
        _result_fd.append(saved)
    try:
        yield out
    finally:
        if saved is not None:
            _result_fd.pop()
        try:
            if not ray_before and _ray_on():  # the runner ends its own; this is for others
                sys.modules["ray"].shutdown()  # Ray's last prints: still kept off stdout
        finally:
            sys.stdout = real
            if logging_before is not None:
                logging_before()
            try:
                if out is not real:
                    out.close()  # flushes the result (a closed reader: BrokenPipeError)
            finally:  # fd 1 restored whatever the flushes raise
                try:
                    real.flush()  # what went to the old stream meanwhile: where Ray's prints went
                    sys.stderr.flush()
                finally:
                    if saved is not None:
                        os.dup2(saved, 1)
                        os.close(saved)


def _divert_fd_1(quiet: bool) -> int | None:
    """A copy of fd 1, which now points at fd 2 (``quiet``: at the null device); None, and
    nothing moved, when fd 1 or 2 is closed (no reader to keep apart)."""
    saved: int | None = None
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:
        if saved is not None:
            os.close(saved)
        return None
    if quiet:
        os.dup2(_null_stream().fileno(), 1)
    return saved


@cache
def _null_stream() -> TextIO:
    """``sys.stdout`` under ``own_stdout(quiet=True)``, opened once and never closed: one of
    Ray's threads may still hold it after the command (a session begun before it)."""
    return open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - kept open


def _quiet_logging() -> Callable[[], None]:
    """Python's logging off (``logging.disable``); returns what turns it back as it was."""
    import logging

    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    return lambda: logging.disable(before)


def _ray_on() -> bool:
    """Whether this process has a Ray session (Ray is never imported here for it)."""
    ray = sys.modules.get("ray")
    return ray is not None and bool(getattr(ray, "is_initialized", lambda: False)())


def _on_fd(stream: TextIO, fd: int) -> bool:
    try:
        return stream.fileno() == fd
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return False
