"""The game record: one game as played, in a readable JSON file.

A *game record* is readable JSON written by ``meeple play`` (``save``) and read
by ``meeple advise --game-file`` and ``meeple play --load``::

    {
      "format": "meeple-game-record",
      "version": 1,
      "game": "python_coloretto(players=3)",
      "seed": 7,
      "seats": ["human", "ismcts(sims=400)", "heuristic"],
      "actions": [{"player": -1, "id": 2, "action": "start: green"}, ...],
      "terminal": false,
      "scores": null,
      "returns": null
    }

``player`` is the OpenSpiel player id of the mover (-1 for chance). On load,
every action is replayed and must be legal with the recorded string; a record
that does not replay is rejected with the position that failed. An action the
recording player could not see is ``{"player": 1, "id": null, "action": "?"}``;
table mode (``--chance manual``) adds ``"chance": "manual"``. Fields a user or another
program adds (top-level notes, an action's comment) are kept when the record is saved
back (``carry_notes``).

This module sits below both ``tournament.replay`` (which writes the record of a ledger
game) and ``tournament.advice`` (which reads records for advice, play and review), so
neither imports the other for it.
"""

from __future__ import annotations

import errno
import json
from dataclasses import dataclass, field
from pathlib import Path

from spiel_games.common import json_read
from spiel_games.common.errors import MeepleError
from spiel_games.common.files import FileTooLarge, NotRegularFile, atomic_write_text, read_regular
from spiel_games.common.naming import mover
from tournament.match import final_scores

FORMAT = "meeple-game-record"
VERSION = 1
UNKNOWN = "?"  # an entry the recording player could not see
MAX_RECORD_BYTES = 64 * 2**20  # records are a few kB; read no further than this


class HistoryError(MeepleError):
    """A history or game record that does not describe a legal position (one-line message)."""


class NoRecordError(HistoryError):
    """The record's path names no file (nothing there, a directory, a path through a file):
    on a command line a wrong argument (exit 2), not a damaged record (exit 1)."""


def is_unknown(item) -> bool:
    return isinstance(item, str) and item.strip() == UNKNOWN


@dataclass
class GameRecord:
    """A game as played. An action the recording player could not see is ``"?"`` with
    ``"id": null`` (table mode writes these); ``chance`` is ``"seed"`` (drawn from the seed)
    or ``"manual"`` (entered by hand at a physical table)."""

    game: str
    seed: int = 0
    seats: list[str] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)  # {"player", "id", "action"}
    terminal: bool = False
    scores: list[float] | None = None
    returns: list[float] | None = None
    chance: str = "seed"
    # fields a user or another program added (top-level notes, say): kept, written back
    extra: dict = field(default_factory=dict)

    def action_ids(self) -> list[int]:
        return [int(a["id"]) for a in self.actions]

    def items(self) -> list:
        """The history items: the action id, or ``"?"`` for an unseen action."""
        return [UNKNOWN if is_unknown(a["action"]) else int(a["id"]) for a in self.actions]

    def to_json(self) -> dict:
        out = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "seed": self.seed,
            "seats": list(self.seats),
            "actions": [dict(a) for a in self.actions],
            "terminal": self.terminal,
            "scores": self.scores,
            "returns": self.returns,
        }
        if self.chance != "seed":
            out["chance"] = self.chance
        return {**out, **{k: v for k, v in self.extra.items() if k not in out}}

    def dumps(self) -> str:
        """Readable JSON: one line per field, one line per action."""
        data = self.to_json()
        actions = data.pop("actions")
        lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in data.items()]
        body = ",\n".join(f"    {json.dumps(a)}" for a in actions)
        lines.append('  "actions": [' + (f"\n{body}\n  ]" if actions else "]"))
        return "{\n" + "\n".join(lines) + "\n}\n"

    def save(self, path: str | Path) -> None:
        """Write the record atomically (a crash leaves the old file or the new one)."""
        atomic_write_text(path, self.dumps())


def record_of(game_string: str, state, seed: int, seats, actions: list[int]) -> GameRecord:
    """Build the record of a game whose action ids from the start are ``actions``."""
    game = state.get_game()
    s = game.new_initial_state()
    items = []
    for a in actions:
        p = mover(s)
        items.append({"player": int(p), "id": int(a), "action": s.action_to_string(p, a)})
        s.apply_action(a)
    rec = GameRecord(game=game_string, seed=int(seed), seats=list(seats), actions=items)
    if state.is_terminal():
        rec.terminal = True
        rec.scores = final_scores(state)
        rec.returns = [float(x) for x in state.returns()]
    return rec


def parse_record(data: dict) -> GameRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HistoryError(f'not a game record (expected "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise HistoryError(
            f"unsupported game record version {data.get('version')!r} (expected {VERSION})"
        )
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise HistoryError('game record has no "game" string')
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise HistoryError('game record "actions" must be a list')
    for i, a in enumerate(actions, start=1):
        if not isinstance(a, dict) or not isinstance(a.get("action"), str):
            raise HistoryError(
                f'game record action {i} must be an object with an int "id" and an "action" string'
            )
        unseen = is_unknown(a["action"]) and a.get("id") is None
        if not unseen and (isinstance(a.get("id"), bool) or not isinstance(a.get("id"), int)):
            raise HistoryError(
                f'game record action {i} must be an object with an int "id" and an "action"'
                ' string (or "id": null with "action": "?")'
            )
    seats = data.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise HistoryError('game record "seats" must be a list of agent specs')
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:  # (-5: was exit 2)
        raise HistoryError('game record "seed" must be an integer, 0 or more')
    chance = data.get("chance", "seed")
    if chance not in ("seed", "manual"):
        raise HistoryError('game record "chance" must be "seed" or "manual"')
    return GameRecord(
        game=game,
        seed=seed,
        seats=seats,
        actions=actions,
        terminal=bool(data.get("terminal", False)),
        scores=data.get("scores"),
        returns=data.get("returns"),
        chance=chance,
        extra={k: v for k, v in data.items() if k not in FIELDS},
    )


FIELDS = {"format", "version", "game", "seed", "seats", "actions", "terminal", "scores"}
FIELDS |= {"returns", "chance"}
ENTRY = ("player", "id", "action")  # what an action entry is; anything else is a note


def carry_notes(rec: GameRecord, loaded: GameRecord | None) -> GameRecord:
    """``rec`` with what a user added to the record it was loaded from: its extra top-level
    fields, and each action entry's extra fields while the game still has the loaded
    entries (an entry replaced after an undo drops its notes: they were about another move).
    Was: a save back to a loaded record dropped them without a word (found in review)."""
    if loaded is None:
        return rec
    rec.extra = {**loaded.extra, **rec.extra}
    for i, (new, old) in enumerate(zip(rec.actions, loaded.actions, strict=False)):
        # the same move: by mover and id (the action string may have been written another
        # accepted way), or a "?" the table has revealed since
        revealed = old.get("id") is None
        if new.get("player") != old.get("player") or not (revealed or new["id"] == old["id"]):
            break
        rec.actions[i] = {**{k: v for k, v in old.items() if k not in ENTRY}, **new}
    return rec


def read_record(path: str | Path) -> GameRecord:
    """The game record in the file ``path`` (HistoryError, one line, for anything else)."""
    data = _read_bytes(path)
    try:
        text = data.decode()
    except UnicodeDecodeError as e:
        raise HistoryError(
            f"game record {str(path)!r} is not UTF-8 text (byte {e.start}); not a game record"
        ) from None
    try:
        obj = json_read.loads(text)
    except json.JSONDecodeError as e:
        raise HistoryError(
            f"game record {str(path)!r} is not valid JSON: {json_reason(e)} at line {e.lineno}"
        ) from None
    except json_read.NotJson as e:  # a 5,000-digit number, [[[...]]] (was a traceback)
        raise HistoryError(f"game record {str(path)!r} is not valid JSON: {e}") from None
    return parse_record(obj)


def _read_bytes(path: str | Path) -> bytes:
    """At most MAX_RECORD_BYTES of a regular file: a device (/dev/zero), a pipe (opened
    without waiting for a writer) or an over-large file is refused before it is read."""
    where = f"game record {str(path)!r}"
    try:
        return read_regular(path, MAX_RECORD_BYTES)
    except NotRegularFile as e:
        raise (NoRecordError if e.is_dir else HistoryError)(f"{where} {e}") from None
    except FileTooLarge as e:
        raise HistoryError(f"{where} {e}, the most a game record may be") from None
    except OSError as e:
        # a name over 255 bytes names no file either (a wrong command line, as a missing one)
        names_none = e.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG)
        error = NoRecordError if names_none else HistoryError
        raise error(f"cannot read {where}: {e.strerror or e}") from None


def json_reason(e: json.JSONDecodeError) -> str:
    """The reason of a JSON error, without json's dangling "at" of some messages ("Invalid
    control character at"): the caller says where."""
    return e.msg.removesuffix(" at")


def record_viewer(record: GameRecord) -> int | None:
    """The seat whose view a table-mode record was entered from (``me``/``human``), if one."""
    seats = [i for i, s in enumerate(record.seats) if s.strip().lower() in ("me", "human")]
    return seats[0] if len(seats) == 1 else None
