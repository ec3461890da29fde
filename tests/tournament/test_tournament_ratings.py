"""Ratings on synthetic results: known order, CI coverage, anchoring, decomposition, warnings."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tournament.ratings.fit import AgentInfo, Games, RatingsError, pairwise, parse_anchor, rate


def simulate(true_elo, sets, rng, players=2, draw_rate=0.0):
    """Round-robin games from a Bradley–Terry (Plackett–Luce for N>2) model.

    Each duplicate set plays every rotation of one line-up; a shared 'deck luck' per set
    shifts one seat, so games in a set are correlated as in real duplicate play.
    """
    k = len(true_elo)
    strength = 10 ** (np.asarray(true_elo) / 400)
    agents, ranks, blocks = [], [], []
    lineups = [tuple(c) for c in __import__("itertools").combinations(range(k), players)]
    for b in range(sets):
        lu = lineups[b % len(lineups)]
        luck = rng.normal(0, 0.3, size=players)  # seat luck of this deck
        for r in range(players):
            seats = [lu[(i + r) % players] for i in range(players)]
            w = strength[seats] * np.exp(luck)
            order, remaining = [], list(range(players))
            while remaining:  # Plackett–Luce draw of the finishing order
                p = w[remaining] / w[remaining].sum()
                pick = remaining[rng.choice(len(remaining), p=p)]
                order.append(pick)
                remaining.remove(pick)
            rk = np.empty(players, dtype=np.int64)
            rk[order] = np.arange(1, players + 1)
            if draw_rate and rng.random() < draw_rate:
                rk[:] = 1
            agents.append(seats)
            ranks.append(rk)
            blocks.append(b)
    g = Games(np.array(agents), np.array(ranks), np.zeros((len(agents), players)), np.array(blocks))
    return [AgentInfo(f"a{i}", f"a{i}") for i in range(k)], [g]


def test_elo_recovers_a_known_order_and_scale():
    true = [0, 100, 200, 400]
    agents, games = simulate(true, 800, np.random.default_rng(1))
    r = rate(agents, games, bootstrap=0)
    assert list(np.argsort(r.elo)) == [0, 1, 2, 3]
    assert r.elo.mean() == pytest.approx(0, abs=1e-9)  # the mean anchored at 0 by default
    np.testing.assert_allclose(r.elo - r.elo[0], true, atol=60)


def test_bootstrap_intervals_cover_the_truth():
    true = np.array([0, 60, 120, 200])
    covered, width = 0, []
    trials = 30
    for t in range(trials):
        agents, games = simulate(true, 120, np.random.default_rng(100 + t))
        r = rate(agents, games, bootstrap=60, seed=t)
        # the mean is anchored at 0: compare with the truth centred the same way
        centred = true - true.mean()
        covered += sum(r.ci_low[i] <= centred[i] <= r.ci_high[i] for i in range(4))
        width.append(np.mean(r.ci_high - r.ci_low))
    coverage = covered / (4 * trials)
    assert coverage >= 0.8, coverage  # nominal 95%; 60 resamples and 30 trials are noisy
    assert 20 < np.mean(width) < 400


@pytest.mark.slow  # 40 tables rated with 100 resamples each: 15-35 s
@pytest.mark.parametrize("sets", [3, 4])
def test_intervals_on_few_duplicate_sets_cover_the_truth(sets):
    """Was: on three or four duplicate sets the percentile bootstrap claimed 95% and
    covered 0.69 and 0.78 (Elo; Plackett-Luce 0.71 and 0.80): resampling so few sets draws
    the same ones again and again. Stretched by sqrt(n/(n-1)) * t/z, both cover at least
    0.85 here (0.93 and 0.95 Elo over 100 trials, 0.88 and 0.92 Plackett-Luce); the report
    warns that such intervals rest on few sets."""
    true = np.array([0.0, 80.0, 160.0])
    centred = true - true.mean()
    hits = {"elo": 0, "pl": 0}
    trials = 40
    for t in range(trials):
        agents, games = simulate(true, sets, np.random.default_rng(1000 * sets + t), players=3)
        r = rate(agents, games, bootstrap=100, seed=t)
        pl = r.plackett_luce
        hits["elo"] += sum(r.ci_low[i] <= centred[i] <= r.ci_high[i] for i in range(3))
        hits["pl"] += sum(pl.ci_low[i] <= centred[i] <= pl.ci_high[i] for i in range(3))
    assert hits["elo"] / (3 * trials) >= 0.85, hits
    assert hits["pl"] / (3 * trials) >= 0.85, hits
    assert any("duplicate sets" in w and "stretched" in w for w in r.warnings)


def test_n_player_games_decompose_pairwise_with_ties_as_draws():
    g = Games(
        agents=np.array([[0, 1, 2]]),
        ranks=np.array([[1, 2, 2]]),
        scores=np.array([[10.0, 5.0, 5.0]]),
        blocks=np.array([0]),
    )
    blk, a, b, w = pairwise(g, 3)
    results = sorted(zip(a.tolist(), b.tolist(), w.tolist(), strict=True))
    assert results == [(0, 1, 1), (0, 2, 1), (1, 2, 0)]


def test_anchor_option_and_mean_default():
    """Was: `random` (else the lowest agent) anchored at 0 by default, so every other
    interval carried the uncertainty of random's rating (greedy 638 [446, 1476] in the demo).
    Now the mean is 0 (Ordo's convention) and --anchor still pins one agent."""
    agents, games = simulate([0, 300], 200, np.random.default_rng(3))
    agents[1] = AgentInfo("a1", "random", "random")
    r = rate(agents, games, bootstrap=20)
    assert r.elo[0] + r.elo[1] == pytest.approx(0) and r.elo[0] < -75
    assert r.anchor == "mean rating = 0"
    assert r.ci_low[1] < r.elo[1] < r.ci_high[1]  # random is measured too, not pinned
    r2 = rate(agents, games, bootstrap=20, anchor=("a0", 1000.0))
    assert r2.elo[0] == 1000 and r2.ci_low[0] == r2.ci_high[0] == 1000
    assert r2.elo[1] - r2.elo[0] == pytest.approx(r.elo[1] - r.elo[0])
    with pytest.raises(RatingsError, match="nobody"):
        rate(agents, games, anchor=("nobody", 0.0))
    assert parse_anchor("mcts@10=1500") == ("mcts@10", 1500.0)
    assert parse_anchor("random") == ("random", 0.0)
    with pytest.raises(RatingsError, match="AGENT=ELO"):
        parse_anchor("=1500")
    for text in ("a0=nan", "a0=inf"):  # was: accepted, every rating shown as '-'
        with pytest.raises(RatingsError, match="AGENT=ELO"):
            parse_anchor(text)


def test_an_anchor_elo_is_bounded_as_the_sprt_bounds_its_elo(tmp_path):
    """Was: `--anchor h=1e308` exited 0 with every agent at 1e+308 (the ranking lost)."""
    from typer.testing import CliRunner

    from tournament.cli import app
    from tournament.sprt.gsprt import MAX_ELO

    assert parse_anchor(f"a0={MAX_ELO}") == ("a0", MAX_ELO)
    assert parse_anchor(f"a0=-{MAX_ELO}") == ("a0", -MAX_ELO)
    for elo in ("1e308", "-1e308", f"{MAX_ELO + 1}", f"-{MAX_ELO}.5"):
        with pytest.raises(RatingsError, match=f"ELO in \\[-{MAX_ELO}, {MAX_ELO}\\]"):
            parse_anchor(f"a0={elo}")
    r = CliRunner().invoke(app, ["ratings", str(tmp_path), "--anchor", "h=1e308"])
    assert r.exit_code == 2 and r.output.count("\n") == 1  # before any ledger is read
    assert (
        r.output
        == "error: --anchor must be AGENT or AGENT=ELO with ELO in [-2000, 2000], got 'h=1e308'\n"
    )


def test_the_anchor_help_says_the_rating_is_optional():
    """Was: `ratings --help` showed `--anchor AGENT=ELO`, though a bare AGENT is accepted (at 0)."""
    from typer.testing import CliRunner

    from tournament.cli import app

    text = CliRunner().invoke(app, ["ratings", "--help"], env={"COLUMNS": "300"}).output
    line = next(x for x in text.splitlines() if "--anchor" in x)
    assert "AGENT[=ELO]" in line and "(AGENT alone: 0)" in line


def test_mean_anchor_gives_narrower_intervals_than_a_weak_reference():
    """Was: intervals anchored on an agent that almost never wins were 1,000+ Elo wide. An
    anchor that rarely wins leaves the others' intervals wide; one that (nearly) never wins
    leaves their upper ends open (in more than 2.5% of the resamples it won nothing)."""
    width = lambda r: (r.ci_high[1:] - r.ci_low[1:]).mean()  # noqa: E731
    agents, games = simulate([0, 300, 400, 500], 60, np.random.default_rng(8))
    pinned = rate(agents, games, bootstrap=100, anchor=("a0", 0.0))
    mean = rate(agents, games, bootstrap=100)
    assert np.isfinite(width(pinned)) and width(mean) < 0.75 * width(pinned)
    agents, games = simulate([0, 700, 800, 900], 60, np.random.default_rng(8))
    pinned = rate(agents, games, bootstrap=100, anchor=("a0", 0.0))
    assert (pinned.ci_high[1:] == np.inf).all() and np.isfinite(width(rate(agents, games)))


def test_an_agent_that_won_or_lost_everything_has_a_one_sided_interval():
    """Was: a perfect record got a finite, meaningless upper bound from the smoothing."""
    from tournament.ratings.report import notes, render

    agents = [AgentInfo(x, x) for x in ("top", "mid", "low")]
    rows = [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]] * 10
    ranks = []
    for a, b in rows:  # top beats everyone, low loses to everyone, mid vs... mid beats low
        ranks.append([1, 2] if a < b else [2, 1])
    g = Games(np.array(rows), np.array(ranks), np.zeros((60, 2)), np.arange(60) // 2)
    r = rate(agents, [g], bootstrap=30)
    assert r.one_sided[0].startswith("won every game") and r.one_sided[1] == ""
    assert r.one_sided[2].startswith("lost every game")
    assert r.ci_high[0] == np.inf and np.isfinite(r.ci_low[0])
    assert r.ci_low[2] == -np.inf and np.isfinite(r.ci_high[2])
    assert r.elo[1] == pytest.approx(0)  # the mean of the finite ratings (mid's alone)
    text = "\n".join(notes(r))
    assert "top won every game: one-sided interval (lower bound only)" in text
    assert "smoothing_factor 0.01" in text
    recs = {x["agent"]: x for x in __import__("json").loads(render(r, "json"))["ratings"]}
    assert recs["top"]["ci_high"] is None and recs["low"]["ci_low"] is None


def test_heatmap_text_colour_follows_the_cell_luminance():
    """Was: black numbers on every cell, unreadable on the dark ends of the colour map."""
    import matplotlib

    from tournament.ratings.plots import text_colour

    cmap = matplotlib.colormaps["RdBu"]
    assert text_colour(cmap(0.0)) == "white" and text_colour(cmap(1.0)) == "white"
    assert text_colour(cmap(0.5)) == "black"
    assert text_colour((1.0, 1.0, 1.0)) == "black" and text_colour((0.0, 0.0, 0.0)) == "white"


def test_disconnected_comparison_graph_is_warned():
    a1, g1 = simulate([0, 100], 50, np.random.default_rng(4))
    g2 = Games(g1[0].agents + 2, g1[0].ranks, g1[0].scores, g1[0].blocks + 50)
    agents = [AgentInfo(f"a{i}", f"a{i}") for i in range(4)]
    r = rate(agents, [g1[0], g2], bootstrap=0)
    assert len(r.components) == 2
    assert any("disconnected" in w for w in r.warnings)
    assert r.alpharank is None  # pairs that never met


def test_crosstable_los_games_and_alpharank():
    agents, games = simulate([0, 150, 300], 300, np.random.default_rng(5), players=3)
    r = rate(agents, games, bootstrap=0)
    assert r.games.tolist() == [300 * 3] * 3  # every agent is in every 3-player game
    assert r.wins[2, 0] > r.wins[0, 2]
    assert r.los[2, 0] > 0.99 and r.los[0, 2] < 0.01 and math.isnan(r.los[0, 0])
    assert r.alpharank is not None and int(np.argmax(r.alpharank)) == 2
    assert abs(r.alpharank.sum() - 1) < 1e-9
    seats = {s["seat"]: s for s in r.seats}
    assert sum(s["win_rate"] for s in seats.values()) == pytest.approx(1.0)


def test_no_rated_games_is_an_error():
    agents = [AgentInfo("a", "a"), AgentInfo("b", "b")]
    g = Games(np.array([[0, 0]]), np.array([[1, 2]]), np.zeros((1, 2)), np.array([0]))
    with pytest.raises(RatingsError, match="no rated games"):
        rate(agents, [g])
