"""Where `meeple play` keeps a game: the player's record files and the recovery file.

A session writes only to files it owns: the record it loaded, the ``--save`` path (when
that file did not exist yet, or ``--force`` was given) and any file it has written
itself. Every write is atomic, so a crash mid-save leaves the old record intact. When the
session stops with moves that no save holds (``quit``, end of input, Ctrl-C, an AI
failure, the end of the game, an error) and no ``--save`` path takes them, they go to a
new file in the recovery directory, and the session says where. The save at a stop never
shortens a record: when the game no longer extends what the ``--save`` file holds (an
undo went back past it), the file is left as it is and the game goes to a recovery file.
When even that cannot be written, the history is printed to be typed again.
"""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Callable
from pathlib import Path

from spiel_games.common.errors import MeepleError
from spiel_games.common.files import atomic_write_text, read_regular, write_problem
from tournament.advice.advise_text import count
from tournament.advice.positions import GameRecord
from tournament.records import MAX_RECORD_BYTES, is_unknown

RECOVERY_ENV = "MEEPLE_RECOVERY_DIR"


class SaveRefused(MeepleError):
    """A save that would overwrite a file the session does not own: one line for the user."""


def recovery_dir() -> Path:
    """``$MEEPLE_RECOVERY_DIR``, else ``$XDG_STATE_HOME/meeple/recovery``, else
    ``~/.local/state/meeple/recovery``."""
    if os.environ.get(RECOVERY_ENV):
        return Path(os.environ[RECOVERY_ENV])
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "meeple" / "recovery"


_SPECIAL = (
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def special_kind(path: str | Path) -> str:
    """What ``path`` is when it is there but neither a regular file nor a directory ("a
    pipe (FIFO)", "a character device"): a save would replace it with a file (was: a pipe
    or /dev/null was "a record to continue with --load"); "" otherwise."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return ""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return ""
    return next((what for test, what in _SPECIAL if test(mode)), "a special file")


def check_save_path(path: str, *, load_path: str | None = None, force: bool = False) -> None:
    """Refuse a ``--save`` path before the game starts: a directory, a pipe or a device, a
    missing directory or one that cannot be written, or an existing record that is not the
    one being continued (without ``--force``)."""
    target = Path(path)
    if not path.strip():  # Path("") is the working directory: "is a directory" misled
        raise SaveRefused("--save needs a file name")
    if "\0" in path:  # Path.exists() says False for it rather than raising
        raise SaveRefused(f"--save {path!r}: a file name cannot hold a NUL byte")
    try:
        exists = target.exists()
    except OSError as e:  # a name too long
        raise SaveRefused(f"--save {path!r}: {e.strerror or e}") from None
    if target.is_dir():
        raise SaveRefused(f"--save {path!r} is a directory, not a file")
    if special_kind(target):  # even with --force: a device is never replaced
        raise SaveRefused(f"--save {path!r} is {special_kind(target)}, not a file")
    parent = target.parent
    if not parent.is_dir():
        if parent.exists():
            raise SaveRefused(f"--save {path!r}: {str(parent)!r} is not a directory")
        raise SaveRefused(f"--save {path!r}: the directory {str(parent)!r} does not exist")
    if exists and not force and not _same(path, load_path):
        raise SaveRefused(
            f"--save {path!r} exists; continue it with --load {path!r}, or pass --force to"
            " overwrite it"
        )
    problem = write_problem(target)  # was: found at the first save
    if problem:
        raise SaveRefused(f"--save {path!r}: {problem}")


def check_recovery(folder: Path) -> None:
    """Refuse a session whose recovery folder cannot be written, before any move is typed
    (was: found at the stop, the unsaved moves lost with a warning)."""
    problem = write_problem(folder / "probe")
    if problem:
        raise SaveRefused(
            f"the recovery folder {folder}: {problem}; unsaved moves are kept there: set"
            f" {RECOVERY_ENV} to a folder you can write"
        )


def _text(path: Path) -> str | None:
    """The file's text now; None when there is none, it cannot be read, or it is no
    regular file (a pipe is not waited on, a device not read: read_regular)."""
    try:
        return read_regular(path, MAX_RECORD_BYTES).decode("utf-8")
    except (OSError, ValueError):
        return None


def _same(a: str | Path | None, b: str | Path | None) -> bool:
    return a is not None and b is not None and Path(a).resolve() == Path(b).resolve()


def extends(items: list, held: list) -> bool:
    """Whether the history ``items`` goes on from ``held``: the same entries, a ``?`` of
    ``held`` given its value (a table reveal), then any more."""
    if len(items) < len(held):
        return False
    return all(is_unknown(h) or h == i for h, i in zip(held, items, strict=False))


def history_line(record: GameRecord) -> str:
    """The record's entries as ``meeple advise --history`` takes them: 'a; b; ?; c'."""
    return "; ".join(str(a["action"]) for a in record.actions)


class RecordKeeper:
    """The session's files: which it may overwrite, what is unsaved, the recovery file.

    ``snapshot()`` returns the current record, its history items and, per item, whether
    the user typed it; ``say`` prints a line. Only typed entries are work to keep: the
    moves of AI seats and the chance drawn from the seed follow from them.
    """

    def __init__(
        self,
        snapshot: Callable[[], tuple[GameRecord, list, list[bool]]],
        say: Callable[[str], None],
        *,
        save_path: str | None = None,
        load_path: str | None = None,
        force: bool = False,
        recovery: Path | None = None,
        warn: Callable[[str], None] | None = None,
    ):
        if save_path is not None:
            check_save_path(save_path, load_path=load_path, force=force)
        check_recovery(recovery if recovery is not None else recovery_dir())
        self.snapshot = snapshot
        self.say = say
        self.warn = warn or say  # failures: stderr at a terminal (``PlaySession.warn``)
        self.save_path = save_path
        self.load_path = load_path
        self.recovery = recovery
        self.owned = {Path(p).resolve() for p in (save_path, load_path) if p is not None}
        # what each owned file held when this session last read or wrote it: a file that
        # no longer holds that was written by someone else (another session on the same
        # --save) and is not overwritten (was: the later save silently replaced it)
        self.known = {p: _text(p) for p in self.owned}
        self.saved: list[str] = []  # every path written, in order
        # the history each file holds, as this session read or wrote it: the save at a stop
        # never replaces it with one that does not go on from it (``undone``), and what no
        # intact one holds is unsaved (``unsaved``)
        self.held: dict[Path, list] = {}
        if load_path is not None:
            self.held[Path(load_path).resolve()] = list(snapshot()[1])

    def default_path(self) -> str | None:
        """Where a bare ``save`` writes: the --save path, else the loaded record."""
        return self.save_path or self.load_path

    def unsaved(self) -> int:
        """How many typed entries no file holds: those after the longest history shared
        with a file this session read or wrote that still holds what it did (an undo alone
        leaves nothing unsaved; a save that another program has since overwritten holds
        nothing: was counted as held, and the game was lost at the stop)."""
        _, items, typed = self.snapshot()
        same = 0
        for path, held in self.held.items():
            if _text(path) != self.known.get(path):
                continue
            shared = 0
            for a, b in zip(items, held, strict=False):
                if a != b:
                    break
                shared += 1
            same = max(same, shared)
        return sum(typed[same:])

    def undone(self, path: str) -> list | None:
        """The history the file ``path`` holds when the game no longer goes on from it (an
        undo went back past it, or on another way); None when it does, or when the file
        is not as this session last read or wrote it (``save`` says so)."""
        target = Path(path).resolve()
        held = self.held.get(target)
        if held is None or self.known.get(target) is None:
            return None
        if _text(target) != self.known[target] or extends(self.snapshot()[1], held):
            return None
        return held

    def save(self, path: str, force: bool = False) -> bool:
        """Write the record to ``path``; refuse to overwrite a file the session does not
        own unless ``force``. True when written."""
        target = Path(path)
        record, items, _ = self.snapshot()
        try:
            if target.is_dir():
                self.warn(f"cannot save to {path!r}: it is a directory; give a file name")
                return False
            if special_kind(target):  # even with --force: /dev/null is never replaced
                self.warn(f"cannot save to {path!r}: it is {special_kind(target)}, not a file")
                return False
            if target.exists() and target.resolve() not in self.owned and not force:
                self.warn(
                    f"{path!r} exists and is not this game's record: 'save {path} --force'"
                    " overwrites it"
                )
                return False
            known = self.known.get(target.resolve())
            if not force and target.exists() and _text(target.resolve()) != known:
                self.warn(
                    f"{path!r} was changed by another program or session since this one"
                    f" last read or wrote it; not overwritten: 'save {path} --force'"
                    " overwrites it"
                )
                return False
            dropped = self.undone(path)  # the player's intent: said, not refused
            text = record.dumps()
            atomic_write_text(target, text)
        except (OSError, ValueError) as e:  # a name too long, or with a NUL byte
            self.warn(f"cannot save to {path!r}: {getattr(e, 'strerror', None) or e}")
            return False
        self.known[target.resolve()] = text
        self.held[target.resolve()] = list(items)
        self.owned.add(target.resolve())
        self.saved.append(path)
        note = "" if dropped is None else f" (the file held {count(len(dropped), 'action')}"
        note += "" if dropped is None else ": the undone ones are dropped)"
        self.say(f"saved {count(len(items), 'action')} to {path}{note}")
        return True

    def keep(self) -> str:
        """At a stop: save to the --save path, else put unsaved moves in a recovery file.
        Returns "saved", "recovered", "clean" (nothing unsaved) or "lost" (unsaved moves
        could not be written anywhere). A --save file that holds more than the game goes
        on from (an undo) is left as it is, the game kept in a recovery file."""
        held = self.undone(self.save_path) if self.save_path else None
        if held is not None:
            return self._keep_apart(held)
        if self.save_path and self.save(self.save_path):
            return "saved"
        n = self.unsaved()
        if n == 0:
            return "clean"
        path = self._recover(count(n, "unsaved action"))
        if path is None:
            return "lost"
        (self.warn if self.save_path else self.say)(  # a failed --save is a failure
            f"warning: the game was not saved ({n} of your entries no saved file holds);"
            f" it is kept in {path} (continue with: meeple play --load {shlex.quote(path)})"
        )
        return "recovered"

    def _keep_apart(self, held: list) -> str:
        """The --save file holds a history the game no longer goes on from: it stays, and
        the game goes to a recovery file (was: the save at quit shortened the record)."""
        items = self.snapshot()[1]
        save = str(self.save_path)
        path = self._recover(f"the game after undo ({len(items)} actions; {save} is kept)")
        if path is None:
            return "lost"
        self.warn(
            f"warning: {save} holds {count(len(held), 'action')} that this game, after undo,"
            f" no longer goes on from: it is left as it was (continue it with: meeple play"
            f" --load {shlex.quote(save)}); this game ({count(len(items), 'action')}) is kept"
            f" in {path} (continue with: meeple play --load {shlex.quote(path)})"
        )
        return "recovered"

    def _recover(self, what: str) -> str | None:
        """The record written to a new recovery file: its path; None when it cannot be,
        said on ``warn`` with the history to type again (nothing else holds it then)."""
        record = self.snapshot()[0]
        try:
            path = str(self._recovery_file(record))
        except OSError as e:
            how = f"seed {record.seed}, seats {','.join(record.seats)}"
            self.warn(
                f"error: {what} could NOT be kept: {e.strerror or e}; the game so far ({how}),"
                " to type again or to give to meeple advise --history:"
            )
            self.warn(history_line(record))
            return None
        self.saved.append(path)
        return path

    def _recovery_file(self, record: GameRecord) -> Path:
        folder = self.recovery if self.recovery is not None else recovery_dir()
        folder.mkdir(parents=True, exist_ok=True)
        name = record.game.split("(", 1)[0].removeprefix("python_")
        for k in range(1, 100_000):  # the first free number: GAME-1.json, GAME-2.json, ...
            path = folder / f"{name}-{k}.json"
            try:
                with open(path, "x"):  # a new file: never overwrite an earlier recovery
                    pass
            except FileExistsError:
                continue
            try:
                atomic_write_text(path, record.dumps())
            except BaseException:  # a full disk: no empty file left that --load refuses
                path.unlink(missing_ok=True)
                raise
            return path
        raise OSError(f"no free recovery file name in {folder}")
