"""Fitting a value model (``solvers.value_model``) to the positions of self-play games.

``game_positions`` turns a finished game into rows (one per position and player);
``fit`` fits a model of a ``kind`` to them, after measuring it on held-out games:

- ``linear``: least squares (lightly ridged) of every feature and every feature times the
  stage, on the differences between the players of a position (each row minus its
  position's mean), so what every player shares cancels;
- ``mlp``: the linear part, then a one-hidden-layer network (``solvers.value_mlp``) fitted
  to what the linear part leaves, on the same differences.

Held out are whole games (the last ``holdout`` share by game index), never positions of
a game the fit saw: positions of one game share its luck, and would flatter the fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from solvers import value_mlp
from solvers.value_model import KINDS, ValueModel, ValueModelError

STAGE_BINS = 10  # the spread is fitted to the residuals of this many stage bins
RIDGE = 1e-3  # ridge strength, relative to the mean diagonal of X'X
SPREAD_FLOOR = 1e-3  # a fitted spread never goes below this (a perfect fit has none)


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


def concat(parts: list[Positions]) -> Positions:
    """The rows of several sets of positions (their position ids kept apart)."""
    out, offset = [], 0
    for p in parts:
        pos = p.pos - (p.pos.min() if len(p.pos) else 0) + offset
        out.append(Positions(p.x, p.stage, p.y, pos, p.game, p.hand))
        offset = int(pos.max()) + 1 if len(pos) else offset
    return Positions(
        *(np.concatenate(cols) for cols in zip(*(_columns(p) for p in out), strict=True))
    )


def _columns(p: Positions) -> tuple[np.ndarray, ...]:
    return (p.x, p.stage, p.y, p.pos, p.game, p.hand)


class TooFewPositionsError(ValueModelError):
    """The positions do not determine a fit (too few, or no player's features differ from
    another's in any of them): more games or positions are needed, not another file."""


def centred(values: np.ndarray, pos: np.ndarray) -> np.ndarray:
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
    y = centred(p.y, p.pos)
    resid = y - centred(pred, p.pos)
    sst = float(y @ y)
    return 1.0 - float(resid @ resid) / sst if sst > 0 else float("nan")


def fit_weights(p: Positions, ridge: float = RIDGE) -> np.ndarray:
    """Least squares (lightly ridged) on centred rows: weights of ``design``'s terms."""
    x = centred(design(p), p.pos)
    y = centred(p.y, p.pos)
    gram = x.T @ x
    lam = ridge * float(np.trace(gram)) / max(1, gram.shape[0])
    try:
        if not lam > 0:  # no term differs between the players of any position
            raise np.linalg.LinAlgError("singular")
        return np.linalg.solve(gram + lam * np.eye(gram.shape[0]), x.T @ y)
    except np.linalg.LinAlgError:
        raise TooFewPositionsError("the fit's equations have no single solution") from None


def fit_spread(pred: np.ndarray, p: Positions) -> tuple[float, float]:
    """``a + b * stage``: the RMS residual of a difference of two players' scores.

    Within a position of n players, the mean squared pairwise residual difference is
    2n/(n-1) times the mean squared centred residual; it is measured in ``STAGE_BINS``
    bins of the stage and fitted with a line weighted by the bin sizes."""
    resid = centred(p.y, p.pos) - centred(pred, p.pos)
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


@dataclass
class Fitted:
    """The weights of one fit: linear ones, and the network of kind "mlp"."""

    weights: np.ndarray
    network: value_mlp.Network | None = None
    epochs: int = 0  # the network's training epochs kept (0: it adds nothing)

    def predict(self, p: Positions) -> np.ndarray:
        pred = design(p) @ self.weights
        if self.network is not None:
            pred = pred + self.network(network_inputs(p))
        return pred


def network_inputs(p: Positions) -> np.ndarray:
    _, inverse, counts = np.unique(p.pos, return_inverse=True, return_counts=True)
    return value_mlp.inputs(p.x, p.stage, inverse, counts)


def fit_kind(p: Positions, kind: str, seed: int = 0) -> Fitted:
    """The weights of a ``kind`` model fitted to ``p``."""
    w = fit_weights(p)
    if kind == "linear":
        return Fitted(w)
    resid = p.y - design(p) @ w
    network, epochs = value_mlp.fit(network_inputs(p), resid, p.pos, p.game, seed=seed)
    return Fitted(w, network, epochs)


def holdout_split(p: Positions, holdout: float) -> tuple[Positions, Positions] | None:
    """Training and held-out positions (the last ``holdout`` share of the games), or None
    when there are too few games (under 5) or the share holds out none. Games numbered
    below 0 (pooled from earlier runs) always train and do not count."""
    games = np.unique(p.game[p.game >= 0])
    held = min(len(games) - 1, int(round(len(games) * holdout)))
    if holdout <= 0 or len(games) < 5 or held < 1:
        return None
    cut = games[len(games) - held]
    return p.select(p.game < cut), p.select(p.game >= cut)


def fit(
    game: str,
    features: tuple[str, ...],
    p: Positions,
    holdout: float = 0.2,
    trained: dict | None = None,
    kind: str = "linear",
) -> tuple[ValueModel, dict]:
    """Fit on every game, after measuring on held-out games (the last ``holdout`` share).

    Returns the model and a report: positions and games used, held-out R^2 of the model
    fitted without those games, of the hand-set evaluation and of the points alone (and
    of the linear model, for kind "mlp")."""
    try:
        return _fit(game, features, p, holdout, trained, kind)
    except TooFewPositionsError:  # counted on every position given, held out or not
        raise TooFewPositionsError(
            f"too few positions to fit a value model: {len(np.unique(p.pos))} position(s) "
            f"from {len(np.unique(p.game))} game(s), whose players' features do not differ "
            "enough"
        ) from None


def _fit(
    game: str, features: tuple[str, ...], p: Positions, holdout: float, trained, kind: str
) -> tuple[ValueModel, dict]:
    """``fit``'s work."""
    if kind not in KINDS:
        raise ValueModelError(f"unknown value model kind {kind!r} (known: {', '.join(KINDS)})")
    games = np.unique(p.game)
    if len(games) < 2 or len(p.y) == 0:
        raise ValueModelError("too few games to fit a value model (at least 2 are needed)")
    report: dict = {
        "kind": kind,
        "games": int(len(games)),
        "positions": int(len(np.unique(p.pos))),
    }
    if (games < 0).any():
        report["pooled_games"] = int((games < 0).sum())
    split = holdout_split(p, holdout)
    if split is not None:
        train, test = split
        report["heldout_games"] = int(len(np.unique(test.game)))
        report["r2_heldout"] = round(r2(fit_kind(train, kind).predict(test), test), 4)
        if kind != "linear":
            report["r2_linear"] = round(r2(fit_kind(train, "linear").predict(test), test), 4)
        report["r2_hand"] = round(r2(test.hand, test), 4)
        report["r2_points"] = round(r2(test.x[:, 0], test), 4)
    fitted = fit_kind(p, kind)
    if kind == "mlp":
        report["network_epochs"] = fitted.epochs
    pred = fitted.predict(p)
    report["r2_train"] = round(r2(pred, p), 4)
    a, b = fit_spread(pred, p)
    info = dict(trained or {})
    info.update(report)
    weights = tuple(float(x) for x in fitted.weights)
    model = ValueModel(game, tuple(features), weights, a, b, info, fitted.network)
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
