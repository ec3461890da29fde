"""scripts/bench_marginal_value.py: the marginal value of a resource by paired playouts."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spiel_games
from spiel_games.common.chance import sample_chance


@pytest.fixture
def bench(load_script):
    return load_script("bench_marginal_value")


def _main_action_state(res, game_name: str = "bruxelles", seed: int = 3):
    """The first position of a heuristic game where the resource can be changed."""
    game = spiel_games.load_game(f"python_{game_name}(players=3)")
    spec = spiel_games.get_spec(game_name)
    state, rng = game.new_initial_state(), random.Random(seed)
    hrng = np.random.default_rng(seed)
    while state.is_chance_node() or not res.ready(state._s):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(int(spec.heuristic(state, hrng)))
    return state, spec.heuristic


def test_a_change_that_changes_nothing_is_worth_exactly_zero(bench):
    """The two playouts of a pair share their random streams: with the resource left as it
    is, they are the same game, so the measured value is 0 exactly, not 0 on average."""
    res = bench.RESOURCES[("bruxelles", "money")]()
    state, heuristic = _main_action_state(res)
    here = bench.Position(state, heuristic, bench.evaluation_prices("bruxelles"), [1, 2, 3])
    inert = res._replace(add=lambda s, p, units: None)
    assert here.change(inert, 0, 3) == {"hand": 0.0, "shipped": 0.0, "value": 0.0}
    before = state.clone()
    here.change(res, 0, 3)
    assert str(state) == str(before)  # the position measured is never changed


def test_a_unit_that_is_a_point_is_worth_one_point_either_way(bench):
    """Victory points go straight to the final score: the value per unit of +3 and of -3
    is exactly 1 (the per-unit division, the sign and the mean over the others)."""
    res = bench.RESOURCES[("bruxelles", "money")]()
    state, heuristic = _main_action_state(res)

    def add_vp(s, p, units):
        s.vp[p] += units

    points = res._replace(add=add_vp)
    here = bench.Position(state, heuristic, {}, [5, 6])
    assert [here.change(points, 1, u)["value"] for u in (3, -3)] == [1.0, 1.0]


def test_a_price_counts_every_feature_the_unit_moves(bench):
    """The hand-set evaluation weighs the money feature 0, yet prices francs above 0 at some
    positions of a game: money also counts in the points a player would score now (the
    endgame row, figures paid for). A price is the change of the estimated margin per unit."""
    res = bench.RESOURCES[("bruxelles", "money")]()
    evaluation = spiel_games.get_spec("bruxelles").evaluation
    assert evaluation.WEIGHTS[evaluation.FEATURES.index("money")] == 0.0
    game = spiel_games.load_game("python_bruxelles(players=3)")
    heuristic = spiel_games.get_spec("bruxelles").heuristic
    state, rng, hrng = game.new_initial_state(), random.Random(4), np.random.default_rng(4)
    prices = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if res.ready(state._s):
            here = bench.Position(state, heuristic, {"hand": evaluation.estimate}, [1])
            changed = state.clone()
            res.add(changed.own_core(), 2, 3)
            before, after = evaluation.estimate(state), evaluation.estimate(changed)
            gain = sum((after[2] - after[q]) - (before[2] - before[q]) for q in (0, 1)) / 6
            price = here.change(res, 2, 3)["hand"]
            assert price == pytest.approx(gain)
            prices.append(price)
        state.apply_action(int(heuristic(state, hrng)))
    assert max(prices) > 0


@pytest.mark.parametrize("game_name", ["bruxelles", "rococo"])
def test_every_resource_changes_in_the_clone_only(bench, game_name):
    res = bench.RESOURCES[(game_name, "money")]()
    state, _ = _main_action_state(res, game_name, seed=5)
    held = [res.held(state._s, p) for p in range(3)]
    changed = state.clone()
    res.add(changed.own_core(), 1, 3)
    assert [res.held(changed._s, p) for p in range(3)] == [held[0], held[1] + 3, held[2]]
    assert [res.held(state._s, p) for p in range(3)] == held


def test_measurements_change_by_the_delta_never_below_zero_and_repeat(bench):
    rows = bench.measure("bruxelles", "money", games=1, playouts=1, share=0.3)
    assert rows and {r["delta"] for r in rows} == {3, -3}
    assert all(r["held"] + r["delta"] >= 0 for r in rows)
    assert {"value", "hand", "shipped"} <= set(rows[0])
    assert rows == bench.measure("bruxelles", "money", games=1, playouts=1, share=0.3)


def test_the_summary_averages_games_not_positions(bench):
    rows = [
        {"game": 0, "round": 1, "stage": 0.8, "value": 1.0},
        {"game": 0, "round": 1, "stage": 0.8, "value": 1.0},
        {"game": 0, "round": 1, "stage": 0.8, "value": 1.0},
        {"game": 1, "round": 1, "stage": 0.8, "value": 3.0},
    ]
    for r in rows:
        r["hand"] = r["value"] / 2
    (s,) = bench.summary(rows)
    assert s["value"] == pytest.approx(2.0) and s["games"] == 2 and s["rows"] == 4
    assert s["low"] < 2.0 < s["high"]
    assert s["hand"] == pytest.approx(0.75)  # a price: the mean over the measurements
    assert "shipped" not in s
    a, b = bench.fit_line([{"stage": 0.0, "value": 1.0}, {"stage": 1.0, "value": 3.0}])
    assert (a, b) == pytest.approx((1.0, 2.0))


def test_an_unknown_resource_is_a_one_line_error(bench, capsys):
    assert bench.main(["--game", "coloretto", "--resource", "money"]) == 2
    out = capsys.readouterr().out.strip()
    assert out.startswith("error: no measurement for coloretto money") and "\n" not in out
    assert bench.main(["--game", "staufer", "--write-model", "x.json"]) == 2
    assert capsys.readouterr().out.startswith("error: no measurement for staufer money")
    assert bench.main(["--game", "rococo", "--write-model", "x.json"]) == 2
    assert capsys.readouterr().out.strip() == "error: rococo ships no value model to reprice"


def test_the_document_is_the_rendering_of_its_data(bench):
    import json

    data = json.loads(bench.DATA.read_text())
    assert data, "nothing measured"
    text = bench.DOC.read_text()
    block = text[text.index(bench.START) : text.index(bench.END) + len(bench.END)]
    assert block == bench.render(data)
    for rec in data.values():
        assert rec["games"] >= 100 and rec["playouts"] >= 8  # a measurement, not a token run
        assert all(r["low"] <= r["value"] <= r["high"] for r in rec["rounds"])


def test_a_repriced_model_prices_the_unit_at_the_measured_value(bench, tmp_path):
    """--write-model: the shipped model with only the resource's own weight changed, so that
    its price (what the other features count for the unit, plus that weight) is the
    measured value where the measurements lie on a line."""
    import json

    rounds = [
        {"stage": st, "value": 0.5 + 1.5 * st, "shipped": 0.9, "weight": 0.1 * st}
        for st in (0.8, 0.5, 0.1)
    ]
    model = bench.priced_model("bruxelles", "money", rounds)
    flat, staged = model["weights"]["flat"], model["weights"]["times_stage"]
    for r in rounds:
        price = r["shipped"] - r["weight"] + flat["money"] + staged["money"] * r["stage"]
        assert price == pytest.approx(r["value"])
    shipped = json.loads(
        (bench.ROOT / "spiel_games" / "bruxelles" / "value_model.json").read_text()
    )
    changed = {k for k in flat if flat[k] != shipped["weights"]["flat"][k]}
    assert changed == {"money"} and "repriced" in model["trained"]
