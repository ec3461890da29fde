"""Named pipes in tests of code that must refuse them unread: a reader (or a writer) that
waits on a pipe would hang the suite, so each helper opens the pipe from a timer thread
and the old code fails its test instead of hanging."""

from __future__ import annotations

import contextlib
import os
import threading

import pytest

pipes = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")


def release(fifo) -> None:
    """Open the pipe both ways, releasing a reader or writer that waits on it."""
    for flags in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):
        with contextlib.suppress(OSError):  # no reader (writer): nobody waits that way
            os.close(os.open(fifo, flags))


def release_later(fifo, seconds: float = 20.0) -> threading.Timer:
    """``release`` after ``seconds`` (a daemon timer, returned so a test may cancel it)."""
    timer = threading.Timer(seconds, release, (fifo,))
    timer.daemon = True
    timer.start()
    return timer


def unblocked(fifo, call, seconds: float = 30.0):
    """``call()``'s result, failing the test when it still waits on the pipe after
    ``seconds`` (a hang, not a speed: the fixed code returns at once); the pipe is then
    released so that the old code's thread ends."""
    out: list = []
    t = threading.Thread(target=lambda: out.append(call()), daemon=True)
    t.start()
    t.join(seconds)
    hung = t.is_alive()
    release(fifo)
    t.join(5)
    assert not hung, "waited on the pipe"
    return out[0]
