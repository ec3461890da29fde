"""Crash-safe file writes: a reader sees the old file or the new one, never a torn one.

The one place the project writes files that must survive a crash or a full disk: game
records, ledger parts and manifests, value models, policies, checkpoints, HTML reports.
The new content goes to a temporary file in the same directory as the file it replaces
(named ``TMP_PREFIX + name + .pid``, so readers of a directory can skip leftovers), is
flushed to disk, then renamed over the target; the rename is made durable by syncing the
directory. A symlink is written through: the file it names is replaced (the temporary
file beside that file), the link kept. The new file keeps the old one's permissions (a
0600 record stays 0600), and its owner and group where the writer may set them. A path
that exists and is not a regular file (a device such as /dev/null, a pipe, a directory, a
socket) is refused before anything is written (``NotRegularFile``). A file with other hard
links is replaced by a new file: its other names keep the old content. Every ``OSError``
the writers raise names the path asked for in ``filename``. ``run_lock`` keeps two runs
from writing one output directory at once, ``file_lock`` one output file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import hashlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

TMP_PREFIX = ".tmp-"
LOCK = ".lock"  # the lock file ``run_lock`` holds in a run's directory
NAME_MAX = 255  # bytes in a name (one part of a path) on Linux's file systems


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (an error leaves ``path`` as it was)."""
    with atomic_file(path) as f:
        f.write(data)


@contextlib.contextmanager
def atomic_file(path: str | Path) -> Iterator[BinaryIO]:
    """A new file, open for binary writing, that replaces ``path`` when the block ends
    (see the module docstring: through symlinks, the old mode kept, a special file
    refused); when the block raises it is removed and ``path`` left as it was. For
    writers that take a file object (Parquet, numpy)."""
    target = write_target(path)
    tmp = target.with_name(_tmp_name(target.name))
    try:
        f = open(tmp, "wb")  # noqa: SIM115 - closed by the with below
    except OSError as e:  # said of the folder: the target itself was never opened
        why = f"cannot make a file in {target.parent} ({e.strerror or e})"
        raise OSError(e.errno, why, str(path)) from None
    try:
        with f:
            _keep_mode(f.fileno(), target)
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
        _sync_dir(target.parent)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError) and not isinstance(e, NotRegularFile):
            raise OSError(e.errno, e.strerror or str(e), str(path)) from None
        raise


def _tmp_name(name: str) -> str:
    """The temporary file's name for the file ``name``: ``TMP_PREFIX + name + .pid``, or,
    where that would be over the 255 bytes a name may have (a ``name`` of some 245 bytes
    or more: was refused only when the file was written, after the run's work), the first
    160 bytes of ``name`` and a digest of the whole in its place."""
    tmp = f"{TMP_PREFIX}{name}.{os.getpid()}"
    if len(os.fsencode(tmp)) <= NAME_MAX:
        return tmp
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:16]
    start = os.fsencode(name)[:160].decode(errors="ignore")  # a character never cut in two
    return f"{TMP_PREFIX}{start}-{digest}.{os.getpid()}"


def leftover_of(path: str | Path) -> str | None:
    """The name of the file that ``path`` was the temporary file of (a regular file named
    as ``_tmp_name`` names one, left by a writer that never finished), or None: anything
    else named ``.tmp-*`` (a folder, a user's file) is not ours to skip or delete."""
    p = Path(path)
    stem, dot, pid = p.name.rpartition(".")
    if not (stem.startswith(TMP_PREFIX) and dot and pid.isascii() and pid.isdigit()):
        return None
    return stem[len(TMP_PREFIX) :] if p.is_file() and not p.is_symlink() else None


def writer_gone(path: str | Path) -> bool:
    """Whether the process that wrote the temporary file ``path`` (its name ends in the
    writer's pid, ``_tmp_name``) has ended: True only when no process has that pid (a live
    one, this one or another user's, may still be writing it)."""
    pid = Path(path).name.rpartition(".")[2]
    if not (pid.isascii() and pid.isdigit()) or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):  # another user's process, or no pid at all
        pass
    return False


def clear_dead_leftovers(path: str | Path) -> None:
    """Delete the temporary files of ``path`` whose writers ended before they finished (for
    a writer that keeps one file beside others, under its own lock)."""
    p = Path(path)
    for tmp in p.parent.glob(f"{glob.escape(TMP_PREFIX + p.name)}.*"):
        if leftover_of(tmp) == p.name and writer_gone(tmp):
            with contextlib.suppress(OSError):
                tmp.unlink()


def write_target(path: str | Path) -> Path:
    """The file that writing ``path`` replaces: ``path`` itself, or the file its symlinks
    lead to (made when missing, as ``open`` would). NotRegularFile, naming ``path``, when
    it exists and is not a regular file; nothing is opened (a pipe is not waited on)."""
    path = Path(path)
    kind = special_kind(path)
    if kind is not None:
        raise NotRegularFile(kind[0], kind[1], str(path))
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def special_kind(path: str | Path) -> tuple[str, bool] | None:
    """What ``path`` names (symlinks followed) when it is there and is not a regular file:
    ("a pipe (FIFO)", False), ("a directory", True), ...; None for a regular file or for
    nothing (a dangling symlink included). Nothing is opened."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISREG(mode):
        return None
    kind = next((what for test, what in _NOT_REGULAR if test(mode)), "a special file")
    return kind, stat.S_ISDIR(mode)


def _keep_mode(fd: int, target: Path) -> None:
    """Give the new file ``fd`` the permissions of the file it replaces (and its owner and
    group where this process may: root, or a group it belongs to); nothing for a new one."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return
    new = os.fstat(fd)
    if (st.st_uid, st.st_gid) != (new.st_uid, new.st_gid):
        with contextlib.suppress(OSError):  # not allowed: the writer's own, as before
            os.fchown(fd, st.st_uid, st.st_gid)
    os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _sync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode())


def is_folder(path: str | Path) -> bool:
    """``Path.is_dir``, False for a name the system cannot even look up (see
    ``lookup_problem``: Python 3.11's ``is_dir`` raises for a name over 255 bytes where it
    returns False for a missing one; was a traceback in ``review``)."""
    return not lookup_problem(path) and Path(path).is_dir()


def lookup_problem(path: str | Path) -> str:
    """Why the system cannot even look ``path`` up ("File name too long": a part over 255
    bytes; "Permission denied": a folder on the way this user may not search), or "" when
    it can, whether or not anything is there. Python 3.11's ``Path.exists``, ``is_dir`` and
    ``is_file`` raise for such a name where they return False for a missing one: commands
    refuse it with this reason before they look further (was a traceback in run, sprt,
    tune, train, solve and ratings)."""
    try:
        os.stat(path)
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):  # missing, as exists() says
            return ""
        return e.strerror or str(e)
    return ""


def missing_problem(path: str | Path, what: str) -> str:
    """The one line for a file a command must read that is not there: "cannot read WHAT
    PATH: REASON" for a name the system cannot look up (``lookup_problem``; was Python's
    "[Errno 36] File name too long: ..." for an agent's file), "WHAT not found: PATH";
    "" when something is there."""
    if why := lookup_problem(path):
        return f"cannot read {what} {path}: {why}"
    return "" if Path(path).exists() else f"{what} not found: {path}"


def existing_parent(path: str | Path) -> Path:
    """The nearest folder on ``path``'s way that exists (where writing ``path`` would make
    its missing directories): the place to check before a long run writes there. A
    symlink's is its target's (the writers write through it, beside that file)."""
    p = Path(path)
    parent = (Path(os.path.realpath(p)) if p.is_symlink() else p).parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent


_NOT_REGULAR = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularFile(OSError):
    """A path that names a directory, a device, a pipe or a socket, not a file (``str``:
    "is a pipe (FIFO), not a file"; ``filename``: the path, when given)."""

    def __init__(self, kind: str, is_dir: bool, filename: str | None = None):
        super().__init__(f"is {kind}, not a file")
        self.kind = kind
        self.is_dir = is_dir
        self.filename = filename

    def __str__(self) -> str:
        return str(self.args[0])


class FileTooLarge(OSError):
    """A file over the size its reader accepts."""

    def __init__(self, limit: int):
        cap = f"{limit >> 20} MiB" if limit % 2**20 == 0 else f"{limit:,} bytes"
        super().__init__(f"is over {cap}")
        self.limit = limit


def open_regular(path: str | Path, limit: int) -> BinaryIO:
    """The regular file ``path`` opened for binary reading, refused before anything is
    read when it is not one (a device such as /dev/zero, a pipe opened without waiting for
    a writer: NotRegularFile) or is over ``limit`` bytes (FileTooLarge); open's own OSError
    otherwise. For readers that take a file object (numpy's .npz, Parquet)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((what for test, what in _NOT_REGULAR if test(st.st_mode)), "a special file")
            raise NotRegularFile(kind, stat.S_ISDIR(st.st_mode))
        if st.st_size > limit:
            raise FileTooLarge(limit)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


ANY_SIZE = 1 << 36  # the limit of readers whose check is for pipes and devices, not size


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (``open_regular``'s refusals; a file that
    grows past ``limit`` while it is read is refused too). Memory follows the file, not
    ``limit``: a read asks for the file's size plus one byte, then, only while the file
    grows, for 1 MiB at a time."""
    with open_regular(path, limit) as f:
        size = os.fstat(f.fileno()).st_size
        chunks = [f.read(min(limit, size) + 1)]
        got = len(chunks[0])
        while got > size and got <= limit:  # grown since fstat: read on, within the limit
            chunk = f.read(min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    if got > limit:
        raise FileTooLarge(limit)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def write_problem(path: str | Path) -> str:
    """Why ``path`` could not be written ("" when it could): the nearest existing folder
    on its way must be a folder that takes a new file, found by making and removing a
    probe (the permission bits are not the whole story: /proc, a disk mounted read-only,
    root's access). Nothing is left behind."""
    try:
        parent = existing_parent(path)
    except OSError as e:  # a name over 255 bytes on the way (was a traceback in play)
        return f"cannot write {path} ({e.strerror or e})"
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        return f"cannot write in {parent}"
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=f"{TMP_PREFIX}probe-")
    except OSError as e:
        return f"cannot write in {parent} ({e.strerror or e})"
    os.close(fd)
    os.unlink(probe)
    return ""


@contextlib.contextmanager
def run_lock(directory: str | Path, error: type[Exception]) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (made when missing) for the block: a second
    run on the same directory is refused at once with ``error`` instead of redoing the
    first one's work into the same files (OSError where the directory cannot be made). A
    directory this call made and that still holds nothing but the lock file is removed
    again, and so is a lock file it made when the block fails (a request refused after
    the lock: was left behind in the folder, a foreign file to the next command there),
    so a refused request leaves nothing."""
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise error(f"{d} exists and is not a directory")
    made = not d.exists()
    d.mkdir(parents=True, exist_ok=True)
    lock = d / LOCK
    try:
        fd, created = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644), True
    except FileExistsError:
        fd, created = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644), False
    try:
        _take_at(fd, lock, d, error)
        done = False
        try:
            yield
            done = True
        finally:
            if made and [p.name for p in d.iterdir()] == [LOCK]:
                lock.unlink(missing_ok=True)
                with contextlib.suppress(OSError):
                    d.rmdir()
            elif created and not done:
                lock.unlink(missing_ok=True)  # still held: a waiting run sees it gone
    finally:
        os.close(fd)


@contextlib.contextmanager
def file_lock(path: str | Path, error: type[Exception]) -> Iterator[None]:
    """``run_lock`` for a run whose output is one file, not a directory (an exact ``meeple
    solve``'s checkpoint): an exclusive lock on the file ``path`` + ``.lock`` beside it
    (its directory must exist), refused at once with ``error`` while another run holds it.
    The lock file is removed when the block ends."""
    path = Path(path)
    lock = path.with_name(path.name + LOCK)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _take_at(fd, lock, path, error)
        try:
            yield
        finally:
            lock.unlink(missing_ok=True)
    finally:
        os.close(fd)


def _take_at(fd: int, lock: Path, what: Path, error: type[Exception]) -> None:
    """``_take``, then refuse a lock file that is no longer the one at ``lock``: a run
    that opened it just before its holder ended (and removed it) and locks it just after
    would otherwise hold it beside a third run holding the new one."""
    _take(fd, what, error)
    try:
        same = os.fstat(fd).st_ino == os.stat(lock).st_ino
    except FileNotFoundError:
        same = False
    if not same:  # the run that held it has just ended and removed it
        raise error(f"{what} was being written by another run that has just ended; rerun")


def _take(fd: int, what: Path, error: type[Exception]) -> None:
    """Lock the open lock file ``fd`` of ``what`` or raise ``error`` at once."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise error(f"{what} is being written by another run; wait for it or stop it") from None
