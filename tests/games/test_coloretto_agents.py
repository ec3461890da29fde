"""Coloretto's heuristic baseline and MCCFR abstraction."""

from __future__ import annotations

import random

import pyspiel

import spiel_games
from solvers.baselines import RandomAgent
from solvers.mccfr_sampling import first_per_label
from spiel_games.coloretto.abstraction import VERSION, _bucket, abstract_key, action_labels
from spiel_games.coloretto.scenario import play, two_rows
from tournament.match import play_match

SPEC = spiel_games.get_spec("python_coloretto")


def test_abstraction_is_blind_to_which_colour_is_which():
    a = two_rows("yellow", "blue", "green")
    b = two_rows("pink", "grey", "brown")  # the same position with colours renamed
    for p in range(3):
        assert abstract_key(a, p) == abstract_key(b, p)
    p = a.current_player()
    assert action_labels(a, p, a.legal_actions()) == action_labels(b, p, b.legal_actions())
    assert SPEC.abstraction_version == VERSION


def test_labels_separate_rows_of_different_value():
    a = play(two_rows("yellow", "blue", "green"), "draw", "deck: yellow", "place yellow in row 1")
    # Row 1 now holds two yellows: for P1 (who started with yellow) 1 -> 3 cards is +5,
    # while row 2's single blue adds +1. The labels must tell the two takes apart.
    p = a.current_player()
    legal = a.legal_actions()
    labels = dict(zip(legal, action_labels(a, p, legal), strict=True))
    take = {a.action_to_string(p, x): labels[x] % 1000 for x in legal}  # without the mark
    mine = 4 if p == 0 else None  # +5 for P1 itself
    assert take["draw"] == 0
    assert take["take row 1"] != take["take row 2"]
    assert take["take row 1"] // 100 == take["take row 2"] // 100 == 1  # both are takes
    assert take["take row 1"] % 10 == 2 and take["take row 2"] % 10 == 1  # row lengths
    if mine is not None:
        assert (take["take row 1"] - 100) // 20 == mine


def test_labels_mark_the_heuristics_move_and_only_it():
    game = pyspiel.load_game("python_coloretto(players=3)")
    rng = random.Random(4)
    marked = shared = 0
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            p = state.current_player()
            legal = state.legal_actions(p)
            labels = action_labels(state, p, legal)
            mine = SPEC.heuristic(state, None)
            assert [x for x, lab in zip(legal, labels, strict=True) if lab >= 1000] == [mine]
            base = labels[legal.index(mine)] - 1000
            if base in labels:  # another move does the same: the heuristic's is still a choice
                shared += 1
                assert mine in first_per_label(legal, labels)[0]
            marked += len(legal) > 1
            state.apply_action(rng.choice(legal))
    assert marked > 100 and shared > 10


def test_gain_buckets_are_ordered_and_cover_all_integers():
    seen = [_bucket(x) for x in range(-30, 40)]
    assert set(seen) == {0, 1, 2, 3, 4}
    assert seen == sorted(seen)


def test_heuristic_beats_random_players():
    game = pyspiel.load_game("python_coloretto(players=3)")
    total = 0.0
    games = 12
    for i in range(games):
        seat = i % 3
        agents = [RandomAgent(100 + i * 3 + p) for p in range(3)]
        agents[seat] = _Heuristic()
        total += play_match(game, agents, seed=1000 + i).returns[seat]
    # rank returns are in [-1, 1]; random vs random averages 0
    assert total / games > 0.5


class _Heuristic:
    def reset(self):
        pass

    def step(self, state):
        return SPEC.heuristic(state, None)
