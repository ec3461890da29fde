"""Blueprints: the average strategy of an MCCFR run, and the ``blueprint`` agent that plays it.

A blueprint file (``.npz`` of plain arrays with a JSON manifest, never pickle; written by
``meeple solve --solver mccfr-os|mccfr-es`` beside its policy file, or shipped with a game
as ``spiel_games/<game>/blueprint_<n>p.npz``) holds, per abstract key met at least
``min_visits`` times in training, the average strategy over the actions met there:

| array        | per  | meaning                                                     |
|--------------|------|-------------------------------------------------------------|
| keys         | row  | abstraction keys, UTF-8 joined by NUL (``rows_count`` of them) |
| visits       | row  | decisions met at the key in training                        |
| slot_row     | slot | the row of each (key, action) slot                          |
| slot_action  | slot | the action id (its label under an action abstraction)       |
| probability  | slot | average-strategy probability (each row sums to 1)           |

The manifest (``meta``) names the game string, the abstraction and its version (checked
when loading, as for policy files), the solver, iterations, seed, ``min_visits`` and
training figures.

``Blueprint.policy(state, player)`` is the per-node lookup a search can call: the legal
actions (one per distinct label under an action abstraction) and their probabilities
(renormalised over them), or None where the blueprint has nothing for the position. The ``blueprint`` agent samples it and hands
positions it does not cover to its fallback (the heuristic by default); ``coverage()``
is the share of its decisions (positions with more than one legal move) played from the
table.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyspiel

from solvers import units
from solvers.base import Agent, AgentKind, Analysis, MoveStat, Param
from solvers.fastpath import transition_functions
from solvers.mccfr_sampling import pick
from solvers.mccfr_tables import (
    Tables,
    TablesError,
    decode_keys,
    encode_keys,
    load_npz,
    save_npz,
)
from solvers.policy_file import (
    PolicyFileError,
    check_compatible,
    choices,
    key_function,
    label_function,
)
from solvers.spec import AgentSpecError
from spiel_games.common.errors import one_line
from spiel_games.common.files import FileTooLarge, NotRegularFile, missing_problem, open_regular
from spiel_games.common.registry import get_spec, load_game

KIND = "meeple-blueprint"
SHIPPED_PATTERN = "blueprint_*p.npz"


@dataclass
class Blueprint:
    meta: dict
    index: dict[str, int]
    probs: list[dict[int, float]]  # per row: action -> probability
    visits: np.ndarray
    key_fn: Callable
    legal_fn: Callable  # legal(state, player), the game's own (solvers.fastpath)
    labels_fn: Callable | None  # the abstraction's action labels (None: action ids)

    @property
    def rows(self) -> int:
        return len(self.probs)

    def policy(self, state, player: int) -> tuple[list[int], list[float]] | None:
        """(legal actions, probabilities) from the table, or None where it has nothing. Where
        the abstraction leaves one choice (training stores no row there), that choice."""
        acts, labels = choices(self.labels_fn, state, player, self.legal_fn(state, player))
        if len(acts) == 1:
            return acts, [1.0]
        r = self.index.get(self.key_fn(state, player))
        if r is None:
            return None
        m = self.probs[r]
        ps = [m.get(x, 0.0) for x in labels]
        total = sum(ps)
        if total <= 0:
            return None
        return acts, [p / total for p in ps]


def blueprint_arrays(tables: Tables, min_visits: int = 1) -> dict[str, np.ndarray]:
    """The average strategy of ``tables`` over the rows visited at least ``min_visits``
    times, as blueprint arrays."""
    keep_row = tables.visits >= min_visits
    new_row = np.cumsum(keep_row) - 1
    keep_slot = keep_row[tables.slot_row]
    keys = [k for k, keep in zip(tables.keys, keep_row.tolist(), strict=True) if keep]
    return {
        "keys": encode_keys(keys),
        "rows_count": np.asarray([len(keys)], np.int64),
        "visits": tables.visits[keep_row].astype(np.int64),
        "slot_row": new_row[tables.slot_row[keep_slot]].astype(np.int32),
        "slot_action": tables.slot_action[keep_slot].astype(np.int32),
        "probability": tables.average()[keep_slot].astype(np.float32),
    }


def save_blueprint(path: str | Path, arrays: dict[str, np.ndarray], meta: dict) -> int:
    """Write a blueprint file atomically; its size in bytes."""
    for required in ("game", "abstraction", "abstraction_version", "iterations", "solver"):
        if required not in meta:
            raise ValueError(f"blueprint metadata needs {required!r}")
    return save_npz(path, arrays, {"kind": KIND, **meta})


def from_arrays(game, arrays: dict[str, np.ndarray], meta: dict) -> Blueprint:
    try:
        keys = decode_keys(arrays["keys"], int(arrays["rows_count"][0]))
        probs: list[dict[int, float]] = [{} for _ in keys]
        for r, a, p in zip(
            arrays["slot_row"].tolist(),
            arrays["slot_action"].tolist(),
            arrays["probability"].tolist(),
            strict=True,
        ):
            probs[r][a] = p
        visits = arrays["visits"]
    except (KeyError, IndexError, ValueError, TablesError) as e:
        raise PolicyFileError(f"blueprint arrays are malformed ({e})") from None
    if any(not 0.0 <= p <= 1.0 for p in arrays["probability"].tolist()):
        raise PolicyFileError("a blueprint probability is outside [0, 1] (or NaN)")
    index = {k: r for r, k in enumerate(keys)}
    name = meta["abstraction"]
    legal_fn = transition_functions(game)[1]
    return Blueprint(
        meta, index, probs, visits, key_function(game, name), legal_fn, label_function(game, name)
    )


def load_blueprint(path: str | Path, game) -> Blueprint:
    """A blueprint file checked against ``game`` (PolicyFileError, one line, otherwise).
    Files are read once per process (keyed by path, size and modification time)."""
    p = Path(path)
    if why := missing_problem(p, "blueprint file"):
        raise PolicyFileError(why)
    try:
        st = p.stat()
    except OSError as e:  # removed since
        raise PolicyFileError(f"cannot read blueprint file {path}: {one_line(e)}") from None
    meta, arrays = _read(str(p.resolve()), st.st_size, st.st_mtime_ns)
    check_compatible(meta, game)
    return _built(str(p.resolve()), st.st_size, st.st_mtime_ns, str(game))


# The shipped blueprints are 27-136 kB (about 140 bytes per key); a run at the default
# cap of 2 million keys would write some 300 MB. A file over this cap, a pipe or a device is
# refused before it is read.
MAX_BLUEPRINT_BYTES = 1 << 30


@functools.lru_cache(maxsize=8)
def _read(path: str, size: int, mtime: int) -> tuple[dict, dict[str, np.ndarray]]:
    try:
        with open_regular(path, MAX_BLUEPRINT_BYTES) as f:
            meta, arrays = load_npz(path, f)
    except (NotRegularFile, FileTooLarge) as e:
        raise PolicyFileError(f"blueprint {path} {e}") from None
    except OSError as e:
        raise PolicyFileError(f"cannot read blueprint {path}: {one_line(e)}") from None
    except TablesError as e:
        raise PolicyFileError(f"blueprint {e}") from None  # e names the file
    if meta.get("kind") != KIND:
        raise PolicyFileError(f"{path} is not a meeple blueprint (kind {meta.get('kind')!r})")
    return meta, arrays


@functools.lru_cache(maxsize=8)
def _built(path: str, size: int, mtime: int, game_string: str) -> Blueprint:
    meta, arrays = _read(path, size, mtime)
    return from_arrays(load_game(game_string, any_openspiel=True), arrays, meta)


def shipped_blueprints(game) -> list[Path]:
    """The blueprint files a game package ships (``blueprint_<n>p.npz``); none for a game
    outside the registry (e.g. OpenSpiel's own kuhn_poker)."""
    try:
        spec = get_spec(game.get_type().short_name)
    except KeyError:
        return []
    if spec.abstraction is None:
        return []
    package = Path(spec.abstraction.__code__.co_filename).parent
    return sorted(package.glob(SHIPPED_PATTERN))


def blueprint_meta(path: str | Path) -> dict:
    """A blueprint file's metadata (PolicyFileError, one line, when it cannot be read)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        raise PolicyFileError(f"cannot read blueprint file {path}: {one_line(e)}") from None
    return _read(str(p.resolve()), st.st_size, st.st_mtime_ns)[0]


def shipped_for(game, param: str = "path") -> Path:
    """The shipped blueprint trained for exactly this game string (``param``: the agent
    parameter that names another file, for the error message)."""
    want = str(game)
    found = []
    for path in shipped_blueprints(game):
        meta, _ = _read(str(path.resolve()), path.stat().st_size, path.stat().st_mtime_ns)
        if meta.get("game") == want:
            return path
        found.append(str(meta.get("game")))
    have = f" (it ships blueprints for {', '.join(found)})" if found else ""
    raise AgentSpecError(
        f"no shipped blueprint for {want}{have}; train one with `meeple solve` and pass {param}=FILE"
    )


class BlueprintAgent(Agent):
    """Samples the blueprint's probabilities; positions it does not cover go to the fallback."""

    def __init__(self, blueprint: Blueprint, fallback: Agent, seed: int, sample: bool = True):
        self.blueprint = blueprint
        self.sample = sample  # sample the probabilities, or play the most likely action
        self.rng = random.Random(seed)
        self.fallback = fallback
        self.decisions = 0
        self.from_table = 0

    def reset(self) -> None:
        self.fallback.reset()
        self.decisions = 0
        self.from_table = 0

    def coverage(self) -> float | None:
        return self.from_table / self.decisions if self.decisions else None

    def step(self, state) -> int:
        p = state.current_player()
        legal = state.legal_actions(p)
        if len(legal) == 1:
            return legal[0]
        found = self.blueprint.policy(state, p)
        if found is not None and len(found[0]) == 1:
            return found[0][0]  # the abstraction leaves one choice: not a decision
        self.decisions += 1
        if found is None:
            return self.fallback.step(state)
        self.from_table += 1
        actions, probs = found
        if self.sample:
            return actions[pick(self.rng.random(), probs)]
        return actions[max(range(len(actions)), key=lambda j: (probs[j], -actions[j]))]

    def analyse(self, state) -> Analysis | None:
        p = state.current_player()
        found = self.blueprint.policy(state, p)
        if found is None:
            return None
        r = self.blueprint.index.get(self.blueprint.key_fn(state, p))
        visits = 0.0 if r is None else float(self.blueprint.visits[r])
        probs = dict(zip(*found, strict=True))  # an action abstraction plays one per label
        moves = [
            MoveStat(a, state.action_to_string(p, a), visits, float("nan"), prob=probs.get(a, 0.0))
            for a in state.legal_actions(p)
        ]
        moves.sort(key=lambda m: (-(m.prob or 0.0), m.action))
        return Analysis(p, moves, budget={"visits": int(visits)}, units=units.BLUEPRINT)


def make_blueprint_agent(
    game, path: str, fallback: Callable[[int], Agent], seed: int, play: str = "auto"
) -> Agent:
    """``path`` empty: the blueprint the game ships for this game string. ``play``: sample
    the strategy, or play its most likely action (best); auto: sample where the game has
    hidden information."""
    if play not in ("auto", "sample", "best"):
        raise AgentSpecError("parameter 'play' of agent 'blueprint' must be auto, sample or best")
    chosen = Path(path) if path else shipped_for(game)
    hidden = game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION
    sample = play == "sample" or (play == "auto" and hidden)
    return BlueprintAgent(load_blueprint(chosen, game), fallback(seed + 1), seed, sample)


def blueprint_kind(factory: Callable) -> AgentKind:
    return AgentKind(
        name="blueprint",
        summary="plays an MCCFR blueprint (the average strategy over abstract keys); "
        "positions it does not cover go to the fallback, and its coverage is reported",
        params=(
            Param("path", str, "", "blueprint file (.npz); empty: the one the game ships"),
            Param(
                "fallback",
                str,
                "heuristic",
                "agent spec for positions the blueprint does not cover",
                agent=True,
            ),
            Param(
                "play",
                str,
                "auto",
                "sample the strategy, or play its most likely action (best); auto: sample "
                "where the game has hidden information",
                choices=("auto", "sample", "best"),
            ),
        ),
        factory=factory,
    )
