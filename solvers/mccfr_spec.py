"""The identity of an MCCFR training run: everything that decides its sampled computation.

A checkpoint (``solvers.mccfr_checkpoint``) stores it and resumes only a run with an equal
one; the trainer (``solvers.mccfr_train``) builds its traversals from it and merges every
round's deltas through ``TrainSpec.merge``, the one merge training and replay share.
"""

from __future__ import annotations

from dataclasses import dataclass

import spiel_games
from solvers.mccfr import ALGORITHM, DEFAULT_MAX_KEYS, Traversals
from solvers.mccfr_tables import Tables, View


@dataclass(frozen=True)
class TrainSpec:
    """Everything that decides the sampled computation (the checkpoint's identity)."""

    game: str
    variant: str  # "es" or "os"
    abstraction: str
    abstraction_version: int
    seed: int
    epsilon: float = 0.6
    weighting: str = "counterfactual"
    baselines: bool = False
    es_leaves: int = 0
    batch: int = 1  # iterations per batch
    workers: int = 1  # batches per round, merged together (each on its own Ray worker)
    max_keys: int = DEFAULT_MAX_KEYS
    linear: bool = False  # Linear CFR: discount the tables by k / (k + 1) before round k
    algorithm: int = ALGORITHM  # the traversals' version (solvers.mccfr.ALGORITHM)
    model_share: float = 0.0  # restricted Nash response: the heuristic's share per other seat

    def merge(self, tables: Tables, round_no: int, view: View, deltas: list) -> None:
        """Apply round ``round_no``'s deltas (the one place both training and replay merge)."""
        if self.linear and round_no > 1:
            tables.discount((round_no - 1) / round_no)
        tables.apply(view, deltas)

    def traversals(self) -> Traversals:
        game = spiel_games.load_game(self.game, any_openspiel=True)
        return Traversals(
            game,
            self.variant,
            self.abstraction,
            self.epsilon,
            self.weighting,
            self.baselines,
            self.es_leaves,
            self.max_keys,
            self.model_share,
        )
