"""The files of a `meeple tune` run directory: the request (``tune.json``, replaced
atomically) and the evaluations log (``evaluations.jsonl``, one line appended and synced
to disk per game). A file that cannot be read or written is a ``TuneFileError`` naming it
(exit 1): a full disk mid-append leaves at most an unfinished last line, which the next
run cuts off and plays again; the request is never left torn or empty."""

from __future__ import annotations

import json
import os
from pathlib import Path

from spiel_games.common import json_read
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.files import atomic_write_text

LOG, REQUEST = "evaluations.jsonl", "tune.json"


class TuneError(MeepleError):
    """Bad tuning request (one line)."""


class TuneFileError(TuneError):
    """A run file that cannot be read or written: exit 1, not a wrong command line."""


class CorruptLogError(TuneFileError):
    """A damaged log line or request file."""


def write_request(path: Path, request: dict) -> None:
    """``tune.json``, replaced atomically (a failed write keeps the old one)."""
    try:
        atomic_write_text(path, json.dumps(request, indent=2) + "\n")
    except OSError as e:
        raise TuneFileError(f"cannot write {path}: {e.strerror or e}") from None


def append_row(path: Path, row: dict) -> None:
    """One evaluation appended to the log and synced: a failure leaves at most an
    unfinished last line, cut off by the next run (``read_log``)."""
    try:
        with path.open("a") as f:
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise TuneFileError(f"cannot write {path}: {e.strerror or e}") from None


def cut_log(path: Path, length: int) -> None:
    """Cut the log's unfinished last line off."""
    try:
        with path.open("r+b") as f:
            f.truncate(length)
    except OSError as e:
        raise TuneFileError(f"cannot write {path}: {e.strerror or e}") from None


def read_log(path: Path) -> tuple[dict[int, dict], int | None]:
    """The evaluations logged so far, by index, and the length to cut the file to when its
    last line is unfinished (what a crash mid-append leaves: that line is dropped, its game
    played again), else None. A finished line that is no evaluation is refused."""
    log: dict[int, dict] = {}
    if not path.exists():
        return log, None
    try:
        data = path.read_bytes()
    except OSError as e:
        raise CorruptLogError(f"{path}: unreadable ({e.strerror or e})") from None
    end = data.rfind(b"\n") + 1
    for n, line in enumerate(data[:end].split(b"\n")[:-1], 1):
        if line.strip():
            try:
                row = json_read.loads(line)
            except ValueError as e:
                raise CorruptLogError(f"{path}: line {n} is not JSON ({one_line(e)})") from None
            if not _is_row(row):
                raise CorruptLogError(f"{path}: line {n} is not an evaluation")
            log[row["index"]] = row
    return log, (end if end < len(data) else None)


def _is_row(row) -> bool:
    return (
        isinstance(row, dict)
        and isinstance(row.get("index"), int)
        and row["index"] >= 0
        and isinstance(row.get("point"), dict)
        and isinstance(row.get("fitness"), int | float)
        and not isinstance(row["fitness"], bool)
    )
