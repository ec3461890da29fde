"""Policy files: Parquet tables of (key, action, probability) with metadata.

A policy file is safe to load from anyone: it is plain columnar data (never
pickle). Columns:

| column      | type   | meaning                                                        |
|-------------|--------|----------------------------------------------------------------|
| key         | string | information key: the abstraction's key, or the information-state string when the abstraction is `none` |
| action      | int64  | action id                                                      |
| probability | float64| probability of the action at that key (each key sums to 1)    |

Schema metadata (key ``meeple``, a JSON object): ``format`` (= 1), ``game``
(the canonical game string), ``abstraction`` (name, or ``none``),
``abstraction_version``, ``iterations``, ``solver``, ``code_version``, plus any
solver extras (``seed``, ``nash_conv``...).

``policy(path=...,fallback=heuristic)`` plays from a file; keys the file does not
cover (or where none of the stored actions is legal) are played by the fallback
agent and counted in ``fallbacks``. With an abstraction that labels actions
(``GameSpec.abstraction_labels``) the ``action`` column holds labels, and the agent
plays the first legal action of the label it samples.

``to_openspiel_policy(game, path)`` gives a file's policy as an OpenSpiel policy: what
``policy(path=FILE,fallback=random)`` plays (uniform where the file has nothing).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq
from open_spiel.python import policy as openspiel_policy

from solvers import units
from solvers.base import Agent, Analysis, MoveStat
from solvers.identity import code_version
from solvers.mccfr_sampling import first_per_label
from spiel_games.common import files, json_read
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.files import FileTooLarge, NotRegularFile, atomic_file, open_regular
from spiel_games.common.registry import get_spec, load_game

FORMAT = 1
META_KEY = b"meeple"
NO_ABSTRACTION = "none"


MAX_POLICY_BYTES = 2 << 30  # over this, or a pipe or device: refused unread (docs/solvers.md)


class PolicyFileError(MeepleError):
    """A policy file that cannot be used for this game (one-line message)."""


def canonical_game_string(game_or_string) -> str:
    if isinstance(game_or_string, str):
        return str(load_game(game_or_string, any_openspiel=True))
    return str(game_or_string)


@dataclass
class PolicyTable:
    meta: dict
    table: dict[str, tuple[list[int], list[float]]] = field(default_factory=dict)


def table_rows(table: dict[str, dict[int, float]]):
    """(key, action, probability) rows of {key: {action: prob}}, sorted."""
    for k in sorted(table):
        for a in sorted(table[k]):
            yield k, int(a), float(table[k][a])


_SCHEMA = pa.schema([("key", pa.string()), ("action", pa.int64()), ("probability", pa.float64())])
_CHUNK = 200_000


def write_policy(path: str | Path, table, meta: dict) -> int:
    """Write a policy with metadata; returns the file size in bytes.

    ``table`` is {key: {action: prob}} or an iterable of (key, action, prob) rows;
    rows are written in row groups of 200,000, so a large policy never needs a
    second full copy in memory.
    """
    for required in ("game", "abstraction", "abstraction_version", "iterations", "solver"):
        if required not in meta:
            raise ValueError(f"policy metadata needs {required!r}")
    meta = {"format": FORMAT, "code_version": code_version(meta["game"]), **meta}
    rows = table_rows(table) if isinstance(table, dict) else table
    schema = _SCHEMA.with_metadata({META_KEY: json.dumps(meta, allow_nan=False).encode()})
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(path) as f:  # synced, renamed; a failed write leaves nothing behind
        _write_rows(f, schema, rows)
    return path.stat().st_size


def _write_rows(f: BinaryIO, schema: pa.Schema, rows) -> None:
    with pq.ParquetWriter(f, schema, compression="zstd") as writer:
        keys: list[str] = []
        actions: list[int] = []
        probs: list[float] = []

        def flush() -> None:
            writer.write_table(
                pa.table(
                    {
                        "key": pa.array(keys, pa.string()),
                        "action": pa.array(actions, pa.int64()),
                        "probability": pa.array(probs, pa.float64()),
                    },
                    schema=schema,
                )
            )
            keys.clear()
            actions.clear()
            probs.clear()

        for k, a, p in rows:
            keys.append(k)
            actions.append(a)
            probs.append(p)
            if len(keys) >= _CHUNK:
                flush()
        if keys:
            flush()


def read_meta(path: str | Path) -> dict:
    try:
        with open_regular(path, MAX_POLICY_BYTES) as f:
            schema = pq.read_schema(f)
    except (NotRegularFile, FileTooLarge) as e:
        raise PolicyFileError(f"policy file {path} {e}") from None
    except (OSError, pa.ArrowInvalid) as e:
        raise PolicyFileError(f"cannot read policy file {path}: {e}") from None
    raw = (schema.metadata or {}).get(META_KEY)
    if raw is None:
        raise PolicyFileError(f"{path} is not a meeple policy file (no metadata)")
    try:
        meta = json_read.loads(raw)
    except ValueError:
        meta = None
    if not isinstance(meta, dict):
        raise PolicyFileError(f"{path}: the policy metadata is not a JSON object")
    for name, ok in _COLUMN_TYPES.items():
        if name not in schema.names:
            raise PolicyFileError(f"{path}: no column {name!r}; not a meeple policy file")
        if not ok(schema.field(name).type):
            raise PolicyFileError(
                f"{path}: column {name!r} has type {schema.field(name).type}, "
                f"expected {_SCHEMA.field(name).type}"
            )
    return meta


# What a reader accepts per column (a writer writes exactly _SCHEMA).
_COLUMN_TYPES = {
    "key": lambda t: pa.types.is_string(t) or pa.types.is_large_string(t),
    "action": pa.types.is_integer,
    "probability": pa.types.is_floating,
}


def read_policy(path: str | Path) -> PolicyTable:
    """The whole file as a table; PolicyFileError (one line) for anything malformed."""
    meta = read_meta(path)
    if meta.get("format") != FORMAT:
        raise PolicyFileError(f"{path}: unsupported policy format {meta.get('format')!r}")
    try:
        with open_regular(path, MAX_POLICY_BYTES) as f:
            t = pq.read_table(f, columns=["key", "action", "probability"])
    except (OSError, pa.ArrowException) as e:
        raise PolicyFileError(f"cannot read policy file {path}: {one_line(e)}") from None
    if t.num_rows and any(t.column(c).null_count for c in t.column_names):
        raise PolicyFileError(f"{path}: the policy has empty (null) cells")
    probs = t.column("probability").to_pylist()
    if any(not 0.0 <= q <= 1.0 for q in probs):  # NaN fails both comparisons
        raise PolicyFileError(f"{path}: a probability is outside [0, 1] (or NaN)")
    out: dict[str, tuple[list[int], list[float]]] = {}
    for k, a, p in zip(
        t.column("key").to_pylist(), t.column("action").to_pylist(), probs, strict=True
    ):
        entry = out.get(k)
        if entry is None:
            entry = out[k] = ([], [])
        entry[0].append(a)
        entry[1].append(p)
    return PolicyTable(meta, out)


def check_compatible(meta: dict, game) -> None:
    """Raise PolicyFileError if the file was trained for another game or abstraction."""
    want = canonical_game_string(game)
    if meta.get("game") != want:
        raise PolicyFileError(f"policy file is for game {meta.get('game')!r}, not {want!r}")
    name = meta.get("abstraction")
    if name != NO_ABSTRACTION:
        spec = get_spec(game.get_type().short_name)
        if name != spec.abstraction_name:
            raise PolicyFileError(
                f"policy file uses abstraction {name!r}; this game's is {spec.abstraction_name!r}"
            )
        if meta.get("abstraction_version") != spec.abstraction_version:
            raise PolicyFileError(
                f"policy file uses abstraction {name} version {meta.get('abstraction_version')}, "
                f"the game now has version {spec.abstraction_version}"
            )


def key_function(game, abstraction: str):
    """state, player -> key, for an abstraction name (or `none`: information-state strings)."""
    if abstraction == NO_ABSTRACTION:
        return lambda state, player: state.information_state_string(player)
    spec = get_spec(game.get_type().short_name)
    if spec.abstraction is None or abstraction != spec.abstraction_name:
        valid = ", ".join(x for x in (NO_ABSTRACTION, spec.abstraction_name) if x)
        raise PolicyFileError(
            f"unknown abstraction {abstraction!r} for {spec.short_name}; valid: {valid}"
        )
    return spec.abstraction


def label_function(game, abstraction: str):
    """state, player, legal -> one label per legal action, for an abstraction name; None
    when actions are their own labels (``none``, or a game without action abstraction)."""
    if abstraction == NO_ABSTRACTION:
        return None
    return get_spec(game.get_type().short_name).abstraction_labels


def choices(labels_fn, state, player: int, legal) -> tuple[list[int], list[int]]:
    """(actions, labels) of a decision: one action per distinct label, the first in legal
    order (every action, labelled by its id, without an action abstraction)."""
    if labels_fn is None:
        return legal, legal
    return first_per_label(legal, labels_fn(state, player, legal))


def label_probs(acts, labels, stored: dict[int, float] | None) -> list[tuple[int, float]] | None:
    """What the ``policy`` agent plays at a decision whose choices are ``acts`` with
    ``labels`` (one action per label, as ``choices`` gives them), from the file's
    {label: probability} at the decision's key (``stored``, None where the file has no such
    key): each label's probability on its action, renormalised over the labels at hand; a
    single choice at 1.0. None where the agent hands the decision to its fallback (no key,
    or no positive probability on any label at hand). A label merged into another (a later
    legal action with the same label) never gets probability."""
    if len(acts) == 1:
        return [(acts[0], 1.0)]
    if stored is None:
        return None
    pairs = [(a, stored.get(x, 0.0)) for a, x in zip(acts, labels, strict=True)]
    pairs = [(a, q) for a, q in pairs if q > 0]
    total = sum(q for _, q in pairs)
    if total <= 0:
        return None
    return [(a, q / total) for a, q in pairs]


def decided_probs(legal, labels, stored: dict[int, float] | None):
    """``label_probs`` at a decision over ``legal`` whose ``labels`` (one per legal action,
    None when actions are their own labels) are not yet merged: None where the file does
    not decide (the agent's fallback plays)."""
    acts, labs = (legal, legal) if labels is None else first_per_label(legal, labels)
    return label_probs(acts, labs, stored)


def played_probs(legal, labels, stored: dict[int, float] | None) -> dict[int, float]:
    """{action: probability} over ``legal`` as ``policy(path=FILE,fallback=random)`` plays
    it: ``decided_probs`` where the file decides, uniform over every legal action where it
    does not. The mapping of the ``nash_conv`` that ``meeple solve`` reports and of
    ``to_openspiel_policy``."""
    probs = decided_probs(legal, labels, stored)
    if probs is None:
        return {a: 1.0 / len(legal) for a in legal}
    out = dict.fromkeys(legal, 0.0)
    out.update(probs)
    return out


class PolicyAgent(Agent):
    """Plays by sampling the file's probabilities; unseen keys go to the fallback agent."""

    def __init__(self, game, path: str, fallback: Callable[[int], Agent], seed: int):
        """``fallback(seed)`` builds the agent that plays keys the file does not cover."""
        if why := files.missing_problem(path, "policy file"):
            raise PolicyFileError(why)
        pol = read_policy(path)
        check_compatible(pol.meta, game)
        self.meta = pol.meta
        self.table = pol.table
        self.key_fn = key_function(game, pol.meta["abstraction"])
        self.labels_fn = label_function(game, pol.meta["abstraction"])
        self.rng = random.Random(seed)
        self.fallback = fallback(seed + 1)
        self.fallbacks = 0  # over the agent's life
        self.lookups = 0
        self.game_fallbacks = 0  # this game's (coverage)
        self.game_lookups = 0

    def reset(self) -> None:
        self.fallback.reset()
        self.game_fallbacks = self.game_lookups = 0

    def coverage(self) -> float | None:
        if not self.game_lookups:
            return None
        return 1.0 - self.game_fallbacks / self.game_lookups

    def _probs(self, state) -> list[tuple[int, float]] | None:
        """The file's probabilities at ``state`` (one action at 1.0 where the abstraction
        leaves a single choice: training never stores those); None where it has none."""
        p = state.current_player()
        acts, labels = choices(self.labels_fn, state, p, state.legal_actions())
        if len(acts) == 1:
            return [(acts[0], 1.0)]
        entry = self.table.get(self.key_fn(state, p))
        return label_probs(acts, labels, None if entry is None else dict(zip(*entry, strict=True)))

    def step(self, state) -> int:
        acts, _ = choices(self.labels_fn, state, state.current_player(), state.legal_actions())
        if len(acts) == 1:
            return acts[0]  # the abstraction leaves one choice: not a decision
        probs = self._probs(state)
        self.lookups += 1
        self.game_lookups += 1
        if probs is None:
            self.fallbacks += 1
            self.game_fallbacks += 1
            return self.fallback.step(state)
        x = self.rng.random()
        acc = 0.0
        for a, q in probs:
            acc += q
            if x < acc:
                return a
        return probs[-1][0]

    def analyse(self, state) -> Analysis | None:
        probs = self._probs(state)
        if probs is None:
            return None
        p = state.current_player()
        n = float(self.meta.get("iterations", 0))
        moves = [
            MoveStat(a, state.action_to_string(p, a), n, float("nan"), prob=q)
            for a, q in sorted(probs, key=lambda x: -x[1])
        ]
        budget = {"iterations": self.meta.get("iterations")}
        return Analysis(player=p, moves=moves, budget=budget, units=units.POLICY)


class FilePolicy(openspiel_policy.Policy):
    """A policy file as an OpenSpiel policy (``to_openspiel_policy``)."""

    def __init__(self, game, pol: PolicyTable):
        super().__init__(game, list(range(game.num_players())))
        self.meta = pol.meta
        self.table = {k: dict(zip(*entry, strict=True)) for k, entry in pol.table.items()}
        self.key_fn = key_function(game, pol.meta["abstraction"])
        self.labels_fn = label_function(game, pol.meta["abstraction"])

    def _decision(self, state):
        p = state.current_player()
        legal = state.legal_actions(p)
        labels = None
        if self.labels_fn is not None and len(legal) > 1:
            labels = list(self.labels_fn(state, p, legal))
        return legal, labels, self.table.get(self.key_fn(state, p))

    def action_probabilities(self, state, player_id=None) -> dict[int, float]:
        return played_probs(*self._decision(state))

    def covers(self, state) -> bool:
        """True where the file decides (``policy`` plays no fallback move here)."""
        return decided_probs(*self._decision(state)) is not None


def to_openspiel_policy(game, path: str | Path) -> FilePolicy:
    """The policy of a file as an OpenSpiel ``Policy`` (``action_probabilities(state)``):
    what ``policy(path=FILE,fallback=random)`` plays (``played_probs``), uniform over the
    legal actions at a decision the file does not cover (``FilePolicy.covers``: False;
    the default ``fallback=heuristic`` plays the heuristic there, which no table holds).
    ``game`` is a game or a game string; PolicyFileError as for the agent. For a table,
    ``open_spiel.python.policy.tabular_policy_from_callable(game, pol)`` (small games)."""
    if isinstance(game, str):
        game = load_game(game, any_openspiel=True)
    if why := files.missing_problem(path, "policy file"):
        raise PolicyFileError(why)
    pol = read_policy(path)
    check_compatible(pol.meta, game)
    return FilePolicy(game, pol)
