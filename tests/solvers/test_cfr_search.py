"""cfr-search: a depth-limited subgame solved by CFR+ at each decision (no peeking is checked
with the other search agents in test_solver_agents.py)."""

from __future__ import annotations

import pytest

import spiel_games
from solvers.registry import make_agent
from solvers.spec import AgentSpecError

ROCOCO = spiel_games.get_spec("rococo")


@pytest.mark.parametrize(
    "spec,message",
    [
        (
            "cfr-search(iterations=0)",
            "'iterations' of agent 'cfr-search' must be in [1, 1000000000]",
        ),
        ("cfr-search(depth=0)", "'depth'"),
        ("cfr-search(prior=blueprint)", "heuristic or none"),
        ("cfr-search(play=greedy)", "auto, sample or best"),
        ("cfr-search(eval=score)", "auto, game or learned"),
        ("cfr-search(prior_w=-1)", "'prior_w'"),
        ("cfr-search(rollout=-1)", "'rollout'"),
        ("cfr-search(depth=21)", "'depth' of agent 'cfr-search' must be in [1, 20], got 21"),
        ("cfr-search(rollout=41)", "'rollout' of agent 'cfr-search' must be in [0, 40], got 41"),
        ("cfr-search(branches=4)", "'branches' of agent 'cfr-search' must be in [1, 3], got 4"),
        ("cfr-search(branches=1000,depth=1000)", "must be in [1, 20], got 1000"),
    ],
)
def test_bad_parameters_are_one_line_errors(spec, message):
    game = spiel_games.load_game("python_coloretto(players=3)")
    with pytest.raises(AgentSpecError) as e:
        make_agent(spec, game, seed=0)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_the_subgame_shape_is_accepted_up_to_its_bounds():
    """depth, rollout and branches had no upper bound: branches=1000 with a large depth was
    plain external sampling, one iteration that never ended. The bounds are accepted."""
    game = spiel_games.load_game("python_coloretto(players=3)")
    make_agent("cfr-search(depth=20,rollout=40,branches=3)", game, seed=0)


def _first_selection(game):
    """The first secret card selection of a Rococo game (chance: first outcomes)."""
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) == 1:
        state.apply_action(state.legal_actions()[0])
    return state


def test_the_root_strategy_is_a_distribution_over_the_legal_moves():
    game = spiel_games.load_game(ROCOCO.typical_config)
    state = _first_selection(game)
    analysis = make_agent("cfr-search(iterations=60)", game, seed=1).analyse(state)
    assert sorted(m.action for m in analysis.moves) == sorted(state.legal_actions())
    assert sum(m.prob for m in analysis.moves) == pytest.approx(1.0)
    assert analysis.budget["iterations_done"] == 60
    tried = [m for m in analysis.moves if m.visits]
    assert tried and all(-1.0 <= m.value <= 1.0 for m in tried)


def test_a_secret_choice_is_sampled_from_the_mixed_strategy():
    """With hidden information the agent samples its root strategy: over seeds, the moves
    played follow the analysed probabilities (a pure argmax would play one move)."""
    game = spiel_games.load_game(ROCOCO.typical_config)
    state = _first_selection(game)
    spec = "cfr-search(iterations=40,prior=none)"
    probs = {m.action: m.prob for m in make_agent(spec, game, seed=3).analyse(state).moves}
    assert max(probs.values()) < 0.9  # a mixed strategy
    played = {make_agent(spec, game, seed=s).step(state.clone()) for s in range(12)}
    assert len(played) > 1 and all(probs[a] > 0 for a in played)
    best = make_agent(spec.replace(")", ",play=best)"), game, seed=3)
    assert best.step(state.clone()) == max(probs, key=lambda a: (probs[a], -a))


def test_the_heuristic_plays_rollout_decisions_before_the_evaluation():
    """rollout=k: at the depth limit the game's heuristic makes k more decisions (chance
    sampled between them) and the evaluation reads the position they reach."""
    import random

    from solvers.cfr_search import SubgameSolver
    from solvers.search import game_evaluation

    game = spiel_games.load_game("python_coloretto(players=3)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    heuristic = spiel_games.get_spec("coloretto").heuristic
    seen: list[str] = []

    def counted(s, rng):
        seen.append(str(s))
        return heuristic(s, rng)

    est = game_evaluation(game)
    read: list[str] = []

    class Spy:
        def estimate(self, s):
            read.append(str(s))
            return est.estimate(s)

        def spread(self, s):
            return est.spread(s)

    solver = SubgameSolver(game, random.Random(0), 1, Spy(), rollout=3, heuristic=counted)
    solver._value(state.clone())
    assert len(set(seen)) == 3 and seen[0] == str(state)  # three decisions from the limit
    assert len(read) == 1 and read[0] not in seen  # read after the third
    unrolled = SubgameSolver(game, random.Random(0), 1, Spy())
    read.clear()
    unrolled._value(state.clone())
    assert read == [str(state)] and len(seen) == 3  # none without rollout


def _forced_move(game):
    """The first decision of a random game where the mover has one legal move."""
    import random

    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        elif len(state.legal_actions()) == 1:
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no forced move in a game")


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_a_forced_move_is_advised_with_probability_one(spec):
    """The root's one legal move was played through as no decision, so the walk recorded
    another decision's values as the root's (IndexError on every game). It is advised, as by
    the other agents: the only move, probability 1, with its sampled value; step plays it."""
    game = spiel_games.load_game(spec.typical_config)
    state = _forced_move(game)
    (only,) = state.legal_actions()
    agent = make_agent("cfr-search(iterations=30)", game, seed=0)
    analysis = agent.analyse(state.clone())
    assert [(m.action, m.prob) for m in analysis.moves] == [(only, 1.0)]
    assert analysis.moves[0].visits > 0 and -1.0 <= analysis.moves[0].value <= 1.0
    assert analysis.budget["iterations_done"] == 30
    assert agent.step(state.clone()) == only


def test_a_halt_ends_the_solve_after_its_next_iteration():
    """Was: cfr-search could not be stopped (the advice engine's terminate only reached the
    search agents' engine), so a terminated query ran its full budget."""
    game = spiel_games.load_game(ROCOCO.tiny_configs[0])
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    agent = make_agent("cfr-search(iterations=1000000)", game, 0)
    assert agent.halt() is True  # before the solve: it stops after its first iteration
    analysis = agent.analyse(state.clone())
    assert analysis.budget["iterations_done"] == 1
    assert make_agent("heuristic", game, 0).halt() is False  # nothing to stop
