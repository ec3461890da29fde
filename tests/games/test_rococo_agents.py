"""Rococo heuristic, abstraction and resampler behaviour."""

from __future__ import annotations

import random

import pyspiel

import spiel_games.rococo as rococo
from spiel_games.rococo import rules as R
from spiel_games.rococo.heuristic import _tile_value, heuristic_action


def _play(game, policy_for, seed):
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            s.apply_action(policy_for(s.current_player())(s, rng))
    return s


def test_heuristic_plays_only_legal_moves_and_beats_random_players():
    game = pyspiel.load_game("python_rococo(players=3,utility=score)")
    wins = 0
    for seed in range(4):

        def policy(p, seed=seed):
            if p == seed % 3:

                def h(s, rng):
                    a = heuristic_action(s, rng)
                    assert a in s.legal_actions()
                    return a

                return h
            return lambda s, rng: rng.choice(s.legal_actions())

        final = _play(game, policy, seed)
        scores = final.scores()
        wins += scores[seed % 3] == max(scores)
    assert wins >= 3


def test_abstraction_key_ignores_other_players_secrets():
    game = pyspiel.load_game("python_rococo(players=3)")
    rng = random.Random(3)
    s = game.new_initial_state()
    checked = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        p = s.current_player()
        for q in range(3):
            if q != p:
                other = rococo.SPEC.perturb_secret(s, q, rng)
                if other is not None:
                    assert rococo.SPEC.abstraction(other, p) == rococo.SPEC.abstraction(s, p)
                    checked += 1
        s.apply_action(rng.choice(s.legal_actions()))
    assert checked > 50


def test_resampler_redeals_hidden_hand_cards_of_opponents():
    game = pyspiel.load_game("python_rococo(players=2)")
    s = game.new_initial_state()
    rng = random.Random(0)
    while s.board()["phase"] != "play":  # the action phase: both hands selected
        if s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    hands = set()
    for i in range(40):
        r = s.resample_from_infostate(s.current_player(), random.Random(i).random)
        assert r.information_state_string(s.current_player()) == s.information_state_string(
            s.current_player()
        )
        hands.add(r.holdings(1 - s.current_player())["hand"])
    assert len(hands) > 1


def test_tile_value_counts_wanted_bales_fully_surplus_ones_at_0_3_and_adds_the_markers():
    rr = next(t for t, tile in enumerate(R.TILES) if tile.code == "RR")
    wanted, surplus = [0, 0, 2, 0], [0, 0, 0, 0]
    assert _tile_value(rr, [0, 0, 0, 0], wanted) == 2.0
    assert _tile_value(rr, [0, 0, 2, 0], wanted) == 0.6
    assert _tile_value(rr, [0, 0, 0, 0], surplus) == 0.6
    markers = next(t for t, tile in enumerate(R.TILES) if tile.code == "y+l")
    assert _tile_value(markers, [0, 0, 0, 0], wanted) == 1.0
