"""``opp_until``: searched opponent decisions play the heuristic's move in the simulated
world until their node has been reached ``opp_until * sims`` times, then are searched."""

import random

import pyspiel
import pytest

from solvers.registry import make_agent
from solvers.search import make_engine
from solvers.search.tree import Node
from solvers.spec import AgentSpecError


def _decision(game, skip: int = 3):
    """A decision with several moves, a few decisions into a fixed line of play."""
    state, rng = game.new_initial_state(), random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif len(state.legal_actions()) > 2 and skip == 0:
            return state
        else:
            skip -= len(state.legal_actions()) > 2
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such decision")


def _stats(root: Node) -> list:
    """The whole tree's statistics, in a fixed order."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        for a in sorted(node.children):
            ch = node.children[a]
            out.append((a, ch.n, round(ch.w, 9)))
            stack.append(ch)
    return out


@pytest.mark.parametrize("game_string", ["python_coloretto(players=3)", "python_rococo(players=3)"])
def test_a_warm_up_longer_than_the_search_is_the_heuristic_opponent_model(game_string):
    """With T = sims no opponent node is reached T times, so every opponent decision is the
    heuristic's move in its world: the very tree of opponents=heuristic (the same moves
    drawn from the same streams)."""
    game = pyspiel.load_game(game_string)
    state = _decision(game)
    trees = []
    for params in ({"opponents": "heuristic"}, {"opponents": "search", "opp_until": 1.0}):
        eng = make_engine(game, random.Random(4), eval="game", prior="heuristic", **params)
        trees.append(_stats(eng.search(state.clone(), sims=80)))
    assert trees[0] == trees[1]
    plain = make_engine(game, random.Random(4), eval="game", prior="heuristic", opponents="search")
    assert _stats(plain.search(state.clone(), sims=80)) != trees[0]


def test_inferred_opponents_warm_up_the_decisions_they_search():
    """Under opponents=infer with q = 0 (every decision searched) the warm-up asks the
    heuristic at the other players' decisions only, never at the root player's."""
    game = pyspiel.load_game("python_rococo(players=3)")
    state = _decision(game)
    me = state.current_player()
    eng = make_engine(game, random.Random(4), eval="game", opponents="infer", opp_until=1.0)
    eng.opponents.q = [0.0] * game.num_players()
    asked = []
    real = eng.warmup.heuristic
    eng.warmup.heuristic = lambda s, rng: asked.append(s.current_player()) or real(s, rng)
    eng.search(state, sims=60)
    assert asked and me not in asked


def test_a_short_warm_up_searches_the_opponent_nodes_reached_often():
    """With T = 0.05 * sims the opponent nodes right below the root are reached more than T
    times and gain searched moves (edges with statistics) beside the heuristic's edges."""
    game = pyspiel.load_game("python_coloretto(players=3)")
    state = _decision(game)
    me = state.current_player()
    eng = make_engine(game, random.Random(2), eval="game", opponents="search", opp_until=0.05)
    root = eng.search(state, sims=400)
    searched = 0
    for a, child in root.children.items():
        after = state.clone()
        after.apply_action(a)
        if after.current_player() not in (me, pyspiel.PlayerId.CHANCE) and child.visits >= 20:
            searched += any(g.n > 0 for g in child.children.values())
    assert searched > 0


@pytest.mark.parametrize(
    "spec,message",
    [
        ("ismcts(opponents=heuristic,opp_until=0.1)", "needs opponents=search or infer"),
        ("ismcts(opponents=blueprint,opp_until=0.1)", "needs opponents=search or infer"),
        ("ismcts(opponents=search,opp_until=1.5)", "must be in"),
    ],
)
def test_bad_warm_ups_give_one_line_errors(spec, message):
    game = pyspiel.load_game("python_coloretto(players=3)")
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, game, seed=0)


def test_a_warm_up_needs_the_games_heuristic():
    with pytest.raises(AgentSpecError, match="no heuristic for opp_until"):
        make_agent("ismcts(opponents=search,opp_until=0.1)", pyspiel.load_game("kuhn_poker"))


def test_auto_warm_up_is_the_games_measured_value_with_searched_opponents(monkeypatch):
    """opp_until=auto (the default) takes the game's measured ``SearchDefaults.opp_until``
    where opponents are searched or inferred and the search is evaluated with the
    heuristic; 0 under opponents=heuristic (so the default never meets the refusal) and
    on a game without a heuristic; an explicit value overrides it."""
    import dataclasses

    from solvers.registry import resolve
    from solvers.search import params as search_params
    from solvers.search import resolve_auto
    from spiel_games.common.registry import get_spec

    game = pyspiel.load_game("python_coloretto(players=3)")
    spec = get_spec("python_coloretto")
    moved = dataclasses.replace(spec.search_defaults, opp_until=0.3)
    spec = dataclasses.replace(spec, search_defaults=moved)
    monkeypatch.setattr(search_params, "get_spec", lambda name: spec)
    for text, want in (
        ("ismcts", 0.3),
        ("ismcts(opponents=search)", 0.3),
        ("ismcts(opponents=heuristic)", 0.0),
        ("ismcts(eval=score,prior=none,opponents=search)", 0.0),
        ("ismcts(opp_until=0.1)", 0.1),
        ("ismcts(opp_until=0)", 0.0),
    ):
        assert resolve_auto(game, resolve(text).params)["opp_until"] == want, text
    make_agent("ismcts(sims=10,opponents=heuristic)", game, seed=0)  # auto: no refusal
    kuhn = resolve_auto(pyspiel.load_game("kuhn_poker"), resolve("ismcts").params)
    assert kuhn["opp_until"] == 0.0


def test_search_defaults_refuse_a_warm_up_out_of_range():
    from spiel_games.common.registry import SearchDefaults

    with pytest.raises(ValueError, match="opp_until"):
        SearchDefaults(opp_until=1.5)


def test_each_games_measured_warm_up_is_what_the_default_plays():
    """The default (opponents=auto: infer) takes each game's SearchDefaults.opp_until."""
    from solvers.registry import resolve
    from solvers.search import resolve_auto
    from spiel_games.common.registry import get_spec

    for name in ("coloretto", "rococo", "bruxelles", "staufer"):
        game = pyspiel.load_game(f"python_{name}(players=3)")
        chosen = resolve_auto(game, resolve("ismcts").params)
        assert chosen["opp_until"] == get_spec(f"python_{name}").search_defaults.opp_until
    assert get_spec("python_rococo").search_defaults.opp_until == 0.05  # issue 33's SPRT
    rococo = pyspiel.load_game("python_rococo(players=3)")
    for text, want in (("ismcts(opponents=search)", 0.05), ("ismcts(opponents=heuristic)", 0.0)):
        assert resolve_auto(rococo, resolve(text).params)["opp_until"] == want, text
