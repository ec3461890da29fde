"""Ratings of several ledgers do not depend on the order they are named in (the review:
`meeple ratings t2 sp2` and `sp2 t2` gave other names and other intervals), and the
report states the bootstrap's Monte Carlo error."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from tests.tournament.test_tournament_ratings import simulate
from tournament.cli import app
from tournament.ratings.fit import rate
from tournament.ratings.report import notes

runner = CliRunner()


def test_the_order_of_the_ledgers_changes_nothing(tmp_path, make_raw, write_toml):
    """The same two agents under other names in a second run (as an SPRT calls them A and
    B): one agent per id, named as in the first ledger by run id, the other name noted."""
    first = make_raw(agents={"random": "random", "noisy": "noisy(eps=0.8)"})
    second = make_raw(seed=11, agents={"A": "noisy(eps=0.8)", "B": "random"})
    outs = []
    for name, raw in (("one", first), ("two", second)):
        out = tmp_path / name
        argv = ["tournament", "run", str(write_toml(raw, f"{name}.toml")), "--out", str(out)]
        assert runner.invoke(app, [*argv, "--executor", "serial", "--quiet"]).exit_code == 0
        outs.append(str(out))

    def rated(*dirs):
        res = runner.invoke(app, ["ratings", *dirs, "--json", "--bootstrap", "40"])
        assert res.exit_code == 0, res.output
        obj = json.loads(res.stdout)
        return obj["ratings"], [n for n in obj["notes"] if "also named" in n]

    forward, backward = rated(*outs), rated(*reversed(outs))
    assert forward == backward
    assert len(forward[1]) == 2 and len(forward[0]) == 2  # two agents, each with an alias
    assert all(x["ci_low"] is not None and x["ci_high"] is not None for x in forward[0])
    alias = runner.invoke(app, ["ratings", *outs, "--anchor", "A", "--json"])
    assert alias.exit_code == 0, alias.output  # an alias names the agent too


def test_the_notes_state_the_bootstrap_monte_carlo_error():
    """More resamples, a smaller error: about one over the square root of their number."""
    agents, games = simulate([0, 100, 200], 60, np.random.default_rng(4))
    few = rate(agents, games, bootstrap=50, seed=1, plackett_luce=False)
    many = rate(agents, games, bootstrap=800, seed=1, plackett_luce=False)
    assert 1.5 < few.bound_noise[0] / many.bound_noise[0] < 10  # sqrt(16) = 4
    assert "their Monte Carlo error, one standard error: up to about ±" in notes(few)[0]
