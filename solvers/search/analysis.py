"""What a searched root says about each move (for advice), and PIMC's vote over worlds.

``root_analysis`` reads the root's statistics as they are (moves with very different
sample counts). ``compared_analysis`` is what advice shows: the listed moves after the
comparison phase (``solvers.search.compare``), each with the same paired samples, best
first by mean value, so a listed move never shows a better value than the one above it.

Intervals: ``mean +- Z95 * sqrt(se^2 + floor^2)``, ``se`` the standard error of the
paired samples. The samples of one search share its tree, so their standard error
understates how far a larger search moves the value (a deeper tree finds better
continuations); ``floor`` is that movement's scale in each unit, measured per game by
scripts/bench_advice.py so that the interval covers the value of a search with 8 times the
budget 95% of the time on positions apart from those the coverage is then measured on
(docs/ADVICE-MEASURED.md); ``FLOOR_DEFAULT`` for games it has not measured. The gap to the best move
is the paired difference, whose interval is much narrower than either value's (no floor).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from solvers.base import Z95, Analysis, ChoiceTie, Compare, MoveStat
from solvers.search.compare import compare as run_compare
from solvers.search.compare import mean_interval, passes_for, principal_variation
from solvers.search.tree import Node, SearchEngine

# per game and unit (value, margin in points, first as a probability): data, the floors
# fitted in docs/ADVICE-MEASURED.md on its fit positions (3 players), measured with what
# advice compares by default (its 5 most searched moves, advise.COMPARED) at ismcts(sims=800)
# against ismcts(sims=6400)
FLOOR: dict[str, dict[str, float]] = {
    "python_coloretto": {"value": 0.132, "margin": 0.998, "first": 0.101},
    "python_rococo": {"value": 0.209, "margin": 2.89, "first": 0.0711},
    "python_staufer": {"value": 0.132, "margin": 2.53, "first": 0.0564},
    "python_bruxelles": {"value": 0.0793, "margin": 3.37, "first": 0.0613},
}
FLOOR_DEFAULT = {"value": 0.1, "margin": 2.0, "first": 0.05}  # not measured: a wide guess


def floor_for(game) -> dict[str, float]:
    return FLOOR.get(game.get_type().short_name, FLOOR_DEFAULT)


def root_analysis(state, root: Node, lo: float, span: float, budget: dict) -> Analysis:
    """Every legal move with its visits, mean value for the mover (on the utility's scale)
    and 95% interval (mean +- Z95 standard errors; +-1 of the normalised range after one
    visit); most visited first."""
    player = state.current_player()
    moves = []
    for a in state.legal_actions():
        ch = root.children.get(a)
        n = ch.n if ch else 0
        if ch is not None and n:
            mean = ch.w / n
            var = max(ch.w2 / n - mean * mean, 0.0)
            half = Z95 * math.sqrt(var / n) if n > 1 else 1.0
            value = lo + mean * span
            moves.append(
                MoveStat(
                    a,
                    state.action_to_string(player, a),
                    n,
                    value,
                    value - half * span,
                    value + half * span,
                )
            )
        else:
            moves.append(MoveStat(a, state.action_to_string(player, a), 0, float("nan")))
    moves.sort(key=lambda m: (-m.visits, -(m.value if m.visits else -1e300), m.action))
    return Analysis(player=player, moves=moves, budget=budget)


def merge_into(total: dict[int, Node], root: Node) -> None:
    """Add ``root``'s move statistics to ``total`` (PIMC's vote over its worlds)."""
    for a, ch in root.children.items():
        t = total.get(a)
        if t is None:
            t = total[a] = Node()
        t.n += ch.n
        t.w += ch.w
        t.w2 += ch.w2


def compared_analysis(
    engine: SearchEngine,
    state,
    root: Node,
    draw: Callable,
    ask: Compare,
    budget: dict,
    choice: int,
) -> Analysis:
    """The listed moves (the ``ask.listed`` most visited, then ``ask.include``) after the
    comparison phase, best first by paired mean value; ``choice`` is the move the agent
    plays (most visited before the comparison)."""
    player = state.current_player()
    legal = state.legal_actions()

    def searched(a):
        ch = root.children.get(a)
        return (-ch.n, -ch.w / ch.n, a) if ch is not None and ch.n else (0, 0.0, a)

    listed = sorted(legal, key=searched)[: max(1, ask.listed)]
    listed += [a for a in ask.include if a in legal and a not in listed]
    tie = choice_tie(root, legal, choice)  # before the comparison's passes add visits
    passes = ask.passes if ask.passes is not None else passes_for(budget["sims_done"], len(listed))
    samples = run_compare(engine, state, root, listed, passes, draw, ask.deadline)
    done = len(samples[listed[0]].value)
    budget = {**budget, "passes": done}
    if done == 0:  # halted before the first pass
        analysis = root_analysis(state, root, engine.lo, engine.span, budget)
        analysis.choice, analysis.choice_tie = choice, tie
        return analysis
    units = {u: {a: samples[a].unit(u) for a in listed} for u in ("value", "margin", "first")}
    values = units["value"]
    best = {u: max(listed, key=lambda a: (float(x[a].mean()), -a)) for u, x in units.items()}
    hint = _hint(engine, state)
    world = draw(state, player)
    floor = floor_for(engine.game)
    moves = []
    for a in listed:
        v = mean_interval(values[a], Z95, floor["value"])
        moves.append(
            MoveStat(
                a,
                state.action_to_string(player, a),
                root.children[a].n,
                v[0],
                v[1],
                v[2],
                samples=done,
                margin=mean_interval(samples[a].unit("margin"), Z95, floor["margin"]),
                first=mean_interval(samples[a].unit("first"), Z95, floor["first"]),
                gap=_gap(values[best["value"]], values[a]),
                margin_gap=_gap(units["margin"][best["margin"]], units["margin"][a]),
                first_gap=_gap(units["first"][best["first"]], units["first"][a]),
                prior=None if hint is None else float(a == hint),
                pv=principal_variation(engine, world, root, a),
            )
        )
    moves.sort(key=lambda m: (-m.value, m.action))
    return Analysis(player, moves, budget, choice=choice, choice_tie=tie, passes=done)


def choice_tie(root: Node, legal, choice: int) -> ChoiceTie | None:
    """The moves with as many root visits as ``choice`` (the agent's pick, ``best_action``:
    most visited, then the higher mean, then the lower id), and what broke the tie; None
    when ``choice`` was strictly most visited."""
    mine = root.children.get(choice)
    if mine is None or mine.n == 0:
        return None
    n = mine.n
    others = [a for a in legal if a != choice and a in root.children]
    tied = tuple(a for a in others if root.children[a].n == n)
    if not tied:
        return None
    mean = mine.w / n
    same = any(root.children[a].w / n == mean for a in tied)
    return ChoiceTie(tied, n, "id" if same else "value")


def _gap(best: np.ndarray, other: np.ndarray) -> tuple[float, float, float]:
    """The paired difference: exactly 0 for the best move itself, and for a move that
    gave the best's samples on two passes or more; no interval (NaN) from one pass."""
    d = best - other
    if other is best or (len(d) > 1 and not d.any()):
        return 0.0, 0.0, 0.0
    return mean_interval(d, Z95)


def _hint(engine: SearchEngine, state) -> int | None:
    """The prior's move at the root (the game's heuristic), or None without a prior."""
    policy = engine.prior.policy
    if policy is None:
        return None
    return int(policy(state.clone(), np.random.default_rng(0)))
