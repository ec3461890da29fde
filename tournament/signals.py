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


STOPS = ("SIGINT", "SIGHUP", "SIGTERM")  # what stops a command: Ctrl-C and the two above


@contextmanager
def stop_signals(interrupt: bool = False) -> Iterator[None]:
    """SIGHUP and SIGTERM raise ``Stopped`` in the main thread; a second one while the
    command stops (a game being saved, a checkpoint written) is ignored, so that
    finishes. With ``interrupt`` Ctrl-C (SIGINT) is handled so too: the first raises
    KeyboardInterrupt, any stop signal after it is ignored (``meeple play``: a second
    Ctrl-C pressed while the game is kept once ended the command with the file half
    made). A signal ignored from the start stays ignored (``nohup meeple ...`` outlives
    the hang-up it asked to). The previous handlers come back after."""
    raised: list[int] = []

    def stop(signum, frame):
        if not raised:
            raised.append(signum)
            raise KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)

    old = _install(STOPS if interrupt else STOPS[1:], stop)
    try:
        yield
    finally:
        _restore(old)


@contextmanager
def deferred_stops(redeliver: bool = True) -> Iterator[None]:
    """Ctrl-C, SIGHUP and SIGTERM held while the block runs (a game being written), so
    none breaks it off. After it the first one held goes to the handler in place before
    (``redeliver``), or is dropped: the command is stopping already. Outside the main
    thread nothing is held."""
    held: list[int] = []
    old = _install(STOPS, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        _restore(old)
        if held and redeliver:
            signal.raise_signal(held[0])  # its handler runs here (KeyboardInterrupt, Stopped)


def _install(names, handler) -> dict:
    """``handler`` for each signal of ``names`` this platform has, but one ignored from the
    start (``nohup`` ignores SIGHUP, a shell's background job SIGINT: the user asked the
    command to outlive it, so it is left ignored); the handlers replaced, to restore.
    Outside the main thread nothing is installed."""
    old = {}
    for name in names:
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            if signal.getsignal(sig) == signal.SIG_IGN:
                continue
            old[sig] = signal.signal(sig, handler)
        except ValueError:  # not the main thread: leave the signals alone
            break
    return old


def _restore(old: dict) -> None:
    for sig, handler in old.items():
        signal.signal(sig, signal.SIG_DFL if handler is None else handler)


def stopped_exit(code: object) -> bool:
    """Whether ``code`` is the exit status of a command a stop signal ended (130, 129,
    143: 128 + SIGINT, SIGHUP or SIGTERM)."""
    return code in {128 + getattr(signal, name) for name in STOPS if hasattr(signal, name)}


def ignore_stops() -> None:
    """Ctrl-C and SIGHUP ignored for the rest of the process: called once a stopped
    command has kept everything and only exits, so a second Ctrl-C pressed while Python
    shuts down (10-150 ms after ``meeple play`` kept the game) does not turn the stopped
    command's status 130 into a kill by SIGINT. SIGTERM still ends an exit that hangs."""
    _install(("SIGINT", "SIGHUP"), signal.SIG_IGN)


def stop_words(stop: KeyboardInterrupt) -> tuple[str, int]:
    """What stopped the command, in a word, and its exit status: Ctrl-C "interrupted"
    (130), SIGTERM "terminated" (143), SIGHUP "hung up" (129): 128 + the signal."""
    signum = getattr(stop, "signum", 0)
    if not signum:
        return "interrupted", 130
    return ("hung up" if signum == getattr(signal, "SIGHUP", None) else "terminated"), 128 + signum
