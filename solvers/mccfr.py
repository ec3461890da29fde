"""Compact tabular Monte Carlo CFR keyed by a game's information abstraction.

OpenSpiel's MCCFR solvers key their tables by full information-state strings,
which grow without bound on full board games. This one keys them by
``GameSpec.abstraction(state, player)`` (or by information-state strings when the
abstraction is ``none``), so the tables stay as small as the abstraction.

- ``es`` (external sampling): the traverser explores all its actions, chance and
  the other players are sampled; the other players' average strategies are
  updated where they are sampled ("simple" averaging). Plain ES costs grow
  exponentially with the traverser's decisions per game (one iteration on full
  2-player Coloretto did not finish in two minutes), so on full games it runs
  *windowed* (``es_leaves``, see ``_es``).
- ``os`` (outcome sampling, epsilon-greedy for the traverser, default 0.6): one
  trajectory per iteration; the method for full games.

Both work for any number of players (for more than two players the average
strategy is no longer guaranteed to approach an equilibrium; it is a strong
self-play policy). An abstraction key may cover states whose legal actions
differ, so each key stores a dict action -> value and regret matching runs over
the actions legal in the state at hand.

Traversals call the game's own Python methods (``_legal_actions``,
``_apply_action``), as the search agents do.
"""

from __future__ import annotations

import random

import pyspiel

from solvers.fastpath import transition_functions
from solvers.policy_file import NO_ABSTRACTION, key_function
from spiel_games.common.chance import sample_chance

TERMINAL = int(pyspiel.PlayerId.TERMINAL)
# Measured peak of a run (training, then streaming the policy file): about 1 KB per
# key on full games (Bruxelles: 370 MiB above the base over 375,093 keys), so the
# bound keeps a run near 2 GiB plus the interpreter.
DEFAULT_MAX_KEYS = 2_000_000


class MCCFR:
    def __init__(
        self,
        game,
        variant: str,
        abstraction: str,
        seed: int = 0,
        epsilon: float = 0.6,
        es_leaves: int = 0,
        max_keys: int = DEFAULT_MAX_KEYS,
    ):
        if variant not in ("es", "os"):
            raise ValueError(f"MCCFR variant must be es or os, got {variant!r}")
        self.game = game
        self.variant = variant
        self.abstraction = abstraction
        self.key = key_function(game, abstraction)
        self.players = game.num_players()
        self.rng = random.Random(seed)
        self.epsilon = epsilon
        self.regret: dict[str, dict[int, float]] = {}
        self.avg: dict[str, dict[int, float]] = {}
        self.iterations = 0
        self._apply, self._legal = transition_functions(game)
        # es_leaves > 0: windowed external sampling (see _es); 0 = plain external sampling.
        self.es_leaves = es_leaves
        # Hard bound on the table: keys first met once it is full are played
        # uniformly and never updated (counted in `untracked`).
        self.max_keys = max_keys
        self.untracked = 0
        self._decisions = self._count_decisions() if variant == "es" and es_leaves > 0 else 0

    # ----- tables ----------------------------------------------------------------
    def _policy(self, key: str, legal) -> list[float]:
        reg = self.regret.get(key)
        if reg is None:
            if len(self.regret) >= self.max_keys:
                # Table full: this key stays untracked (uniform play, no updates).
                self.untracked += 1
                return [1.0 / len(legal)] * len(legal)
            reg = self.regret[key] = {}
            self.avg[key] = {}
        pos = [max(reg.get(a, 0.0), 0.0) for a in legal]
        total = sum(pos)
        if total > 0:
            return [x / total for x in pos]
        return [1.0 / len(legal)] * len(legal)

    def _pick(self, probs: list[float]) -> int:
        x = self.rng.random()
        acc = 0.0
        for i, p in enumerate(probs):
            acc += p
            if x < acc:
                return i
        return len(probs) - 1

    # ----- iterations ------------------------------------------------------------
    def iteration(self) -> None:
        """One iteration: one traversal per player (alternating updates)."""
        for player in range(self.players):
            state = self.game.new_initial_state()
            if self.variant == "es":
                start = self.rng.randrange(self._decisions) if self.es_leaves > 0 else 0
                self._es(state, player, 0, start, -1)
            else:
                self._os(state, player, [1.0] * self.players, 1.0)
        self.iterations += 1

    def _count_decisions(self, playouts: int = 20) -> int:
        """Most real decisions (more than one legal action) one player made in random playouts."""
        rng = random.Random(0)
        most = 1
        for _ in range(playouts):
            state = self.game.new_initial_state()
            count = [0] * self.players
            while True:
                p = state.current_player()
                if p == TERMINAL:
                    break
                if p < 0:
                    self._apply(state, sample_chance(state, rng))
                    continue
                legal = self._legal(state, p)
                if len(legal) > 1:
                    count[p] += 1
                self._apply(state, legal[rng.randrange(len(legal))])
            most = max(most, *count)
        return most

    def _es(self, state, traverser: int, depth: int, start: int, budget: int) -> float:
        """External sampling.

        With ``es_leaves`` L > 0 (windowed, for full games) the traverser branches on a
        window of consecutive real decisions (more than one legal action): the window
        opens at its decision number ``start`` of the traversal (drawn uniformly per
        traversal) and stays open while the product of the branching factors fits in
        L. Before and after the window the traverser samples its current strategy and
        updates nothing. Values backed up into the window are unbiased samples of the
        current profile's values, so a traversal costs at most about L playouts
        instead of growing with the whole game. ``budget`` is -1 before the window,
        the leaves left inside it, 0 after it.
        """
        while True:
            p = state.current_player()
            if p == TERMINAL:
                return state.returns()[traverser]
            if p >= 0:
                break
            self._apply(state, sample_chance(state, self.rng))
        legal = self._legal(state, p)
        key = self.key(state, p)
        policy = self._policy(key, legal)
        n = len(legal)
        if p == traverser:
            child_budget = budget
            if self.es_leaves > 0 and n > 1:
                if depth < start or budget == 0 or (budget > 0 and budget < n):
                    self._apply(state, legal[self._pick(policy)])
                    return self._es(state, traverser, depth + 1, start, 0 if budget >= 0 else -1)
                child_budget = (self.es_leaves if budget < 0 else budget) // n
            nxt = depth + 1 if n > 1 else depth
            values = []
            for i, a in enumerate(legal):
                child = state if i == n - 1 else state.clone()
                self._apply(child, a)
                values.append(self._es(child, traverser, nxt, start, child_budget))
            v = sum(q * x for q, x in zip(policy, values, strict=False))
            reg = self.regret.get(key)
            if reg is not None:
                for a, x in zip(legal, values, strict=False):
                    reg[a] = reg.get(a, 0.0) + x - v
            return v
        avg = self.avg.get(key)
        if avg is not None:
            for a, q in zip(legal, policy, strict=False):
                avg[a] = avg.get(a, 0.0) + q
        self._apply(state, legal[self._pick(policy)])
        return self._es(state, traverser, depth, start, budget)

    def _os(self, state, traverser: int, reach: list[float], sample_reach: float) -> float:
        """Returns the sampled utility for the traverser divided by the tail's sampling
        probability, weighted by the tail's policy probability (Lanctot 2013, without baselines)."""
        while True:
            p = state.current_player()
            if p == TERMINAL:
                return state.returns()[traverser] / sample_reach
            if p >= 0:
                break
            # Chance is sampled with its own probabilities: it cancels in the ratio.
            self._apply(state, sample_chance(state, self.rng))
        legal = self._legal(state, p)
        key = self.key(state, p)
        policy = self._policy(key, legal)
        n = len(legal)
        if p == traverser:
            eps = self.epsilon
            sample = [eps / n + (1 - eps) * q for q in policy]
        else:
            sample = policy
        i = self._pick(sample)
        child_reach = reach[:]
        child_reach[p] *= policy[i]
        self._apply(state, legal[i])
        # u = (utility / sampling prob of the whole trajectory) times the policy prob of the tail
        u = self._os(state, traverser, child_reach, sample_reach * sample[i])
        if p == traverser:
            # w = counterfactual weight: other players' reach (chance cancels)
            w = 1.0
            for other in range(self.players):
                if other != p:
                    w *= reach[other]
            reg = self.regret.get(key)
            if reg is not None:
                # value of the sampled action's tail: u; of this node: u * policy[i]
                for j, a in enumerate(legal):
                    r = w * u * (1.0 - policy[i]) if j == i else -w * u * policy[i]
                    reg[a] = reg.get(a, 0.0) + r
        else:
            avg = self.avg.get(key)
            if avg is not None:
                for a, q in zip(legal, policy, strict=False):
                    avg[a] = avg.get(a, 0.0) + reach[p] * q / sample_reach
        return u * policy[i]

    # ----- results ---------------------------------------------------------------
    def _average(self, key: str, reg: dict[int, float]) -> dict[int, float]:
        avg = self.avg.get(key, {})
        total = sum(avg.values())
        if total > 0:
            return {a: v / total for a, v in avg.items() if v > 0}
        acts = sorted(set(reg) | set(avg))
        return {a: 1.0 / len(acts) for a in acts} if acts else {}

    def average_policy_table(self) -> dict[str, dict[int, float]]:
        """The average strategy per key (uniform over seen actions where nothing accumulated)."""
        out: dict[str, dict[int, float]] = {}
        for key, reg in self.regret.items():
            probs = self._average(key, reg)
            if probs:
                out[key] = probs
        return out

    def average_policy_rows(self):
        """The same as (key, action, probability) rows, one key at a time (low memory)."""
        for key, reg in self.regret.items():
            for a, p in sorted(self._average(key, reg).items()):
                yield key, int(a), float(p)

    def policy_size(self) -> int:
        """Keys with a policy (every tracked key that has at least one action)."""
        return sum(1 for key, reg in self.regret.items() if reg or self.avg.get(key))

    def average_regret(self) -> float:
        """Mean over keys of the largest positive cumulative regret, per iteration."""
        if not self.regret or not self.iterations:
            return float("nan")
        tot = 0.0
        for reg in self.regret.values():
            tot += max([0.0, *reg.values()])
        return tot / len(self.regret) / self.iterations

    def as_openspiel_policy(self):
        """A python ``policy.Policy`` over the game (for exploitability on small games)."""
        from open_spiel.python import policy as pol

        table = self.average_policy_table()
        key_fn = self.key

        class _P(pol.Policy):
            def action_probabilities(self, state, player_id=None):
                legal = state.legal_actions()
                probs = table.get(key_fn(state, state.current_player()), {})
                total = sum(probs.get(a, 0.0) for a in legal)
                if total <= 0:
                    return {a: 1.0 / len(legal) for a in legal}
                return {a: probs.get(a, 0.0) / total for a in legal}

        return _P(self.game, list(range(self.players)))

    # ----- checkpoint rows ---------------------------------------------------------
    def rows(self):
        """(key, action, regret, avg) rows for a checkpoint."""
        for key, reg in self.regret.items():
            avg = self.avg.get(key, {})
            for a in sorted(set(reg) | set(avg)):
                yield key, a, reg.get(a, 0.0), avg.get(a, 0.0)

    def load_rows(self, rows) -> None:
        self.regret.clear()
        self.avg.clear()
        for key, a, r, s in rows:
            self.regret.setdefault(key, {})[a] = r
            self.avg.setdefault(key, {})[a] = s


__all__ = ["MCCFR", "NO_ABSTRACTION"]
