"""Separated results: open ends of the rating intervals, their finite side, the notes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tournament.ratings.fit import AgentInfo, Games, rate
from tournament.ratings.report import notes


def two_agents(sets: int, losses: int = 0):
    """A beats B in every game of ``sets`` duplicate sets (both seatings) but ``losses``."""
    agents, ranks, blocks, lost = [], [], [], 0
    for b in range(sets):
        for seats in ([0, 1], [1, 0]):
            rk = [1, 2] if seats[0] == 0 else [2, 1]
            if lost < losses and seats[1] == 0:
                rk, lost = rk[::-1], lost + 1
            agents.append(seats)
            ranks.append(rk)
            blocks.append(b)
    ids = np.array([f"g{i}" for i in range(len(agents))], dtype=object)
    g = Games(np.array(agents), np.array(ranks), np.zeros((len(agents), 2)), np.array(blocks), ids)
    return [AgentInfo("A", "A"), AgentInfo("B", "B")], [g]


def league(beats, reps: int, k: int, rng):
    """Every pair of ``k`` agents plays ``reps`` duplicate sets of two seatings; ``beats(x, y)``
    is True (x always wins), False (y always wins) or None (a coin flip)."""
    agents, ranks, blocks, b = [], [], [], 0
    for _ in range(reps):
        for x in range(k):
            for y in range(x + 1, k):
                for seats in ([x, y], [y, x]):
                    win = beats(x, y)
                    x_wins = rng.random() < 0.5 if win is None else win
                    first = x_wins == (seats[0] == x)
                    agents.append(seats)
                    ranks.append([1, 2] if first else [2, 1])
                    blocks.append(b)
                b += 1
    g = Games(np.array(agents), np.array(ranks), np.zeros((len(agents), 2)), np.array(blocks))
    return [AgentInfo(n, n) for n in "ABCDEFG"[:k]], [g]


def test_a_group_that_won_every_game_against_the_others_is_open_above():
    """Was: {A, B} beat {C, D} in every game, the gap set by the prior alone, and every
    interval finite (A +783 [720, 837]) with no note."""
    same = lambda x, y: None if {x, y} in ({0, 1}, {2, 3}) else x < y  # noqa: E731
    agents, games = league(same, 40, 4, np.random.default_rng(0))
    r = rate(agents, games, bootstrap=50, plackett_luce=False)
    assert np.isposinf(r.ci_high[:2]).all() and np.isfinite(r.ci_low[:2]).all()
    assert np.isneginf(r.ci_low[2:]).all() and np.isfinite(r.ci_high[2:]).all()
    assert 300 < r.ci_low[0] < 500  # the exact bound on 320 of 320, not the prior's +783
    text = "\n".join(notes(r))
    assert "A is in {A, B}, which won every game against the others" in text
    assert "C is in {C, D}, which lost every game against the others" in text


def test_an_agent_in_the_middle_of_a_chain_is_open_on_both_sides():
    """A > B > C > D > E, each beating every one below: B, C, D anchor the mean, and C is
    unbounded both ways relative to it (B and D are one-sided, A and E too)."""
    agents, games = league(lambda x, y: x < y, 5, 5, np.random.default_rng(1))
    r = rate(agents, games, bootstrap=0, plackett_luce=False)
    assert np.isposinf(r.ci_high[:3]).all() and np.isfinite(r.ci_high[3:]).all()
    assert np.isneginf(r.ci_low[2:]).all() and np.isfinite(r.ci_low[:2]).all()
    assert "no bound on either side" in r.one_sided[2]
    pinned = rate(agents, games, bootstrap=0, anchor=("C", 0.0), plackett_luce=False)
    assert np.isfinite([pinned.ci_low[2], pinned.ci_high[2]]).all()  # C itself is the anchor


def test_the_finite_side_of_a_perfect_record_is_an_exact_bound_that_covers():
    """Was [920, +inf] at 400 of 400, the prior's value: the exact 97.5% bound on the
    gap is 813 Elo (A at +406 over the mean of two), and 500 (a gap of 1000) lies inside."""
    agents, games = two_agents(200)
    r = rate(agents, games, bootstrap=30, plackett_luce=False)
    p = 0.025 ** (1 / 400)
    assert r.ci_low[0] == pytest.approx(200 * math.log10(p / (1 - p)), abs=2)
    assert r.ci_high[1] == pytest.approx(-r.ci_low[0], abs=0.1)
    assert r.elo[0] > 900 and r.ci_high[0] == math.inf and r.ci_low[1] == -math.inf


def test_a_near_perfect_record_is_open_where_the_resamples_are_perfect():
    """Was 519 [423, 924] at 399 of 400: 924 is the prior's ceiling, reached by the ~37%
    of the resamples that miss the one lost game."""
    agents, games = two_agents(200, losses=1)
    r = rate(agents, games, bootstrap=100, plackett_luce=False)
    assert r.ci_high[0] == math.inf and 350 < r.ci_low[0] < r.elo[0] < 600
    assert r.ci_low[1] == -math.inf
    assert r.one_sided[0].startswith("is unbounded above (separated results")
    assert "of the bootstrap resamples" in "\n".join(notes(r))
    far = rate(*two_agents(200, losses=20), bootstrap=100, plackett_luce=False)
    assert np.isfinite([far.ci_low, far.ci_high]).all() and not any(far.one_sided)


def test_luck_adjusted_ratings_keep_a_perfect_record_open():
    """Was: --luck-adjusted reset the one-sided flag: [860, 860], zero width, no note."""
    from tournament.ratings.adjusted import adjust

    agents, games = two_agents(100)
    r = rate(agents, games, bootstrap=30, plackett_luce=False)
    rng = np.random.default_rng(0)
    luck = {}
    for gid in games[0].ids:
        x = rng.normal(0, 0.05)
        luck[gid] = {"pairs": [[0.0, x], [-x, 0.0]]}
    adjust(r, games, luck, bootstrap=30, anchor=None)
    assert r.ci_high[0] == math.inf and r.ci_low[1] == -math.inf
    assert 250 < r.ci_low[0] < 450  # the exact bound on 200 games, not the point estimate
    assert any(n.startswith("A won every game: one-sided interval") for n in notes(r))


def test_the_prior_line_says_a_win_each_way():
    """Was: 'a virtual draw of that weight', half of what OpenSpiel adds (0.01 won each way)."""
    agents, games = two_agents(200)
    r = rate(agents, games, bootstrap=0, plackett_luce=False)
    assert "a virtual win of that weight each way" in r.prior
    from tournament.ratings.separation import fit_fractional

    gap = 400 * math.log10(400.01 / 0.01)
    assert r.elo[0] - r.elo[1] == pytest.approx(gap, abs=0.5)  # 1841, as the docs say
    wins = np.array([[0.0, 400.0], [0.0, 0.0]])
    assert np.ptp(fit_fractional(wins)) == pytest.approx(gap, abs=0.5)
