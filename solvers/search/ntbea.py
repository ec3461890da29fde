"""NTBEA, the N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu and Perez 2018; as the
Tabletop Games Framework runs it) over a discrete search space, for noisy fitness.

The space is a list of :class:`Dimension` (a parameter and the values it may take; numbers
are a grid over the parameter's tuning domain, :func:`dimension`). The model keeps the
statistics (count, sum, sum of squares) of every evaluation under a set of tuples of
dimensions: each dimension alone (the 1-tuples) and all of them (the full tuple). A point's
estimate is the mean over the tuples of the tuple's mean at the point's values (tuples
without data skipped); its exploration term the mean over the tuples of
``sqrt(log(1 + evaluations) / (n + eps))``. Each iteration evaluates the current point
(``repeats`` times, on fresh seeds), then looks at ``neighbours`` mutations of it (each
dimension changes with probability 1/D, at least one changes; points ``valid`` refuses are
skipped) and moves to the one with the highest ``estimate + k * exploration``. The
recommendation is the evaluated point with the highest mean of its 1-tuple means (no
exploration; the full tuple breaks ties): most points are evaluated once, so the full
tuple's mean there is one noisy game.

Nothing here plays a game: ``evaluate(point, index)`` is the caller's (tournament.tune).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solvers.base import Param
from solvers.intervals import wilson

EPS = 0.5  # the exploration term's pseudo-count
Point = tuple[int, ...]  # one value index per dimension


@dataclass(frozen=True)
class Dimension:
    name: str
    values: tuple[object, ...]


def _round(x: float, digits: int = 2) -> float:
    """``x`` to ``digits`` significant digits (grid values that read well in a spec)."""
    if x == 0:
        return 0.0
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))


def dimension(p: Param, levels: int, include: object = None) -> Dimension:
    """The values a tuner tries for ``p``: its choices, or ``levels`` points evenly spread
    over its tuning domain (geometrically when ``p.log``; whole numbers for an int), plus
    ``include`` (the value in use, so the starting point is in the space) when in range."""
    if p.choices:
        return Dimension(p.name, tuple(p.choices))
    lo, hi = (float(x) for x in p.domain())  # type: ignore[arg-type]  # numbers, not choices
    if levels < 2:
        raise ValueError(f"a numeric dimension needs at least 2 levels, got {levels}")
    steps = [i / (levels - 1) for i in range(levels)]
    grid = [lo * (hi / lo) ** t if p.log else lo + (hi - lo) * t for t in steps]
    values: list[float] = [_round(x) for x in grid]
    if include is not None and isinstance(include, int | float) and lo <= include <= hi:
        values.append(float(include))
    if p.type is int:
        values = [float(round(x)) for x in values]
    uniq = sorted(set(values))
    return Dimension(p.name, tuple(int(x) if p.type is int else x for x in uniq))


@dataclass
class Stats:
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    @property
    def mean(self) -> float:
        return self.total / self.n

    def interval(self, z: float = 1.959963984540054) -> tuple[float, float] | None:
        """The mean's normal interval (``z`` standard errors), clipped to the fitness's
        [0, 1] and widened to contain the Wilson interval over the ``n`` games (a fitness
        in [0, 1] with mean p has variance at most p(1 - p)), so that a few games that
        all scored alike do not give an interval of width 0; None below two samples."""
        if self.n < 2:
            return None
        var = max(0.0, (self.squares - self.total**2 / self.n) / (self.n - 1))
        half = z * math.sqrt(var / self.n)
        w_lo, w_hi = wilson(min(1.0, max(0.0, self.mean)), self.n, z)
        return max(0.0, min(w_lo, self.mean - half)), min(1.0, max(w_hi, self.mean + half))


@dataclass
class NTupleModel:
    """Statistics of the fitness under each tuple of dimensions (1-tuples and the full one)."""

    dims: int
    tuples: list[tuple[int, ...]] = field(default_factory=list)
    table: dict = field(default_factory=dict)  # (tuple, the point's values on it) -> Stats
    evaluations: int = 0

    def __post_init__(self) -> None:
        if not self.tuples:
            self.tuples = [(d,) for d in range(self.dims)]
            if self.dims > 1:
                self.tuples.append(tuple(range(self.dims)))

    def _key(self, t: tuple[int, ...], point: Point):
        return t, tuple(point[d] for d in t)

    def add(self, point: Point, fitness: float) -> None:
        self.evaluations += 1
        for t in self.tuples:
            self.table.setdefault(self._key(t, point), Stats()).add(fitness)

    def stats(self, t: tuple[int, ...], point: Point) -> Stats | None:
        return self.table.get(self._key(t, point))

    def estimate(self, point: Point) -> float:
        """The mean over the tuples with data of their mean at ``point`` (0 without any)."""
        means = [s.mean for t in self.tuples if (s := self.stats(t, point)) is not None]
        return sum(means) / len(means) if means else 0.0

    def marginal_estimate(self, point: Point) -> float:
        """The mean of the 1-tuples' means at ``point`` (what the recommendation reads: at
        a point evaluated once the full tuple's mean is one noisy game)."""
        means = [s.mean for t in self.tuples if len(t) == 1 and (s := self.stats(t, point))]
        return sum(means) / len(means) if means else 0.0

    def exploration(self, point: Point) -> float:
        logn = math.log(1 + self.evaluations)
        terms = []
        for t in self.tuples:
            s = self.stats(t, point)
            terms.append(math.sqrt(logn / ((s.n if s is not None else 0) + EPS)))
        return sum(terms) / len(terms)

    def marginal(self, d: int, index: int) -> Stats:
        """The 1-tuple statistics of dimension ``d`` at value ``index``."""
        return self.table.get(((d,), (index,)), Stats())


@dataclass
class NtbeaResult:
    best: Point
    model: NTupleModel
    trail: list[Point]  # the current point of every iteration
    evaluated: dict[Point, Stats]


@dataclass(frozen=True)
class Settings:
    iterations: int
    repeats: int = 1  # evaluations of the current point per iteration (run in parallel)
    k: float = 1.0  # exploration weight (fitness in [0, 1])
    neighbours: int = 50
    seed: int = 0


def mutate(point: Point, sizes: Sequence[int], rng: random.Random) -> Point:
    """Each dimension (with more than one value) changes with probability 1/D to another
    value; at least one changes."""
    free = [d for d, n in enumerate(sizes) if n > 1]
    if not free:
        return point
    out = list(point)
    changed = False
    for d in free:
        if rng.random() < 1.0 / len(free):
            out[d] = rng.choice([v for v in range(sizes[d]) if v != point[d]])
            changed = True
    if not changed:
        d = rng.choice(free)
        out[d] = rng.choice([v for v in range(sizes[d]) if v != point[d]])
    return tuple(out)


def _next(model, current, sizes, settings, rng, valid) -> Point:
    best, best_ucb = current, -math.inf
    for _ in range(settings.neighbours):
        cand = mutate(current, sizes, rng)
        if cand == current or not valid(cand):
            continue
        ucb = model.estimate(cand) + settings.k * model.exploration(cand)
        if ucb > best_ucb:
            best, best_ucb = cand, ucb
    return best


def run(
    dims: Sequence[Dimension],
    start: Point,
    evaluate: Callable[[list[tuple[Point, int]]], list[float]],
    settings: Settings,
    valid: Callable[[Point], bool] = lambda p: True,
    on_iteration: Callable[[int, Point, list[float]], None] | None = None,
) -> NtbeaResult:
    """NTBEA from ``start``. ``evaluate`` gets a batch of (point, evaluation index) pairs,
    indices counting from 0 over the whole run, and returns one fitness in [0, 1] each."""
    sizes = [len(d.values) for d in dims]
    if len(start) != len(sizes) or not all(0 <= i < n for i, n in zip(start, sizes, strict=True)):
        raise ValueError("the start point is outside the space")
    rng = random.Random(settings.seed)
    model = NTupleModel(len(sizes))
    evaluated: dict[Point, Stats] = {}
    trail: list[Point] = []
    current, index = tuple(start), 0
    for it in range(settings.iterations):
        trail.append(current)
        batch = [(current, index + r) for r in range(settings.repeats)]
        index += settings.repeats
        fitness = evaluate(batch)
        for f in fitness:
            model.add(current, f)
            evaluated.setdefault(current, Stats()).add(f)
        if on_iteration is not None:
            on_iteration(it, current, fitness)
        current = _next(model, current, sizes, settings, rng, valid)
    best = max(evaluated, key=lambda p: (model.marginal_estimate(p), model.estimate(p)))
    return NtbeaResult(best, model, trail, evaluated)
