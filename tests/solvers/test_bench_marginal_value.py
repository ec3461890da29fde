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


def _main_action_state(res):
    game = spiel_games.load_game("python_bruxelles(players=3)")
    spec = spiel_games.get_spec("bruxelles")
    state, rng, hrng = game.new_initial_state(), random.Random(3), np.random.default_rng(3)
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
    inert = res._replace(add=lambda s, p, units: None)
    assert bench._value(state, heuristic, inert, 0, 3, [1, 2, 3]) == 0.0
    before = state.clone()
    bench._value(state, heuristic, res, 0, 3, [1])
    assert str(state) == str(before)  # the position measured is never changed


def test_money_is_changed_by_the_delta_and_never_below_zero(bench):
    res = bench.RESOURCES[("bruxelles", "money")]()
    state, _ = _main_action_state(res)
    held = res.held(state._s, 1)
    changed = state.clone()
    res.add(changed._s, 1, 3)
    assert res.held(changed._s, 1) == held + 3 and res.held(state._s, 1) == held
    rows = bench.measure("bruxelles", "money", games=1, playouts=1, share=0.3)
    assert rows and {r["delta"] for r in rows} <= {3, -3}
    assert all(r["held"] + r["delta"] >= 0 for r in rows)
    assert rows == bench.measure("bruxelles", "money", games=1, playouts=1, share=0.3)


def test_the_summary_averages_games_not_positions(bench):
    rows = [
        {"game": 0, "round": 1, "stage": 0.8, "value": 1.0},
        {"game": 0, "round": 1, "stage": 0.8, "value": 1.0},
        {"game": 0, "round": 1, "stage": 0.8, "value": 1.0},
        {"game": 1, "round": 1, "stage": 0.8, "value": 3.0},
    ]
    (s,) = bench.summary("bruxelles", "money", rows)
    assert s["value"] == pytest.approx(2.0) and s["games"] == 2 and s["rows"] == 4
    assert s["low"] < 2.0 < s["high"]
    assert s["hand"] == 0.0  # the hand-set evaluation gives money no weight
    a, b = bench.fit_line([{"stage": 0.0, "value": 1.0}, {"stage": 1.0, "value": 3.0}])
    assert (a, b) == pytest.approx((1.0, 2.0))


def test_an_unknown_resource_is_a_one_line_error(bench, capsys):
    assert bench.main(["--game", "coloretto", "--resource", "money"]) == 2
    out = capsys.readouterr().out.strip()
    assert out.startswith("error: no measurement for coloretto money") and "\n" not in out


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
