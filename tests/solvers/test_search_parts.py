"""The search's parts are chosen once, when the agent is built, and the loop reads no option."""

from __future__ import annotations

import pyspiel
import pytest

import solvers.search.agents as agents_module
from solvers.registry import make_agent
from solvers.search.expansion import OpenAll, Unpruning, Widening
from solvers.search.halving import SequentialHalving
from solvers.search.leaf import EstimateEvaluation, ScoreEvaluation
from solvers.search.models import (
    HeuristicOpponents,
    HeuristicPrior,
    InferredOpponents,
    NoisyOpponents,
    NoPrior,
    SearchedOpponents,
)
from solvers.search.selection import UCB, ScaledUCB
from solvers.search.tree import UCBRoot


def _decision(game, skip: int = 3):
    state = game.new_initial_state()
    seen = 0
    while True:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif len(state.legal_actions()) > 2 and seen >= skip:
            return state
        else:
            seen += 1
            state.apply_action(state.legal_actions()[0])


def _kinds(agent) -> dict[str, type]:
    eng = agent.engine
    return {
        "opponents": type(eng.opponents),
        "prior": type(eng.prior),
        "expansion": type(eng.expansion),
        "selection": type(eng.selection),
        "root": type(eng.root_policy),
        "evaluation": type(eng.leaf.evaluation),
    }


@pytest.mark.parametrize(
    "spec,expected",
    [
        (
            "ismcts",
            (InferredOpponents, HeuristicPrior, Unpruning, ScaledUCB, SequentialHalving),
        ),
        (
            "ismcts(eval=score,prior=none)",
            (SearchedOpponents, NoPrior, OpenAll, UCB, UCBRoot),
        ),
        (
            "ismcts(opponents=heuristic,opp_eps=0.2,unprune=0,widen=1.5,root=ucb)",
            (NoisyOpponents, HeuristicPrior, Widening, ScaledUCB, UCBRoot),
        ),
        (
            "pimc(qnorm=off,unprune=0.5,widen=1.0)",
            (InferredOpponents, HeuristicPrior, Unpruning, UCB, UCBRoot),
        ),
        (
            "pimc(opponents=heuristic)",
            (HeuristicOpponents, HeuristicPrior, Unpruning, ScaledUCB, UCBRoot),
        ),
    ],
)
def test_each_option_is_one_part_chosen_when_the_agent_is_built(spec, expected):
    game = pyspiel.load_game("python_bruxelles(players=3)")
    kinds = _kinds(make_agent(spec, game, seed=0))
    got = tuple(kinds[k] for k in ("opponents", "prior", "expansion", "selection", "root"))
    assert got == expected
    scored = "eval=score" in spec
    assert kinds["evaluation"] is (ScoreEvaluation if scored else EstimateEvaluation)


def test_the_parts_are_built_once_per_agent_and_kept_for_every_move(monkeypatch):
    built = []
    real = agents_module.build_parts

    def counting(game, params, rng):
        built.append(1)
        return real(game, params, rng)

    monkeypatch.setattr(agents_module, "build_parts", counting)
    game = pyspiel.load_game("python_coloretto(players=3)")
    agent = make_agent("ismcts(sims=30)", game, seed=1)
    parts = agent.engine.parts
    state = _decision(game)
    agent.step(state)
    agent.analyse(state)
    assert built == [1]
    assert agent.engine.parts is parts


@pytest.mark.parametrize(
    "spec", ["ismcts(sims=40)", "ismcts(sims=40,eval=score,prior=none)", "pimc(worlds=2,sims=20)"]
)
def test_the_simulation_loop_reads_no_option_after_the_build(spec):
    """Options are read once: garbling every string option of a built agent changes none of
    its moves (the loop and its parts never look at them again)."""
    game = pyspiel.load_game("python_rococo(players=3)")
    state = _decision(game)
    plain = make_agent(spec, game, seed=5)
    garbled = make_agent(spec, game, seed=5)
    for name, value in garbled.params.items():
        if isinstance(value, str):
            garbled.params[name] = "garbled"
    one, two = plain.analyse(state), garbled.analyse(state)
    assert [(m.action, m.visits, m.value) for m in one.moves] == [
        (m.action, m.visits, m.value) for m in two.moves
    ]


def test_a_game_without_scores_rolls_out_to_the_end_from_the_build():
    """kuhn_poker cannot be scored before its end: the rollout depth is -1 from the start."""
    game = pyspiel.load_game("kuhn_poker")
    agent = make_agent("mcts(sims=20,rollout_depth=3)", game, seed=0)
    assert agent.engine.leaf.depth == -1
    ttt = make_agent("mcts(sims=20,rollout_depth=3)", pyspiel.load_game("tic_tac_toe"), 0)
    assert ttt.engine.leaf.depth == -1  # no scores() either
    col = make_agent("mcts(sims=20,rollout_depth=3)", pyspiel.load_game("python_coloretto"), 0)
    assert col.engine.leaf.depth == 3
