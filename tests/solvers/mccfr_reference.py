"""The dict-based MCCFR that the array tables replaced: the reference for their tests.

It is the former ``solvers/mccfr.py`` (external and outcome sampling, tables as nested
dicts keyed by information key and action id), with two changes so that both
implementations consume the same random numbers and add the same floating-point terms: a
forced move (one legal action) draws no random number and gets no table entry, and an
external-sampling regret is added as one term ``x - v``.
"""

from __future__ import annotations

import random

import pyspiel

from solvers.fastpath import transition_functions
from solvers.mccfr_sampling import count_decisions
from solvers.policy_file import key_function
from spiel_games.common.chance import sample_chance

TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class DictMCCFR:
    def __init__(self, game, variant, abstraction, seed=0, epsilon=0.6, es_leaves=0):
        self.game = game
        self.variant = variant
        self.key = key_function(game, abstraction)
        self.players = game.num_players()
        self.rng = random.Random(seed)
        self.epsilon = epsilon
        self.regret: dict[str, dict[int, float]] = {}
        self.avg: dict[str, dict[int, float]] = {}
        self._apply, self._legal = transition_functions(game)
        self.es_leaves = es_leaves
        self._decisions = count_decisions(game) if variant == "es" and es_leaves > 0 else 0

    def _policy(self, key, legal):
        reg = self.regret.get(key)
        if reg is None:
            reg = self.regret[key] = {}
            self.avg[key] = {}
        pos = [max(reg.get(a, 0.0), 0.0) for a in legal]
        total = sum(pos)
        if total > 0:
            return [x / total for x in pos]
        return [1.0 / len(legal)] * len(legal)

    def _pick(self, probs):
        x = self.rng.random()
        acc = 0.0
        for i, p in enumerate(probs):
            acc += p
            if x < acc:
                return i
        return len(probs) - 1

    def iteration(self):
        for player in range(self.players):
            state = self.game.new_initial_state()
            if self.variant == "es":
                start = self.rng.randrange(self._decisions) if self.es_leaves > 0 else 0
                self._es(state, player, 0, start, -1)
            else:
                self._os(state, player, [1.0] * self.players, 1.0)

    def _step(self, state):
        """Chance and forced moves up to the next real decision; its player (or TERMINAL)."""
        while True:
            p = state.current_player()
            if p == TERMINAL:
                return p
            if p < 0:
                self._apply(state, sample_chance(state, self.rng))
                continue
            legal = self._legal(state, p)
            if len(legal) > 1:
                return p
            self._apply(state, legal[0])

    def _es(self, state, traverser, depth, start, budget):
        p = self._step(state)
        if p == TERMINAL:
            return state.returns()[traverser]
        legal = self._legal(state, p)
        key = self.key(state, p)
        policy = self._policy(key, legal)
        n = len(legal)
        if p == traverser:
            child_budget = budget
            if self.es_leaves > 0:
                if depth < start or budget == 0 or (budget > 0 and budget < n):
                    self._apply(state, legal[self._pick(policy)])
                    return self._es(state, traverser, depth + 1, start, 0 if budget >= 0 else -1)
                child_budget = (self.es_leaves if budget < 0 else budget) // n
            values = []
            for i, a in enumerate(legal):
                child = state if i == n - 1 else state.clone()
                self._apply(child, a)
                values.append(self._es(child, traverser, depth + 1, start, child_budget))
            v = sum(q * x for q, x in zip(policy, values, strict=False))
            reg = self.regret[key]
            for a, x in zip(legal, values, strict=False):
                reg[a] = reg.get(a, 0.0) + (x - v)
            return v
        avg = self.avg[key]
        for a, q in zip(legal, policy, strict=False):
            avg[a] = avg.get(a, 0.0) + q
        self._apply(state, legal[self._pick(policy)])
        return self._es(state, traverser, depth, start, budget)

    def _os(self, state, traverser, reach, sample_reach):
        p = self._step(state)
        if p == TERMINAL:
            return state.returns()[traverser] / sample_reach
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
        u = self._os(state, traverser, child_reach, sample_reach * sample[i])
        if p == traverser:
            w = 1.0
            for other in range(self.players):
                if other != p:
                    w *= reach[other]
            reg = self.regret[key]
            for j, a in enumerate(legal):
                r = w * u * (1.0 - policy[i]) if j == i else -w * u * policy[i]
                reg[a] = reg.get(a, 0.0) + r
        else:
            avg = self.avg[key]
            for a, q in zip(legal, policy, strict=False):
                avg[a] = avg.get(a, 0.0) + reach[p] * q / sample_reach
        return u * policy[i]

    def average_policy_table(self):
        out = {}
        for key, reg in self.regret.items():
            avg = self.avg.get(key, {})
            total = sum(avg.values())
            if total > 0:
                out[key] = {a: v / total for a, v in avg.items()}
            else:
                acts = sorted(set(reg) | set(avg))
                out[key] = {a: 1.0 / len(acts) for a in acts} if acts else {}
        return out
