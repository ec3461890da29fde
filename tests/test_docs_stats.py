"""docs/TOURNAMENTS-STATS.md is the rendering of its data file (issue 30): no figure in it is
typed by hand, and every target's verdict is computed from the figures."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def stats(load_script):
    return load_script("bench_stats")


def test_the_document_is_the_rendering_of_its_data(stats):
    assert stats.DOC.read_text() == stats.render(stats.load_data())
    assert stats.main(["render", "--check"]) == 0


def test_every_measurement_is_in_the_data(stats):
    data = stats.load_data()
    assert {"sprt_sim", "sprt_real", "pl", "luck", "adaptive"} <= set(data)
    assert {r["game"] for r in data["pl"]} == set(stats.GAMES.values())
    assert {r["game"] for r in data["luck"]} == set(stats.GAMES.values())
    assert all(r["games"] >= 300 for r in data["luck"])  # the verdict says when < 2,000
    assert {r["game"] for r in data["luck_ceiling"]} == set(stats.GAMES.values())
    assert all(r["replayed_games"] == r["games"] for r in data["luck_ceiling"])
    assert len(data["adaptive"]) >= 2 and all(len(r["agents"]) >= 6 for r in data["adaptive"])
    sim = data["adaptive_sim"]["rows"]  # the looks rule's error rates, small fields included
    assert all(r["trials"] >= 200 for r in sim)
    assert {len(r["true_elo"]) for r in sim if r["rule"] == "looks"} == {2, 4}
    aa = [r for r in data["sprt_sim"]["rows"] if r["elo"] == data["sprt_sim"]["bounds"][0]]
    assert all(r["runs"] >= 200 for r in aa) and len(data["sprt_real"]["aa"]["rows"]) >= 20


def test_a_verdict_follows_its_figures(stats):
    """Change a figure and the rendered verdict changes with it."""
    data = json.loads(json.dumps(stats.load_data()))
    for r in data["luck"]:
        r["pairwise"]["within"] = [0.5, 0.2, 0.3]
        r["games"], r["mean_pair_adjustment"], r["se_pair_adjustment"] = 2040, 0.001, 0.01
    text = stats.render(data)
    assert "at least 30% lower on every game: met" in text
    assert "at least 2,000 games per game: met." in text
    data["luck"][0]["pairwise"]["within"] = [0.5, 0.45, 0.48]
    assert "at least 30% lower on every game: **missed**" in stats.render(data)
    data["luck"][1]["games"] = 360
    text = stats.render(data)
    assert "2,000 games per game: **missed** (1 of the 4 games measured on fewer" in text
    data["luck"][2]["mean_pair_adjustment"] = 0.05
    assert "within two standard errors: no" in stats.render(data)


def test_check_fails_on_a_stale_document(stats, tmp_path, monkeypatch):
    doc = tmp_path / "doc.md"
    doc.write_text("stale\n")
    monkeypatch.setattr(stats, "DOC", doc)
    assert stats.main(["render", "--check"]) == 1
    assert doc.read_text() == "stale\n"  # --check never writes


def test_the_sd_ratio_interval_covers_a_known_reduction(load_script):
    """Luck that is half of each result, by duplicate set: the bootstrap interval of
    SD(result - luck) / SD(result) covers the true ratio; no luck gives exactly 1."""
    import numpy as np

    luck_phase = load_script("bench_stats_luck")
    rng = np.random.default_rng(1)
    sets = np.repeat(np.arange(300), 3)
    luck = rng.normal(size=900)
    result = luck + rng.normal(size=900)  # SD sqrt(2); less the luck: 1
    lo, hi = luck_phase._ratio_ci(result, luck, sets)
    assert lo < 1 / np.sqrt(2) < hi and hi - lo < 0.15
    assert luck_phase._ratio_ci(result, np.zeros(900), sets) == [1.0, 1.0]


def test_the_pool_search_agent_is_pinned_to_the_ledgers_opponent_model(stats):
    """The pool ledgers were played by IS-MCTS with the heuristic opponent model; the
    default became opponents=infer since, so the pool spec names its model."""
    import spiel_games
    from solvers.assumptions import assumed_opponents

    for game in stats.GAMES.values():
        said = assumed_opponents(spiel_games.load_game(game), stats.POOL["ismcts8"])
        assert said.startswith("opponents=heuristic")


@pytest.mark.parametrize("phase", ["luck", "luck-ceiling"])
def test_the_luck_phases_run_quick_and_save_nothing(stats, tmp_path, capsys, phase):
    before = stats.DATA.read_text()
    args = [phase, "--quick", "--runs", str(tmp_path), "--games", "coloretto", "--seeds", "2"]
    assert stats.main(args) == 0
    err = capsys.readouterr().err
    assert ("luck coloretto:" if phase == "luck" else "luck ceiling coloretto:") in err
    assert "'replayed_games': 6," in err or phase == "luck"  # the ledger replays exactly
    assert stats.DATA.read_text() == before
