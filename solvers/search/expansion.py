"""Expansion rules: whether a decision node with untried legal moves opens one now.

``opens(node, legal, untried, at_root)`` is asked only while some legal move is untried; a
node that opens none selects among the moves it has. ``start(sims)`` is called at the
start of every search (unpruning's scale follows the budget).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solvers.search.tree import Node


class OpenAll:
    """Every legal move is tried once before the selection rule compares them."""

    def start(self, sims: int) -> None:
        pass

    def opens(self, node: Node, legal, untried, at_root: bool) -> bool:
        return True


class Widening:
    """Progressive widening (``widen``): a node reached v times holds at most
    max(2, widen * sqrt(v)) moves, for huge branching."""

    def __init__(self, widen: float):
        self.widen = widen

    def start(self, sims: int) -> None:
        pass

    def opens(self, node: Node, legal, untried, at_root: bool) -> bool:
        node.visits += 1
        known = len(legal) - len(untried)
        return not (known > 0 and known >= max(2.0, self.widen * math.sqrt(node.visits)))


class Unpruning:
    """Progressive unpruning below the root (Chaslot et al. 2008; ``unprune``): a node other
    than the root holds only the heuristic's move (the prior opens it first) until it has
    been reached T times, then gains one more move per T visits, with T = unprune * sims,
    so the share of the budget that opens a new move is the same at every budget. Under
    ``widening`` too, a node must pass both (its visits counted once)."""

    def __init__(self, unprune: float, widening: Widening | None = None):
        self.unprune = unprune
        self.widening = widening
        self.t = 0  # T of the current search

    def start(self, sims: int) -> None:
        self.t = max(1, round(self.unprune * sims))

    def opens(self, node: Node, legal, untried, at_root: bool) -> bool:
        if self.widening is not None:
            if not self.widening.opens(node, legal, untried, at_root):
                return False
        elif not at_root:
            node.visits += 1
        if at_root:
            return True
        known = len(legal) - len(untried)
        # the heuristic's move alone until T visits, then one more per T
        return not (known > 0 and known >= 1 + (node.visits - 1) // self.t)
