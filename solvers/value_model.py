"""Learned value models: each player's final score from a position, fitted to self-play games.

A game's evaluation module (``spiel_games/<game>/evaluation.py``) describes a position by
``features(state)`` (one row per player, named by ``FEATURES``) and ``stage(state)`` (the
share of the game still to play, 1 at the start, 0 at the end). Its hand-set ``estimate``
weighs the features the same way all game long. A ``ValueModel`` learns the weights from
games, and lets each weight drift with the stage: the estimate of player i is

    sum_k  w_k * f_ik  +  v_k * f_ik * stage

(a feature such as "works of art in hand" is worth a lot early and little at the end).
Only differences between the players of one position are fitted (each row is centred on the
position's mean), so what every player shares cancels out, as it does in the search's soft
returns. ``spread(state) = a + b * stage`` is the standard deviation of a difference of two
players' final scores around the model's estimate, measured on the same games.

The model is a JSON data file (never pickle): the game, the base feature names it was
fitted on (a model is refused when the game's ``FEATURES`` changed since), the weights, the
spread, and how it was trained (games, positions, self-play agent, held-out R^2 next to the
hand-set evaluation's on the same positions). ``meeple train`` writes one; a search agent
reads it with ``eval=learned`` (the game's shipped ``value_model.json`` beside its
evaluation module, or ``model=PATH``).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.files import atomic_write_text

FORMAT = "meeple-value-model"
FORMAT_VERSION = 1
SHIPPED_NAME = "value_model.json"  # beside the game's evaluation module
STAGE_BINS = 10  # the spread is fitted to the residuals of this many stage bins
RIDGE = 1e-3  # ridge strength, relative to the mean diagonal of X'X
SPREAD_FLOOR = 1e-3  # a fitted spread never goes below this (a perfect fit has none)


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
        return json.dumps(
            {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "game": self.game,
                "features": list(self.features),
                "weights": {
                    "flat": dict(zip(self.features, self.flat, strict=True)),
                    "times_stage": dict(zip(self.features, self.staged, strict=True)),
                },
                "spread": {"a": self.spread_a, "b": self.spread_b},
                "trained": self.trained,
            },
            indent=2,
            sort_keys=False,
        )

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
        self._flat = model.flat
        self._staged = model.staged

    def estimate(self, state) -> list[float]:
        """Each player's expected final score (the final scores once the game is over)."""
        if state.is_terminal():
            return [float(x) for x in state.scores()]
        st = self._stage(state)
        w, v = self._flat, self._staged
        return [
            sum((wk + vk * st) * fk for wk, vk, fk in zip(w, v, row, strict=True))
            for row in self._features(state)
        ]

    def spread(self, state) -> float:
        m = self.model
        return max(1e-6, m.spread_a + m.spread_b * self._stage(state))


def parse(text: str, source: str = "value model") -> ValueModel:
    """A model from its JSON text; every problem is one ``ValueModelError`` line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueModelError(f"{source}: not JSON ({one_line(e)})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueModelError(f"{source}: not a meeple value model (no format {FORMAT!r})")
    if data.get("format_version") != FORMAT_VERSION:
        raise ValueModelError(
            f"{source}: format version {data.get('format_version')!r}, this meeple-arena "
            f"reads {FORMAT_VERSION}"
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
    trained = data.get("trained", {})
    return ValueModel(
        game, features, flat + staged, a, b, trained if isinstance(trained, dict) else {}
    )


def load(path: str | Path) -> ValueModel:
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueModelError(f"cannot read value model {path}: {one_line(e)}") from None
    return parse(text, str(path))


@functools.cache
def _cached(path: str, mtime_ns: int, size: int) -> ValueModel:
    return load(path)


def load_cached(path: str | Path) -> ValueModel:
    """``load`` once per file version (search agents are built for every game of a run)."""
    p = Path(path)
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


# ----- fitting -------------------------------------------------------------------------------
@dataclass
class Positions:
    """Training positions: one row per (position, player).

    ``x``: the features (rows x F); ``stage``: per row; ``y``: the player's final score;
    ``pos``: the position's index (rows of one position share it); ``game``: the game's
    index (for the held-out split); ``hand``: the hand-set evaluation's estimate."""

    x: np.ndarray
    stage: np.ndarray
    y: np.ndarray
    pos: np.ndarray
    game: np.ndarray
    hand: np.ndarray

    def select(self, mask: np.ndarray) -> Positions:
        return Positions(
            self.x[mask],
            self.stage[mask],
            self.y[mask],
            self.pos[mask],
            self.game[mask],
            self.hand[mask],
        )


def _centred(values: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Each row minus the mean of its position's rows (``pos`` ids need not be sorted)."""
    _, inverse, counts = np.unique(pos, return_inverse=True, return_counts=True)
    if values.ndim == 1:
        sums = np.bincount(inverse, weights=values)
        return values - (sums / counts)[inverse]
    out = np.empty_like(values)
    for k in range(values.shape[1]):
        sums = np.bincount(inverse, weights=values[:, k])
        out[:, k] = values[:, k] - (sums / counts)[inverse]
    return out


def design(p: Positions) -> np.ndarray:
    """The model's terms: every feature, then every feature times the stage."""
    return np.hstack([p.x, p.x * p.stage[:, None]])


def r2(pred: np.ndarray, p: Positions) -> float:
    """Share of the variance of score differences within a position that ``pred`` explains."""
    y = _centred(p.y, p.pos)
    resid = y - _centred(pred, p.pos)
    sst = float(y @ y)
    return 1.0 - float(resid @ resid) / sst if sst > 0 else float("nan")


def fit_weights(p: Positions, ridge: float = RIDGE) -> np.ndarray:
    """Least squares (lightly ridged) on centred rows: weights of ``design``'s terms."""
    x = _centred(design(p), p.pos)
    y = _centred(p.y, p.pos)
    gram = x.T @ x
    lam = ridge * float(np.trace(gram)) / max(1, gram.shape[0])
    return np.linalg.solve(gram + lam * np.eye(gram.shape[0]), x.T @ y)


def fit_spread(pred: np.ndarray, p: Positions) -> tuple[float, float]:
    """``a + b * stage``: the RMS residual of a difference of two players' scores.

    Within a position of n players, the mean squared pairwise residual difference is
    2n/(n-1) times the mean squared centred residual; it is measured in ``STAGE_BINS``
    bins of the stage and fitted with a line weighted by the bin sizes."""
    resid = _centred(p.y, p.pos) - _centred(pred, p.pos)
    _, inverse, counts = np.unique(p.pos, return_inverse=True, return_counts=True)
    n = counts[inverse].astype(float)
    pair_sq = resid**2 * 2.0 * n / np.maximum(n - 1.0, 1.0)
    bins = np.minimum((p.stage * STAGE_BINS).astype(int), STAGE_BINS - 1)
    xs, ys, ws = [], [], []
    for k in range(STAGE_BINS):
        m = bins == k
        if m.sum() < 10:
            continue
        xs.append(float(p.stage[m].mean()))
        ys.append(math.sqrt(float(pair_sq[m].mean())))
        ws.append(float(m.sum()))
    overall = max(SPREAD_FLOOR, math.sqrt(float(pair_sq.mean())) if len(pair_sq) else 1.0)
    if len(xs) < 2:
        return overall, 0.0
    a_mat = np.array([[1.0, x] for x in xs]) * np.sqrt(ws)[:, None]
    coef, *_ = np.linalg.lstsq(a_mat, np.array(ys) * np.sqrt(ws), rcond=None)
    a, b = float(coef[0]), float(coef[1])
    if a < SPREAD_FLOOR or a + b < SPREAD_FLOOR:  # a line through noise: the overall level
        return overall, 0.0
    return a, b


def fit(
    game: str,
    features: tuple[str, ...],
    p: Positions,
    holdout: float = 0.2,
    trained: dict | None = None,
) -> tuple[ValueModel, dict]:
    """Fit on every game, after measuring on held-out games (the last ``holdout`` share).

    Returns the model and a report: positions and games used, held-out R^2 of the model
    fitted without those games, of the hand-set evaluation and of the points alone."""
    games = np.unique(p.game)
    if len(games) < 2 or len(p.y) == 0:
        raise ValueModelError("too few games to fit a value model (at least 2 are needed)")
    report: dict = {"games": int(len(games)), "positions": int(len(np.unique(p.pos)))}
    held = min(len(games) - 1, int(round(len(games) * holdout)))
    if holdout > 0 and len(games) >= 5 and held >= 1:
        cut = games[len(games) - held]
        train, test = p.select(p.game < cut), p.select(p.game >= cut)
        w = fit_weights(train)
        report["heldout_games"] = int(len(np.unique(test.game)))
        report["r2_heldout"] = round(r2(design(test) @ w, test), 4)
        report["r2_hand"] = round(r2(test.hand, test), 4)
        report["r2_points"] = round(r2(test.x[:, 0], test), 4)
    w = fit_weights(p)
    pred = design(p) @ w
    report["r2_train"] = round(r2(pred, p), 4)
    a, b = fit_spread(pred, p)
    info = dict(trained or {})
    info.update(report)
    model = ValueModel(game, tuple(features), tuple(float(x) for x in w), a, b, info)
    return model, report


def game_positions(game, actions: list[int], evaluation, every: int = 1) -> dict[str, list]:
    """The training rows of one finished game: its move list replayed from the start.

    Every ``every``-th decision position (chance nodes skipped) gives one row per player:
    the features, the stage, the hand-set estimate and the player's final score (the
    game's ``scores()`` at the end). Columns: ``step``, ``player``, ``stage``, ``features``,
    ``hand``, ``final``."""
    state = game.new_initial_state()
    kept: list[tuple[int, float, list[list[float]], list[float]]] = []
    decision = 0
    for step, a in enumerate(actions):
        if not state.is_chance_node() and state.current_player() >= 0:
            if decision % every == 0:
                kept.append(
                    (
                        step,
                        float(evaluation.stage(state)),
                        evaluation.features(state),
                        list(evaluation.estimate(state)),
                    )
                )
            decision += 1
        state.apply_action(a)
    if not state.is_terminal():
        raise ValueModelError("a training game's move list does not reach the end of the game")
    final = [float(x) for x in state.scores()]
    cols: dict[str, list] = {
        k: [] for k in ("step", "player", "stage", "features", "hand", "final")
    }
    for step, st, rows, hand in kept:
        for player, row in enumerate(rows):
            cols["step"].append(step)
            cols["player"].append(player)
            cols["stage"].append(st)
            cols["features"].append([float(v) for v in row])
            cols["hand"].append(float(hand[player]))
            cols["final"].append(final[player])
    return cols
