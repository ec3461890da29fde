"""What a searched root says about each move (for advice), and PIMC's vote over worlds."""

from __future__ import annotations

import math

from solvers.base import Z95, Analysis, MoveStat
from solvers.search.tree import Node


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
