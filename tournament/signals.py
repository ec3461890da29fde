"""Termination signals handled as Ctrl-C is: SIGHUP (the terminal closed, a dropped
connection) and SIGTERM (``kill``, a scheduler's stop) raise ``Stopped``, a
KeyboardInterrupt, in the main thread, so a command stops as it does on Ctrl-C (a game
saved, finished batches and checkpoints kept) and says so in one line, instead of dying
silently. Standard library only: the CLI imports it before any heavy module."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


class Stopped(KeyboardInterrupt):
    """A hang-up or termination signal, stopping the command the way Ctrl-C does."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def stop_signals() -> Iterator[None]:
    """SIGHUP and SIGTERM raise ``Stopped`` in the main thread; a second one while the
    command stops (a game being saved, a checkpoint written) is ignored, so that
    finishes. The previous handlers come back after."""
    raised: list[int] = []

    def stop(signum, frame):
        if not raised:
            raised.append(signum)
            raise Stopped(signum)

    old = {}
    for name in ("SIGHUP", "SIGTERM"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            old[sig] = signal.signal(sig, stop)
        except ValueError:  # not the main thread: leave the signals alone
            break
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def stop_words(stop: KeyboardInterrupt) -> tuple[str, int]:
    """What stopped the command, in a word, and its exit status: Ctrl-C "interrupted"
    (130), SIGTERM "terminated" (143), SIGHUP "hung up" (129): 128 + the signal."""
    signum = getattr(stop, "signum", 0)
    if not signum:
        return "interrupted", 130
    return ("hung up" if signum == getattr(signal, "SIGHUP", None) else "terminated"), 128 + signum
