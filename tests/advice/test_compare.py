"""Moves that compare (issue 29 item 2): the listed moves come from the same paired passes,
best first, and a review's loss is never negative."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spiel_games
from tournament.advice.advise import advise_state
from tournament.advice.positions import position_from, record_of
from tournament.advice.review import review

GAMES = ("python_rococo(players=3)", "python_coloretto(players=3)")
PLUS2 = (
    "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow; "
    "place yellow in row 1; draw; deck: grey; place grey in row 2; draw; deck: +2"
)


def _positions(game_string: str, count: int, seed: int):
    """Decisions with at least 3 legal moves from heuristic games (10% random moves)."""
    game = spiel_games.load_game(game_string)
    heuristic = spiel_games.get_spec(game_string).heuristic
    rng, np_rng = random.Random(seed), np.random.default_rng(seed)
    state, found = game.new_initial_state(), []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        legal = state.legal_actions()
        if len(legal) >= 3 and rng.random() < 0.3:
            found.append(state.clone())
        state.apply_action(rng.choice(legal) if rng.random() < 0.1 else heuristic(state, np_rng))
    return found


@pytest.mark.parametrize("game_string", GAMES)
def test_no_listed_move_shows_a_better_value_than_the_recommendation(game_string):
    """Old: with sequential halving a move dropped early kept the mean of a few samples,
    so it could show a higher value than the recommendation (Rococo: 0.850 from 8 visits
    listed below 0.682 from 59)."""
    for state in _positions(game_string, 4, seed=5):
        adv = advise_state(game_string, state, "ismcts(sims=200)", top=5, seed=1)
        values = [m.value for m in adv.moves]
        assert values == sorted(values, reverse=True), [(m.action, m.value) for m in adv.moves]
        assert len({m.samples for m in adv.moves}) == 1 and adv.moves[0].samples >= 32
        assert adv.moves[0].gap == (0.0, 0.0, 0.0)
        for m in adv.moves[1:]:
            assert m.gap is not None and m.gap[0] >= 0.0
        for unit in ("margin", "first"):  # each unit's gap: behind the move best in it
            means = [getattr(m, unit)[0] for m in adv.moves]
            gaps = [getattr(m, f"{unit}_gap")[0] for m in adv.moves]
            assert gaps == pytest.approx([max(means) - x for x in means], abs=1e-9)


def test_a_review_never_reports_a_negative_loss():
    """Old: `meeple review` reported negative losses (5 of 8 reviews tried) and a Rococo
    review printed "average loss -0.000": the move played was valued on other samples."""
    game_string = "python_staufer(players=3)"  # old code: one negative loss of 15 here
    game = spiel_games.load_game(game_string)
    rng, np_rng = random.Random(5), np.random.default_rng(5)
    heuristic = spiel_games.get_spec(game_string).heuristic
    state, actions = game.new_initial_state(), []
    while not state.is_terminal() and len(actions) < 120:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            a = rng.choices(outcomes, probs)[0]
        elif rng.random() < 0.5:
            a = rng.choice(state.legal_actions())
        else:
            a = heuristic(state, np_rng)
        state.apply_action(a)
        actions.append(int(a))
    record = record_of(game_string, state, 5, ["human", "heuristic", "heuristic"], actions)
    rv = review(record, "ismcts(sims=100)", player=0, luck=False)
    assert len(rv.decisions) >= 5
    for d in rv.decisions:
        assert d.loss is not None and d.loss >= 0.0
        assert d.loss_points is not None and d.loss_points >= 0.0
        assert d.loss_first is not None and d.loss_first >= 0.0
        assert (d.loss == 0.0) == (d.played == d.best)
    assert rv.average_loss is not None and rv.average_loss >= 0.0


def test_top_only_cuts_the_list_shown():
    """Old: the comparison compared only the `top` moves on passes scaled by `top`, so top 1,
    2 and 3 recommended three different moves here (P3 holding +2), and top 1 had no
    runner-up, z or significance though 3 moves were legal."""
    game_string = "python_coloretto(players=3)"
    state = position_from(game_string, history=PLUS2).state
    answers = {
        top: advise_state(game_string, state, "ismcts(sims=300)", top=top, seed=1).to_json()
        for top in (1, 2, 3, 5)
    }
    full = answers[5]
    assert full["runner_up"] is not None and full["z"] is not None
    for top, a in answers.items():
        assert len(a["moves"]) == min(top, 3)
        assert a["moves"] == full["moves"][:top]
        for k in ("best", "runner_up", "z", "significant", "passes", "budget", "choice"):
            assert a[k] == full[k], (top, k)
