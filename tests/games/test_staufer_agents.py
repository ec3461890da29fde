"""Die Staufer: heuristic, abstraction, invariants under random play, and declared sizes."""

from __future__ import annotations

import random

import pyspiel
import pytest

import spiel_games  # noqa: F401  (registers the games)
from spiel_games.staufer import SPEC
from spiel_games.staufer import rules as R
from spiel_games.staufer.heuristic import _job_bonus, _office_paying_value
from spiel_games.staufer.scenario import scripted_setup


def _chance(state, rng):
    outcomes = state.chance_outcomes()
    x, acc = rng.random(), 0.0
    for a, p in outcomes:
        acc += p
        if x < acc:
            return a
    return outcomes[-1][0]


def _play(game, policies, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
            continue
        p = state.current_player()
        action = policies[p](state, rng)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def _random(state, rng):
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("cfg", SPEC.test_configs)
def test_heuristic_plays_only_legal_moves(cfg):
    game = pyspiel.load_game(cfg)
    n = game.num_players()
    final = _play(game, [SPEC.heuristic] * n, seed=3)
    assert len(final.returns()) == n


def test_heuristic_beats_random_players():
    game = pyspiel.load_game("python_staufer(players=3,utility=win)")
    wins = 0.0
    games = 12
    for i in range(games):
        seat = i % 3
        policies = [_random] * 3
        policies[seat] = SPEC.heuristic
        wins += _play(game, policies, seed=100 + i).returns()[seat]
    assert wins / games > 0.6  # a fair share would be 1/3


def test_figures_are_conserved_in_random_play():
    game = pyspiel.load_game("python_staufer(players=4)")
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        board = state.board()
        for p in range(4):
            mine = state.holdings(p)
            for noble, total in ((0, 15), (1, 3)):
                on_seats = sum(1 for row in board["seats"] for o in row if o == p * 2 + noble)
                paid = sum(row[p][noble] for row in board["payment"])
                held = mine["court"][noble] + mine["province"][noble]
                assert on_seats + paid + held == total


def test_abstraction_key_ignores_opponents_secret_jobs():
    game = pyspiel.load_game("python_staufer(players=3,chests=none)")
    regions = ["Milan", "Augsburg", "Nijmegen", "Aachen", "Strasbourg", "Palermo"]
    common = dict(
        regions=regions,
        tiles=list(range(6)),
        a_tiles=regions,
        b_tiles=["king", "after_king", "most_seats", "most_nobles", "most_payment"],
        c_tiles=[1, 1, 2, 2],
    )
    a = scripted_setup(
        game,
        jobs=[
            ["Milan", "presence", "value1"],
            ["Aachen", "nobility", "value2"],
            ["Palermo", "leftmost", "value3"],
        ],
        **common,
    )
    b = scripted_setup(
        game,
        jobs=[
            ["Milan", "presence", "value1"],
            ["Nijmegen", "two_seats", "value4"],
            ["Palermo", "leftmost", "value3"],
        ],
        **common,
    )
    key = SPEC.abstraction

    def labels(state, p):
        return SPEC.abstraction_labels(state, p, state.legal_actions(p))

    assert key(a, 0) == key(b, 0)
    assert a.current_player() == 0 and labels(a, 0) == labels(b, 0)
    # Also once the secret jobs are worth points: P2 takes a seat in Nijmegen, which is
    # its job region only in b.
    for state in (a, b):
        for name in (
            "supply 1",
            "deploy Nijmegen",
            "seat 5",
            "occupy with envoy",
            "pay 0 noble(s)",
        ):
            legal = {
                state.action_to_string(state.current_player(), x): x for x in state.legal_actions()
            }
            state.apply_action([x for t, x in legal.items() if t.split(" (")[0] == name][0])
    assert a.scores()[1] != b.scores()[1]
    assert key(a, 0) == key(b, 0)
    p = a.current_player()
    if p != 1:
        assert labels(a, p) == labels(b, p)
    assert SPEC.abstraction_name == "staufer-board" and SPEC.abstraction_version == 3


def test_every_assumed_number_is_listed_in_the_spec():
    from spiel_games.staufer import rules

    assumed = [f for f in rules.RULES.facts.values() if f.assumed]
    assert len(SPEC.assumptions) == len(assumed) > 30
    for fact in assumed:
        assert any(line.startswith(fact.key + " ") for line in SPEC.assumptions)


def test_random_playout_is_fast_enough():
    import time

    game = pyspiel.load_game(SPEC.typical_config)
    start = time.perf_counter()
    _play(game, [_random] * 4, seed=1)
    assert time.perf_counter() - start < 1.0


def test_new_decisions_appear_in_random_play_and_always_offer_a_real_choice():
    """The noble-region, take-from-payment and levy-after decisions are asked only with
    more than one legal option, and random play reaches each of them."""
    seen = {"noble": 0, "take": 0, "after": 0}
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4), (3, 5), (4, 6)):
        game = pyspiel.load_game(f"python_staufer(players={players})")
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_chance(state, rng))
                continue
            phase = state.board()["phase"]
            legal = state.legal_actions()
            if phase in seen:
                seen[phase] += 1
                assert len(legal) > 1, (phase, legal)
            state.apply_action(rng.choice(legal))
    assert all(seen.values()), seen


def test_office_paying_value_is_the_seat_value_or_none_for_an_office_paying_no_value():
    assert _office_paying_value("value1") == 1
    assert _office_paying_value("value4") == 4
    assert _office_paying_value("noble_seat") is None
    assert _office_paying_value("total_value") is None
    assert all(
        (_office_paying_value(name) is None) != name.startswith("value")
        for name, _ in R.OFFICE_JOBS
    )


def test_job_bonus_never_credits_an_office_paying_no_value_even_on_a_value_0_seat():
    no_value = (0.0, 0.0, [(None, False, 3)])
    assert _job_bonus(no_value, 1, 0, False) == 0.0
    pays_2 = (0.0, 0.0, [(2, False, 2)])
    assert _job_bonus(pays_2, 1, 2, False) == 1.0
    assert _job_bonus(pays_2, 1, 3, False) == 0.0
