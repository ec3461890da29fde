"""Exact CFR, CFR+ and DCFR through OpenSpiel's own solvers, on a C++ copy of the game.

OpenSpiel's solvers run directly on a meeple (Python) game call Python at every
node, about 0.5 s per iteration on a tiny configuration. Here the game tree is
walked ONCE through the public pyspiel API and written as Gambit EFG text, which
``pyspiel.load_efg_game`` turns into a C++ game; the solvers and ``pyspiel.nash_conv``
then never call Python again.

The EFG text (format: Gambit's .efg, as in OpenSpiel's ``python/algorithms/gambit.py``):

- each decision node names its information set with the game's
  ``information_state_string(player)``; OpenSpiel's EFG parser has no escape inside
  quoted strings, so ``%`` and ``"`` are written as ``%25`` and ``%22``. The EFG
  game's information state is ``"<player>-<player>-<number>-<name>"``;
- actions are named by their position in ``legal_actions()`` ("0", "1", ...): the
  parser numbers action names in order of first appearance and sorts each node's ids,
  so position names keep every node's ids in its own order (real action ids would not);
- chance nodes carry the game's exact (double) probabilities, terminals its returns.

Solvers (``KINDS``):

- ``cfr``: ``pyspiel.CFRSolver`` (C++; alternating updates, uniform averaging);
- ``cfr+``: ``pyspiel.CFRPlusSolver`` (C++; regret matching+, linear averaging);
- ``dcfr``: pyspiel 2.0.2 has no C++ DCFR, so OpenSpiel's Python
  ``discounted_cfr.DCFRSolver`` (alpha 1.5, beta 0, gamma 2) runs on the C++ EFG game.

Policies come back keyed by the game's own information-state strings and action ids,
so policy files and the ``policy`` agent see no difference.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import pyspiel
from open_spiel.python.algorithms import discounted_cfr

from solvers.cfr import average_policy_table
from solvers.policy_file import played_probs

KINDS = ("cfr", "cfr+", "dcfr")
DEFAULT_MAX_NODES = 1_000_000
_PROBES = 8  # random paths of ``surely_too_large``
_MARGIN = 10**6  # their mean estimate must be this many times ``max_nodes``


class TreeTooLarge(ValueError):
    """The game tree has more nodes than the export allows: not a tiny configuration."""

    def __init__(self, max_nodes: int):
        self.max_nodes = max_nodes
        super().__init__(f"game tree exceeds {max_nodes:,} nodes: not a tiny configuration")


def surely_too_large(game, max_nodes: int = DEFAULT_MAX_NODES) -> bool:
    """True when the game tree certainly has more than ``max_nodes`` nodes, from a few
    random paths (milliseconds, where ``export_efg`` would walk ``max_nodes`` nodes first).

    Knuth's estimator: along a path choosing uniformly among each node's children (chance
    outcomes too), 1 + b0 + b0*b1 + ... is an unbiased estimate of the node count N, and so
    is the mean of ``_PROBES`` paths; by Markov's inequality the mean reaches
    ``_MARGIN * N`` with probability at most 1/_MARGIN. A full game estimates around 1e60.
    A tree over the bound that is not refused here is still refused by ``export_efg``."""
    rng = random.Random(0)
    limit = max_nodes * _MARGIN * _PROBES  # a sum over it: the mean is over max_nodes * _MARGIN
    total = 0  # the sum of the paths' estimates
    for _ in range(_PROBES):
        state, width = game.new_initial_state(), 1
        total += 1
        while total <= limit and not state.is_terminal():
            if state.is_chance_node():
                children = [a for a, _ in state.chance_outcomes()]
            else:
                children = state.legal_actions()
            if not children:
                break
            width *= len(children)
            total += width
            state.apply_action(rng.choice(children))
        if total > limit:
            return True
    return False


def _escape(name: str) -> str:
    return name.replace("%", "%25").replace('"', "%22")


@dataclass
class Infoset:
    player: int
    key: str  # the game's information_state_string(player)
    actions: list[int]  # the game's legal actions; EFG action k is actions[k]
    alt_key: str | None = None  # optional second key (e.g. an MCCFR abstraction)
    labels: list[int] | None = None  # the actions' labels under that abstraction, if any


@dataclass
class EFGExport:
    """A game compiled to an EFG C++ game, with the map back to its keys."""

    text: str
    game: pyspiel.Game
    num_nodes: int
    infosets: dict[str, Infoset] = field(default_factory=dict)  # EFG info state -> ours

    def uniform_table(self) -> dict[str, dict[int, float]]:
        return {i.key: {a: 1.0 / len(i.actions) for a in i.actions} for i in self.infosets.values()}

    def to_ours(self, efg_table) -> dict[str, dict[int, float]]:
        """{EFG info state: [(EFG action, p)]} -> {our key: {our action: p}}."""
        out: dict[str, dict[int, float]] = {}
        for efg_key, pairs in efg_table.items():
            info = self.infosets[efg_key]
            out[info.key] = {info.actions[a]: p for a, p in pairs}
        return out

    def to_efg_policy(self, table: dict[str, dict[int, float]], alt_keys: bool = False):
        """A ``pyspiel.TabularPolicy`` on the EFG game from {our key: {our action: p}}.
        Missing or all-zero keys are played uniformly; negative probabilities are an error.

        With ``alt_keys`` the table is an MCCFR table, {alternative key: {label: p}}, and
        the policy is what the ``policy`` agent plays from it with ``fallback=random``
        (``policy_file.played_probs``: each label's probability on its first legal
        action, uniform over the legal actions where the table has nothing)."""
        out = {}
        for efg_key, info in self.infosets.items():
            if alt_keys:
                played = played_probs(info.actions, info.labels, table.get(info.alt_key or ""))
                out[efg_key] = [(k, played[a]) for k, a in enumerate(info.actions)]
                continue
            probs = table.get(info.key)
            n = len(info.actions)
            raw = [0.0] * n
            if probs:
                for k, a in enumerate(info.actions):
                    p = probs.get(a, 0.0)
                    if p < 0.0:
                        raise ValueError(f"negative probability {p} in the policy for {info.key!r}")
                    raw[k] = p
            s = sum(raw)
            out[efg_key] = (
                [(k, x / s) for k, x in enumerate(raw)]
                if s > 0
                else [(k, 1.0 / n) for k in range(n)]
            )
        return pyspiel.TabularPolicy(out)


def export_efg(game, max_nodes: int = DEFAULT_MAX_NODES, key_fn=None, labels_fn=None) -> EFGExport:
    """Walk every history of a game once and compile it to an EFG C++ game (any number of
    players; the exact solvers need 2). ``key_fn(state, player)``, if given, records a
    second key per information set, and ``labels_fn(state, player, legal)`` the labels of
    its actions (an MCCFR abstraction); both must be functions of the information state
    (ValueError where two histories of one information set disagree)."""
    n = game.num_players()
    names = " ".join(f'"P{i + 1}"' for i in range(n))
    lines = [f'EFG 2 R "meeple" {{ {names} }}\n']
    numbers: list[dict[str, int]] = [{} for _ in range(n)]
    infosets: dict[str, Infoset] = {}
    terminals = chances = nodes = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise TreeTooLarge(max_nodes)
        if state.is_terminal():
            terminals += 1
            pay = " ".join(repr(float(x)) for x in state.returns())
            lines.append(f't "" {terminals} "" {{ {pay} }}\n')
            continue
        if state.is_chance_node():
            chances += 1
            outcomes = state.chance_outcomes()
            body = " ".join(f'"{k}" {p!r}' for k, (_, p) in enumerate(outcomes))
            lines.append(f'c "" {chances} "" {{ {body} }} 0\n')
            actions = [a for a, _ in outcomes]
        else:
            p = state.current_player()
            key = state.information_state_string(p)
            actions = list(state.legal_actions())
            number = numbers[p].get(key)
            name = _escape(key)
            alt = key_fn(state, p) if key_fn is not None else None
            labels = list(labels_fn(state, p, actions)) if labels_fn is not None else None
            if number is None:
                number = numbers[p][key] = len(numbers[p]) + 1
                infosets[f"{p}-{p}-{number}-{name}"] = Infoset(p, key, actions, alt, labels)
            else:
                known = infosets[f"{p}-{p}-{number}-{name}"]
                if known.actions != actions:
                    raise ValueError(f"information state {key!r} has differing legal actions")
                if (known.alt_key, known.labels) != (alt, labels):
                    raise ValueError(f"information state {key!r} has differing keys or labels")
            body = " ".join(f'"{k}"' for k in range(len(actions)))
            lines.append(f'p "" {p + 1} {number} "{name}" {{ {body} }} 0\n')
        # EFG lists a node's subtrees in order, depth first: push in reverse.
        for a in reversed(actions):
            stack.append(state.child(a))
    text = "".join(lines)
    return EFGExport(text, pyspiel.load_efg_game(text), nodes, infosets)


class ExactCFR:
    """One of OpenSpiel's exact solvers on an exported game."""

    def __init__(self, export: EFGExport, kind: str = "cfr+"):
        if kind not in KINDS:
            raise ValueError(f"unknown exact solver {kind!r}; valid: {', '.join(KINDS)}")
        self.export = export
        self.kind = kind
        self.iteration = 0
        if kind == "cfr":
            self._solver = pyspiel.CFRSolver(export.game)
        elif kind == "cfr+":
            self._solver = pyspiel.CFRPlusSolver(export.game)
        else:
            self._solver = discounted_cfr.DCFRSolver(export.game)

    def iterate(self) -> None:
        self._solver.evaluate_and_update_policy()
        self.iteration += 1

    def _efg_average_table(self):
        if self.kind == "dcfr":
            return {k: list(v.items()) for k, v in average_policy_table(self._solver).items()}
        return self._solver.tabular_average_policy().policy_table()

    def policy_table(self) -> dict[str, dict[int, float]]:
        """Average policy, {information state: {action: prob}} in the game's own terms."""
        return self.export.to_ours(self._efg_average_table())

    def nash_conv(self) -> float:
        if self.kind == "dcfr":
            pol = pyspiel.TabularPolicy(self._efg_average_table())
        else:
            pol = self._solver.average_policy()
        return pyspiel.nash_conv(self.export.game, pol)

    # ----- checkpoint rows ---------------------------------------------------------
    # OpenSpiel cannot restore these solvers on an EFG game loaded from text (its
    # deserializer reloads the game from a file), so a checkpoint records the average
    # policy and resuming replays the (deterministic) iterations, then checks that the
    # replay reproduces the recorded policy.
    def rows(self):
        for key, probs in self.policy_table().items():
            for a, p in probs.items():
                yield key, a, math.nan, p

    def load_rows(self, rows, iteration: int) -> None:
        while self.iteration < iteration:
            self.iterate()
        table = self.policy_table()
        for key, a, _, p in rows:
            got = table.get(key, {}).get(a)
            if got is None:
                raise ValueError(f"checkpoint key {key!r} is not an information state of this game")
            if abs(got - p) > 1e-9:
                raise ValueError(
                    f"replaying {iteration} iterations does not reproduce the checkpoint at {key!r}"
                )


def nash_conv(export: EFGExport, table: dict[str, dict[int, float]], alt_keys=False) -> float:
    """``pyspiel.nash_conv`` of a {key: {action: prob}} policy, on the exported game."""
    return pyspiel.nash_conv(export.game, export.to_efg_policy(table, alt_keys))


def profile_values(export: EFGExport, table: dict[str, dict[int, float]]) -> list[float]:
    """Expected returns of both players when both play `table`, by OpenSpiel's evaluator."""
    return list(
        pyspiel.expected_returns(
            export.game.new_initial_state(), export.to_efg_policy(table), -1, True
        )
    )
