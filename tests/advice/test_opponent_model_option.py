"""Advice names the opponent model its values assume, and ``--opponents`` chooses it."""

from __future__ import annotations

import json

import pyspiel
import pytest
from typer.testing import CliRunner

import spiel_games  # noqa: F401
from solvers.assumptions import MODELS, assumed_opponents, with_opponents
from solvers.spec import AgentSpecError
from tournament.cli import app

runner = CliRunner()
GAME = "python_bruxelles(players=3)"
COLORETTO = "python_coloretto(players=3)"
HISTORY = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"


def test_the_named_model_is_what_the_agent_resolves_to():
    game = pyspiel.load_game(GAME)
    assert assumed_opponents(game, "ismcts").startswith("opponents=infer: ")
    assert assumed_opponents(game, "ismcts(eval=score,prior=none)").startswith("opponents=search")
    for model in MODELS:
        spec = with_opponents("ismcts(sims=5)", model)
        assert spec.params["opponents"] == model
        assert assumed_opponents(game, spec) == f"opponents={model}: {MODELS[model]}"
    assert "no opponent model" in assumed_opponents(game, with_opponents("heuristic", "search"))
    rococo = pyspiel.load_game("python_rococo(players=3)")  # its measured warm-up is named
    assert assumed_opponents(rococo, "ismcts").startswith(
        f"opponents=infer, opp_until=0.05: {MODELS['infer']}; a searched decision is the "
        "heuristic's move until the search has reached it 0.05 x sims times"
    )
    off = assumed_opponents(rococo, "ismcts(opp_until=0)")
    assert off == f"opponents=infer: {MODELS['infer']}"
    with pytest.raises(AgentSpecError, match="unknown opponent model 'crowd'"):
        with_opponents("ismcts", "crowd")
    for plain in ("random", "heuristic"):  # was: accepted, the agent having no model to set
        with pytest.raises(AgentSpecError, match="unknown opponent model 'bogus'"):
            with_opponents(plain, "bogus")


def test_advise_states_the_model_and_the_option_changes_it():
    base = ["advise", COLORETTO, "-H", HISTORY, "-a", "ismcts(sims=30)"]
    plain = runner.invoke(app, base)
    assert plain.exit_code == 0, plain.output
    assert "Opponent model (ismcts(sims=30)): opponents=infer: " in plain.output
    chosen = runner.invoke(app, [*base, "--opponents", "search", "--json"])
    assert chosen.exit_code == 0, chosen.output
    lines = json.loads(chosen.output)["opponent_models"]
    want = (
        f"Opponent model (ismcts(opponents=search,sims=30)): opponents=search: {MODELS['search']}"
    )
    assert lines == [want]
    bad = runner.invoke(app, [*base, "--opponents", "crowd"])
    assert bad.exit_code == 2 and "unknown opponent model" in bad.output  # usage: nothing ran
    bad = runner.invoke(
        app, ["advise", COLORETTO, "-H", HISTORY, "-a", "random", "--opponents", "x"]
    )
    assert bad.exit_code == 2 and "unknown opponent model 'x'" in bad.output
