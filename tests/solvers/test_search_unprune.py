"""Progressive unpruning below the root (``unprune``): what a node may hold, and its parameters."""

import random

import pyspiel
import pytest

from solvers.registry import make_agent, resolve
from solvers.search import make_engine, resolve_auto
from solvers.search.expansion import OpenAll


def _decision(game, seed: int = 4, skip: int = 6):
    """A decision with more than two legal moves, after a few random moves."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves = 0
    while True:
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(acts, probs)[0])
            continue
        if moves >= skip and len(state.legal_actions()) > 2:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1


def _tree(unprune: float, sims: int = 400, game_string: str = "python_bruxelles(players=3)"):
    game = pyspiel.load_game(game_string)
    state = _decision(game)
    eng = make_engine(
        game,
        random.Random(2),
        eval="game",
        rollout_depth=0,
        determinize=True,
        prior="heuristic",
        qnorm="on",
        opponents="heuristic",
        root="halving",
        unprune=unprune,
    )
    return eng.search(state, sims=sims), eng


def _decision_nodes(root):
    """(node, times reached) for every node below the root that was reached as a decision
    between several moves (it asked the heuristic for its move); each reach chose one
    child, so the children's visits add up to the reaches."""
    out, todo = [], list(root.children.values())
    while todo:
        node = todo.pop()
        if node.hint >= 0:
            out.append((node, sum(ch.n for ch in node.children.values())))
        todo.extend(node.children.values())
    return out


def test_a_node_below_the_root_gains_one_move_per_unprune_times_sims_visits():
    """unprune=0.02 at 400 simulations: T = 8, so a node reached v times holds at most
    1 + (v - 1) // 8 moves, and the first is always the heuristic's."""
    root, eng = _tree(0.02)
    assert eng.expansion.t == 8
    nodes = _decision_nodes(root)
    assert any(v > 8 for _, v in nodes)  # the bound is reached, not vacuous
    for n, v in nodes:
        assert len(n.children) <= 1 + (v - 1) // 8
        assert n.hint in n.children


def test_without_unpruning_barely_visited_nodes_try_other_moves_than_the_heuristics():
    """The same search with unprune=0 breaks the bound above: this is what unpruning changes."""
    root, eng = _tree(0.0)
    assert isinstance(eng.expansion, OpenAll)
    assert any(len(n.children) > 1 + (v - 1) // 8 for n, v in _decision_nodes(root))


def test_unprune_one_plays_only_the_heuristics_move_below_the_root():
    """T = sims: no node below the root is reached that often, so the searching
    player's later decisions in the tree are all the heuristic's."""
    root, _ = _tree(1.0)
    nodes = _decision_nodes(root)
    assert nodes
    assert all(list(n.children) == [n.hint] for n, _ in nodes)
    assert len(root.children) > 2  # the root itself is searched as before


def test_the_unpruning_scale_follows_the_budget():
    _, small = _tree(0.02, sims=100)
    _, large = _tree(0.02, sims=800)
    assert (small.expansion.t, large.expansion.t) == (2, 16)


def test_unprune_without_the_heuristic_prior_is_refused_by_the_engine():
    game = pyspiel.load_game("python_coloretto(players=3)")
    with pytest.raises(ValueError, match="unprune needs prior=heuristic"):
        make_engine(game, random.Random(0), unprune=0.5)


# bad unprune values: tests/solvers/test_strength_search.py, with the other new parameters


def test_auto_unprune_is_the_games_measured_value_and_off_for_plain_search():
    from spiel_games.common.registry import get_spec

    for name in ("coloretto", "rococo", "bruxelles", "staufer"):
        game = pyspiel.load_game(f"python_{name}(players=3)")
        chosen = resolve_auto(game, resolve("ismcts").params)
        assert chosen["unprune"] == get_spec(f"python_{name}").search_defaults.unprune
        plain = resolve_auto(game, resolve("ismcts(eval=score,prior=none)").params)
        assert plain["unprune"] == 0.0
    kuhn = resolve_auto(pyspiel.load_game("kuhn_poker"), resolve("ismcts").params)
    assert kuhn["unprune"] == 0.0


def test_an_explicit_unprune_overrides_the_games_value():
    game = pyspiel.load_game("python_rococo(players=3)")
    agent = make_agent("ismcts(sims=40,unprune=0.25)", game, seed=0)
    assert agent.params["unprune"] == 0.25
    off = make_agent("ismcts(sims=40,unprune=0)", game, seed=0)
    assert off.params["unprune"] == 0.0
