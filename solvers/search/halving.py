"""Root selection by sequential halving over paired samples (``root=halving``).

Sequential halving (Karnin, Koren and Somekh 2013; the root of Gumbel MuZero) splits the
budget into ceil(log2 k) rounds over the k root moves; in each round every surviving move
gets the same number of *passes*, and the better half by mean value survives. A pass draws
one world and simulates every survivor on a copy of it with the random streams rewound
(common random numbers: the same hidden cards, chance draws and opponent-model draws for
every move compared), so moves are compared on paired samples.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from solvers.search.models import BlueprintPrior, HeuristicPrior, NoPrior
    from solvers.search.tree import Node, SearchEngine


class SequentialHalving:
    """Chooses the root move by sequential halving; below the root the tree is as usual."""

    def __init__(
        self, prior: HeuristicPrior | NoPrior | BlueprintPrior, prior_w: float, widen: float
    ):
        self.prior = prior
        self.prior_w = prior_w
        self.widen = widen

    def run(self, engine: SearchEngine, state, root: Node, sims: int, seconds: float) -> int:
        """Returns the simulations run. The last round is decided by the mean alone (as
        ``best_action`` would); before it the heuristic's move gets the progressive bias as
        a tie-breaker. The winner also gets the 0-1 simulations whole passes leave over: it
        is the most visited move, or tied with the runner-up and ahead on mean. A budget
        below about twice the number of moves is exceeded (every round runs a pass)."""
        player = engine.root_player
        legal = engine._legal(state, player) if player >= 0 else []
        if len(legal) <= 1:
            return engine.simulations(state, root, sims, seconds)
        alive, hint = self._entrants(engine, state, legal, sims, seconds)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        t_end = time.perf_counter() + seconds if seconds > 0 else None
        done = 0
        for r in range(rounds):
            left = rounds - r
            if t_end is None:
                passes = max(1, (sims - done) // (len(alive) * left))
                slice_end = None
            else:
                passes = 1 << 62
                slice_end = time.perf_counter() + max(0.0, t_end - time.perf_counter()) / left
            k = 0
            while k < passes and not engine.halted:
                if k > 0 and slice_end is not None and time.perf_counter() >= slice_end:
                    break
                self._pass(engine, state, root, alive)
                done += len(alive)
                k += 1
                engine.tick()
            if engine.halted:  # stopped (advice's terminate): a round may hold no pass
                break
            if len(alive) > 1:
                alive = self.keep_better_half(root, alive, hint)
        # whole passes leave fewer simulations than the last round's moves: they go to
        # the winner, so the budget is spent exactly and the winner is the most visited
        while t_end is None and done < sims and not engine.halted:
            engine.simulate(root, engine.start_world(state, player), alive[0])
            done += 1
        return done

    def _entrants(self, engine: SearchEngine, state, legal, sims: int, seconds: float):
        """(the moves of the first round, the heuristic's move or -1). Under progressive
        widening with a simulation budget: its bound for a root reached ``sims`` times, the
        heuristic's move (if any) and random others."""
        alive = list(legal)
        policy = self.prior.policy
        hint = policy(state, engine.streams.np) if policy is not None else -1
        if self.widen > 0 and seconds <= 0:
            keep = max(2, int(self.widen * math.sqrt(sims)))
            if keep < len(alive):
                rest = [a for a in alive if a != hint]
                engine.streams.py.shuffle(rest)
                alive = ([hint] if hint in alive else []) + rest
                alive = alive[:keep]
        return alive, hint

    def _pass(self, engine: SearchEngine, state, root: Node, alive: list[int]) -> None:
        """One world, every surviving move simulated on a copy of it with the pass's own
        streams rewound for each (the agent's stream moves on by one draw per pass, so
        passes never repeat each other)."""
        streams = engine.streams
        rng, np_rng = streams.py, streams.np
        world = engine.start_world(state, engine.root_player)
        stream = random.Random(rng.getrandbits(64))
        np_stream = np.random.default_rng(rng.getrandbits(63))
        saved, np_saved = stream.getstate(), np_stream.bit_generator.state
        last = len(alive) - 1
        streams.py, streams.np = stream, np_stream
        try:
            for i, a in enumerate(alive):
                stream.setstate(saved)
                np_stream.bit_generator.state = np_saved
                engine.simulate(root, world if i == last else world.clone(), a)
        finally:
            streams.py, streams.np = rng, np_rng

    def keep_better_half(self, root: Node, alive: list[int], hint: int) -> list[int]:
        kids = [root.children[a] for a in alive]
        tn = sum(ch.n for ch in kids)
        m = sum(ch.w for ch in kids) / tn
        sd = math.sqrt(max(sum(ch.w2 for ch in kids) / tn - m * m, 1e-6))

        final = len(alive) <= 2  # one move survives: the pick, by mean alone (as best_action)

        def score(a):
            ch = root.children[a]
            bias = self.prior_w * sd / (ch.n + 1) if a == hint and not final else 0.0
            return (ch.w / ch.n + bias, -a)

        ranked = sorted(alive, key=score, reverse=True)
        return ranked[: (len(alive) + 1) // 2]
