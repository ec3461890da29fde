"""The engine contract (spiel_games.common.engine): the phase table's coverage check, and
the bookkeeping the base state owns for every game."""

from __future__ import annotations

import enum
import random

import pyspiel
import pytest

import spiel_games
from spiel_games.common.chance import sample_chance
from spiel_games.common.engine import CHANCE, TERMINAL, PhaseTableError, phase_table
from spiel_games.common.naming import play


class Toy(enum.IntEnum):
    DEAL = 0
    TURN = 1
    END = 2


def _hooks(**extra):
    def outcomes_deal(c):
        return [(0, 1.0)]

    def apply_deal(c, a):
        c.phase = Toy.TURN

    def legal_turn(c):
        return [0]

    def apply_turn(c, a):
        c.phase = Toy.END

    hooks = {
        "outcomes_deal": outcomes_deal,
        "apply_deal": apply_deal,
        "legal_turn": legal_turn,
        "apply_turn": apply_turn,
    }
    hooks.update(extra)
    return {k: v for k, v in hooks.items() if v is not None}


def _table(hooks):
    return phase_table(Toy, [hooks], chance=[Toy.DEAL], end=Toy.END, actor=lambda c: 0)


def test_a_complete_table_names_the_mover_of_every_phase():
    table = _table(_hooks())
    assert table.mover == (CHANCE, None, TERMINAL)
    assert table.legal[Toy.DEAL](None) == []  # a chance phase has no legal actions


@pytest.mark.parametrize(
    "change, message",
    [
        ({"apply_turn": None}, "apply_turn is missing"),
        ({"outcomes_deal": None}, "outcomes_deal is missing"),
        ({"legal_deal": lambda c: [0]}, "legal_deal is not allowed"),
        ({"outcomes_turn": lambda c: [(0, 1.0)]}, "outcomes_turn is not allowed"),
        ({"apply_end": lambda c, a: None}, "apply_end is not allowed"),
        ({"legal_trun": lambda c: [0]}, "hooks naming no phase of Toy: ['legal_trun']"),
    ],
)
def test_a_table_that_does_not_cover_its_phases_is_refused(change, message):
    with pytest.raises(PhaseTableError, match=message.replace("[", r"\[").replace("]", r"\]")):
        _table(_hooks(**change))


def test_a_hook_defined_twice_is_refused():
    other = {"apply_turn": lambda c, a: None}
    with pytest.raises(PhaseTableError, match="apply_turn is defined twice"):
        phase_table(Toy, [_hooks(), other], chance=[Toy.DEAL], end=Toy.END, actor=len)


def _coloretto():
    game = pyspiel.load_game("python_coloretto(players=3)")
    return game, game.new_initial_state()


def test_a_fresh_state_shares_the_initial_core_until_its_first_move():
    game, state = _coloretto()
    assert state._s is game.initial_core and not state._s.owned
    play(state, "start: yellow")
    assert state._s is not game.initial_core and state._s.owned
    assert game.new_initial_state().chance_outcomes()[0][0] == 0  # the template is intact


def test_an_illegal_move_is_refused_before_anything_changes():
    _, state = _coloretto()
    play(state, "start: yellow", "start: blue", "start: green", "start player: P1")
    core_before, text_before, ply = state._s, str(state), state._s.ply
    with pytest.raises(ValueError, match=r"illegal action 1 \('take row 1'\) for P1 in phase PLAY"):
        state.apply_action(1)
    assert state._s is core_before and str(state) == text_before and state._s.ply == ply
    with pytest.raises(ValueError, match="impossible chance outcome"):
        play(state, "draw").apply_action(99)


def test_the_engine_counts_plies_and_drops_the_cache_after_every_move():
    _, state = _coloretto()
    play(state, "start: yellow", "start: blue")
    assert state._s.ply == 2
    outcomes = state.chance_outcomes()
    assert (
        state._s.cache == outcomes and state._s.cache is not outcomes
    )  # cached, a copy handed out
    play(state, "start: green")
    assert state._s.cache is None and state._s.ply == 3


def test_returns_come_from_the_games_scoring_at_the_end():
    _, state = _coloretto()
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            assert state.returns() == [0.0, 0.0, 0.0]
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == TERMINAL
    assert state.returns() == list(type(state).final_returns(state._s))
    with pytest.raises(ValueError, match="the game is over"):
        state.apply_action(0)


def test_chance_outcomes_hand_out_a_list_the_caller_owns():
    """Old: the cached list itself was returned; OpenSpiel's MCTSBot shuffles the list it
    gets, which broke the sorted order the engine's apply relies on ("impossible chance
    outcome 1 ... possible: [1, 2]")."""
    import random

    game = spiel_games.load_game("python_coloretto(players=3)")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    random.Random(0).shuffle(outcomes)
    outcomes.reverse()
    assert state.chance_outcomes() == sorted(state.chance_outcomes())
    for a, _ in outcomes:
        child = state.clone()
        child.apply_action(a)
