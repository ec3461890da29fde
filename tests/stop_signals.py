"""Stop signals as a terminal delivers them, for the tests that send them. ``nohup make
test`` starts the run with SIGHUP ignored, which every child inherits and which `meeple`
rightly keeps (``tournament.signals.stop_signals``: a nohup'ed command outlives the
hang-up); a test of what a hang-up does must start from the default instead."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

STOPS = (signal.SIGHUP, signal.SIGTERM)


def default_stops() -> None:
    """For ``subprocess.Popen(preexec_fn=...)``: the child starts with the default."""
    for sig in STOPS:
        signal.signal(sig, signal.SIG_DFL)


@contextmanager
def delivered_stops() -> Iterator[None]:
    """In this process: the stop signals at their default while the block runs (none
    ignored), the previous handlers back after."""
    old = {sig: signal.getsignal(sig) for sig in STOPS}
    try:
        for sig, handler in old.items():
            if handler is signal.SIG_IGN:
                signal.signal(sig, signal.SIG_DFL)
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
