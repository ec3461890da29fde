"""docs/CFR.md is the rendering of its data (docs/data/cfr.json, written by
scripts/bench_cfr.py): no figure typed by hand, each verdict computed from the figures."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest


@pytest.fixture
def bench(load_script):
    return load_script("bench_cfr")


def test_the_document_is_the_rendering_of_its_data(bench):
    doc = bench.doc
    assert doc.DOC.read_text() == doc.render(doc.load_data())


def test_every_section_was_measured_on_every_game(bench):
    data = bench.doc.load_data()
    for section in ("speed", "parallel", "blueprints", "strength", "ismcts", "exact"):
        games = {r["game"] for k, v in data.items() if k.startswith(section) for r in v["rows"]}
        assert len(games) == 4, section


def test_a_verdict_follows_its_figures(bench):
    doc = bench.doc
    data = json.loads(json.dumps(doc.load_data()))
    rows = [r for k, v in data.items() if k.startswith("speed") for r in v["rows"]]  # every part
    for r in rows:
        r["os_ratio"] = 1.2

    def os_row() -> str:
        title = "| OS traversal <= 1.5 x a random playout (every game) |"
        return next(x for x in doc.render(data).splitlines() if x.startswith(title))

    assert "staufer 1.20" in os_row() and os_row().endswith("| **holds** |")
    rows[0]["os_ratio"] = 1.6
    assert os_row().endswith("| misses |")


def test_the_quick_mode_writes_the_same_format(bench, tmp_path):
    data, out = tmp_path / "cfr.json", tmp_path / "CFR.md"
    assert bench.main(["--quick", "--data", str(data), "--out", str(out)]) == 0
    text = out.read_text()
    assert text == bench.doc.render(bench.doc.load_data(data))
    for title in ("## Against the targets", "## Traversal speed", "## The shipped blueprints"):
        assert title in text
    assert "python_coloretto(players=3)" in text and "## Exact CFR on tiny" in text


def test_a_new_measurement_of_a_game_replaces_its_old_row(bench, tmp_path):
    doc, path = bench.doc, tmp_path / "cfr.json"
    rows = [{"game": g, "x": 1} for g in ("a", "b")]
    doc.save_section(path, "speed-a-b", {"command": "c1", "code_version": "v", "rows": rows})
    doc.save_section(path, "exact-a-b", {"command": "c1", "code_version": "v", "rows": rows})
    new = [{"game": "b", "x": 2}]
    doc.save_section(path, "speed-b", {"command": "c2", "code_version": "v", "rows": new})
    data = doc.load_data(path)
    assert data["speed-a-b"]["rows"] == [{"game": "a", "x": 1}]
    assert data["speed-b"]["rows"] == new and data["exact-a-b"]["rows"] == rows
    doc.save_section(path, "speed-a", {"command": "c3", "code_version": "v", "rows": rows[:1]})
    assert "speed-a-b" not in doc.load_data(path)


def test_the_strength_section_measures_each_games_own_cfr_search(bench):
    """Coloretto's cfr-search is its tuned one (a one-decision subgame with heuristic
    rollouts); the other games keep the common spec; --search overrides every game."""
    from solvers.registry import make_agent
    from spiel_games import load_game

    coloretto = bench.search_spec("coloretto")
    assert "depth=1" in coloretto and "rollout=30" in coloretto
    assert bench.search_spec("rococo") == bench.SEARCH != coloretto
    assert bench.search_spec("coloretto", "cfr-search(iterations=5)") == "cfr-search(iterations=5)"
    for name in bench.GAMES:  # each one a valid agent of its game
        make_agent(bench.search_spec(name), load_game(bench.game_string(name)), seed=0)


def test_the_ismcts_sprts_keep_their_ledgers_where_asked(bench, tmp_path, monkeypatch):
    """--sprt-dir: one ledger per game, variant, seconds and cap, the same directory on a
    rerun (so the SPRT resumes); without it a throw-away directory. The rollout variant is
    left out where the default plays no rollout moves (the two agents would be one)."""
    seen = []

    def fake_play(req, where, workers, executor):
        seen.append((req.spec_a, where))
        v = SimpleNamespace(
            verdict="inconclusive", games=2, score=0.5, elo=0.0, elo_low=-1.0, elo_high=1.0
        )
        return v, None, None

    monkeypatch.setattr(bench, "play_sprt", fake_play)
    args = ("coloretto", 0.01, 2, ["prior", "opponents"], 1, "serial")
    bench.ismcts(*args, sprt_dir=tmp_path)
    bench.ismcts(*args, sprt_dir=tmp_path)
    where = [tmp_path / "coloretto" / f"{v}-0.01s-2g" for v in ("prior", "opponents")]
    assert [w for _, w in seen] == where * 2
    assert "prior=blueprint" in seen[0][0] and "opponents=blueprint" in seen[1][0]
    seen.clear()
    bench.ismcts(*args)
    assert all(not str(w).startswith(str(tmp_path)) for _, w in seen)
    seen.clear()
    out = bench.ismcts("rococo", 0.01, 2, ["rollout", "prior"], 1, "serial")
    assert [t["variant"] for t in out["tests"]] == ["prior"]
    out = bench.ismcts("coloretto", 0.01, 2, ["rollout"], 1, "serial")
    assert [t["variant"] for t in out["tests"]] == ["rollout"]
    assert "rollout=blueprint" in seen[-1][0]


def test_a_ledger_of_another_test_is_a_one_line_error(bench, tmp_path, monkeypatch, capsys):
    from tournament.sprt.gsprt import SprtError

    def refuse(*a, **k):
        raise SprtError("holds an SPRT with max_games 400, now 200\nmore")

    monkeypatch.setattr(bench, "play_sprt", refuse)
    argv = ["--sections", "ismcts", "--games", "coloretto", "--variants", "prior"]
    argv += ["--data", str(tmp_path / "d.json"), "--out", str(tmp_path / "o.md")]
    assert bench.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "bench_cfr.py: holds an SPRT with max_games 400, now 200"
    assert not (tmp_path / "d.json").exists() and not (tmp_path / "o.md").exists()
