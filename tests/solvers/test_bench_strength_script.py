"""scripts/bench_strength.py: the tables it plays, and a fixed table through the runner."""

import pytest


@pytest.fixture
def module(load_script):
    return load_script("bench_strength")


def test_three_players_sit_the_three_measured_agents(module):
    agents, seats = module.tables(3)
    assert seats == [["heuristic", "ismcts400", "ismcts1600"]]
    assert agents == {
        "heuristic": "heuristic",
        "ismcts400": "ismcts(sims=400)",
        "ismcts1600": "ismcts(sims=1600)",
    }


@pytest.mark.parametrize("filler", ["heuristic", "random"])
def test_a_fourth_seat_is_the_filler(filler, module):
    agents, seats = module.tables(4, filler)
    assert seats == [["heuristic", "ismcts400", "ismcts1600", filler]]
    assert set(agents) == {"heuristic", "ismcts400", "ismcts1600"} | {filler}


def test_a_fixed_table_with_the_heuristic_in_two_seats_is_played_and_rated(tmp_path, module):
    """The 4-player table of the benchmark goes through the tournament runner: balanced
    seating plays the 12 distinct seat orders (the heuristic in two seats) over 3 seeds,
    one order of play (4 rotations) per seed, and the heuristic's two seats give two
    pairs per game against each search."""
    agents = {"heuristic": "heuristic", "a": "ismcts(sims=8)", "b": "ismcts(sims=16)"}
    seats = [["heuristic", "a", "b", "heuristic"]]
    r = module.play("python_coloretto(players=4)", agents, 3, 1, "serial", tmp_path / "x", seats)
    rows = {(a, b): (n, d) for a, b, _, n, d in module.shares(r)}
    assert rows[("a", "b")][0] == 12  # three seeds x four rotations
    assert rows[("a", "heuristic")][0] == 24  # two heuristic seats in each of the twelve games
    # the score difference is a's mean score minus b's over the games of the ledger
    from tournament.ledger import read_ledger

    ids = {x.name: x.id for x in r.agents}
    games = read_ledger(tmp_path / "x", ["agents", "scores"]).table.to_pylist()
    diffs = [
        g["scores"][g["agents"].index(ids["a"])] - g["scores"][g["agents"].index(ids["b"])]
        for g in games
    ]
    assert len(diffs) == 12
    assert rows[("a", "b")][1] == pytest.approx(sum(diffs) / len(diffs))
    orders = read_ledger(tmp_path / "x", ["agents", "seed_index"]).table.to_pylist()
    assert len({tuple(g["agents"]) for g in orders}) == 12  # every seat order once
    assert len({g["seed_index"] for g in orders}) == 3  # on three deals
    # the intervals bracket the point values, and the table shows them
    ci = module.intervals(tmp_path / "x", r)
    for a, b, share, _, diff in module.shares(r):
        s_lo, s_hi, d_lo, d_hi = ci[(a, b)]
        assert s_lo <= share <= s_hi and d_lo <= diff + 1e-9 and diff - 1e-9 <= d_hi
    line = next(x for x in module.table(r, ci) if x.startswith("| a | b |"))
    assert line.count("..") == 2


def test_intervals_resample_whole_seeds(tmp_path, module):
    """One seed's games move together: with a single seed every bootstrap draw is that
    seed, so both intervals shrink to the point values."""
    agents = {"heuristic": "heuristic", "random": "random"}
    r = module.play("python_coloretto(players=3)", agents, 1, 1, "serial", tmp_path / "y")
    ci = module.intervals(tmp_path / "y", r, draws=50)
    for a, b, share, _, diff in module.shares(r):
        s_lo, s_hi, d_lo, d_hi = ci[(a, b)]
        assert s_lo == pytest.approx(share) == pytest.approx(s_hi)
        assert d_lo == pytest.approx(diff, abs=1e-4) == pytest.approx(d_hi, abs=1e-4)
