"""Crash-safe file writes: a reader sees the old file or the new one, never a torn one.

The one place the project writes files that must survive a crash or a full disk: game
records, ledger parts and manifests, value models, training manifests. The new content
goes to a temporary file in the same directory (named ``TMP_PREFIX + name + .pid``, so
readers of a directory can skip leftovers), is flushed to disk, then renamed over the
target; the rename is made durable by syncing the directory. ``run_lock`` keeps two runs
from writing one output directory at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

TMP_PREFIX = ".tmp-"
LOCK = ".lock"  # the lock file ``run_lock`` holds in a run's directory


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


def existing_parent(path: str | Path) -> Path:
    """The nearest folder on ``path``'s way that exists (where writing ``path`` would make
    its missing directories): the place to check before a long run writes there."""
    parent = Path(path).parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent


@contextlib.contextmanager
def run_lock(directory: str | Path, error: type[Exception]) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (made when missing) for the block: a second
    run on the same directory is refused at once with ``error`` instead of redoing the
    first one's work into the same files (OSError where the directory cannot be made). A
    directory this call made and that still holds nothing but the lock file is removed
    again, so a refused request leaves nothing."""
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise error(f"{d} exists and is not a directory")
    made = not d.exists()
    d.mkdir(parents=True, exist_ok=True)
    fd = os.open(d / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise error(f"{d} is being written by another run; wait for it or stop it") from None
        try:
            yield
        finally:
            if made and [p.name for p in d.iterdir()] == [LOCK]:
                (d / LOCK).unlink(missing_ok=True)
                with contextlib.suppress(OSError):
                    d.rmdir()
    finally:
        os.close(fd)
