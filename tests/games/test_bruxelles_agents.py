"""Bruxelles 1893 baselines: the heuristic, the MCCFR abstraction, exact CFR on a tiny config."""

from __future__ import annotations

import random

import pyspiel
import pytest

import spiel_games
from spiel_games.common.chance import sample_chance as _sample_chance

SPEC = spiel_games.get_spec("bruxelles")


def _play(game, policies, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample_chance(state, rng))
            continue
        p = state.current_player()
        action = policies[p](state, rng)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def _random(state, rng):
    return rng.choice(state.legal_actions())


def test_heuristic_plays_legal_moves_and_beats_random_players():
    game = pyspiel.load_game("python_bruxelles(players=3)")
    total = 0.0
    for seed in range(3):
        seat = seed % 3
        policies = [_random] * 3
        policies[seat] = SPEC.heuristic
        total += _play(game, policies, seed).returns()[seat]
    assert total / 3 > 0.5


def test_heuristic_self_play_builds_and_scores():
    game = pyspiel.load_game("python_bruxelles(players=2)")
    final = _play(game, [SPEC.heuristic] * 2, 0)
    assert sum(final.holdings(p)["built"] for p in range(2)) >= 4 and min(final.scores()) > 20


def test_abstraction_key_ignores_other_players_secrets_and_tracks_the_decision():
    game = pyspiel.load_game("python_bruxelles(players=3)")
    rng = random.Random(1)
    state = game.new_initial_state()
    keys = set()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample_chance(state, rng))
            continue
        p = state.current_player()
        key = SPEC.abstraction(state, p)
        assert key == SPEC.abstraction(state.clone(), p)
        for q in range(3):
            other = SPEC.perturb_secret(state, q, rng) if q != p else None
            if other is not None:
                assert SPEC.abstraction(other, p) == key
                checked += 1
        keys.add(key)
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(keys) > 50 and checked > 0


@pytest.mark.slow
def test_exact_cfr_runs_on_the_tiny_configuration():
    game = pyspiel.load_game(SPEC.tiny_configs[0])
    solver = pyspiel.CFRSolver(game)
    before = pyspiel.exploitability(game, solver.average_policy())
    for _ in range(5):
        solver.evaluate_and_update_policy()
    after = pyspiel.exploitability(game, solver.average_policy())
    assert after < before


def test_meeple_games_show_lists_every_assumption():
    from typer.testing import CliRunner

    from spiel_games.bruxelles.rules import RULES
    from tournament.cli import app

    result = CliRunner().invoke(app, ["games", "show", "bruxelles"])
    assert result.exit_code == 0, result.output
    assumed = [f.key for f in RULES.facts.values() if f.assumed]
    assert len(assumed) >= 15
    for key in assumed:
        assert key in result.output
