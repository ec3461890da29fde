"""Monte Carlo CFR traversals over array tables keyed by a game's information abstraction.

OpenSpiel's MCCFR solvers key their tables by full information-state strings, which grow
without bound on full board games. These traversals key them by
``GameSpec.abstraction(state, player)`` (or by information-state strings when the
abstraction is ``none``) plus the legal actions (``solvers.mccfr_tables``), and walk the
game's own Python transition functions (``solvers.fastpath``), as the search does.

Variants (one *traversal* updates one player, the traverser; an iteration is one
traversal per player):

- ``es`` (external sampling, Lanctot et al. 2009): the traverser tries every action,
  chance and the other players are sampled, the others' average strategies are updated
  where they are sampled. Its cost grows exponentially with the traverser's decisions per
  game, so on full games it runs *windowed* (``es_leaves`` > 0, see ``_es``).
- ``os`` (outcome sampling): one trajectory per traversal, the traverser exploring
  epsilon-greedily (default 0.6). Two weightings:

  * ``counterfactual`` (Lanctot 2013): regrets carry the inverse of the traverser's own
    sampling probability up to the decision, the textbook unbiased estimator. On long
    games that weight spans dozens of orders of magnitude, so a key's regret is decided by
    its one heaviest sample (the old 1e10 "average regret").
  * ``sampled``: that weight is left out, so each decision's regret counts as often as the
    exploring traverser reaches it (as ESCHER argues, Regret matching is scale-free per
    information set; a reach weight that differs little between iterations changes
    little). The average strategy is accumulated with weight 1 at every sampled decision
    of the other players (visit-weighted). This is the mode for full games.

  With ``baselines`` (VR-MCCFR, Schmid et al. 2019) the sampled values are corrected by a
  per-action baseline (the mean value seen after the action at that key), for both
  weightings: the unsampled actions get their baseline, the sampled one its baseline
  plus the importance-weighted difference, which keeps the estimate unbiased and cuts
  its variance where the baseline is good.

With ``model_share`` p > 0 a traversal is a *restricted Nash response* (Johanson,
Zinkevich and Bowling 2007): each player other than the traverser plays the game's
heuristic for the whole traversal with probability p (its decisions then add nothing to
the tables), its learned strategy otherwise. The traverser learns a reply to that mixture,
which exploits the heuristic as far as p lets it; p = 0 is plain self-play.

Traversals read a snapshot (``View``) and return ``Deltas``; ``MCCFR`` applies them
after every traversal (the classic sequential algorithm), the trainer
(``solvers.mccfr_train``) after every round of batches.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pyspiel

from solvers.fastpath import transition_functions
from solvers.mccfr_sampling import (
    collector_paused,
    count_decisions,
    first_per_label,
    model_seats,
    pick,
)
from solvers.mccfr_tables import Deltas, View
from solvers.policy_file import key_function, label_function
from spiel_games.common.chance import sample_chance
from spiel_games.common.registry import get_spec

TERMINAL = int(pyspiel.PlayerId.TERMINAL)
# Measured peak of a run: about 1 KB per row on full games, so the bound keeps a run near
# 2 GiB plus the interpreter.
DEFAULT_MAX_KEYS = 2_000_000
# The traversals' version, part of a checkpoint's identity: tables accumulated by other
# traversals are refused. 1 = baselines fed from every sampled decision; 2 = from the
# traverser's own decisions only.
ALGORITHM = 2
WEIGHTINGS = ("counterfactual", "sampled")


def _no_model(state, rng) -> int:
    raise AssertionError("no seat plays an opponent model when model_share is 0")


class Traversals:
    """One worker's traversals against a snapshot of the tables."""

    def __init__(
        self,
        game,
        variant: str,
        abstraction: str,
        epsilon: float = 0.6,
        weighting: str = "counterfactual",
        baselines: bool = False,
        es_leaves: int = 0,
        max_rows: int = DEFAULT_MAX_KEYS,
        model_share: float = 0.0,
    ):
        if variant not in ("es", "os"):
            raise ValueError(f"MCCFR variant must be es or os, got {variant!r}")
        if weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {', '.join(WEIGHTINGS)}")
        self.game = game
        self.variant = variant
        self.key = key_function(game, abstraction)
        self.labels = label_function(game, abstraction)
        self.players = game.num_players()
        self.epsilon = epsilon
        self.counterfactual = weighting == "counterfactual"
        self.baselines = baselines
        self.es_leaves = es_leaves
        self.decisions = count_decisions(game) if variant == "es" and es_leaves > 0 else 0
        self.max_rows = max_rows
        self.model_share = model_share  # restricted Nash response: the heuristic's share
        spec = get_spec(game.get_type().short_name) if model_share > 0 else None
        if spec is not None and spec.heuristic is None:
            raise ValueError(f"model_share needs a game with a heuristic, not {game}")
        self.model: Callable[..., int] = spec.heuristic if spec and spec.heuristic else _no_model
        self._apply, self._legal = transition_functions(game)

    # ----- one batch ---------------------------------------------------------------
    def run(self, view: View, rng: random.Random, players: list[int]) -> Deltas:
        """Traverse once for each entry of ``players`` (the traverser), against ``view``,
        with the cyclic garbage collector paused (``mccfr_sampling.collector_paused``)."""
        with collector_paused():
            return self._run(view, rng, players)

    def _run(self, view: View, rng: random.Random, players: list[int]) -> Deltas:
        self.view = view
        self.rng = rng
        self.d = Deltas()
        self._local_rows: dict[str, int] = {}
        self._local_slots: dict[tuple[int, int], int] = {}
        for player in players:
            self._model = model_seats(rng, self.players, player, self.model_share)
            self._model_rng = (
                np.random.default_rng(rng.getrandbits(32)) if any(self._model) else None
            )
            state = self.game.new_initial_state()
            if self.variant == "es":
                start = rng.randrange(self.decisions) if self.es_leaves > 0 else 0
                self._es(state, player, 0, start, -1)
            else:
                self._os(state, player)
            self.d.traversals += 1
        return self.d

    def _lookup(self, state, p: int, legal) -> tuple[int, list[int], list[float]]:
        """(row, slots, strategy) of the decision: regret matching over the slots of the
        legal actions (their labels under an action abstraction). Row -1 when the table is
        full (played uniformly, nothing learned)."""
        key = self.key(state, p)
        view = self.view
        d = self.d
        n = len(legal)
        r = view.index.get(key, -1)
        if 0 <= r < view.rows:
            m = view.slot_maps[r]
            slots = [m.get(a, -1) for a in legal]
            if -1 not in slots:  # the common case: a known row and known slots
                d.visit_row.append(r)
                positive = view.positive
                pos = [positive[s] for s in slots]  # the snapshot's slots all predate it
                total = sum(pos)
                if total > 0:
                    return r, slots, [x / total for x in pos]
                return r, slots, [1.0 / n] * n
        else:
            r = self._local_rows.get(key, -1)
            if r < 0:
                if view.rows + len(self._local_rows) >= self.max_rows:
                    d.untracked += 1
                    return -1, [], [1.0 / n] * n
                r = self._local_rows[key] = view.rows + len(self._local_rows)
                d.new_rows.append(key)
            slots = [-1] * n
        d.visit_row.append(r)
        for j, a in enumerate(legal):
            if slots[j] < 0:
                s = self._local_slots.get((r, a))
                if s is None:
                    s = self._local_slots[(r, a)] = view.slots + len(self._local_slots)
                    d.new_slots.append((r, a))
                slots[j] = s
        positive = view.positive
        known = view.slots
        pos = [positive[s] if s < known else 0.0 for s in slots]
        total = sum(pos)
        if total > 0:
            return r, slots, [x / total for x in pos]
        return r, slots, [1.0 / n] * n

    def _baseline(self, slots: list[int]) -> list[float]:
        """The baselines of the slots (a new list)."""
        if not self.baselines:
            return [0.0] * len(slots)
        base = self.view.baseline
        known = self.view.slots
        return [base[s] if s < known else 0.0 for s in slots]

    def _choices(self, state, p: int, legal) -> tuple[list[int], list[int]]:
        """(actions, their labels) of a decision, one action per label (the first in legal
        order, as ``solvers.policy_file.choices``)."""
        if len(legal) > 1 and self.labels is not None:
            labels = self.labels(state, p, legal)
            if len(set(labels)) == len(labels):
                return legal, labels
            return first_per_label(legal, labels)
        return legal, legal

    def _add_regret(self, slots: list[int], values: list[float]) -> None:
        self.d.regret_slot.extend(slots)
        self.d.regret.extend(values)

    def _add_avg(self, slots: list[int], policy: list[float], weight: float) -> None:
        """avg += weight * the strategy played (over the legal actions at hand)."""
        self.d.avg_slot.extend(slots)
        self.d.avg.extend([weight * q for q in policy])

    # ----- outcome sampling ----------------------------------------------------------
    def _os(self, state, traverser: int) -> None:
        apply, legal_fn, rng = self._apply, self._legal, self.rng
        lookup, labels_fn, random_ = self._lookup, self.labels, rng.random
        eps = self.epsilon
        players = self.players
        counterfactual = self.counterfactual
        model, model_rng = self._model, self._model_rng
        reach = [1.0] * players
        sample_reach = w = 1.0
        path = []  # (player, row, slot, n, sampled index, policy, its sampling prob, weight)
        while True:
            p = state.current_player()
            if p < 0:
                if p == TERMINAL:
                    break
                apply(state, sample_chance(state, rng))
                continue
            if model[p]:  # the heuristic plays this seat (nothing learned)
                apply(state, int(self.model(state, model_rng)))
                continue
            legal = labels = legal_fn(state, p)
            if len(legal) > 1 and labels_fn is not None:  # self._choices, inlined
                labels = labels_fn(state, p, legal)
                if len(set(labels)) < len(labels):
                    legal, labels = first_per_label(legal, labels)
            n = len(legal)
            if n == 1:  # a forced move (or one abstract action): no decision, no row
                apply(state, legal[0])
                continue
            r, slots, policy = lookup(state, p, labels)
            if p == traverser:
                sample = [eps / n + (1 - eps) * q for q in policy]
                if counterfactual:
                    w = 1.0
                    for other in range(players):
                        if other != p:
                            w *= reach[other]
            else:
                sample = policy
                w = reach[p]
            i = pick(random_(), sample)
            path.append((p, r, slots, n, i, policy, sample[i], w, sample_reach))
            if counterfactual:
                reach[p] *= policy[i]
                sample_reach *= sample[i]
            apply(state, legal[i])
        utility = state.returns()[traverser]
        if not counterfactual:
            self._os_sampled(path, traverser, utility)
        elif self.baselines:
            self._os_backup(path, traverser, utility)
        else:
            self._os_backup_classic(path, traverser, utility / sample_reach)

    def _os_backup_classic(self, path, traverser: int, u: float) -> None:
        """Lanctot's estimator as the dict-based implementation computed it: ``u`` is the
        utility over the whole trajectory's sampling probability times the tail's policy."""
        for p, r, slots, n, i, policy, _, w, sample_reach in reversed(path):
            q = policy[i]
            if p == traverser:
                if r >= 0:
                    self._add_regret(
                        slots, [w * u * (1.0 - q) if j == i else -w * u * q for j in range(n)]
                    )
            elif r >= 0:
                self._add_avg(slots, policy, w / sample_reach)
            u = u * q

    def _os_backup(self, path, traverser: int, u: float) -> None:
        """Counterfactual weighting with baselines: VR-MCCFR's corrected sampled values at
        the traverser's decisions (the unsampled actions get their baseline, the sampled
        one its baseline plus the importance-weighted difference); ``u`` is the
        traverser's value after the decision at hand. A slot's baseline is a value for the
        player whose decision it is, so only the traverser's own decisions use and update
        baselines; at the others' (sampled on their own strategy) the value passes up."""
        d = self.d
        for p, r, slots, _, i, policy, xi, w, sample_reach in reversed(path):
            if r < 0:
                continue  # an untracked decision: the value passes through unchanged
            if p != traverser:
                self._add_avg(slots, policy, w / sample_reach)
                continue
            b = self._baseline(slots)
            d.base_slot.append(slots[i])
            d.base_value.append(u)
            values = list(b)
            values[i] = b[i] + (u - b[i]) / xi
            v = sum(q * x for q, x in zip(policy, values, strict=True))
            weight = w / sample_reach
            self._add_regret(slots, [weight * (x - v) for x in values])
            u = v

    def _os_sampled(self, path, traverser: int, u: float) -> None:
        """Sampled weighting: every decision's regret from the trajectory's own return
        ``u``, without importance weights along the path; with baselines the unsampled
        actions get their baseline and the sampled one its baseline plus the difference
        over its sampling probability (without baselines: 0, and u over it). Baselines
        are the traverser's own (a slot's value for the player whose decision it is)."""
        d = self.d
        baselines = self.baselines
        avg_slot, avg = d.avg_slot, d.avg
        for p, r, slots, _, i, policy, xi, _, _ in path:
            if r < 0:
                continue
            if p != traverser:  # the strategy played, weight 1
                avg_slot.extend(slots)
                avg.extend(policy)
                continue
            if baselines:
                d.base_slot.append(slots[i])
                d.base_value.append(u)
            values = self._baseline(slots)
            values[i] = values[i] + (u - values[i]) / xi
            v = sum(q * x for q, x in zip(policy, values, strict=True))
            self._add_regret(slots, [x - v for x in values])

    # ----- external sampling ---------------------------------------------------------
    def _es(self, state, traverser: int, depth: int, start: int, budget: int) -> float:
        """External sampling.

        With ``es_leaves`` L > 0 (windowed, for full games) the traverser branches on a
        window of consecutive real decisions: the window opens at its decision number
        ``start`` of the traversal (drawn uniformly per traversal) and stays open while
        the product of the branching factors fits in L. Before and after the window the
        traverser samples its current strategy and updates nothing. Values backed up into
        the window are unbiased samples of the current profile's values, so a traversal
        costs at most about L playouts, but regrets are weighted by the traverser's own
        reach to the window (no convergence guarantee). ``budget`` is -1 before the
        window, the leaves left inside it, 0 after it.
        """
        apply, legal_fn = self._apply, self._legal
        leaves = self.es_leaves
        while True:
            p = state.current_player()
            if p < 0:
                if p == TERMINAL:
                    return state.returns()[traverser]
                apply(state, sample_chance(state, self.rng))
                continue
            if self._model[p]:  # the heuristic plays this seat (nothing learned)
                apply(state, int(self.model(state, self._model_rng)))
                continue
            legal, labels = self._choices(state, p, legal_fn(state, p))
            n = len(legal)
            if n == 1:  # a forced move (or one abstract action): no decision, no row
                apply(state, legal[0])
                continue
            r, slots, policy = self._lookup(state, p, labels)
            if p != traverser:
                if r >= 0:
                    self._add_avg(slots, policy, 1.0)
                apply(state, legal[pick(self.rng.random(), policy)])
                continue
            child_budget = budget
            if leaves > 0:
                if depth < start or budget == 0 or 0 < budget < n:
                    apply(state, legal[pick(self.rng.random(), policy)])
                    depth += 1
                    budget = 0 if budget >= 0 else -1
                    continue
                child_budget = (leaves if budget < 0 else budget) // n
            values = []
            for j, a in enumerate(legal):
                child = state if j == n - 1 else state.clone()
                apply(child, a)
                values.append(self._es(child, traverser, depth + 1, start, child_budget))
            v = sum(q * x for q, x in zip(policy, values, strict=True))
            if r >= 0:
                self._add_regret(slots, [x - v for x in values])
            return v
