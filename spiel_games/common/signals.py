"""Signal handlers that a library call must not take over.

``ray.init`` installs its own SIGTERM handler in the main thread (``sys.exit(15)``), which
replaced the command's (``tournament.signals.stop_signals``: SIGTERM stops a run as
Ctrl-C does, in one line, with exit 143): a run on Ray then died with exit 15 and no line.
``kept_handlers`` puts the handlers back after such a call. Standard library only.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

KEPT = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def kept_handlers() -> Iterator[None]:
    """The SIGTERM and SIGHUP handlers as they were before the block, after it (outside
    the main thread, where handlers cannot be set, nothing is done)."""
    before = {sig: signal.getsignal(sig) for sig in KEPT}
    try:
        yield
    finally:
        for sig, handler in before.items():
            if handler is None:  # installed outside Python: nothing to put back
                continue
            try:
                if signal.getsignal(sig) is not handler:
                    signal.signal(sig, handler)
            except ValueError:  # not the main thread
                break
