"""The parts of a search, chosen once from an agent's resolved parameters.

This is the one place the option values are read: each becomes a small object the tree
loop calls (``solvers.search.tree``), as OpenSpiel's MCTS takes an evaluator and a child
selection function.

| parameter | part | choices |
|---|---|---|
| `eval` | leaf evaluation | `ScoreEvaluation`, `EstimateEvaluation` (game or learned) |
| `rollout`, `rollout_depth`, `epsilon`, `settle` | `Rollout` | policy, depth, settling heuristic |
| `opponents`, `opp_eps`, `opp_share`, `opp_prior`, `opp_fit`, `blueprint` | opponent model | `SearchedOpponents`, `HeuristicOpponents`, `NoisyOpponents`, `InferredOpponents`, `BlueprintOpponents` |
| `opp_until` | searched opponents' warm-up | `Warmup` |
| `prior`, `blueprint` | prior | `NoPrior`, `HeuristicPrior`, `BlueprintPrior` |
| `widen`, `unprune` | expansion rule | `OpenAll`, `Widening`, `Unpruning` |
| `uct_c`, `prior_w`, `qnorm` | selection rule | `UCB`, `ScaledUCB` |
| `root` | root selection | `UCBRoot`, `SequentialHalving` |
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from solvers.blueprint import load_blueprint, shipped_for
from solvers.fastpath import transition_functions
from solvers.search.checks import game_heuristic
from solvers.search.expansion import OpenAll, Unpruning, Widening
from solvers.search.halving import SequentialHalving
from solvers.search.leaf import (
    EstimateEvaluation,
    Rollout,
    ScoreEvaluation,
    game_evaluation,
    learned_evaluation,
)
from solvers.search.models import (
    BlueprintOpponents,
    BlueprintPolicy,
    BlueprintPrior,
    HeuristicOpponents,
    HeuristicPrior,
    InferredOpponents,
    NoisyOpponents,
    NoPrior,
    SearchedOpponents,
    Warmup,
)
from solvers.search.selection import UCB, ScaledUCB
from solvers.search.tree import Parts, SearchEngine, Streams, UCBRoot
from solvers.search.worlds import Worlds
from spiel_games.common import level
from spiel_games.common.registry import get_spec

# The plain search (what eval=score,prior=none resolves to on every game): the engine's
# settings for whatever a caller of make_engine leaves out.
PLAIN: dict[str, object] = {
    "uct_c": 1.4,
    "rollout": "random",
    "rollout_depth": 20,
    "epsilon": 0.0,
    "eval": "score",
    "model": "",
    "prior": "none",
    "prior_w": 1.0,
    "qnorm": "off",
    "settle": "off",
    "opponents": "search",
    "root": "ucb",
    "opp_eps": 0.0,
    "opp_share": 0.5,
    "opp_prior": 4.0,
    "opp_fit": "match",
    "opp_until": 0.0,
    "unprune": 0.0,
    "widen": 0.0,
    "tree_depth": 0,
    "blueprint": "",
}

Prior = NoPrior | HeuristicPrior | BlueprintPrior
Opponents = SearchedOpponents | HeuristicOpponents | InferredOpponents | BlueprintOpponents


def _number(p: Mapping[str, object], name: str) -> float:
    value = p[name]
    assert isinstance(value, int | float), name
    return float(value)


def _heuristic(game, p: Mapping[str, object]):
    """The game's heuristic when some part needs it (ValueError when it has none)."""
    wanted = {
        "heuristic rollouts": p["rollout"] == "heuristic",
        "prior=heuristic": p["prior"] == "heuristic",
        "settle": p["settle"] == "on",
        "opponents=heuristic": p["opponents"] == "heuristic",
        "opponents=infer": p["opponents"] == "infer",
        "opp_until": _number(p, "opp_until") > 0,
    }
    if not any(wanted.values()):
        return None
    spec = get_spec(game.get_type().short_name)
    if spec.heuristic is None:
        use = next(k for k, v in wanted.items() if v)
        raise ValueError(f"{spec.short_name} has no heuristic for {use}")
    return spec.heuristic


def _leaf(game, p: Mapping[str, object], streams: Streams, heuristic) -> Rollout:
    lo = float(game.min_utility())
    span = (float(game.max_utility()) - lo) or 1.0
    utility = str(game.get_parameters().get("utility", "rank"))
    depth = int(_number(p, "rollout_depth"))
    evaluation: ScoreEvaluation | EstimateEvaluation
    if p["eval"] in ("game", "learned"):
        if p["eval"] == "game":
            est = game_evaluation(game)
        else:
            est = learned_evaluation(game, str(p["model"]))
        evaluation = EstimateEvaluation(est, utility, lo, lo + span)
        if utility == "score":
            level.prepare(game)  # a table its rules need is measured now, not mid-search
    else:
        evaluation = ScoreEvaluation(utility, game, (lo, lo + span))
        if utility == "score" and evaluation.level is not None:
            level.prepare(game)
        if not callable(getattr(game.new_initial_state(), "scores", None)):
            depth = -1  # the game cannot be scored early: roll out to the end
    return Rollout(
        streams,
        transition_functions(game),
        evaluation,
        depth,
        policy=_rollout_policy(game, p, heuristic),
        epsilon=_number(p, "epsilon"),
        # at the cut-off the heuristic finishes the turn of the player who made the last
        # tree move (its sub-choices)
        settle=heuristic if p["settle"] == "on" else None,
        bounds=(lo, span),
    )


def _rollout_policy(game, p: Mapping[str, object], heuristic):
    if p["rollout"] == "blueprint":
        return _blueprint_policy(game, p, sample=True)
    return heuristic if p["rollout"] == "heuristic" else None


def _blueprint_policy(game, p: Mapping[str, object], sample: bool) -> BlueprintPolicy:
    """The blueprint of ``p['blueprint']`` (empty: the one the game ships for this game
    string) as a policy, the game's heuristic (when it has one) where it has no row."""
    path = str(p["blueprint"]) or shipped_for(game, "blueprint")
    fallback = game_heuristic(game)
    legal = transition_functions(game)[1]
    return BlueprintPolicy(load_blueprint(path, game), fallback, legal, sample)


def _prior(game, p: Mapping[str, object], heuristic) -> Prior:
    if p["prior"] == "heuristic":
        return HeuristicPrior(heuristic)
    if p["prior"] == "blueprint":
        return BlueprintPrior(_blueprint_policy(game, p, sample=False))
    return NoPrior()


def _opponents(game, p: Mapping[str, object], streams: Streams, heuristic) -> Opponents:
    """The opponent model of ``opponents`` (with ``opp_eps``, ``opp_share``, ``opp_prior``,
    ``opp_fit``, ``blueprint``)."""
    if p["opponents"] == "infer":
        prior = (_number(p, "opp_share"), _number(p, "opp_prior"))
        # the inference's own stream, drawn only under this model (the others' unchanged)
        seed = streams.py.getrandbits(63)
        return InferredOpponents(game, heuristic, streams, prior, seed, str(p["opp_fit"]))
    if p["opponents"] == "blueprint":
        return BlueprintOpponents(_blueprint_policy(game, p, sample=True))
    if p["opponents"] != "heuristic":
        return SearchedOpponents()
    opp_eps = _number(p, "opp_eps")
    if opp_eps > 0.0:
        return NoisyOpponents(heuristic, streams, opp_eps, transition_functions(game)[1])
    return HeuristicOpponents(heuristic)


def build_parts(game, params: Mapping[str, object], rng: random.Random) -> Parts:
    """Every part for ``params`` (resolved: no ``auto`` left); ValueError when the game
    lacks a piece they need."""
    p = {**PLAIN, **params}
    streams = Streams(rng)
    heuristic = _heuristic(game, p)
    prior = _prior(game, p, heuristic)
    opponents = _opponents(game, p, streams, heuristic)
    widen, unprune = _number(p, "widen"), _number(p, "unprune")
    widening = Widening(widen) if widen > 0 else None
    expansion: OpenAll | Widening | Unpruning = widening or OpenAll()
    if unprune > 0:
        if p["prior"] not in ("heuristic", "blueprint"):
            raise ValueError(
                "unprune needs prior=heuristic or blueprint (the move a node starts with)"
            )
        expansion = Unpruning(unprune, widening)
    uct_c, prior_w = _number(p, "uct_c"), _number(p, "prior_w")
    selection = ScaledUCB(uct_c, prior_w) if p["qnorm"] == "on" else UCB(uct_c, prior_w)
    root: UCBRoot | SequentialHalving = UCBRoot()
    if p["root"] == "halving":
        root = SequentialHalving(prior, prior_w, widen)
    leaf = _leaf(game, p, streams, heuristic)
    until = _number(p, "opp_until")
    warmup = Warmup(heuristic, until) if until > 0 else None
    worlds = Worlds(game, rng)
    tree_depth = int(_number(p, "tree_depth"))
    return Parts(
        streams, worlds, opponents, prior, expansion, selection, leaf, root, warmup, tree_depth
    )


def make_engine(game, rng: random.Random, determinize: bool = False, **params) -> SearchEngine:
    """An engine with these settings (the plain search's for the rest), its heuristic
    stream drawn from ``rng`` as an agent's first move draws it."""
    engine = SearchEngine(game, build_parts(game, params, rng), determinize)
    engine.streams.renew()
    return engine
