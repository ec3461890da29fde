"""Agents without a rated game: no rating, no interval, no rank, out of the fit and the
anchor, listed with the reason (the review's `ismcts 78.6 [11.7, 196.1] games 0`)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.ratings.fit import AgentInfo, Games, rate
from tournament.ratings.report import notes, to_csv

runner = CliRunner()


def _games(rng, sets=30):
    """a0 and a1 play heads-up (a1 stronger); a2 is in the ledger but never rated."""
    agents, ranks, blocks = [], [], []
    for b in range(sets):
        for seats in ([0, 1], [1, 0]):
            win = rng.random() < 0.7  # a1 ahead
            first = seats.index(1) if win else seats.index(0)
            agents.append(seats)
            ranks.append([1, 2] if first == 0 else [2, 1])
            blocks.append(b)
    n = len(agents)
    return Games(np.array(agents), np.array(ranks), np.zeros((n, 2)), np.array(blocks))


def test_an_agent_without_rated_games_gets_no_rating_and_is_not_in_the_anchor():
    """Was: every agent of the manifests was fitted: one with no game got the prior's
    rating, an interval, a rank and a place in the mean anchor."""
    agents = [AgentInfo("a0", "a0"), AgentInfo("a1", "a1"), AgentInfo("a2", "ghost")]
    agents[2].games_read = agents[2].void_games = 36
    agents[2].failures = {"timeout": 28}
    r = rate(agents, [_games(np.random.default_rng(0))], bootstrap=30)
    assert [a.name for a in r.agents] == ["a0", "a1"] and len(r.elo) == 2
    assert [a.name for a in r.unrated] == ["ghost"]
    assert r.anchor == "mean rating = 0" and r.elo.sum() == pytest.approx(0)
    assert not any("disconnected" in w for w in r.warnings)
    text = "\n".join(notes(r))
    assert "ghost: unrated (all 36 of its games void, its own failures: timeout 28)" in text
    recs = r.as_records()
    assert [x["agent"] for x in recs] == ["a1", "a0", "ghost"]
    assert recs[2]["elo"] is None and recs[2]["ci_low"] is None and "void" in recs[2]["unrated"]
    assert to_csv(r).splitlines()[-1] == "ghost,,,,0,,,"


def test_ratings_of_a_ledger_whose_agent_failed_every_game(tmp_path, make_raw, test_kinds):
    """End to end: `failure_policy = "void"` voids every game of an agent that crashes;
    `meeple ratings` lists it as unrated, and refuses it as the anchor."""
    from tournament.config import build_config
    from tournament.runner import run_tournament

    agents = {"greedy": "heuristic", "random": "random", "crash": "test_crash(after=0)"}
    cfg = build_config(make_raw(agents=agents, seeds_per_lineup=2, failure_policy="void"))
    out = tmp_path / "fl"
    run_tournament(cfg, out, executor="serial")
    res = runner.invoke(app, ["ratings", str(out), "--json", "--bootstrap", "20"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    (crash,) = obj["unrated"]
    assert crash["agent"] == "crash" and crash["games"] == 0 and crash["void_games"] == 8
    assert crash["reason"] == "all 8 of its games void, its own failures: crash 8"
    assert crash["failures"] == {"crash": 8} and obj["games"]["void"] == 8
    rated = obj["ratings"]
    assert sorted(x["agent"] for x in rated) == ["greedy", "random"]
    assert sum(x["elo"] for x in rated) == pytest.approx(0, abs=0.2)  # crash not in the mean
    table = runner.invoke(app, ["ratings", str(out), "--bootstrap", "0"])
    assert "crash: unrated" in table.stdout and "│ 3 " not in table.stdout
    bad = runner.invoke(app, ["ratings", str(out), "--anchor", "crash"])
    assert bad.exit_code == 2 and "crash has no rating" in bad.output
