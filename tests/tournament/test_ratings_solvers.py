"""The ratings' numerical paths: the Plackett-Luce Hessian and Newton fit behind the probe,
and the bootstrap's replicate weights and matrices built in one pass."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from tests.tournament.test_plackett_luce import pl_games
from tournament.ratings.elo import fit_elo, fit_elo_many
from tournament.ratings.pairs import PairRecords, block_weights, pairwise
from tournament.ratings.plackett_luce import PRIOR, TILT, WEAK, Model, patterns


def _model(prior=PRIOR, tilt=0.0, games=60, seed=3):
    g, sets = pl_games(
        [0.0, 80.0, 200.0, 400.0], [30.0, 0.0, -30.0], games, np.random.default_rng(seed)
    )
    pats = patterns([g], sets)
    return Model(pats, 4, prior, tilt), [p.weights() for p in pats]


def _mixed_model(prior, tilt):
    """3- and 2-player games together, ties (some games all tied), an agent in two seats."""
    rng = np.random.default_rng(11)
    three, sets = pl_games([0.0, 80.0, 200.0, 400.0], [30.0, 0.0, -30.0], 40, rng)
    three.ranks[::5, 2] = three.ranks[::5, 1]
    three.ranks[::9] = 1
    three.agents[3] = [1, 1, 2]
    two, _ = pl_games([0.0, 80.0, 200.0, 400.0], [20.0, -20.0], 30, rng, players=2)
    two.ranks[::4] = 1
    pats = patterns([three, two], sets)
    weights = [p.weights() * rng.uniform(0.5, 2.0, len(p.weights())) for p in pats]
    return Model(pats, 4, prior, tilt), weights


@pytest.mark.parametrize("build", [_model, _mixed_model])
@pytest.mark.parametrize("prior, tilt", [(PRIOR, 0.0), (PRIOR * WEAK, TILT)])
def test_the_hessian_is_the_gradient_s_derivative(build, prior, tilt):
    model, w = build(prior, tilt)
    x = np.random.default_rng(1).normal(size=model.dim)
    numeric = np.array(
        [approx_fprime(x, lambda z, r=r: model(z, w)[1][r], 1e-6) for r in range(model.dim)]
    )
    np.testing.assert_allclose(model.hessian(x, w), numeric, atol=1e-4)


def test_newton_fits_the_probe_on_separated_results():
    """The probe's fit (weak prior, tilted seats) on a small table with separated results:
    Newton reaches the tolerance, at a log-posterior no higher than BFGS's, and leaves the
    flat direction (every strength shifted together) where it started."""
    model, w = _model(games=9, seed=5)
    start = model.fit(w)
    probe = Model(model.pats, model.k, PRIOR * WEAK, TILT)
    newton = probe.fit_newton(w, start, gtol=1e-10)
    assert np.max(np.abs(probe(newton, w)[1])) <= 1e-10
    assert probe(newton, w)[0] <= probe(probe.fit(w, start, gtol=1e-10), w)[0] + 1e-9
    assert abs(newton[: model.k].mean() - start[: model.k].mean()) < 1e-9


def test_newton_and_bfgs_agree_where_the_data_measure_everything():
    model, w = _model(games=3000, seed=2)
    bfgs = model.fit(w, gtol=1e-9)
    newton = model.fit_newton(w, np.zeros(model.dim), gtol=1e-9)
    np.testing.assert_allclose(newton, bfgs, atol=1e-6)
    assert np.max(np.abs(model(newton, w)[1])) < 1e-5  # at rounding's limit of 1e-9


def test_replicate_weights_are_the_per_replicate_draws():
    for sets, n in ((1, 3), (2, 5), (7, 16), (34, 40)):
        a, b = np.random.default_rng(9), np.random.default_rng(9)
        one_by_one = np.column_stack(
            [np.bincount(a.integers(sets, size=sets), minlength=sets) for _ in range(n)]
        )
        np.testing.assert_array_equal(block_weights(b, sets, n), one_by_one)
        assert a.integers(1 << 30) == b.integers(1 << 30)  # the stream continues alike


def test_matrices_of_many_replicates_equal_each_replicate_s():
    g, sets = pl_games([0.0, 50.0, 100.0, 300.0], [0.0, 0.0, 0.0], 90, np.random.default_rng(4))
    g.ranks[::7, 1] = g.ranks[::7, 0]  # some draws
    rec = PairRecords(*pairwise(g, 4), 4, sets)
    weights = block_weights(np.random.default_rng(0), sets, 12)
    wins, draws = rec.matrices_many(weights)
    for i in range(12):
        w1, d1 = rec.matrices(weights[:, i])
        np.testing.assert_array_equal(wins[i], w1)
        np.testing.assert_array_equal(draws[i], d1)
    fits = fit_elo_many(wins, draws)
    for i in range(12):
        np.testing.assert_array_equal(fits[i], fit_elo(wins[i], draws[i]))
