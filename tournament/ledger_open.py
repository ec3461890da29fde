"""Opening a ledger for a run (``tournament.runner``): the directory's lock, then its
manifest written or checked against this run's; a ledger this run made and wrote no game
to removed again, and the temporary files of unfinished batches cleared.

Reading and the file format are in ``tournament.ledger``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spiel_games.common.errors import ForeignOutputError
from spiel_games.common.files import atomic_write_bytes, is_folder, leftover_of, writer_gone
from tournament.ledger import _PART, LOCK, MANIFEST, LedgerError, read_manifest

# files the project itself keeps beside a ledger's batches (an SPRT's bounds, the luck
# cache, its moves and lock): no ledger files, and not worth a note when a report skips them
SIDECARS = (".sprt.json", ".luck.json", ".moves.json", ".luck.lock")


class ForeignLedgerError(LedgerError, ForeignOutputError):
    """The directory holds another tournament, or files that are no ledger: not this
    run's (a wrong ``--out``, exit 2), refused before anything is written."""


def ledger_around(path: str | Path) -> Path | None:
    """The ledger folder ``path`` lies inside (the nearest folder above it that holds a
    ledger: a meeple ledger manifest, or batch files beside a damaged one), or None. A
    folder or a ``*.parquet`` file written there makes every read of that ledger refuse it
    (a foreign file), so no output may go there."""
    try:
        above = Path(path).resolve().parents
    except (OSError, RuntimeError):  # a symlink loop: the run's own mkdir says so
        return None
    return next((d for d in above if _is_ledger(d)), None)


def _is_ledger(d: Path) -> bool:
    if not is_folder(d) or not (d / MANIFEST).exists():  # a name over 255 bytes: none
        return False
    try:
        read_manifest(d)
        return True
    except LedgerError:  # a damaged manifest: a ledger still when it holds batches
        try:
            return any(_PART.match(p.name) for p in d.iterdir())
        except OSError:
            return False


def ledger_spoiled_by(path: str | Path) -> Path | None:
    """The ledger that a file written at ``path`` would stop every read of (a ``*.parquet``
    file, one of its own file names, or any file in a folder made inside it), or None: a
    report beside the batches (``DIR/report.html``) is a file the ledger ignores."""
    around = ledger_around(path)
    if around is None:
        return None
    p = Path(path)
    # its manifest, and its leftovers, lock and sidecars (.sprt.json): every name with a dot
    own = p.name.startswith(".") or p.name == MANIFEST
    if p.resolve().parent != around or p.name.endswith(".parquet") or own:
        return around
    return None


def check_not_inside(d: Path) -> None:
    """Refuse a ledger ``d`` inside another ledger (``ledger_around``), before it is made."""
    if (around := ledger_around(d)) is not None:
        shown = next((p for p in Path(d).parents if p.resolve() == around), around)
        raise ForeignLedgerError(
            f"{d} is inside the ledger {shown}, which holds only its own files (a folder "
            "in it makes every read of it refuse it); use a directory outside it"
        )


def batch_files(directory: Path) -> list[Path]:
    """The finished batch files ``directory`` holds, by their names (none when it is no
    folder); read_ledger checks them."""
    try:
        return [p for p in Path(directory).iterdir() if _PART.match(p.name)]
    except OSError:
        return []


def check_manifest(d: Path, manifest: dict) -> bool:
    """Refuse a DIR that holds another tournament or other files, or lies inside another
    ledger, as a run would, writing nothing (``--dry-run`` calls it without the lock);
    True when DIR holds this exact config's manifest already, False when the run would
    create it."""
    check_not_inside(d)
    if (d / MANIFEST).exists():
        old = read_manifest(d)
        if old["config_hash"] != manifest["config_hash"]:
            raise ForeignLedgerError(
                f"{d} holds another tournament: {_why_different(old, manifest)}"
            )
        return True
    others = [p.name for p in d.iterdir() if not p.name.startswith(".")] if d.is_dir() else []
    if others:
        raise ForeignLedgerError(
            f"{d} is not empty and has no {MANIFEST} (found {others[0]}); refusing to mix"
        )
    return False


def _check_or_write_manifest(d: Path, manifest: dict) -> bool:
    """Write DIR's manifest, or check the existing one is this exact config (call under the
    lock); True when this call created it."""
    if check_manifest(d, manifest):
        return False
    atomic_write_bytes(d / MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    return True


@contextmanager
def open_for_run(directory: Path, manifest: dict) -> Iterator[bool]:
    """Lock DIR (creating it), then create its manifest or check the existing one belongs to
    this exact config; yields True when this run created the ledger.

    The lock comes first: two runs started together on a fresh directory cannot both write
    a manifest (the second is refused before it writes anything). A directory refused as
    not this run's ledger is left as it was: the lock file and the directory are removed
    again when this call created them."""
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise ForeignLedgerError(f"{d} exists and is not a directory")
    check_not_inside(d)  # before a folder is made there
    made_dir = not d.exists()
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, made_lock = _open_lock(d / LOCK)
    except OSError as e:  # a read-only disk, a directory of another user
        raise LedgerError(_cannot(d, made_dir, e)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LedgerError(
                f"{d} is being written by another run; wait for it or stop it"
            ) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(d / LOCK).st_ino
        except FileNotFoundError:
            same = False
        if not same:  # the run that held it removed the ledger it had just created
            raise LedgerError(f"{d} was removed by another run while this one waited; rerun")
        try:
            created = _check_or_write_manifest(d, manifest)
        except (LedgerError, OSError) as e:  # refused, or a full disk: take back what this
            if made_lock:  # call added (still locked)
                (d / LOCK).unlink(missing_ok=True)
            if made_dir:
                with contextlib.suppress(OSError):
                    d.rmdir()
            if isinstance(e, LedgerError):
                raise
            raise LedgerError(_cannot(d, made_dir, e)) from None
        yield created
    finally:
        os.close(fd)  # closing releases the lock


def _cannot(d: Path, made_dir: bool, e: OSError) -> str:
    """Why the ledger ``d`` cannot be opened for a run: "create" only when it was not
    there; the OS's reason, and the file it concerns when that is not ``d``."""
    what = "create" if made_dir else "write"
    where = f": {e.filename}" if e.filename and Path(e.filename) != d else ""
    return f"{d}: cannot {what} the ledger ({e.strerror or e}{where})"


def _open_lock(path: Path) -> tuple[int, bool]:
    """The lock file's descriptor, and whether this call created the file (atomically)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644), True
    except FileExistsError:
        return os.open(path, os.O_RDWR), False


def discard_new(directory: Path) -> None:
    """Remove a ledger this run created and wrote no game to (call while holding the lock),
    so the corrected config can start afresh in the same directory."""
    d = Path(directory)
    if any(_PART.match(p.name) for p in d.iterdir()):
        return
    for name in (MANIFEST, LOCK):
        (d / name).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        d.rmdir()  # only when nothing else is in it


def remove_unfinished(directory: Path) -> list[str]:
    """Delete temporary files of batches that never finished writing (call under the lock
    of ``open_for_run``), and those of the sidecars whose writer has ended (``ratings``
    writes the luck cache without the run's lock: a live writer's is left; was: kept for
    ever)."""
    notes = []
    for p in Path(directory).iterdir():
        # only a batch's, the manifest's or a sidecar's (was: any .tmp-* name, a folder
        # failing every rerun); a batch's games are not in the ledger: played again
        was = leftover_of(p)
        if was and (_PART.match(was) or was == MANIFEST or was in SIDECARS and writer_gone(p)):
            p.unlink(missing_ok=True)
            notes.append(f"removed unfinished temporary file {p.name}")
    return notes


def _why_different(old: dict, new: dict) -> str:
    oc, nc = old.get("config", {}), new.get("config", {})
    for section in sorted(set(oc) | set(nc)):
        a, b = oc.get(section, {}), nc.get(section, {})
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return f"{section}.{key} was {_shown(a, key)}, now {_shown(b, key)}"
    old_ids = {a["name"]: a["id"] for a in old.get("agents", [])}
    for a in new.get("agents", []):
        if old_ids.get(a["name"]) != a["id"]:
            return f"agent {a['name']!r} changed id ({old_ids.get(a['name'])} -> {a['id']}: spec or code changed)"
    return f"config hash {old['config_hash'][:12]} differs from {new['config_hash'][:12]}"


def _shown(table: dict, key: str) -> str:
    """A config value for a user: its repr, or "not set" where the config has no such key."""
    return repr(table[key]) if key in table else "not set"
