"""The mean anchor and the intervals a report shows: point ratings that do not move with
the bootstrap, a note naming the anchor's agents, unmeasured intervals shown as such,
luck-adjusted ratings on the raw table's reference, and plots of open ends."""

from __future__ import annotations

import json
import math

import numpy as np

from tournament.ratings.fit import AgentInfo, Games, rate
from tournament.ratings.report import notes, to_csv, to_json


def near_separated(sets: int = 12, seed: int = 0):
    """A, B, C flip coins among themselves; D loses every game but one (to A)."""
    rng = np.random.default_rng(seed)
    agents, ranks, blocks, ids = [], [], [], []
    won = False
    for b in range(sets):
        for x in range(4):
            for y in range(x + 1, 4):
                for seats in ([x, y], [y, x]):
                    if y == 3:
                        x_wins = not (x == 0 and not won and b == sets // 2)
                        won = won or not x_wins
                    else:
                        x_wins = rng.random() < 0.5
                    first = x_wins == (seats[0] == x)
                    agents.append(seats)
                    ranks.append([1, 2] if first else [2, 1])
                    blocks.append(b)
                    ids.append(f"g{len(ids)}")
    g = Games(
        np.array(agents),
        np.array(ranks),
        np.zeros((len(agents), 2)),
        np.array(blocks),
        np.array(ids, dtype=object),
    )
    return [AgentInfo(n, n) for n in "ABCD"], [g]


def test_point_ratings_do_not_move_with_the_seed_or_the_bootstrap():
    """Was: the agents the mean anchor averages were chosen by the user's bootstrap
    resamples, so every rating moved with --seed and --bootstrap (82, 110 or 164 for one
    agent of one ledger), and --bootstrap 0 kept a near-separated agent in the anchor."""
    agents, games = near_separated()
    runs = [(0, 0), (50, 1), (50, 2), (5, 3), (5, 4), (120, 5)]
    elos = [rate(agents, games, bootstrap=b, seed=s, plackett_luce=False).elo for b, s in runs]
    for e in elos[1:]:
        np.testing.assert_allclose(e, elos[0], atol=1e-9)
    r = rate(agents, games, bootstrap=50, plackett_luce=False)
    assert r.anchor_set is not None and r.anchor_set.tolist() == [True, True, True, False]
    assert abs(r.elo[:3].mean()) < 1e-9  # what the note says: the mean of A, B, C is 0


def test_the_anchor_note_names_its_agents_when_some_are_left_out():
    """Was: "anchor: mean rating = 0" while the ratings' mean was far from 0."""
    agents, games = near_separated()
    r = rate(agents, games, bootstrap=50, plackett_luce=False)
    assert r.anchor.startswith("mean rating of A, B, C = 0 (D left out: separated results")
    assert notes(r)[0].startswith("anchor: mean rating of A, B, C = 0")


def test_intervals_not_measured_are_not_shown_as_exact():
    """Was: --bootstrap 0 (or a single duplicate set) printed each bound equal to the
    estimate (ismcts 293.1 [293.1, 293.1]) and the note "95% CI from no CI"."""
    agents, games = near_separated()
    r = rate(agents, games, bootstrap=0)
    assert np.isnan(r.ci_low[:3]).all() and np.isnan(r.ci_high[:3]).all()
    assert np.isnan(r.plackett_luce.ci_low[:3]).all()
    assert all(math.isnan(s["ci_low"]) for s in r.plackett_luce.seats)
    rec = {x["agent"]: x for x in json.loads(to_json(r))["ratings"]}
    assert rec["A"]["ci_low"] is None and rec["A"]["ci_high"] is None
    assert "A," + str(rec["A"]["elo"]) + ",,," in to_csv(r)
    assert "no confidence intervals (--bootstrap 0; shown as '-')" in notes(r)[0]
    first = games[0].blocks == 0
    g = games[0]
    one = Games(g.agents[first], g.ranks[first], g.scores[first], g.blocks[first], g.ids[first])
    single = rate(agents, [one], bootstrap=50, plackett_luce=False)
    assert "no confidence intervals (a single duplicate set" in notes(single)[0]
    pinned = rate(agents, games, bootstrap=0, anchor=("B", 10.0), plackett_luce=False)
    assert pinned.ci_low[1] == pinned.ci_high[1] == 10.0  # the reference is exact


def test_luck_adjusted_ratings_keep_the_raw_anchor_and_open_ends():
    """Was: the adjusted results' own resamples judged the open ends, so luck's noise
    closed the end the raw results leave open (random [-977, -403] against [-inf, -586])
    and brought that agent into the mean anchor, moving every rating by ~180 Elo."""
    from tournament.ratings.adjusted import adjust

    agents, games = near_separated()
    r = rate(agents, games, bootstrap=60, plackett_luce=False)
    raw_elo, raw_low = r.elo.copy(), r.ci_low.copy()
    assert raw_low[3] == -math.inf
    rng = np.random.default_rng(3)
    luck = {}
    for gid, seats in zip(games[0].ids, games[0].agents, strict=True):
        x = rng.normal(0, 0.3)
        x = -abs(x) if seats[0] == 3 else abs(x) if seats[1] == 3 else x  # D's pairs lifted
        luck[gid] = {"pairs": [[0.0, x], [-x, 0.0]]}
    adjust(r, games, luck, bootstrap=60, anchor=None)
    assert r.ci_low[3] == -math.inf  # the raw results leave it open: so does the adjustment
    assert r.anchor_set.tolist() == [True, True, True, False]
    assert abs(r.elo[:3].mean()) < 1e-9
    assert np.abs(r.elo[:3] - raw_elo[:3]).max() < 100


def test_luck_adjusted_ratings_report_their_own_bounds_monte_carlo_error():
    """Was: the note's "Monte Carlo error of a bound shown" was the raw table's, kept
    beside the adjusted bounds (46.7 at ismcts's upper bound in both, found in review)."""
    from tournament.ratings.adjusted import adjust

    agents, games = near_separated()
    r = rate(agents, games, bootstrap=60, plackett_luce=False)
    raw = r.bound_noise
    luck = {gid: {"pairs": [[0.0, 0.2], [-0.2, 0.0]]} for gid in games[0].ids}
    adjust(r, games, luck, bootstrap=60, anchor=None)
    assert math.isfinite(r.bound_noise[0]) and r.bound_noise != raw
    adjust(r, games, luck, bootstrap=0, anchor=None)
    assert math.isnan(r.bound_noise[0])  # no resamples: no bound, no error


def test_ladder_and_elo_plots_draw_open_ends_to_the_edge_uncapped():
    """Was: the ladder plot drew an unbounded end as a capped bar that stopped at the
    estimate, unlabelled."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tournament.ratings.plots import _intervals

    fig, ax = plt.subplots()
    _intervals(ax, [5, 10], [0.0, 80.0], [-50.0, 20.0], [40.0, math.inf], True, "k")
    top = ax.get_ylim()[1]
    dotted = [ln for ln in ax.lines if ln.get_linestyle() == ":"]
    assert len(dotted) == 1 and max(dotted[0].get_ydata()) == top
    caps = [ln.get_ydata()[0] for ln in ax.lines if ln.get_marker() == "_"]
    assert sorted(caps) == [-50.0, 20.0, 40.0]  # every finite end, never the estimate 80
    assert [t.get_text() for t in ax.texts] == ["unbounded above"]
    plt.close(fig)


def test_an_anchor_agent_is_never_separated_in_more_resamples_than_an_end_may_leave_open():
    """Was (meeple demo): random was separated in 2.5% of the anchor's fixed resamples, so
    it stayed in the mean anchor, and in 3-4.5% of the bootstrap's, which opened the upper
    end of every other agent (three of four showed +inf). The anchor now keeps only agents
    separated in at most a quarter of that share of its fixed resamples."""
    from tournament.ratings.separation import with_resamples

    full = np.ones((3, 3), dtype=bool)  # C beat or drew A and B at least once
    lost = full.copy()
    lost[2, :] = False  # a resample in which C lost every game
    fixed = [full] * 980 + [lost] * 20  # C separated in 2% of the anchor's resamples
    boot = [full] * 960 + [lost] * 40  # and in 4% of the bootstrap's
    sep, (high, low) = with_resamples(full, boot, None, 0.95, fixed)
    assert sep.anchor.tolist() == [True, True, False]
    assert high[:2].max() <= 0.025 and low[2] == 0.04  # only C's own end opens


def test_pool_tables_tell_an_open_end_from_one_not_measured():
    """Was: the pool and ladder tables read every null bound as open, so a rating without
    resamples (one deal) printed -inf .. +inf for every agent, and an SPRT with too few
    sets printed (+nan .. +nan)."""
    from types import SimpleNamespace

    from tournament.pool import _elo_span, rating_table

    agents, games = near_separated()
    r = rate(agents, games, bootstrap=0)
    rows = {line.split(" | ")[0].strip("| "): line for line in rating_table(r)[2:]}
    assert "| n/a .. n/a |" in rows["A"] and "inf" not in rows["A"]
    one_sided = rate(*near_separated(), bootstrap=50)
    assert (
        "-inf .. "
        in {ln.split(" | ")[0].strip("| "): ln for ln in rating_table(one_sided)[2:]}["D"]
    )
    assert _elo_span(SimpleNamespace(elo_low=math.nan, elo_high=math.nan)) == "n/a: too few sets"


def test_the_reference_agent_is_exact_in_both_fits():
    """Was: a pinned agent's Plackett-Luce interval was '-' without resamples while its Elo
    one was exact, and the one agent a mean anchor keeps showed '-' though the note says
    its interval has no width."""
    agents, games = near_separated()
    pinned = rate(agents, games, bootstrap=0, anchor=("B", 10.0))
    assert pinned.plackett_luce.ci_low[1] == pinned.plackett_luce.ci_high[1] == 10.0


def test_a_lone_mean_anchor_agent_is_exact_in_the_luck_adjusted_table_too(tmp_path):
    """Found in review: where the mean anchor keeps one agent (the others separated), the
    raw table showed its bounds as 0.0 0.0 (exact by definition) and the luck-adjusted
    table as '-' (unmeasured), under the same note."""
    import json

    from typer.testing import CliRunner

    from tournament.cli import app

    toml = tmp_path / "t.toml"
    toml.write_text(
        '[tournament]\ngame="python_coloretto(players=3)"\nseeds_per_lineup=3\nseed=7\n'
        '[agents]\nrandom="random"\ngreedy="heuristic"\nnoisy="noisy(eps=0.3)"\n'
    )
    out = tmp_path / "L"
    runner = CliRunner()
    assert (
        runner.invoke(app, ["tournament", "run", str(toml), "--out", str(out), "-q"]).exit_code == 0
    )
    tables = []
    for extra in ([], ["--luck-adjusted"]):
        r = runner.invoke(app, ["ratings", str(out), "--bootstrap", "0", "--json", *extra])
        assert r.exit_code == 0, r.output
        tables.append({x["agent"]: x for x in json.loads(r.stdout)["ratings"]})
    for table in tables:
        assert table["noisy"]["elo"] == table["noisy"]["ci_low"] == table["noisy"]["ci_high"] == 0.0
