"""Crash-safe file writes: a reader sees the old file or the new one, never a torn one.

The one place the project writes files that must survive a crash or a full disk: game
records, ledger parts and manifests, value models, training manifests. The new content
goes to a temporary file in the same directory (named ``TMP_PREFIX + name + .pid``, so
readers of a directory can skip leftovers), is flushed to disk, then renamed over the
target; the rename is made durable by syncing the directory.
"""

from __future__ import annotations

import os
from pathlib import Path

TMP_PREFIX = ".tmp-"


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (an error leaves ``path`` as it was)."""
    path = Path(path)
    tmp = path.with_name(f"{TMP_PREFIX}{path.name}.{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode())
