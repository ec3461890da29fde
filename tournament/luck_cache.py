"""The luck caches beside a ledger: ``DIR/.luck.json`` and ``DIR/.moves.json``.

``.luck.json`` holds one entry per way of measuring luck (its key: the luck code's version,
the evaluator, the code version of the game and solvers it reads, whether known-strategy
terms are in), each with the opening's expectation it was measured against and the luck
of every game measured. ``.moves.json`` holds each replayed game's moves with the code
version they were replayed under (``solvers.identity.code_version``): a move list is
trusted without a replay only under the code that produced or checked it.

Writers take ``DIR/.luck.lock`` and merge with what is on disk (another process may have
written since this one read): games measured by either survive, and the file is replaced
atomically, so two measurements of one ledger lose and corrupt nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path

from spiel_games.common import json_read
from spiel_games.common.files import ANY_SIZE, atomic_write_text, clear_dead_leftovers, read_regular

CACHE = ".luck.json"
MOVES = ".moves.json"
LOCK = ".luck.lock"
FORMAT = 2


def load(path: Path) -> dict:
    try:
        data = json_read.loads(read_regular(path, ANY_SIZE))  # a pipe: refused, not waited on
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT else {}


@contextlib.contextmanager
def _locked(directory: Path):
    try:
        # non-blocking: a pipe named like the lock would wait for a reader (ENXIO instead)
        fd = os.open(
            directory / LOCK, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK, 0o644
        )
        f = os.fdopen(fd, "a")
    except OSError:  # a read-only ledger: nothing will be written either
        yield
        return
    with f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def _write(path: Path, data: dict) -> None:
    """Write under the lock; an interrupted writer's temporary file goes (was: kept)."""
    with contextlib.suppress(OSError):  # a read-only ledger, a full disk: measured again next time
        clear_dead_leftovers(path)
        atomic_write_text(path, json.dumps(data))


def load_moves(directory: Path) -> dict:
    """{game id: {"code", "actions"}}; a cache of the first format (game id: moves, no
    code version) is read as moves of unknown code."""
    try:
        data = json_read.loads(read_regular(directory / MOVES, ANY_SIZE))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    if data.get("format") == FORMAT:
        return data.get("games", {})
    return {k: {"code": None, "actions": v} for k, v in data.items() if isinstance(v, list)}


def entry(data: dict, key: dict) -> dict | None:
    """The cached entry measured with ``key``, if any."""
    return next((e for e in data.get("entries", []) if e.get("key") == key), None)


def save_luck(directory: Path, key: dict, opening: dict, games: dict) -> None:
    """Store one entry's games, merged with the same entry on disk when it was measured
    against the same opening expectation (else this one replaces it); other entries stay."""
    path = directory / CACHE
    with _locked(directory):
        entries = load(path).get("entries", [])
        old = next((e for e in entries if e.get("key") == key), None)
        if old is not None and old.get("opening") == opening:
            games = {**old.get("games", {}), **games}
        entries = [e for e in entries if e.get("key") != key]
        entries.append({"key": key, "opening": opening, "games": games})
        _write(path, {"format": FORMAT, "entries": entries})


def save_moves(directory: Path, moves: dict) -> None:
    """Store move lists ({game id: {"code", "actions"}}), merged with those on disk."""
    path = directory / MOVES
    with _locked(directory):
        merged = {**load_moves(directory), **moves}
        _write(path, {"format": FORMAT, "games": merged})
