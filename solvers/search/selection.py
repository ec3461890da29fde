"""Selection among a node's open moves: UCB1 with availability counts, and the same on the
returns' own scale (``qnorm=on``).

UCB1 with availability counts is single-observer IS-MCTS's rule (Cowling, Powley and
Whitehouse 2012): a move's exploration term counts the simulations in which it was legal,
so it reduces to plain UCT when every legal move is always available. Under the prior the
heuristic's move gets the progressive bias ``prior_w / (n + 1)`` (Chaslot et al. 2008).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solvers.search.tree import Node


class UCB:
    """mean + c * sqrt(ln(avail) / n), plus the prior's bias on the heuristic's move.

    ``select(children, legal, hint)``: (child, move) among the legal moves already open at
    a node, counting one availability for each."""

    select: Callable[[dict[int, Node], list[int], int], tuple[Node, int]]

    def __init__(self, c: float, prior_w: float):
        self.c = c
        self.prior_w = prior_w
        # the rule itself with its constants bound: one call per selection
        self.select = partial(_ucb, c, prior_w)


class ScaledUCB(UCB):
    """UCB-V style (``qnorm=on``): the exploration term and the prior's bias multiplied by
    the standard deviation of the returns seen below the node, so they meet the value
    differences on the scale of the noise (an evaluation's move-to-move differences are a
    few hundredths of the return range, far below a fixed ``uct_c``'s reach)."""

    def __init__(self, c: float, prior_w: float):
        super().__init__(c, prior_w)
        self.select = self._scaled

    def _scaled(self, children: dict[int, Node], legal, hint: int):
        cc, pw = self.c, self.prior_w
        tn = 0
        tw = tw2 = 0.0
        for b in legal:
            ch = children.get(b)
            if ch is not None:
                tn += ch.n
                tw += ch.w
                tw2 += ch.w2
        if tn:
            m = tw / tn
            sd = math.sqrt(max(tw2 / tn - m * m, 1e-6))
            cc *= sd
            pw *= sd
        return _ucb(cc, pw, children, legal, hint)


def _ucb(cc: float, pw: float, children: dict[int, Node], legal, hint: int):
    sqrt, log = math.sqrt, math.log
    best = None
    best_a = -1
    best_u = -1e300
    for b in legal:
        ch = children.get(b)
        if ch is None:
            continue  # not open here (yet)
        ch.avail += 1
        u = ch.w / ch.n + cc * sqrt(log(ch.avail) / ch.n) if ch.n else 1e300
        if b == hint:
            u += pw / (ch.n + 1)
        if u > best_u:
            best_u, best, best_a = u, ch, b
    assert best is not None
    return best, best_a
