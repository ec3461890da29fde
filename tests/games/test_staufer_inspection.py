"""Die Staufer's public inspection methods: holdings(p), board() and score_breakdown()
report the position the rules produced (checked against the public observation and
against scores())."""

from __future__ import annotations

import random

import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import spiel_games  # noqa: F401  (registers the games)
from spiel_games.staufer import rules as R
from spiel_games.staufer.scenario import play, scripted_setup

ALL = ["Milan", "Augsburg", "Nijmegen", "Aachen", "Strasbourg", "Palermo"]


def _setup(game, **kw):
    return scripted_setup(
        game,
        regions=ALL,
        tiles=list(range(6)),
        a_tiles=["Strasbourg", "Augsburg", "Nijmegen", "Aachen", "Palermo", "Milan"],
        b_tiles=["king", "most_seats", "fewest_chests", "most_payment", "after_king"],
        c_tiles=[1, 1, 2, 2],
        **kw,
    )


def _observation(game, state, player=0):
    obs = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False,
            public_info=True,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
    )
    obs.set_from(state, player)
    return {k: v.tolist() for k, v in obs.dict.items()}


def test_holdings_report_court_province_and_the_dealt_jobs():
    g = pyspiel.load_game("python_staufer(players=3,chests=none)")
    jobs = [
        ["Milan", "presence", "value1"],
        ["Augsburg", "nobility", "value2"],
        ["Aachen", "leftmost", "value3"],
    ]
    s = _setup(g, jobs=jobs)
    obs = _observation(g, s)
    for p in range(3):
        h = s.holdings(p)
        assert list(h["court"]) == obs["court"][p] == [4, 1]
        assert list(h["province"]) == obs["province"][p] == [11, 2]
        assert h["vp"] == h["brown"] == h["vp_privilege_points"] == 0
        assert h["turquoise"] == (0, 0, 0)
        assert h["privileges"] == (0,) * R.PRIV_KINDS
    region, design, office = s.holdings(1)["jobs"]
    assert R.REGION_NAMES[region - R.JOB_REGION * R.JOB_POOL_MAX] == "Augsburg"
    assert R.DESIGN_JOBS[design - R.JOB_DESIGN * R.JOB_POOL_MAX][0] == "nobility"
    assert R.OFFICE_JOBS[office - R.JOB_OFFICE * R.JOB_POOL_MAX][0] == "value2"
    with pytest.raises(ValueError):
        s.holdings(3)


def test_board_reports_a_deployment_seat_payment_and_tracks():
    g = pyspiel.load_game("python_staufer(players=3,chests=none,jobs=0)")
    s = _setup(g)
    board = s.board()
    assert board["regions"] == tuple(range(6)) and board["king"] == 0  # Milan
    assert board["phase"] == "turn" and board["round"] == 1 and board["to_move"] == 0
    assert board["order"] == (0, 1, 2, 2, 1, 0, 2, 1, 0)
    play(s, "deploy Nijmegen", "seat 5 (1)", "occupy with envoy", "pay 0 noble(s)")
    board = s.board()
    nijmegen = board["seats"][2]
    assert nijmegen[4] == 0 * 2 + 0  # P1's envoy on the fifth seat
    assert sum(1 for row in board["seats"] for o in row if o >= 0) == 1
    assert [row[0] for row in board["payment"]] == [(1, 0), (1, 0)] + [(0, 0)] * 4
    assert board["deploy_track"] == (0,) and board["supply_track"] == ()
    assert board["turns_taken"] == 1 and board["to_move"] == 1
    obs = _observation(g, s)
    assert [list(row[0]) for row in board["payment"]] == [row[0] for row in obs["payment"]]
    assert board["vp_pile"] == tuple(g.config.vp_pile)


def test_score_breakdown_sums_to_scores_throughout_a_random_game():
    g = pyspiel.load_game("python_staufer(players=4)")
    rng = random.Random(3)
    s = g.new_initial_state()
    checked = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(outcomes, probs)[0])
            continue
        if checked % 7 == 0:
            parts = s.score_breakdown()
            assert [sum(b.values()) for b in parts] == s.scores()
            assert [b["track"] for b in parts] == [s.holdings(p)["vp"] for p in range(4)]
        checked += 1
        s.apply_action(rng.choice(s.legal_actions()))
    parts = s.score_breakdown()
    assert [sum(b.values()) for b in parts] == s.scores()
    assert set(parts[0]) == {"track", "jobs", "brown", "vp_privileges", "steward", "pilgrim"}
    assert any(b["jobs"] for b in parts)  # the game's end scores the job cards
