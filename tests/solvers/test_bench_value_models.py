"""scripts/bench_value_models.py: the held-out R^2 table of docs/solvers.md is the rendering of
docs/data/value-models.json; the bootstrap and the verdicts follow the figures."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest


@pytest.fixture
def bench(load_script):
    return load_script("bench_value_models")


def test_the_document_is_the_rendering_of_its_data(bench):
    data = json.loads(bench.DATA.read_text())
    text = bench.DOC.read_text()
    block = text[text.index(bench.START) : text.index(bench.END) + len(bench.END)]
    assert block == bench.render(data)


def test_every_game_was_measured_on_held_out_search_games(bench):
    data = json.loads(bench.DATA.read_text())
    assert data, "no game measured"
    for record in data.values():
        assert record["agent"].startswith("ismcts(")  # the search's own self-play
        assert record["heldout_games"] >= 10
        for m in bench.MODELS:
            point, lo, hi = record["r2"][m]
            assert lo <= point <= hi


def test_the_verdict_follows_the_mlp_gain(bench):
    data = json.loads(bench.DATA.read_text())
    key = next(iter(data))
    d = copy.deepcopy(data)
    d[key]["r2"]["mlp_gain"] = [0.06, 0.01, 0.1]
    assert "| **met** |" in bench.render({key: d[key]})
    d[key]["r2"]["mlp_gain"] = [0.04, 0.01, 0.1]
    assert "| missed |" in bench.render({key: d[key]})


def test_the_bootstrap_covers_a_known_gain(bench):
    """Per-game sums where the better model halves every residual: R^2 and the paired gain
    are exact, and their intervals hold them."""
    rng = np.random.default_rng(0)
    sst = rng.uniform(1, 2, size=200)
    hand = (0.6 * sst, sst)
    better = (0.3 * sst, sst)
    out = bench.bootstrap({"hand": hand, "linear": better}, 500)
    assert out["hand"][0] == pytest.approx(0.4) and out["linear"][0] == pytest.approx(0.7)
    point, lo, hi = out["linear_gain"]
    assert point == pytest.approx(0.3) and lo <= 0.3 <= hi and hi - lo < 0.01


def test_bad_options_are_one_line_errors(bench, capsys, tmp_path):
    assert bench.main(["--bootstrap", "5"]) == 1
    assert bench.main(["--run", str(tmp_path / "none"), "--data", str(tmp_path / "d.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(x.startswith("error: ") for x in err)


def test_against_shipped_scores_the_shipped_model_on_the_held_out_games(bench, tmp_path, capsys):
    from solvers import value_fit, value_model
    from spiel_games.bruxelles import evaluation
    from tournament.training import TrainConfig, train

    train(TrainConfig("python_bruxelles(players=3)", games=6, every=4, work=str(tmp_path / "w"),
                      out=str(tmp_path / "m.json")), executor="serial")  # fmt: skip
    data = tmp_path / "d.json"
    assert bench.main(["--run", str(tmp_path / "w"), "--against-shipped", "--bootstrap", "200",
                       "--data", str(data)]) == 0  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert not data.exists()  # writes nothing
    assert "5 games train the refit, 1 held out" in lines[0]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {"shipped", "refit", "hand", "points"}
    p, _ = bench._positions(str(tmp_path / "w"), [])
    _, test = value_fit.holdout_split(p, 0.2)
    shipped = value_model.load(value_model.shipped_path(evaluation))
    expected = value_fit.r2(value_fit.design(test) @ np.array(shipped.weights), test)
    assert float(rows["shipped"].split()[2]) == pytest.approx(expected, abs=6e-4)
    assert "minus shipped +0.000" in rows["shipped"]
    points = value_fit.r2(test.x[:, 0], test)
    assert float(rows["points"].split()[2]) == pytest.approx(points, abs=6e-4)


def test_against_shipped_needs_a_game_that_ships_a_model(bench, tmp_path, capsys):
    from tournament.training import TrainConfig, train

    train(TrainConfig("python_coloretto(players=3)", games=5, every=4, work=str(tmp_path / "w"),
                      out=str(tmp_path / "m.json")), executor="serial")  # fmt: skip
    assert bench.main(["--run", str(tmp_path / "w"), "--against-shipped"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: python_coloretto: the game ships no value model"]
