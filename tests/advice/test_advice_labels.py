"""What each number of the advice text is, said where it is shown (the newcomer's review):
a trained table's count is how often its key was seen, not per-move visits; every answer
that shows values or probabilities names their units; `--time` for agents without a time
budget is refused in words the user typed; review's loss columns say they are losses."""

from __future__ import annotations

import pytest

from solvers.spec import AgentSpecError
from tests.advice.conftest import OPENING, THREE
from tournament.advice.advise import advise, budgets_for
from tournament.advice.advise_text import render
from tournament.advice.positions import position_from
from tournament.advice.review import Decision, Review
from tournament.advice.review_text import render as render_review
from tournament.cli import app


def _render(*agents: str) -> str:
    pos = position_from(THREE, history=OPENING)
    return render(advise(pos.game_string, pos.state, list(agents), ply=pos.ply))


def test_a_blueprint_says_its_count_is_how_often_its_key_was_seen():
    """Was: 'budget: visits=462707' and 462707 in every row's "visits" column, and a 0.000
    for one of three interchangeable empty rows with nothing to say it is not "bad"."""
    text = _render("blueprint")
    assert "key seen 462,707 times in training" in text and "visits" not in text
    assert "462707" not in text.replace("462,707", "")
    (units,) = [line for line in text.splitlines() if line.strip().startswith("units:")]
    assert "trained average strategy" in units and "abstraction" in units
    assert "a 0 does not mean a bad move" in units


def test_every_answer_with_values_names_their_units():
    """Was: with no search agent asked, no units line (cfr-search's values 0.006, -0.009)."""
    text = _render("blueprint", "cfr-search(iterations=50)")
    cfr = text[text.index("agent cfr-search") :]
    (units,) = [line for line in cfr.splitlines() if line.strip().startswith("units:")]
    assert "value = P1's rank score in [-1, 1]" in units and "visits = iterations" in units
    assert "prob = the move's probability in the root's average strategy" in units


def test_time_for_agents_without_a_time_budget_names_the_option():
    """Was: "unknown parameter 'time' for agent 'heuristic'": a parameter never typed."""
    from solvers.registry import resolve

    with pytest.raises(AgentSpecError) as e:
        budgets_for([resolve("heuristic")], {"time": 1.0}, "--{}")
    assert str(e.value).startswith("--time needs an agent with a time parameter (")
    assert "ismcts" in str(e.value) and str(e.value).endswith("; heuristic has none")
    from typer.testing import CliRunner

    args = ["advise", THREE, "-a", "heuristic", "--time", "1", "-H", OPENING]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 2
    assert out.output.strip().splitlines() == [f"error: {e.value}"]


def test_the_review_table_says_its_loss_columns_are_losses():
    """Was: 'loss  pts  first', where `advise`'s "first" is the chance itself."""
    d = Decision(7, "draw", "take row 1", 0.5, 0.4, 0.6, 0.3, 0.2, loss_points=1.5, loss_first=0.1)
    text = render_review(Review("python_coloretto(players=2)", 0, "heuristic", 0, [d]))
    head = next(line for line in text.splitlines() if line.strip().startswith("ply"))
    assert head.split()[-7:] == ["loss", "value", "loss", "pts", "loss", "first", "mark"]
    assert "loss value, loss pts, loss first = what the move played gives up" in text
