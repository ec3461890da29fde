"""What an answer's ``units`` and ``opponent_models`` say for agents and utility modes other
than a search under rank utility: they describe the fields the answer really carries."""

from __future__ import annotations

import spiel_games
from solvers.registry import resolve
from tournament.advice.advise import advise, opponent_models
from tournament.advice.advise_text import units_line
from tournament.advice.positions import position_from

THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"


def _advice(game_string: str, agent: str) -> dict:
    pos = position_from(game_string, OPENING)
    return advise(game_string, pos.state, [agent], seed=1, ply=pos.ply).items[0].to_json()


def test_cfr_search_answer_units_describe_its_own_fields():
    """Was: cfr-search's answer carried the search's units (a calibrated range, a gap) while
    its ci fields were null, and no word on its visits or its order by prob."""
    units = _advice(THREE, "cfr-search(iterations=20)")["units"]
    assert "ci" not in units and "gap" not in units
    assert units["order"].startswith("by prob")
    assert "same for every move" in units["visits"]


def test_opponent_models_name_the_fixed_models_of_cfr_search_and_openspiel():
    """Was: [] for cfr-search and openspiel-ismcts, which search with a fixed model."""
    game = spiel_games.load_game(THREE)
    lines = opponent_models(game, [resolve("cfr-search"), resolve("openspiel-ismcts")])
    assert len(lines) == 2 and all("(fixed)" in line for line in lines)
    assert opponent_models(game, [resolve("heuristic")]) == []


def test_score_utility_units_name_the_final_score_and_no_calibration():
    """Was: under utility=score the JSON said the value is the rank score in [-1, 1] and
    the ranges are calibrated, an allowance measured in rank utility only."""
    game = "python_coloretto(players=3,utility=score)"
    units = _advice(game, "ismcts(sims=60)")["units"]
    assert "own final score" in units["value"]
    assert "not calibrated for utility=score" in units["ci"]
    assert "not calibrated" in units_line(game, 0)
    rank = _advice(THREE, "ismcts(sims=60)")["units"]
    assert "rank score" in rank["value"] and "8x the budget" in rank["ci"]


def test_a_value_that_rounds_to_zero_prints_without_a_sign():
    """Was: '0.000 [-0.000, 0.000]' in a Rococo hint, '-0.0' points, '-0%' (a tiny negative
    rounded to zero kept its minus)."""
    from tournament.advice.advise_text import _fmt, percent, points

    assert _fmt(-1e-5, 6) == " 0.000" and _fmt(-0.0, 6) == " 0.000"
    assert points(-0.01) == "+0.0" and points(-0.06) == "-0.1"
    assert percent(-0.001) == "0%"
