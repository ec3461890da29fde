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
    """One seed's games move together: with a single seed (one table: one deal) every
    bootstrap draw is that seed, so both intervals shrink to the point values."""
    agents = {"heuristic": "heuristic", "random": "random"}
    seats = [["heuristic", "random", "random"]]
    r = module.play("python_coloretto(players=3)", agents, 1, 1, "serial", tmp_path / "y", seats)
    ci = module.intervals(tmp_path / "y", r, draws=50)
    for a, b, share, _, diff in module.shares(r):
        s_lo, s_hi, d_lo, d_hi = ci[(a, b)]
        assert s_lo == pytest.approx(share) == pytest.approx(s_hi)
        assert d_lo == pytest.approx(diff, abs=1e-4) == pytest.approx(d_hi, abs=1e-4)


def test_a_game_without_scores_counts_in_the_share_not_the_difference(tmp_path, module):
    """Under rank-last a failed game keeps its ranks but its scores are NaN: the ratings
    leave it out of the score difference, and so must the intervals (a NaN drawn into
    a bootstrap mean would make the bounds arbitrary)."""
    import pyarrow.parquet as pq

    agents = {"heuristic": "heuristic", "random": "random"}
    r = module.play("python_coloretto(players=3)", agents, 2, 1, "serial", tmp_path / "z")
    part = sorted((tmp_path / "z").glob("part-*.parquet"))[0]
    t = pq.read_table(part)
    scores = t.column("scores").to_pylist()
    scores[0] = [float("nan")] * len(scores[0])
    t = t.set_column(t.schema.get_field_index("scores"), "scores", [scores])
    pq.write_table(t, part)
    ci = module.intervals(tmp_path / "z", r, draws=200)
    for s_lo, s_hi, d_lo, d_hi in ci.values():
        assert all(x == x for x in (s_lo, s_hi, d_lo, d_hi))  # no NaN
        assert s_lo <= s_hi and d_lo <= d_hi


@pytest.mark.parametrize(
    "table,seeds,text",
    [
        (["heuristic", "ismcts400", "ismcts1600"], 10, "every seat order"),
        (["heuristic", "ismcts400", "ismcts1600", "heuristic"], 12, "every seat order"),
        (
            ["heuristic", "ismcts400", "ismcts1600", "heuristic"],
            2,
            "8 of 12 seat orders, unevenly (2 seeds over 3 orders of play",
        ),
    ],
)
def test_the_heading_says_which_seat_orders_were_played(table, seeds, text, module):
    assert module.orders_played(table, seeds).startswith(text)


def test_sprt_mode_confirms_a_clear_gap_and_not_a_reversed_one(tmp_path, module):
    """--sprt runs each comparison through tournament.sprt: a clear gap is SPRT-confirmed
    (H1), the reversed comparison is not (H0)."""
    specs = {"strong": "heuristic", "weak": "random"}
    lines = module.sprt_table(
        "python_coloretto(players=2)",
        (("strong", "weak"), ("weak", "strong")),
        specs,
        "gain",
        400,
        1,
        "serial",
        tmp_path,
    )
    rows = [x for x in lines if x.startswith("| strong") or x.startswith("| weak")]
    assert rows[0].startswith("| strong | weak | H1 | yes |")
    assert rows[1].startswith("| weak | strong | H0 | no |")
    assert (tmp_path / "sprt-strong-weak" / "manifest.json").exists()  # an ordinary ledger
