"""A review that cannot measure anything stops at once."""

from __future__ import annotations

import pytest

from tests.games_played import heuristic_game
from tournament.advice.items import NoValuesError
from tournament.advice.positions import record_of
from tournament.advice.review import review

GAME = "python_coloretto(players=3)"


@pytest.fixture(scope="module")
def record():
    """A whole game of heuristics, P1 the reviewed seat."""
    state, actions = heuristic_game(GAME, 3)
    return record_of(GAME, state, 3, ["human", "heuristic", "heuristic"], actions)


@pytest.mark.parametrize("workers", [1, 2])
def test_an_agent_that_values_no_move_is_refused_after_its_first_decision(record, workers):
    """Was: every decision was analysed (minutes with a slow agent, or a pool of workers)
    before the refusal; the first decision shows the agent gives no values."""
    calls: list[tuple[int, int]] = []
    with pytest.raises(NoValuesError, match="gives no value for any move"):
        review(record, "heuristic", on_progress=lambda d, n: calls.append((d, n)), workers=workers)
    assert len(calls) == 1 and calls[0][0] == 0 and calls[0][1] > 5, calls
