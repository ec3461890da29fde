"""Sequential MCCFR (``solvers.mccfr``'s traversals): every traversal's deltas are applied
before the next one, the classic algorithm; the reference for the trainer's rounds and the
solver of tiny configurations."""

from __future__ import annotations

import random

from solvers.mccfr import DEFAULT_MAX_KEYS, Traversals
from solvers.mccfr_tables import Tables, average_policy_table


class MCCFR:
    """Sequential MCCFR: every traversal's deltas are applied before the next traversal."""

    def __init__(
        self,
        game,
        variant: str,
        abstraction: str,
        seed: int = 0,
        epsilon: float = 0.6,
        es_leaves: int = 0,
        max_keys: int = DEFAULT_MAX_KEYS,
        weighting: str = "counterfactual",
        baselines: bool = False,
        model_share: float = 0.0,
    ):
        self.game = game
        self.variant = variant
        self.abstraction = abstraction
        self.traversals = Traversals(
            game,
            variant,
            abstraction,
            epsilon,
            weighting,
            baselines,
            es_leaves,
            max_keys,
            model_share,
        )
        self.key = self.traversals.key
        self.players = game.num_players()
        self.rng = random.Random(seed)
        self.tables = Tables(max_rows=max_keys)
        self.iterations = 0

    @property
    def untracked(self) -> int:
        return self.tables.untracked

    def iteration(self) -> None:
        """One iteration: one traversal per player (alternating updates)."""
        for player in range(self.players):
            view = self.tables.view()
            deltas = self.traversals.run(view, self.rng, [player])
            self.tables.apply(view, [deltas.to_arrays()])
        self.iterations += 1

    def average_policy_table(self) -> dict[str, dict[int, float]]:
        return average_policy_table(self.tables)
