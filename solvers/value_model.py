"""Learned value models: each player's final score from a position, fitted to self-play games.

A game's evaluation module (``spiel_games/<game>/evaluation.py``) describes a position by
``features(state)`` (one row per player, named by ``FEATURES``) and ``stage(state)`` (the
share of the game still to play, 1 at the start, 0 at the end). Its hand-set ``estimate``
weighs the features the same way all game long. A ``ValueModel`` learns the weights from
games, and lets each weight drift with the stage: the estimate of player i is

    sum_k  w_k * f_ik  +  v_k * f_ik * stage          (kind "linear")

(a feature such as "works of art in hand" is worth a lot early and little at the end);
kind "mlp" adds a one-hidden-layer network of the player's features, their differences to
the other players' and the stage (``solvers.value_mlp``). Only differences between the
players of one position are fitted (``solvers.value_fit``), so what every player shares
cancels out, as it does in the search's soft returns (under ``utility=score`` the search
adds the evaluation module's ``level``). ``spread(state) = a + b * stage`` is
the standard deviation of a difference of two players' final scores around the model's
estimate, measured on the same games.

The model is a JSON data file (never pickle): the game, the kind, the base feature names it
was fitted on (a model is refused when the game's ``FEATURES`` changed since), the weights,
the spread, and how it was trained (games, positions, self-play agent, held-out R^2 next to
the hand-set evaluation's on the same positions). Format version 2 names the kind;
version 1 files (linear, before kinds) are still read. ``meeple train`` writes one; a
search agent reads it with ``eval=learned`` (the game's shipped ``value_model.json`` beside
its evaluation module, or ``model=PATH``).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from solvers.value_mlp import Network, position_inputs
from spiel_games.common import json_read
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.files import (
    FileTooLarge,
    NotRegularFile,
    atomic_write_text,
    missing_problem,
    read_regular,
)

FORMAT = "meeple-value-model"
FORMAT_VERSION = 2  # 2: the "kind" field (and "network" for kind "mlp")
READS = (1, 2)  # version 1: linear models written before kinds
KINDS = ("linear", "mlp")
SHIPPED_NAME = "value_model.json"  # beside the game's evaluation module


class ValueModelError(MeepleError):
    """A value model file that cannot be used (one-line message)."""


@dataclass(frozen=True)
class ValueModel:
    game: str  # the game's short name, e.g. "python_bruxelles"
    features: tuple[str, ...]  # the evaluation module's FEATURES it was fitted on
    weights: tuple[float, ...]  # w_1..w_F (flat), then v_1..v_F (times the stage)
    spread_a: float
    spread_b: float
    trained: dict = field(default_factory=dict, compare=False)  # provenance, for people
    network: Network | None = None  # kind "mlp": added to the linear estimate

    @property
    def kind(self) -> str:
        return "linear" if self.network is None else "mlp"

    # ----- the evaluation interface the search uses (as an evaluation module) -----------
    def bind(self, evaluation) -> BoundModel:
        """The model evaluating positions with ``evaluation``'s features and stage."""
        names = tuple(getattr(evaluation, "FEATURES", ()))
        if names != self.features:
            raise ValueModelError(
                f"value model for {self.game} was fitted on features {', '.join(self.features)}"
                f" but the game now has {', '.join(names) or 'none'}: refit it with meeple train"
            )
        return BoundModel(self, evaluation)

    # ----- file format ---------------------------------------------------------------------
    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "kind": self.kind,
            "game": self.game,
            "features": list(self.features),
            "weights": {
                "flat": dict(zip(self.features, self.flat, strict=True)),
                "times_stage": dict(zip(self.features, self.staged, strict=True)),
            },
            "spread": {"a": self.spread_a, "b": self.spread_b},
            "trained": self.trained,
        }
        if self.network is not None:
            data["network"] = self.network.to_dict()
        return json.dumps(data, indent=2, sort_keys=False)

    @property
    def flat(self) -> tuple[float, ...]:
        return self.weights[: len(self.features)]

    @property
    def staged(self) -> tuple[float, ...]:
        return self.weights[len(self.features) :]

    def save(self, path: str | Path) -> Path:
        """Write the model (atomically: a crash leaves the old file or the new one)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, self.to_json() + "\n")
        return path


class BoundModel:
    """A model tied to its game's evaluation module: ``estimate`` and ``spread`` for search."""

    def __init__(self, model: ValueModel, evaluation):
        self.model = model
        self._features = evaluation.features
        self._stage = evaluation.stage
        self._level = getattr(evaluation, "level", None)
        self._flat = model.flat
        self._staged = model.staged
        net = model.network
        self._network = net if net is not None and net.adds() else None  # a zero one: skip

    def estimate(self, state) -> list[float]:
        """Each player's expected final score (the final scores once the game is over)."""
        if state.is_terminal():
            return [float(x) for x in state.scores()]
        st = self._stage(state)
        w, v = self._flat, self._staged
        rows = self._features(state)
        linear = [
            sum((wk + vk * st) * fk for wk, vk, fk in zip(w, v, row, strict=True)) for row in rows
        ]
        if self._network is None:
            return linear
        net = self._network(position_inputs(rows, st))
        return [a + float(b) for a, b in zip(linear, net, strict=True)]

    def spread(self, state) -> float:
        m = self.model
        return max(1e-6, m.spread_a + m.spread_b * self._stage(state))

    def level(self, state) -> float:
        """The players' mean final score expected (``utility=score``): the model is
        fitted on differences, so the level is the evaluation module's."""
        if self._level is None:
            raise ValueModelError(f"{self.model.game}'s evaluation has no level for utility=score")
        return float(self._level(state))


def parse(text: str, source: str = "value model") -> ValueModel:
    """A model from its JSON text; every problem is one ``ValueModelError`` line."""
    try:
        data = json_read.loads(text)
    except ValueError as e:  # json_read: nested too deeply, a 5,000-digit number too
        raise ValueModelError(f"{source}: not JSON ({one_line(e)})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueModelError(f"{source}: not a meeple value model (no format {FORMAT!r})")
    version = data.get("format_version")
    if version not in READS:
        raise ValueModelError(
            f"{source}: format version {version!r}, this meeple-arena reads "
            f"{' and '.join(map(str, READS))}"
        )
    kind = data.get("kind", "linear") if version >= 2 else "linear"
    if kind not in KINDS:
        raise ValueModelError(
            f"{source}: kind {kind!r}, this meeple-arena knows {', '.join(KINDS)}"
        )
    try:
        features = tuple(str(x) for x in data["features"])
        w = data["weights"]
        flat = tuple(float(w["flat"][k]) for k in features)
        staged = tuple(float(w["times_stage"][k]) for k in features)
        a = float(data["spread"]["a"])
        b = float(data["spread"]["b"])
        game = str(data["game"])
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as e:
        raise ValueModelError(f"{source}: missing or malformed field ({one_line(e)})") from None
    if not isinstance(data["features"], list):
        raise ValueModelError(f"{source}: features must be a list of names")
    values = flat + staged + (a, b)
    if not features or not all(math.isfinite(x) for x in values):
        raise ValueModelError(f"{source}: empty feature list or a weight that is not finite")
    if a + min(b, 0.0) <= 0:
        raise ValueModelError(f"{source}: the spread a + b * stage must stay above 0")
    network = None
    if kind == "mlp":
        try:
            network = Network.from_dict(data["network"], len(features))
        except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as e:
            raise ValueModelError(f"{source}: malformed network ({one_line(e)})") from None
    trained = data.get("trained", {})
    return ValueModel(
        game,
        features,
        flat + staged,
        a,
        b,
        trained if isinstance(trained, dict) else {},
        network,
    )


MAX_MODEL_BYTES = 64 * 2**20  # models are a few kB to a few MB; read no further than this


def load(path: str | Path) -> ValueModel:
    """The model in ``path``: a device (``model=/dev/zero`` read until memory ran out), a
    pipe or a file over MAX_MODEL_BYTES is refused before it is read."""
    path = Path(path)
    try:
        text = read_regular(path, MAX_MODEL_BYTES).decode()
    except (NotRegularFile, FileTooLarge) as e:
        raise ValueModelError(f"value model {path} {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueModelError(f"cannot read value model {path}: {one_line(e)}") from None
    return parse(text, str(path))


@functools.cache
def _cached(path: str, mtime_ns: int, size: int) -> ValueModel:
    return load(path)


def load_cached(path: str | Path) -> ValueModel:
    """``load`` once per file version (search agents are built for every game of a run)."""
    p = Path(path)
    if why := missing_problem(p, "value model"):  # one line, as for policy and blueprint files
        raise ValueModelError(why)
    try:
        st = p.stat()
    except OSError as e:
        raise ValueModelError(f"cannot read value model {p}: {one_line(e)}") from None
    return _cached(str(p), st.st_mtime_ns, st.st_size)


def shipped_path(evaluation) -> Path:
    """Where the game ships its trained model: beside its evaluation module."""
    return Path(evaluation.__file__).with_name(SHIPPED_NAME)


def model_for(game_name: str, evaluation, path: str = "") -> BoundModel:
    """The model ``eval=learned`` uses: ``path``, or the game's shipped one."""
    if path:
        model = load_cached(path)
    else:
        shipped = shipped_path(evaluation)
        if not shipped.exists():
            raise ValueModelError(
                f"{game_name} ships no trained value model: train one with `meeple train` "
                "and pass it as model=PATH"
            )
        model = load_cached(shipped)
    if model.game != game_name:
        raise ValueModelError(
            f"value model {path or 'shipped'} is for {model.game}, not {game_name}"
        )
    return model.bind(evaluation)
