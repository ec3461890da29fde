"""The JSON report carries what qualifies its numbers (the review: confidence, anchor,
bootstrap, one-sided reasons, warnings, void games, groups were in the table's notes only,
and `meeple ratings t2 roc --json` ranked a Rococo agent above Coloretto's in one list)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tournament.ratings.export import to_json
from tournament.ratings.fit import AgentInfo, Games, rate
from tournament.ratings.report import main_rows, notes


def _two_groups():
    """Agents 0-1 meet on 3 deals (0 wins 5 of 6), 2-3 on 3 others (2 wins every game)."""
    agents, ranks, blocks = [], [], []
    for s in range(3):
        for seats, first in (([0, 1], 0), ([1, 0], 1 if s == 0 else 0)):
            agents.append(seats)
            ranks.append([1, 2] if seats[0] == first else [2, 1])
            blocks.append(s)
        for seats in ([2, 3], [3, 2]):
            agents.append(seats)
            ranks.append([1, 2] if seats[0] == 2 else [2, 1])
            blocks.append(3 + s)
    n = len(agents)
    g = Games(np.array(agents), np.array(ranks), np.zeros((n, 2)), np.array(blocks))
    names = ["c-strong", "c-weak", "r-strong", "r-weak"]
    return [AgentInfo(x, x) for x in names], [g]


def test_the_json_says_how_its_numbers_were_made_and_which_are_comparable():
    agents, groups = _two_groups()
    agents[1].void_games, agents[1].failures = 2, {"timeout": 2}
    r = rate(agents, groups, bootstrap=40)
    obj = json.loads(to_json(r, {"games": 14, "ledgers": ["a", "b"]}))
    assert set(obj) == {
        "ratings", "unrated", "method", "games", "seat_terms", "groups", "ledgers",
        "warnings", "notes",
    }  # fmt: skip
    m = obj["method"]
    assert m["confidence"] == 0.95 and m["bootstrap"] == 40 and m["duplicate_sets"] == 6
    assert m["anchor"] == r.anchor and m["plackett_luce"] and m["luck_adjusted"] is None
    assert m["small_sample_factor"] > 1.0 and "ties as draws" in m["pairwise"]
    assert obj["games"] == {
        "read": 14, "rated": 14, "void": 0, "void_by_agent": {"c-weak": 2},
        "failures_by_agent": {"c-weak": {"timeout": 2}},
    }  # fmt: skip
    assert obj["groups"] == [["c-strong", "c-weak"], ["r-strong", "r-weak"]]
    assert any("disconnected" in w for w in obj["warnings"])
    assert obj["notes"] == notes(r)
    recs = obj["ratings"]
    # best first within each group, group by group: never one list across groups
    assert [(x["agent"], x["group"]) for x in recs] == [
        ("c-strong", 0), ("c-weak", 0), ("r-strong", 1), ("r-weak", 1)
    ]  # fmt: skip
    assert "won every game" in recs[2]["one_sided"] and recs[2]["ci_high"] is None
    for x in recs:  # the reason comes with every open end
        assert ("one_sided" in x) == (x["ci_low"] is None or x["ci_high"] is None)
    assert [row[0] for row in main_rows(r)] == ["1a", "2a", "1b", "2b"]


def _cycle_or_chain(cycle: bool):
    """Three agents, heads-up, 6 deals a pair: in a chain 0 > 1 > 2, in a cycle 0 > 1 > 2 > 0,
    each winning 5 of 6 against the one below."""
    pairs = [(0, 1), (1, 2), (0, 2) if not cycle else (2, 0)]
    agents, ranks, blocks = [], [], []
    for s in range(6):
        for a, b in pairs:
            for seats in ([a, b], [b, a]):
                upset = s == 0 and seats[0] == b
                agents.append(seats)
                winner = b if upset else a
                ranks.append([1, 2] if seats[0] == winner else [2, 1])
                blocks.append(s)
    n = len(agents)
    g = Games(np.array(agents), np.array(ranks), np.zeros((n, 2)), np.array(blocks))
    return [AgentInfo(x, x) for x in ("x", "y", "z")], [g]


def test_alpharank_is_shown_for_a_cycle_and_explained_not_for_a_chain():
    """Was: an alpharank column beside every table, 0.980 / 0.015 / 0.005 on any transitive
    one: the order again, read as if it were a probability."""
    from tournament.ratings.report import main_header

    chain = rate(*_cycle_or_chain(False), bootstrap=0)
    assert "alpharank" not in main_header(chain)
    assert any("alpharank: not shown: the pairwise table is transitive" in n for n in notes(chain))
    cycle = rate(*_cycle_or_chain(True), bootstrap=0)
    assert main_header(cycle)[-1] == "alpharank"
    assert any("stationary mass" in n and "not a strength scale" in n for n in notes(cycle))


def test_seat_win_rates_count_a_shared_first_place_as_a_fraction():
    """Was: a first place shared by two seats counted whole for each, so the seats' win
    rates summed above 1 (two of three games tied for first: 1.667)."""
    g = Games(
        agents=np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1]]),
        ranks=np.array([[1, 1, 3], [1, 2, 3], [2, 1, 1]]),
        scores=np.zeros((3, 3)),
        blocks=np.array([0, 1, 2]),
    )
    r = rate([AgentInfo(x, x) for x in "abc"], [g], bootstrap=0)
    rates = [s["win_rate"] for s in r.seats]
    assert rates == [np.mean([0.5, 1, 0]), np.mean([0.5, 0, 0.5]), np.mean([0, 0, 0.5])]
    assert sum(rates) == pytest.approx(1.0)
    assert any("a first place shared by k seats counting 1/k" in n for n in notes(r))
    assert any(n.startswith("crosstable: score diff is") for n in notes(r))
    from tournament.ratings.report import main_header

    assert main_header(r)[3:5] == ["95% low", "95% high"]
