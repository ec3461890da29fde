"""Bruxelles 1893 rules-fidelity findings of issue 13 (audit D1 and the bid cap), each a
scenario built from a position where the old code was wrong.
"""

from __future__ import annotations

import random

import pyspiel

import spiel_games  # noqa: F401
from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles.scenario import legal_strings, play, put, start


def _workshop_draw(first: str, second: str, **params):
    """P1 (one exhibition tile) performs a Workshop and draws `first` then `second`."""
    state = start(3, **params)
    put(state, "exhib", 0, 1)
    play(state, "place r2c3", "bid 1", "perform", f"art {first}", f"art {second}")
    return state


def test_workshop_keep_is_asked_even_when_every_drawn_work_has_one_colour():
    """Old code kept a one-colour draw without asking, so the missing `keep` decision told
    the others that the put-back work had the kept colour (audit D1)."""
    same = _workshop_draw("pink", "pink")
    assert same.current_player() == 0 and legal_strings(same) == ["keep pink"]
    mixed = _workshop_draw("pink", "yellow")
    assert legal_strings(mixed) == ["keep pink", "keep yellow"]
    for p in (1, 2):  # the others cannot tell the two draws apart, before or after the keep
        assert same.information_state_string(p) == mixed.information_state_string(p)
    play(same, "keep pink")
    play(mixed, "keep pink")
    for p in (1, 2):
        assert same.information_state_string(p) == mixed.information_state_string(p)
    assert same.current_player() == mixed.current_player()
    assert same.information_state_string(0) != mixed.information_state_string(0)


def test_workshop_keep_is_asked_for_one_colour_draws_with_private_works():
    """With private_works the old logs ended `?,?,?` or `?,?`: the hidden keep's presence
    showed whether the draw had one colour."""
    same = _workshop_draw("pink", "pink", private_works="true")
    mixed = _workshop_draw("pink", "yellow", private_works="true")
    play(same, "keep pink")
    play(mixed, "keep yellow")
    for p in (1, 2):
        assert same.information_state_string(p) == mixed.information_state_string(p)


def test_resampled_workshop_draws_are_legal_and_recorded_in_the_history():
    """The old resampler re-dealt put-back works from today's stack and left the real draws
    in history(): replaying it rebuilt the real game, not the resampled one."""
    # Real moves only (no edits), so the history replays: P1 passes first in round 1 (an
    # exhibition tile), then draws two works at a Workshop in round 2.
    state = start(3, open_board=False)
    play(state, "pass", "pass", "pass", "figure Solvay", "shield 1")
    play(state, "place r3c4", "bid 1", "perform", "art pink", "art pink", "keep pink")
    rng = random.Random(4)
    worlds = set()
    for _ in range(30):
        world = state.resample_from_infostate(1, rng.random)
        replay = state.get_game().new_initial_state()
        for a in world.history():
            replay.apply_action(a)
        for p in range(3):
            assert replay.information_state_string(p) == world.information_state_string(p)
        kept, put_back = world.holdings(0)["seen"][0]
        assert kept == 1  # pink stays: the keep was public
        worlds.add(put_back)
    assert len(worlds) > 1  # the put-back work is really re-dealt


def test_a_bid_has_no_maximum_by_default():
    """Old code capped bids at max_bid=6 by default, although the rulebook has only a
    minimum of 1 BF; a player with 9 BF could not bid 7, 8 or 9."""
    state = start(5)
    assert state.current_player() == 0
    state.own_core().money[0] = 40
    play(state, "place r2c3")
    assert legal_strings(state) == [f"bid {k}" for k in range(1, 41)]
    play(state, "bid 37")
    assert state.holdings(0)["money"] == 3 and state.board()["bids"][7] == 37


def test_every_affordable_bid_has_an_action_id():
    """The bid ids reach the most money a player can hold (start purse, and per round every
    assistant on the richest Sale or Bourse, Brugmann and the first passer's income)."""
    game = pyspiel.load_game("python_bruxelles(players=5)")
    cfg = game.config
    assert cfg.bid_cap == cfg.most_money() == 9 + 5 * (7 * 7 + 5 + 5 + 1)
    assert game.num_distinct_actions() == A.bid_action(cfg.bid_cap) + 1
    state = game.new_initial_state()
    assert state.action_to_string(0, A.bid_action(cfg.bid_cap)) == f"bid {cfg.bid_cap}"


def test_max_bid_still_caps_bids_in_tiny_configurations():
    state = start(3, max_bid=4)
    play(state, "place r2c3")
    assert legal_strings(state) == ["bid 1", "bid 2", "bid 3", "bid 4"]
    assert state.get_game().num_distinct_actions() == A.bid_action(4) + 1
