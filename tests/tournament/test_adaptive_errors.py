"""The adaptive schedule's stopping rule under repeated looks, on synthetic tournaments of
known strengths (driven by scripts/bench_stats_adaptive.py, which measures the rates).
Marked slow: each plays a whole simulated tournament, 100+ looks of 4,800 resampled Elo
fits (10-30 s)."""

from __future__ import annotations

import pytest

from tournament.adaptive import looks

pytestmark = pytest.mark.slow
TIED = (200.0, 100.0, 100.0, 0.0)


@pytest.fixture
def sim(load_script):
    return load_script("bench_stats_adaptive")


@pytest.mark.parametrize("seed", [1, 3])
def test_two_tied_agents_are_not_put_in_a_strict_order(sim, seed):
    """Was: stopping at the first round where every deciding pair reached 0.95 ordered two
    tied agents strictly in 40% of runs; on these seeds the rule without looks does so
    (checked below), the shipped rule plays on without declaring an order until no line-up
    seating the pair has a seed left."""
    naive, _ = sim.simulate(TIED, sim.CAP, seed, naive=True)
    assert naive.reason.startswith("every deciding pair") and sim.wrong(naive, TIED)
    d, games = sim.simulate(TIED, sim.CAP, seed)
    assert d.reason.startswith("no seed left") and games > 300


def test_a_tie_zone_declares_tied_agents_level(sim):
    d, games = sim.simulate(TIED, sim.CAP, 0, tie_elo=100.0)
    assert d.done and "level within 100 Elo" in d.reason
    assert {frozenset(t) for t in d.ties} == {frozenset(("a1", "a2"))}
    assert not sim.wrong(d, TIED) and games < sim.CAP * 12


def test_a_clear_field_stops_at_a_look_in_the_right_order(sim):
    d, games = sim.simulate(sim.CASES["clear field"], sim.CAP, 0)
    assert d.reason.startswith("every deciding pair") and not sim.wrong(d, sim.CASES["clear field"])
    sets, at = games // 2, looks(12, sim.CAP * 6)  # looks at 12, 24, 48, 96, 192, 240 sets
    assert min(sets - n for n in at if n <= sets) < 6  # at the round that reached a look
    assert all(c >= d.level for _, _, c in d.pairs)
