"""The ledger: an append-only Parquet dataset, one file per finished batch.

    DIR/.lock                  the run's lock (a flock), taken before anything else is written
    DIR/manifest.json          config, seeds, agent ids and tool versions (written first)
    DIR/part-<first game id>-<n>.parquet   one finished batch, written to a temporary
                               file, flushed, then renamed: a file either exists whole or not

Every batch file has exactly the schema ``SCHEMA``. Reading checks each one: an unreadable,
truncated or foreign batch (other schema, other run) and any other ``*.parquet`` file are a
:class:`LedgerError` naming the file, never silently skipped. Files that cannot hold games
(hidden files such as ``.DS_Store``, a report or notes saved beside the batches) are
ignored and listed in ``Ledger.ignored``. A run takes the lock and writes or checks the
manifest through ``tournament.ledger_open``.
"""

from __future__ import annotations

import platform
import re
import shlex
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from spiel_games.common import json_read
from spiel_games.common.errors import MeepleError
from spiel_games.common.files import (
    ANY_SIZE,
    FileTooLarge,
    NotRegularFile,
    atomic_write_bytes,
    leftover_of,
    lookup_problem,
    open_regular,
    read_regular,
)
from tournament.config import TournamentConfig, config_to_toml_dict

LEDGER_VERSION = 3
# Older ledgers are still read: version 1 (without ``coverage``) and version 2 (without
# ``moves``) batches get nulls in the columns they lack. A resumed older ledger gets version
# 3 batches beside its own (a batch's columns say what it holds, not the manifest).
READABLE_VERSIONS = (1, 2, 3)
_ADDED = ("coverage", "moves")  # columns added since version 1, in order
_JSON_KINDS = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}

SCHEMA = pa.schema(
    [
        pa.field("run_id", pa.dictionary(pa.int32(), pa.string()), nullable=False),
        pa.field("game", pa.dictionary(pa.int32(), pa.string()), nullable=False),
        pa.field("game_id", pa.string(), nullable=False),  # 16 hex digits, deterministic
        pa.field("seed", pa.int64(), nullable=False),  # match seed, shared by a duplicate set
        pa.field("seed_index", pa.int32(), nullable=False),
        pa.field("rotation", pa.int8(), nullable=False),
        pa.field(
            "agents", pa.list_(pa.dictionary(pa.int32(), pa.string())), nullable=False
        ),  # ids by seat
        pa.field(
            "scores", pa.list_(pa.float32()), nullable=False
        ),  # raw final scores (NaN on failure)
        pa.field("returns", pa.list_(pa.float32()), nullable=False),
        pa.field("ranks", pa.list_(pa.int8()), nullable=True),  # 1 = best; null = void game
        pa.field("length", pa.int32(), nullable=False),  # transitions, chance included
        pa.field("duration", pa.float32(), nullable=False),  # seconds
        pa.field(
            "failure", pa.dictionary(pa.int32(), pa.string()), nullable=False
        ),  # ""|crash|timeout|illegal
        pa.field("failed_seat", pa.int8(), nullable=False),  # -1 when none
        pa.field("detail", pa.dictionary(pa.int32(), pa.string()), nullable=False),
        pa.field("actions_hash", pa.int64(), nullable=False),  # digest of the move list
        # per seat: share of the agent's decisions played from a table (blueprint, policy);
        # null for agents without one, the whole list null when no seat has one (version 2)
        pa.field("coverage", pa.list_(pa.float32()), nullable=True),
        # the move list (chance outcomes included), or null when the run did not record it
        # (tournament.record_moves; version 3)
        pa.field("moves", pa.list_(pa.int32()), nullable=True),
    ],
    metadata={b"meeple.ledger_version": str(LEDGER_VERSION).encode()},
)

_DICT_COLUMNS = [f.name for f in SCHEMA if "dictionary" in str(f.type)]
MANIFEST = "manifest.json"
LOCK = ".lock"
# Every file a ledger read opens is checked to be a regular file first (open_regular): a
# pipe named like a part or the manifest would wait for a writer forever. The limits are
# not the point: a manifest is kilobytes to megabytes, a part well under a gigabyte.
_PART = re.compile(r"^part-[0-9a-f]{16}-\d+\.parquet$")


class LedgerError(MeepleError):
    """A ledger that cannot be used as is; the message is one line naming the file."""


class LedgerArgumentError(LedgerError):
    """A ledger argument that is wrong as given (exit 2 on a command line), not a damaged
    ledger (exit 1): the same ledger named twice to be rated together."""


class NoLedgerError(LedgerArgumentError):
    """The path holds no ledger at all (nothing there, a file, a directory without a
    manifest): a wrong path on the command line (exit 2), not a damaged ledger (exit 1)."""


class UnknownGameError(LedgerArgumentError):
    """The ledger holds no game of this id: a wrong id on the command line (exit 2)."""


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for pkg in ("open-spiel", "ray", "pyarrow", "numpy", "meeple-arena"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = "missing"
    return out


def make_manifest(cfg: TournamentConfig, num_games: int, seeds: dict[str, list[int]]) -> dict:
    return {
        "ledger_version": LEDGER_VERSION,
        "run_id": cfg.run_id,
        "config_hash": cfg.config_hash,
        "config": config_to_toml_dict(cfg),
        "game": cfg.game,
        "agents": [
            {
                "name": a.name,
                "spec": a.spec,
                "canonical": a.canonical,
                "id": a.agent_id,
                "budget": a.budget,
            }
            for a in cfg.agents
        ],
        "num_games": num_games,
        "seeds": seeds,
        "code_version": cfg.code_version,
        "versions": versions(),
    }


def read_manifest(directory: Path) -> dict:
    path = Path(directory) / MANIFEST
    try:
        m = json_read.loads(read_regular(path, ANY_SIZE))
    except FileNotFoundError:
        raise NoLedgerError(f"{directory}: no {MANIFEST}; not a meeple ledger") from None
    except (NotRegularFile, FileTooLarge, ValueError) as e:  # a pipe; not JSON (json_read)
        raise LedgerError(f"{path}: unreadable manifest ({e})") from None
    except OSError as e:  # a file this user may not read
        raise LedgerError(f"{path}: unreadable manifest ({e.strerror or e})") from None
    what = "" if isinstance(m, dict) else f": {_JSON_KINDS.get(type(m), 'a number')}, not an object"
    if what or m.get("ledger_version") not in READABLE_VERSIONS or "run_id" not in m:
        raise LedgerError(f"{path}: not a meeple ledger manifest (version {LEDGER_VERSION}){what}")
    if wrong := _wrong_field(m):
        raise LedgerError(f"{path}: {wrong}")
    return m


# The manifest's fields the commands read (ratings, review, replay, sprt, a rerun), with the
# JSON type each must have: a hand-edited manifest is refused here, in one line, not by a
# traceback wherever a command first reads the field.
_FIELDS: tuple[tuple[str, type | tuple[type, ...]], ...] = (
    ("run_id", str),
    ("config_hash", str),
    ("code_version", str),
    ("config", dict),
    ("config.tournament", dict),
    ("config.agents", dict),
    ("config.tournament.game", str),
    ("config.tournament.seeds_per_lineup", int),
    ("config.tournament.failure_policy", str),
    ("config.tournament.time_limit", (int, float)),
    ("agents", list),
)
_AGENT_FIELDS = ("name", "id", "spec")
_WANTED = {str: "a string", dict: "an object", list: "an array", int: "an integer"}


def _wrong_field(m: dict) -> str | None:
    """What is wrong with the manifest ``m``'s fields (``_FIELDS``, every agent's name, id
    and spec), in words, or None when each has its type."""
    checks: list[tuple[list[str | int], type | tuple[type, ...]]]
    checks = [(list(key.split(".")), want) for key, want in _FIELDS]
    agents = m.get("agents")
    for i in range(len(agents) if isinstance(agents, list) else 0):
        checks.append((["agents", i], dict))
        checks += [(["agents", i, key], str) for key in _AGENT_FIELDS]
    for keys, want in checks:
        value: object = m
        for k in keys:  # the parents were checked first: each is an object or an array
            if isinstance(value, dict) and k not in value:
                return f"{_dotted(keys)} is missing"
            value = value[k]  # type: ignore[index]
        if not isinstance(value, want) or isinstance(value, bool):
            wanted = _WANTED.get(want, "a number") if isinstance(want, type) else "a number"
            return f"{_dotted(keys)} is {_kind(value)}, not {wanted}"
    return None


def _dotted(keys: list) -> str:
    """A field's path as a user reads it: ``agents[0].name``."""
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")


def _kind(value: object) -> str:
    """A JSON value's kind in words."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, bool):
        return "a boolean"
    return _JSON_KINDS.get(type(value), "a number")


def rows_to_table(rows: list[dict]) -> pa.Table:
    cols = {f.name: [r.get(f.name) for r in rows] for f in SCHEMA}
    return pa.Table.from_pydict(cols, schema=SCHEMA)


def write_batch(directory: Path, rows: list[dict]) -> Path:
    """Write one finished batch atomically; returns the file's path."""
    if not rows:
        raise ValueError("empty batch")
    table = rows_to_table(rows)
    sink = pa.BufferOutputStream()
    # No statistics and no embedded Arrow schema: the footer dominates small batches, and
    # reading casts every file back to SCHEMA anyway.
    pq.write_table(
        table,
        sink,
        compression="zstd",
        write_statistics=False,
        store_schema=False,
        use_dictionary=_DICT_COLUMNS,
    )
    path = Path(directory) / f"part-{rows[0]['game_id']}-{len(rows)}.parquet"
    if path.exists():
        raise LedgerError(f"{path.name} already exists; a batch would be written twice")
    atomic_write_bytes(path, sink.getvalue().to_pybytes())
    return path


def _castable(stored: pa.DataType, wanted: pa.DataType) -> bool:
    """Whether a column stored as ``stored`` reads as ``wanted``, from the types alone
    (list elements too); text for anything else is refused, its cast failing on some values."""
    t = pa.types
    if t.is_list(wanted) or t.is_large_list(wanted):
        is_list = t.is_list(stored) or t.is_large_list(stored)
        return t.is_null(stored) or is_list and _castable(stored.value_type, wanted.value_type)
    text = [t.is_string(x.value_type if t.is_dictionary(x) else x) for x in (stored, wanted)]
    try:
        return text != [True, False] and pa.nulls(1, stored).cast(wanted) is not None
    except (ValueError, TypeError, NotImplementedError, pa.ArrowException):
        return False


def _redo(p: Path) -> str:
    """What to do about the damaged batch file ``p``: its games are played again."""
    n = int(p.stem.rsplit("-", 1)[1])
    games = "its game is" if n == 1 else f"its {n} games are"
    return f"delete it and rerun the command that wrote the ledger: only {games} played again"


def _read_part(p: Path, run_id: str, columns: list[str] | None = None) -> pa.Table:
    """Read one batch file and check it: a regular file (a pipe is not waited on), its
    schema, row count (in its name) and run id."""
    try:
        f = open_regular(p, ANY_SIZE)
    except (NotRegularFile, FileTooLarge) as e:
        raise LedgerError(f"{p} {e}; {_redo(p)}") from None
    except OSError as e:  # a file this user may not read, one removed meanwhile
        raise LedgerError(f"{p}: unreadable ({e.strerror or e})") from None
    with f:
        return _check_part(p, f, run_id, columns)


def _check_part(p: Path, f, run_id: str, columns: list[str] | None) -> pa.Table:
    """``_read_part`` of the open file ``f``."""
    try:
        pf = pq.ParquetFile(f)
        names = pf.schema_arrow.names
        rows = pf.metadata.num_rows
    except Exception as e:
        raise LedgerError(
            f"{p}: unreadable or truncated Parquet file ({str(e).splitlines()[0]}); {_redo(p)}"
        ) from None
    missing = SCHEMA.names[len(names) :]  # version 1 or 2: the columns added since
    if names != SCHEMA.names[: len(names)] or len(missing) > len(_ADDED):
        raise LedgerError(f"{p}: schema differs from the ledger schema; refusing to use it")
    stored = pf.schema_arrow  # every column's type, also of those this read leaves out
    if not all(_castable(stored.field(c).type, SCHEMA.field(c).type) for c in names):
        raise LedgerError(f"{p}: schema differs from the ledger schema; refusing to use it")
    expected = int(p.stem.rsplit("-", 1)[1])
    if rows != expected:
        raise LedgerError(f"{p}: {rows} rows, the name says {expected}; refusing to use it")
    cols = (
        SCHEMA.names
        if columns is None
        else [c for c in SCHEMA.names if c in columns or c == "run_id"]
    )
    try:
        t = pf.read(columns=[c for c in cols if c in names], use_threads=False)
        for name in missing:
            if name in cols:
                t = t.append_column(name, pa.nulls(t.num_rows, SCHEMA.field(name).type))
    except Exception as e:
        raise LedgerError(
            f"{p}: unreadable or truncated Parquet file ({str(e).splitlines()[0]}); {_redo(p)}"
        ) from None
    try:
        t = t.cast(pa.schema([SCHEMA.field(c) for c in cols]))
    except (ValueError, pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        raise LedgerError(
            f"{p}: schema differs from the ledger schema; refusing to use it"
        ) from None
    runs = pc.unique(t.column("run_id").combine_chunks().dictionary_decode()).to_pylist()
    if runs != [run_id]:
        raise LedgerError(f"{p}: rows from run {sorted(runs)}, the manifest says {run_id}")
    return t


@dataclass
class Ledger:
    directory: Path
    manifest: dict
    table: pa.Table
    files: list[Path]
    ignored: list[Path] = field(default_factory=list)  # files that cannot hold games

    @property
    def game_ids(self) -> set[str]:
        return set(self.table.column("game_id").to_pylist())


def read_ledger(directory: str | Path, columns: list[str] | None = None) -> Ledger:
    """Read and check every file of a ledger directory (``columns``: only those, plus run_id)."""
    d = Path(directory)
    if why := lookup_problem(d):  # a name over 255 bytes (Path.is_dir would raise)
        raise NoLedgerError(f"{d}: {why}")
    if not d.is_dir():
        what = "a file, not a ledger directory" if d.exists() else "no such ledger directory"
        raise NoLedgerError(f"{d}: {what}")
    manifest = read_manifest(d)
    paths, ignored = [], []
    for p in sorted(d.iterdir()):
        if p.name in (MANIFEST, LOCK) or leftover_of(p):  # a .tmp-x folder is foreign
            continue
        if _PART.match(p.name):
            paths.append(p)
        elif p.name.endswith(".parquet") or p.is_dir():
            # data that looks like games but is not a batch of this ledger: never guess
            raise LedgerError(f"{p}: foreign file in the ledger; refusing to use it")
        else:
            ignored.append(p)
    # Parquet decoding releases the GIL: a few threads hide the per-file open cost. A
    # refused file or Ctrl-C ends the read without reading the files still queued.
    pool = ThreadPoolExecutor(max_workers=4)
    try:
        tables = list(pool.map(lambda p: _read_part(p, manifest["run_id"], columns), paths))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    files = paths
    if tables:
        table = pa.concat_tables(tables)
    else:
        table = SCHEMA.empty_table()
        if columns is not None:
            table = table.select([c for c in SCHEMA.names if c in columns or c == "run_id"])
    ids = table.column("game_id") if "game_id" in table.column_names else pa.array([], pa.string())
    if len(ids) and len(pc.unique(ids)) != len(ids):
        raise LedgerError(f"{d}: a game appears twice in the ledger; refusing to use it")
    return Ledger(d, manifest, table, files, ignored)


def read_game(directory: str | Path, game_id: str) -> tuple[dict, dict]:
    """(the row of one game, the manifest): every file checked as ``read_ledger`` checks it
    (names, types, rows, run), only the game ids read from all and the whole row from the
    one file that holds the game (a ledger's recorded moves are not loaded to find one)."""
    ledger = read_ledger(directory, ["game_id"])
    at = pc.index(ledger.table.column("game_id"), game_id).as_py()
    if at < 0:
        listing = shlex.join(["meeple", "review", str(directory), "--list"])
        raise UnknownGameError(
            f"no game {game_id!r} in {directory}; list its game ids with: {listing}"
        )
    for p in ledger.files:  # read_ledger concatenates the files in this order
        if at < (rows := int(p.stem.rsplit("-", 1)[1])):
            t = _read_part(p, ledger.manifest["run_id"])
            return t.slice(at, 1).to_pylist()[0], ledger.manifest
        at -= rows
    raise AssertionError("unreachable: the game ids came from these files")


def ledger_bytes(directory: str | Path) -> int:
    return sum(p.stat().st_size for p in Path(directory).iterdir() if _PART.match(p.name))
