"""Value models of kind "mlp" (solvers.value_mlp): the fit, the file, eval=learned with one."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pyspiel
import pytest

import spiel_games  # noqa: F401  (registers the games)
from solvers import value_fit as vf
from solvers import value_mlp
from solvers import value_model as vm
from solvers.registry import make_agent
from spiel_games.bruxelles import evaluation as BE
from spiel_games.common.registry import all_specs


def _nonlinear(games: int = 60, per_game: int = 20, n: int = 3, seed: int = 0):
    """Positions whose final scores are a non-linear function of the features: a player
    gains 4 when leading the others in f0 (a step no weight on f0 can draw) plus f1^2
    late in the game, with noise 0.3 and a shared offset per position."""
    rng = np.random.default_rng(seed)
    positions = games * per_game
    x = rng.normal(size=(positions * n, 2))
    stage = np.repeat(rng.uniform(size=positions), n)
    pos = np.repeat(np.arange(positions), n)
    game = np.repeat(np.arange(games), per_game * n)
    f0 = x[:, 0].reshape(positions, n)
    others = (f0.sum(axis=1, keepdims=True) - f0) / (n - 1)
    lead = (f0 > others).astype(float).reshape(-1)
    y = 4.0 * lead + 2.0 * x[:, 1] ** 2 * (1 - stage) + rng.normal(scale=0.3, size=len(stage))
    y += np.repeat(rng.normal(size=positions) * 10.0, n)
    return vf.Positions(x, stage, y, pos, game, hand=x[:, 0])


@pytest.fixture(scope="module")
def small():
    """A network model of 10 synthetic games (fitted once for the file tests)."""
    return vf.fit("toy", ("a", "b"), _nonlinear(games=10), kind="mlp", trained={"agent": "x"})[0]


def test_the_network_recovers_a_non_linear_target_the_linear_model_misses():
    model, report = vf.fit("toy", ("a", "b"), _nonlinear(), kind="mlp")
    assert model.kind == "mlp" and report["kind"] == "mlp"
    assert report["r2_heldout"] > 0.85, report
    assert report["r2_linear"] < 0.6 < report["r2_heldout"] - 0.25, report
    assert report["heldout_games"] == 12


def test_on_a_linear_target_the_network_keeps_the_linear_fit():
    rng = np.random.default_rng(1)
    p = _nonlinear()
    p.y = 2.0 * p.x[:, 0] + 3.0 * p.x[:, 1] * p.stage + rng.normal(scale=0.5, size=len(p.y))
    _, report = vf.fit("toy", ("a", "b"), p, kind="mlp")
    assert report["r2_heldout"] == pytest.approx(report["r2_linear"], abs=0.02)


def test_a_saved_network_model_round_trips_and_estimates_the_same(tmp_path, small):
    model = small
    back = vm.load(model.save(tmp_path / "m.json"))
    assert back == model and back.network == model.network and back.kind == "mlp"
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["format_version"] == 2 and data["kind"] == "mlp"
    z = value_mlp.position_inputs([[1.0, 2.0], [0.5, -1.0], [0.0, 0.0]], 0.4)
    assert np.array_equal(back.network(z), model.network(z))


def test_position_inputs_are_the_training_inputs_of_one_position():
    rows = [[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]]
    one = value_mlp.position_inputs(rows, 0.25)
    x = np.array(rows)
    many = value_mlp.inputs(x, np.full(3, 0.25), np.zeros(3, dtype=int), np.array([3]))
    assert np.allclose(one, many)
    assert one[0, 2] == pytest.approx(1.0 - (0.5 + 3.0) / 2)  # f0 minus the others' mean


def test_a_version_1_file_is_still_read_as_linear(tmp_path):
    model, _ = vf.fit("toy", ("a", "b"), _nonlinear(games=10))
    data = json.loads(model.to_json())
    data["format_version"] = 1
    del data["kind"]
    back = vm.parse(json.dumps(data))
    assert back == model and back.kind == "linear"


def test_a_network_model_fitted_on_other_features_is_refused(small):
    model = dataclasses.replace(small, game="python_bruxelles")
    with pytest.raises(vm.ValueModelError, match="refit it with meeple train"):
        model.bind(BE)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(kind="forest"), "kind 'forest'"),
        (lambda d: d.pop("network"), "malformed network"),
        (lambda d: d["network"].update(w1=[[1.0]]), "network w1 has shape"),
        (lambda d: d["network"]["out"].__setitem__(0, float("nan")), "not finite"),
        (lambda d: d["network"]["input_scale"].__setitem__(0, 0.0), "input_scale"),
        (lambda d: d.update(format_version=3), "reads 1 and 2"),
    ],
)
def test_a_bad_network_file_is_one_line_error(change, message, small):
    data = json.loads(small.to_json())
    change(data)
    with pytest.raises(vm.ValueModelError, match=message) as e:
        vm.parse(json.dumps(data), "m.json")
    assert "\n" not in str(e.value)


def test_an_unknown_kind_is_refused_by_the_fit():
    with pytest.raises(vm.ValueModelError, match="unknown value model kind"):
        vf.fit("toy", ("a", "b"), _nonlinear(games=10), kind="forest")


def _random_games(game, count: int, rng: random.Random) -> list[list[int]]:
    out = []
    for _ in range(count):
        s, actions = game.new_initial_state(), []
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes(), strict=True)
                a = rng.choices(acts, probs)[0]
            else:
                a = rng.choice(s.legal_actions())
            actions.append(a)
            s.apply_action(a)
        out.append(actions)
    return out


def _tiny_mlp(spec, config: str, path) -> str:
    """A network model of the game fitted to a few random games (quality is not the point)."""
    game = pyspiel.load_game(config)
    ev = spec.evaluation
    cols: dict[str, list] = {k: [] for k in ("features", "stage", "final", "hand", "pos", "game")}
    for g, actions in enumerate(_random_games(game, 5, random.Random(3))):
        rows = vf.game_positions(game, actions, ev, every=4)
        cols["features"] += rows["features"]
        for k, src in (("stage", "stage"), ("final", "final"), ("hand", "hand")):
            cols[k] += rows[src]
        cols["pos"] += [g * 10_000 + s for s in rows["step"]]
        cols["game"] += [g] * len(rows["step"])
    p = vf.Positions(
        np.array(cols["features"]),
        np.array(cols["stage"]),
        np.array(cols["final"]),
        np.array(cols["pos"]),
        np.array(cols["game"]),
        np.array(cols["hand"]),
    )
    name = game.get_type().short_name
    model, _ = vf.fit(name, tuple(ev.FEATURES), p, holdout=0.0, kind="mlp")
    assert model.network is not None and np.any(model.network.out != 0)
    return str(model.save(path))


def _positions(game, rng, count):
    state, out = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out[:: max(1, len(out) // count)][1 : count + 1]


def _stats(analysis):
    return [(m.action, m.visits, m.value if m.visits else None) for m in analysis.moves]


HIDDEN = [s for s in all_specs() if s.perturb_secret is not None and s.evaluation is not None]


@pytest.mark.parametrize("spec", HIDDEN, ids=lambda s: s.short_name)
def test_a_search_with_a_network_model_never_peeks(spec, tmp_path):
    """Changing another player's secret leaves a seeded search's statistics unchanged when
    the leaves are valued by a network model."""
    rng = random.Random(7)
    path = _tiny_mlp(spec, spec.test_configs[0], tmp_path / "m.json")  # any player count
    agent = f"ismcts(sims=8,rollout_depth=2,eval=learned,model={path})"
    checked = 0
    for config in spec.test_configs[:4]:
        game = pyspiel.load_game(config)
        for state in _positions(game, rng, 5):
            me = state.current_player()
            for other in range(game.num_players()):
                changed = None if other == me else spec.perturb_secret(state, other, rng)
                if changed is None:
                    continue
                assert changed.information_state_string(me) == state.information_state_string(me)
                a = make_agent(agent, game, seed=3).analyse(state)
                b = make_agent(agent, game, seed=3).analyse(changed)
                assert _stats(a) == _stats(b)
                checked += 1
    assert checked > 0
