"""What cfr-search and openspiel-ismcts report to advice: every field that applies, the
ones that do not declared in ``Analysis.units`` (``solvers.units``), the order of the
moves, and the model of the other players their values assume (``solvers.assumptions``)."""

from __future__ import annotations

import pytest

import spiel_games
from solvers import units
from solvers.assumptions import assumed_opponents, searches
from solvers.registry import make_agent

CONFIGS = ["python_coloretto(players=3)", "python_staufer(players=3)"]  # MCTS, IS-MCTS


def _decision(game):
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("config", CONFIGS)
def test_openspiel_ismcts_reports_its_roots_statistics_and_plays_the_move_it_names(config):
    """Was: no analysis (advice showed `analysed: false` and the one move it played)."""
    game = spiel_games.load_game(config)
    state = _decision(game)
    analysis = make_agent("openspiel-ismcts(sims=60)", game, 3).analyse(state.clone())
    moves = analysis.moves
    assert sorted(m.action for m in moves) == sorted(state.legal_actions())
    assert [m.visits for m in moves] == sorted((m.visits for m in moves), reverse=True)
    # every simulation counted: OpenSpiel's first evaluates the root and passes no move
    # (was: sims_done summed the moves' visits, one short)
    assert analysis.budget["sims_done"] == 60 == sum(m.visits for m in moves) + 1
    assert all(-1.0 <= m.value <= 1.0 for m in moves if m.visits)
    assert analysis.choice == make_agent("openspiel-ismcts(sims=60)", game, 3).step(state.clone())
    assert analysis.units == units.OPENSPIEL_ISMCTS and analysis.units["ci"] is None


def test_a_halted_openspiel_analysis_reports_the_tree_so_far():
    game = spiel_games.load_game("python_staufer(players=3)")
    agent = make_agent("openspiel-ismcts(sims=1000000)", game, 0)
    agent.halt()  # before the search: it stops once the root has a visit
    analysis = agent.analyse(_decision(game))
    assert 0 < analysis.budget["sims_done"] < 10 and analysis.choice is not None


def test_cfr_search_lists_moves_by_probability_and_declares_what_does_not_apply():
    game = spiel_games.load_game(CONFIGS[0])
    analysis = make_agent("cfr-search(iterations=60)", game, 0).analyse(_decision(game))
    probs = [m.prob for m in analysis.moves]
    assert probs == sorted(probs, reverse=True)
    assert len({m.visits for m in analysis.moves}) == 1  # every root move walked together
    assert analysis.units == units.CFR_SEARCH
    assert {k for k, v in analysis.units.items() if v is None} == {"ci", "gap", "margin", "first"}
    assert "by prob" in (analysis.units["order"] or "")


def test_searching_agents_without_an_opponents_parameter_name_their_model():
    """Was: cfr-search and openspiel-ismcts said 'no opponent model (the agent does not
    search)'."""
    game = spiel_games.load_game(CONFIGS[0])
    assert searches("cfr-search") and searches("openspiel-ismcts") and searches("ismcts")
    assert not searches("heuristic") and not searches("random")
    assert "CFR solution" in assumed_opponents(game, "cfr-search(iterations=5)")
    assert "searched on its own returns" in assumed_opponents(game, "openspiel-ismcts")
    assert "does not search" in assumed_opponents(game, "heuristic")
