"""The depth limit of the tree (``tree_depth``): a simulation's path holds at most that
many searched decisions, and the position there is evaluated."""

import random

import pyspiel
import pytest

import spiel_games
from solvers.registry import resolve
from solvers.search import make_engine, resolve_auto
from solvers.spec import AgentSpecError
from spiel_games.common.registry import SearchDefaults
from tests.solvers.test_search_unprune import _decision

GAME = "python_bruxelles(players=3)"


def _paths(depth: int, sims: int = 300, **extra):
    """The length of every simulation's path, and the root, of one search at this limit."""
    game = pyspiel.load_game(GAME)
    state = _decision(game)
    settings = dict(eval="game", rollout_depth=0, prior="heuristic", qnorm="on")
    settings.update(extra)
    eng = make_engine(game, random.Random(2), determinize=True, tree_depth=depth, **settings)
    lengths = []
    backup = eng._backup

    def record(path, ret):
        lengths.append(len(path))
        backup(path, ret)

    eng._backup = record
    root = eng.search(state, sims=sims)
    return lengths, root


@pytest.mark.parametrize("depth", [1, 3, 6])
def test_tree_depth_caps_every_path_at_that_many_searched_decisions(depth):
    lengths, _ = _paths(depth, unprune=1.0, opponents="heuristic", root="halving")
    assert len(lengths) == 300
    assert max(lengths) == depth


def test_without_a_limit_paths_grow_past_it():
    lengths, _ = _paths(0, unprune=1.0, opponents="heuristic", root="halving")
    assert max(lengths) > 6


def test_at_the_limit_the_capped_node_is_evaluated_again_in_other_worlds():
    # depth 1: every simulation ends below a root move, so each root move's visits are
    # all evaluations of its position in different sampled worlds, and none opens deeper
    _, root = _paths(1, sims=200, opponents="search")
    assert sum(ch.n for ch in root.children.values()) == 200
    for child in root.children.values():
        assert all(grand.n == 0 for grand in child.children.values())


def test_the_searched_opponents_decisions_count_toward_the_limit():
    lengths, root = _paths(2, sims=200, opponents="search")
    assert max(lengths) == 2


def test_tree_depth_is_refused_below_zero():
    with pytest.raises(AgentSpecError, match="tree_depth"):
        resolve("ismcts(tree_depth=-2)")


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_tree_depth_auto_is_the_games_measured_value_with_an_evaluation(spec):
    game = pyspiel.load_game(f"{spec.short_name}(players=3)")
    measured = spec.search_defaults.tree_depth
    assert resolve_auto(game, dict(resolve("ismcts").params))["tree_depth"] == measured
    plain = dict(resolve("ismcts(eval=score)").params)
    assert resolve_auto(game, plain)["tree_depth"] == 0


def test_a_negative_measured_tree_depth_is_refused():
    with pytest.raises(ValueError, match="tree_depth"):
        SearchDefaults(tree_depth=-1)
