"""The SPRT at its edges: sets that all score alike under the normalized model, the
estimate after a stop at (or near) the fewest sets that could cross, the live interval on
a handful of sets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import t as t_dist

from tournament.cli.sprt import _report, step_line
from tournament.sprt.estimate import Outcome, at_stop, near_fewest
from tournament.sprt.gsprt import (
    PRESETS,
    Bounds,
    Tally,
    elo_to_score,
    fewest_sets,
    hypotheses,
    increments,
    score_to_elo,
    tvalue_mle,
    walk,
)
from tournament.sprt.run import LIVE_MIN_SETS, SprtRequest, Verdict

NORMALIZED = Bounds(0.0, 5.0, model="normalized")


@pytest.mark.parametrize(("score", "verdict", "most"), [(1.0, "H1", 200), (0.0, "H0", 200)])
def test_normalized_constant_sets_reach_a_verdict(score, verdict, most):
    """Every set alike has (almost) no spread: with the spread taken from the data both
    hypotheses' means collapsed to 1/2 and the test never stopped (10,000 sets of 1.0:
    LLR 0.13); the hypotheses' own spread does not collapse."""
    last = walk([score] * 10_000, NORMALIZED, games_per_set=2, max_sets=10_000)[-1]
    assert last.verdict == verdict and last.sets <= most


def test_normalized_sets_of_one_half_accept_h0():
    """t-value exactly 0 is H0's: accepted, in fewer sets than the ~14,000 Wald expects of
    an ordinary [0, 5] test at H0 (old code: inconclusive after 10,000)."""
    last = walk([0.5] * 10_000, NORMALIZED, games_per_set=2, max_sets=10_000)[-1]
    assert last.verdict == "H0"


def test_the_t_value_hypothesis_has_the_asked_t_value_and_beats_others():
    values = np.array([0.0, 0.5, 0.75, 1.0])
    weights = np.array([1e-3, 3.0, 5.0, 2.0])
    for t in (0.0, 0.05, 0.3):
        p = tvalue_mle(values, weights, t)
        mean = float(p @ values)
        sd = math.sqrt(float(p @ (values - mean) ** 2))
        assert (mean - 0.5) / sd == pytest.approx(t, abs=1e-9)
        best = float(weights @ np.log(p))
        # a general constrained optimiser finds no better distribution with that t-value
        res = minimize(
            lambda x: -float(weights @ np.log(_simplex(x))),
            np.zeros(4),
            constraints=[{"type": "eq", "fun": lambda x, t=t: _tvalue(_simplex(x), values) - t}],
            method="SLSQP",
            options={"ftol": 1e-12, "maxiter": 500},
        )
        assert abs(_tvalue(_simplex(res.x), values) - t) < 1e-6
        assert -res.fun <= best + 1e-7


def _simplex(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def _tvalue(p: np.ndarray, values: np.ndarray) -> float:
    mean = float(p @ values)
    return (mean - 0.5) / math.sqrt(float(p @ (values - mean) ** 2))


def test_the_logistic_hypotheses_are_unchanged():
    b = Bounds(*PRESETS["gain"])
    tally = Tally([0.25, 0.5, 1.0, 0.75])
    p0, p1 = hypotheses(tally, b, 6)
    values = tally.arrays()[0]
    assert float(p0 @ values) == pytest.approx(0.5) and float(p1 @ values) == pytest.approx(
        elo_to_score(20.0)
    )


def test_fewest_sets_is_the_all_wins_run():
    b = Bounds(*PRESETS["gain"])
    assert fewest_sets(b, 6, "H1", 3334) == len(walk([1.0] * 100, b, 6))
    assert fewest_sets(b, 6, "H0", 3334) == len(walk([0.0] * 100, b, 6))
    assert fewest_sets(b, 6, "H1", 10) == 11  # cannot cross within max_sets
    assert near_fewest(53, 53) and near_fewest(59, 53) and not near_fewest(60, 53)


def _docs_like_stop():
    """A test of the docs' shape: 53 sets of mean 0.946, H1 at the fewest possible."""
    rng = np.random.default_rng(3)
    b = Bounds(*PRESETS["gain"])
    while True:
        xs = np.clip(np.round(rng.normal(0.946, 0.07, 53) * 12) / 12, 0, 1)
        if abs(xs.mean() - 0.946) < 0.002 and abs(xs.std() - 0.068) < 0.006:
            break
    last = walk(xs, b, 6, 3334)[-1]
    tally = Tally(xs[: last.sets])
    return b, last, tally


def test_a_stop_at_the_fewest_sets_reports_the_plain_mean():
    """At the minimum length the stopping time says nothing of the gap: the median-unbiased
    interval ([+337, +482] on the docs' example) excluded the plain mean (+494) and, in
    simulation, the truth most of the time; the plain mean is reported, and named, its
    interval reaching the fixed-sample one's upper end."""
    b, last, tally = _docs_like_stop()
    few = fewest_sets(b, 6, "H1", 3334)
    assert (last.verdict, last.sets, few) == ("H1", 53, 53)
    values, weights = tally.arrays()
    outcome = Outcome(last.verdict, last.sets, last.llr)
    est = at_stop(
        outcome, values, weights, increments(tally, b, 6)[1], (b.lower, b.upper), 3334, few
    )
    mean, var = tally.mean_var()
    n = tally.n  # Student's t on n sets, the sample SD (was 1.96 and the SD over n: +563)
    half = t_dist.ppf(0.975, n - 1) * math.sqrt(var * n / (n - 1) / n)
    assert est.method == "plain mean" and est.fewest == 53
    assert (est.score, est.high) == pytest.approx((mean, mean + half), rel=1e-3)
    assert est.low <= mean - half
    assert score_to_elo(est.score) == pytest.approx(494, abs=3)
    assert score_to_elo(est.high) == pytest.approx(566, abs=3)  # was +482, below the mean
    # a stop long after the fewest is estimated median-unbiased, as before
    later = at_stop(
        Outcome("H1", 200, last.llr), values, weights, increments(tally, b, 6)[1],
        (b.lower, b.upper), 3334, few,
    )  # fmt: skip
    assert later.method == "median-unbiased"


def _verdict(sets: int, low: float, high: float, **kw) -> Verdict:
    return Verdict(
        verdict=kw.get("verdict", ""), sets=sets, games=6 * sets, llr=0.06, lower=-2.94,
        upper=2.94, elo=540.8, elo_low=low, elo_high=high, score=0.9, sd=0.1,
        estimate=kw.get("estimate", "mean so far"), fewest_sets=kw.get("fewest", 0),
    )  # fmt: skip


def test_the_live_view_has_no_interval_on_a_handful_of_sets():
    """After one set the normal interval rested on a spread of one value ([+378, +3600]):
    below LIVE_MIN_SETS sets the mean alone is shown."""
    b = Bounds(*PRESETS["gain"])
    assert LIVE_MIN_SETS == 10
    assert step_line(_verdict(1, math.nan, math.nan), b).endswith("elo +540.8")
    assert step_line(_verdict(12, 500.0, 600.0), b).endswith("elo +540.8 [+500.0, +600.0]")


def test_the_state_has_no_interval_before_ten_sets():
    from types import SimpleNamespace

    from tournament.sprt.run import SprtState

    cfg = SimpleNamespace(
        seeds_per_lineup=100,
        num_players=2,
        agent=lambda name: SimpleNamespace(agent_id=name.lower()),
    )
    state = SprtState(cfg, Bounds(*PRESETS["gain"]), 2)  # type: ignore[arg-type]
    rows = []
    for i in range(LIVE_MIN_SETS):
        for order in (["a", "b"], ["b", "a"]):
            rows.append({"seed_index": i, "agents": order, "ranks": [1, 2] if i % 3 else [2, 1]})
        state.add(rows[-2:])
        v = state.result()
        assert math.isnan(v.elo_low) == (i + 1 < LIVE_MIN_SETS), i
        assert v.estimate == "mean so far"


@pytest.mark.parametrize("as_json", [False, True])
def test_the_report_names_the_estimate(as_json, tmp_path, capsys):
    import io
    import json

    req = SprtRequest("g", "a", "b", Bounds(*PRESETS["gain"]))
    out = io.StringIO()
    v = _verdict(53, 443.0, 563.0, verdict="H1", estimate="plain mean", fewest=53)
    _report(req, v, tmp_path, 0, as_json, out)
    if as_json:
        obj = json.loads(out.getvalue())
        assert obj["elo_estimate"] == "plain mean near the fewest sets"
        assert obj["fewest_sets"] == 53 and obj["elo_ci"] == [443.0, 563.0]
        running = io.StringIO()
        _report(req, _verdict(3, math.nan, math.nan), tmp_path, 0, True, running)
        assert json.loads(running.getvalue())["elo_ci"] is None
    else:
        assert "plain mean and fixed-sample interval" in out.getvalue()
        assert "fewest that could cross (53)" in out.getvalue()
