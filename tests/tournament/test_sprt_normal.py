"""The normal LLR (`meeple sprt --llr normal`): Wald's error rates near the bounds, and a
stop in a few sets where the empirical GSPRT needs about 50 whatever the gap (was: a
clearly stronger or weaker agent cost at least 318 games at 3 players)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.stats import binom
from typer.testing import CliRunner

from tournament.cli import app
from tournament.sprt.gsprt import (
    PRESETS,
    Bounds,
    SprtError,
    Tally,
    elo_to_score,
    fewest_sets,
    step,
    wald,
    walk,
)
from tournament.sprt.run import SIDECAR, ForeignSprtError, SprtRequest, play_sprt, read_sprt

VALUES = np.linspace(0.0, 1.0, 13)  # a 3-player set: 12 (A, B) pairs
GAME3 = "python_coloretto(players=3)"
NORMAL = Bounds(*PRESETS["gain"], llr="normal")
runner = CliRunner()


def _walks(elo: float, bounds: Bounds, count: int, seed: int):
    rng = np.random.default_rng(seed)
    p = binom.pmf(np.arange(13), 12, elo_to_score(elo))
    return [walk(rng.choice(VALUES, size=4000, p=p), bounds)[-1] for _ in range(count)]


def test_an_unknown_llr_form_is_refused():
    with pytest.raises(SprtError, match="--llr must be one of empirical, normal"):
        Bounds(0.0, 20.0, llr="bayes")


def test_a_gap_far_outside_the_bounds_stops_in_a_few_sets():
    """Sets scoring about 0.8 (some +240 Elo): the empirical LLR moves at most as a set
    scoring 1 would, so it stops at its minimum of 53 sets; the normal one in about ten."""
    xs = [0.75, 0.83, 0.92, 0.67, 0.83, 0.75] * 20
    empirical = walk(xs, Bounds(*PRESETS["gain"]))[-1]
    normal = walk(xs, NORMAL)[-1]
    assert (empirical.verdict, normal.verdict) == ("H1", "H1")
    assert empirical.sets >= 53 and normal.sets <= 12, (empirical.sets, normal.sets)
    assert fewest_sets(NORMAL, 6, "H1", 1000) == 10 and fewest_sets(NORMAL, 6, "H0", 1000) == 10


def test_near_the_bounds_the_two_forms_agree():
    """Many sets whose mean lies between the hypotheses: both LLRs are the normal
    approximation's there (within a tenth)."""
    rng = np.random.default_rng(5)
    tally = Tally(rng.binomial(12, elo_to_score(10.0), 400) / 12)
    a = step(tally, Bounds(*PRESETS["gain"]), 6).llr
    b = step(tally, NORMAL, 6).llr
    assert abs(a - b) <= 0.1 * max(abs(a), 1.0), (a, b)


def test_an_a_a_test_rarely_accepts_h1_with_the_normal_llr():
    """True Elo = elo0: H1 in at most alpha plus two standard errors of 300 runs (the plug-in
    variance without its prior stops on the first sets: H1 in about 40% of runs)."""
    done = _walks(0.0, NORMAL, 300, seed=11)
    share = np.mean([s.verdict == "H1" for s in done])
    assert share <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 300), share


@pytest.mark.parametrize("elo", [-200.0, 200.0])
def test_far_gaps_stop_in_the_right_direction_and_sooner(elo):
    done = _walks(elo, NORMAL, 60, seed=int(abs(elo)) + int(elo > 0))
    assert all(s.verdict == ("H1" if elo > 0 else "H0") for s in done)
    assert np.mean([s.sets for s in done]) < 20
    p_h1, _ = wald(
        binom.pmf(np.arange(13), 12, elo_to_score(elo)), VALUES, NORMAL, *NORMAL.scores()
    )
    assert (p_h1 > 0.5) == (elo > 0)


def test_the_sidecar_names_only_a_normal_llr_and_a_resume_keeps_the_form(tmp_path):
    """A default test's bounds file is as before (its old ledgers resume); a normal test's
    names its form, is read back with it, and refuses a rerun with the other form."""
    empirical = SprtRequest(GAME3, "heuristic", "random", Bounds(*PRESETS["gain"]), max_games=60)
    assert "llr" not in empirical.sidecar()["bounds"]
    req = SprtRequest(GAME3, "heuristic", "random", NORMAL, max_games=600)
    v, summary, _ = play_sprt(req, tmp_path / "n", executor="serial")
    assert v.verdict == "H1" and v.games < 318 and v.games == summary.played
    assert json.loads((tmp_path / "n" / SIDECAR).read_text())["bounds"]["llr"] == "normal"
    again, _ = read_sprt(tmp_path / "n")
    assert (again.verdict, again.sets, again.llr) == (v.verdict, v.sets, v.llr)
    other = SprtRequest(GAME3, "heuristic", "random", Bounds(*PRESETS["gain"]), max_games=600)
    with pytest.raises(ForeignSprtError, match="holds an SPRT with llr normal, now empirical"):
        play_sprt(other, tmp_path / "n", executor="serial")


def test_a_default_ledger_refuses_a_normal_rerun_and_a_named_default_is_the_same_test(tmp_path):
    """The other way round; and a bounds file that names the default form (restored by
    hand, say) is the same test as one that omits it (was: two whole dicts printed)."""
    req = SprtRequest(GAME3, "heuristic", "random", Bounds(*PRESETS["gain"]), max_games=12)
    v, _, _ = play_sprt(req, tmp_path / "e", executor="serial")
    normal = SprtRequest(GAME3, "heuristic", "random", NORMAL, max_games=12)
    with pytest.raises(ForeignSprtError, match="holds an SPRT with llr empirical, now normal"):
        play_sprt(normal, tmp_path / "e", executor="serial")
    side = tmp_path / "e" / SIDECAR
    named = json.loads(side.read_text())
    named["bounds"]["llr"] = "empirical"
    side.write_text(json.dumps(named))
    again, summary, _ = play_sprt(req, tmp_path / "e", executor="serial")
    assert summary.played == 0 and (again.sets, again.llr) == (v.sets, v.llr)


def test_normalized_elo_with_the_normal_llr_stops_both_ways():
    bounds = Bounds(0.0, 25.0, model="normalized", llr="normal")
    assert walk([0.9, 0.8, 1.0, 0.85] * 20, bounds, 6)[-1].verdict == "H1"
    assert walk([0.1, 0.2, 0.0, 0.15] * 20, bounds, 6)[-1].verdict == "H0"


def test_cli_llr_normal_is_in_the_json_and_the_text(tmp_path):
    args = ["sprt", GAME3, "heuristic", "random", "--llr", "normal", "--executor", "serial", "-q"]
    r = runner.invoke(app, [*args, "--out", str(tmp_path / "c"), "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["bounds"]["llr"] == "normal" and obj["verdict"] == "H1" and obj["games"] < 318
    text = runner.invoke(app, [*args, "--out", str(tmp_path / "c")])
    assert "normal LLR" in text.stdout
    bad = runner.invoke(app, [*args[:4], "--llr", "bayes", "--out", str(tmp_path / "d")])
    assert bad.exit_code == 2 and "--llr must be one of empirical, normal" in bad.output
    assert not (tmp_path / "d").exists()
