"""The non-linear part of a value model: a one-hidden-layer network, fitted with numpy.

A ``kind = "mlp"`` value model (``solvers.value_model``) adds to its linear estimate
(w_k + v_k x stage) x f_ik a small network of the same position, player by player:

    net_i = sum_h  out_h * tanh( sum_j W_hj * z_ij + b_h )

with inputs ``z_i`` = the player's features, the player's features minus the mean of the
other players' (what the player leads or trails by), and the stage, each standardised by
the mean and scale of the training rows (stored with the weights). The network is fitted
to what the linear part leaves (``fit``), on differences within a position as the linear
part is: each position's outputs are centred before the loss, so a constant every
player shares costs nothing and means nothing.

Plain numpy: full-batch Adam on the mean squared centred residual with a light L2
penalty on the weights, stopped at the step with the least loss on a tenth of the
training games set aside (never on the held-out games the report measures).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

HIDDEN = 16  # hidden units
EPOCHS = 20  # passes over the training rows at most ...
MIN_STEPS = 1500  # ... or more, as a small data set needs, for at least this many Adam steps
BATCH = 1024  # rows per Adam step (whole positions)
LEARNING_RATE = 0.003
L2 = 1e-3  # on the weights (not the biases), relative to the loss of a unit target
VALIDATION = 0.1  # share of the training games that stops the fit


@dataclass(eq=False)
class Network:
    """Input standardisation (``mean``, ``scale``) and the weights (``w1``, ``b1``, ``out``)."""

    mean: np.ndarray  # (2F + 1,)
    scale: np.ndarray  # (2F + 1,)
    w1: np.ndarray  # (2F + 1, H)
    b1: np.ndarray  # (H,)
    out: np.ndarray  # (H,)

    def __post_init__(self) -> None:
        # the standardisation folded into the first layer: one product and one sum per call
        self._w = self.w1 / self.scale[:, None]
        self._b = self.b1 - (self.mean / self.scale) @ self.w1

    def __eq__(self, other) -> bool:
        if not isinstance(other, Network):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in zip(self.arrays(), other.arrays(), strict=True))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.mean, self.scale, self.w1, self.b1, self.out)

    def adds(self) -> bool:
        """Whether the network adds anything (early stopping before any epoch: it does not)."""
        return bool(np.any(self.out != 0))

    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def __call__(self, z: np.ndarray) -> np.ndarray:
        """The network's output for rows of raw inputs (``inputs``)."""
        return np.tanh(z @ self._w + self._b) @ self.out

    def to_dict(self) -> dict:
        return {
            "hidden": self.hidden(),
            "input_mean": self.mean.tolist(),
            "input_scale": self.scale.tolist(),
            "w1": self.w1.tolist(),
            "b1": self.b1.tolist(),
            "out": self.out.tolist(),
        }

    @classmethod
    def from_dict(cls, data: dict, features: int) -> Network:
        """The network of a model file; ``ValueError`` (one line) when anything is off."""
        width = 2 * features + 1
        h = int(data["hidden"])
        shapes = {
            "input_mean": (width,),
            "input_scale": (width,),
            "w1": (width, h),
            "b1": (h,),
            "out": (h,),
        }
        arrays = {}
        for key, shape in shapes.items():
            a = np.array(data[key], dtype=float)
            if a.shape != shape:
                raise ValueError(f"network {key} has shape {a.shape}, expected {shape}")
            if not np.all(np.isfinite(a)):
                raise ValueError(f"network {key} holds a value that is not finite")
            arrays[key] = a
        if np.any(arrays["input_scale"] <= 0):
            raise ValueError("network input_scale must be above 0")
        return cls(
            arrays["input_mean"], arrays["input_scale"], arrays["w1"], arrays["b1"], arrays["out"]
        )


def inputs(x: np.ndarray, stage: np.ndarray, inverse: np.ndarray, counts: np.ndarray):
    """Raw network inputs, one row per (position, player): features, features minus the
    mean of the position's other players' (0 alone), stage. ``inverse`` numbers each
    row's position (0..P-1) and ``counts`` the rows of each position."""
    sums = np.zeros((len(counts), x.shape[1]))
    np.add.at(sums, inverse, x)
    n = counts[inverse].astype(float)[:, None]
    others = (sums[inverse] - x) / np.maximum(n - 1.0, 1.0)
    diff = np.where(n > 1, x - others, 0.0)
    return np.hstack([x, diff, stage[:, None]])


def position_inputs(rows: list[list[float]], stage: float) -> np.ndarray:
    """``inputs`` of one position (the search's hot path: no grouping needed)."""
    x = np.asarray(rows, dtype=float)
    n = x.shape[0]
    diff = x - (x.sum(axis=0) - x) / (n - 1) if n > 1 else np.zeros_like(x)
    return np.hstack([x, diff, np.full((n, 1), stage)])


def _centre(v: np.ndarray, inverse: np.ndarray, counts: np.ndarray) -> np.ndarray:
    return v - (np.bincount(inverse, weights=v, minlength=len(counts)) / counts)[inverse]


class _Adam:
    def __init__(self, params: list[np.ndarray], lr: float):
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self.t)
            vh = v / (1 - b2**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def _groups(pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    _, inverse, counts = np.unique(pos, return_inverse=True, return_counts=True)
    return inverse, counts


def _batches(inverse: np.ndarray, counts: np.ndarray, size: int, rng) -> list[np.ndarray]:
    """Row indices of minibatches of whole positions (about ``size`` rows each)."""
    order = np.argsort(inverse, kind="stable")  # rows grouped by position
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    perm = rng.permutation(len(counts))
    out = []
    per = max(1, size // max(1, int(counts.mean())))
    for k in range(0, len(perm), per):
        b = perm[k : k + per]
        c = counts[b]
        offsets = np.repeat(starts[b] - np.concatenate([[0], np.cumsum(c)[:-1]]), c)
        out.append(order[offsets + np.arange(int(c.sum()))])
    return out


def _loss(z, y, params, inverse, counts) -> float:
    w1, b1, out = params
    return float(np.mean((y - _centre(np.tanh(z @ w1 + b1) @ out, inverse, counts)) ** 2))


def fit(
    z: np.ndarray,
    target: np.ndarray,
    pos: np.ndarray,
    game: np.ndarray,
    hidden: int = HIDDEN,
    epochs: int = EPOCHS,
    seed: int = 0,
) -> tuple[Network, int]:
    """The network that best explains ``target`` (per row) within positions ``pos``.

    ``z``: raw inputs (``inputs``); the last ``VALIDATION`` share of ``game``'s games
    (when there are 10 or more) decides the epoch the fit stops at (none: the network
    adds nothing), and the number of epochs it kept."""
    rng = np.random.default_rng(seed)
    mean = z.mean(axis=0)
    scale = z.std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    zs = (z - mean) / scale
    games = np.unique(game)
    held = int(len(games) * VALIDATION) if len(games) >= 10 else 0
    val_games = games[len(games) - held :] if held else games[:0]
    val = np.isin(game, val_games)
    inv_t, cnt_t = _groups(pos[~val])
    y_t = _centre(target[~val], inv_t, cnt_t)
    unit = float(np.sqrt(np.mean(y_t**2))) or 1.0  # the fit sees a target of unit size
    y_t, z_t = y_t / unit, zs[~val]
    w1 = rng.normal(scale=1.0 / math.sqrt(z.shape[1]), size=(z.shape[1], hidden))
    b1 = np.zeros(hidden)
    out = np.zeros(hidden)
    params = [w1, b1, out]
    adam = _Adam(params, LEARNING_RATE)
    if val.any():
        inv_v, cnt_v = _groups(pos[val])
        y_v = _centre(target[val], inv_v, cnt_v) / unit
        best = (_loss(zs[val], y_v, params, inv_v, cnt_v), [p.copy() for p in params])
    kept = 0
    per_epoch = max(1, math.ceil(len(y_t) / BATCH))
    epochs = max(epochs, math.ceil(MIN_STEPS / per_epoch))
    for epoch in range(epochs):
        for rows in _batches(inv_t, cnt_t, BATCH, rng):
            zb, yb = z_t[rows], y_t[rows]
            _, inv_b, cnt_b = np.unique(inv_t[rows], return_inverse=True, return_counts=True)
            h = np.tanh(zb @ w1 + b1)
            r = yb - _centre(h @ out, inv_b, cnt_b)  # centred residual
            g_row = -2.0 * r / len(rows)  # d loss / d output (the centring is a projection)
            g_pre = np.outer(g_row, out) * (1.0 - h * h)
            adam.step([zb.T @ g_pre + 2 * L2 * w1, g_pre.sum(axis=0), h.T @ g_row + 2 * L2 * out])
        if val.any():
            loss = _loss(zs[val], y_v, params, inv_v, cnt_v)
            if loss < best[0]:
                best = (loss, [p.copy() for p in params])
                kept = epoch + 1
    if val.any():
        w1, b1, out = best[1]
    else:
        kept = epochs
    return Network(mean, scale, w1, b1, out * unit), kept
