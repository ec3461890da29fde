"""Learned value models (solvers.value_model): the fit, the file format, eval=learned."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

import spiel_games  # noqa: F401  (registers the games)
from solvers import identity
from solvers import value_fit as vf
from solvers import value_model as vm
from solvers.registry import make_agent
from solvers.spec import AgentSpecError
from spiel_games.bruxelles import evaluation as BE
from spiel_games.bruxelles import rules as BR
from spiel_games.bruxelles.scenario import put, start
from spiel_games.common.registry import all_specs, get_spec

BRUX3 = "python_bruxelles(players=3)"


def _synthetic(games: int = 40, per_game: int = 20, n: int = 3, noise: float = 0.5, seed: int = 0):
    """Positions whose final scores follow known weights: y = 2 f0 + 3 f1 * stage + noise."""
    rng = np.random.default_rng(seed)
    rows = games * per_game * n
    x = rng.normal(size=(rows, 2))
    stage = np.repeat(rng.uniform(size=games * per_game), n)
    pos = np.repeat(np.arange(games * per_game), n)
    game = np.repeat(np.arange(games), per_game * n)
    y = 2.0 * x[:, 0] + 3.0 * x[:, 1] * stage + rng.normal(scale=noise, size=rows)
    y += np.repeat(rng.normal(size=games * per_game) * 10.0, n)  # shared by a position: cancels
    return vf.Positions(x, stage, y, pos, game, hand=x[:, 0])


def test_fit_recovers_stage_dependent_weights_and_reports_held_out_r2():
    model, report = vf.fit("toy", ("a", "b"), _synthetic())
    assert model.flat == pytest.approx((2.0, 0.0), abs=0.1)
    assert model.staged == pytest.approx((0.0, 3.0), abs=0.15)
    assert report["r2_heldout"] > 0.9 > report["r2_hand"]  # the hand model misses f1
    assert report["heldout_games"] == 8 and report["games"] == 40
    # the spread is the RMS of a difference of two players' residuals: sqrt(2) * noise
    assert model.spread_a + 0.5 * model.spread_b == pytest.approx(0.5 * 2**0.5, rel=0.2)


def test_fit_refuses_a_single_game():
    p = _synthetic(games=1)
    with pytest.raises(vm.ValueModelError, match="too few games"):
        vf.fit("toy", ("a", "b"), p)


@pytest.mark.parametrize(("games", "holdout"), [(2, 0.2), (3, 0.2), (4, 0.5), (5, 0.05), (6, 0.0)])
def test_fit_with_few_games_or_a_small_holdout_fits_without_a_held_out_reading(games, holdout):
    model, report = vf.fit("toy", ("a", "b"), _synthetic(games=games), holdout=holdout)
    assert "r2_heldout" not in report and report["games"] == games
    assert model.spread_a > 0


def test_a_perfect_fit_still_writes_a_model_that_loads(tmp_path):
    model, _ = vf.fit("toy", ("a", "b"), _synthetic(noise=0.0))
    assert vm.load(model.save(tmp_path / "m.json")) == model


def test_json_round_trip_keeps_every_weight(tmp_path):
    model, _ = vf.fit("toy", ("a", "b"), _synthetic(), trained={"agent": "noisy(eps=0.1)"})
    path = model.save(tmp_path / "m.json")
    back = vm.load(path)
    assert back == model
    assert back.trained["agent"] == "noisy(eps=0.1)"
    data = json.loads(path.read_text())
    assert data["format"] == vm.FORMAT and set(data["weights"]["flat"]) == {"a", "b"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a meeple value model"),
        ('{"format": "meeple-value-model", "format_version": 99}', "format version 99"),
        ('{"format": "meeple-value-model", "format_version": 1, "game": "g"}', "missing"),
    ],
)
def test_a_bad_model_file_is_one_line_error(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(vm.ValueModelError, match=message) as e:
        vm.load(path)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "change",
    [
        {"features": "ab"},
        {"weights": {"flat": [1, 2], "times_stage": [0, 0]}},
        {"spread": {"a": "wide", "b": 0}},
        {"spread": {"a": 10**400, "b": 0}},
    ],
)
def test_a_model_file_with_wrongly_typed_fields_is_one_line_error(change):
    model, _ = vf.fit("toy", ("a", "b"), _synthetic())
    data = json.loads(model.to_json())
    data.update(change)
    text = (
        json.dumps(data)
        if "spread" not in change or change["spread"]["a"] != 10**400
        else (json.dumps(data).replace('"a": ' + str(10**400), '"a": 1' + "0" * 400))
    )
    with pytest.raises(vm.ValueModelError) as e:
        vm.parse(text)
    assert "\n" not in str(e.value)


def test_a_binary_file_given_as_model_is_one_line_error(tmp_path):
    path = tmp_path / "policy.parquet"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(vm.ValueModelError, match="cannot read value model"):
        vm.load(path)
    game = pyspiel.load_game(BRUX3)
    with pytest.raises(AgentSpecError, match="cannot read value model"):
        make_agent(f"ismcts(eval=learned,model={path})", game)


def test_a_model_path_that_is_no_regular_file_or_too_large_is_refused_unread(tmp_path, monkeypatch):
    """Was: `model=/dev/zero` was read until the process ran out of memory (killed by the
    kernel; in `advise --serve` the engine died with it)."""
    with pytest.raises(vm.ValueModelError, match="/dev/zero is a character device, not a file"):
        vm.load("/dev/zero")
    big = tmp_path / "big.json"
    big.write_text("x" * 40)
    monkeypatch.setattr(vm, "MAX_MODEL_BYTES", 32)
    with pytest.raises(vm.ValueModelError, match="is over 32 bytes"):
        vm.load(big)
    with pytest.raises(AgentSpecError, match="character device"):
        make_agent("ismcts(eval=learned,model=/dev/zero)", pyspiel.load_game(BRUX3))


def test_a_model_whose_spread_reaches_zero_or_has_nan_weights_is_refused(tmp_path):
    model, _ = vf.fit("toy", ("a", "b"), _synthetic())
    data = json.loads(model.to_json())
    data["spread"] = {"a": 1.0, "b": -1.0}
    with pytest.raises(vm.ValueModelError, match="spread"):
        vm.parse(json.dumps(data))
    data["spread"] = {"a": 1.0, "b": 0.0}
    data["weights"]["flat"]["a"] = float("nan")
    with pytest.raises(vm.ValueModelError, match="not finite"):
        vm.parse(json.dumps(data))


def test_a_model_fitted_on_other_features_is_refused():
    model, _ = vf.fit("python_bruxelles", ("a", "b"), _synthetic())
    with pytest.raises(vm.ValueModelError, match="refit it with meeple train"):
        model.bind(BE)


def _random_game(game_string: str, seed: int):
    game = pyspiel.load_game(game_string)
    s = game.new_initial_state()
    rng = random.Random(seed)
    actions = []
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            a = rng.choices(acts, probs)[0]
        else:
            a = rng.choice(s.legal_actions())
        actions.append(a)
        s.apply_action(a)
    return game, actions, s


def test_game_positions_give_one_row_per_player_with_the_final_scores():
    game, actions, end = _random_game(BRUX3, 1)
    cols = vf.game_positions(game, actions, BE, every=5)
    n = game.num_players()
    assert len(cols["step"]) % n == 0 and len(cols["step"]) > 10 * n
    assert cols["player"][:n] == list(range(n))
    finals = [float(x) for x in end.scores()]
    assert all(cols["final"][i] == finals[cols["player"][i]] for i in range(len(cols["final"])))
    assert all(len(f) == len(BE.FEATURES) for f in cols["features"])
    assert cols["stage"][0] > cols["stage"][-1]
    every1 = vf.game_positions(game, actions, BE, every=1)
    assert len(every1["step"]) > 4 * len(cols["step"])


def test_game_positions_refuse_an_unfinished_move_list():
    game, actions, _ = _random_game(BRUX3, 2)
    with pytest.raises(vm.ValueModelError, match="does not reach the end"):
        vf.game_positions(game, actions[:-3], BE)


def test_every_shipped_model_matches_its_games_features():
    shipped = 0
    for spec in all_specs():
        ev = spec.evaluation
        if ev is None or not vm.shipped_path(ev).exists():
            continue
        model = vm.load(vm.shipped_path(ev))
        assert model.game == spec.short_name
        model.bind(ev)  # raises when the features changed since the fit
        assert model.trained["r2_heldout"] > model.trained["r2_hand"]
        shipped += 1
    assert shipped >= 1


# ----- the shipped Bruxelles model, tied to the rules it learned ---------------------------
@pytest.fixture
def learned():
    return vm.model_for("python_bruxelles", BE)


def test_learned_an_assistant_freed_from_the_courthouse_is_worth_points(learned):
    s = start(3)
    before = learned.estimate(s)
    put(s, "court", 0, s.own_core().court[0] + 1)
    put(s, "supply", 0, s.own_core().supply[0] - 1)
    after = learned.estimate(s)
    assert before[0] - after[0] > 1.0  # one assistant fewer to place in the rounds left
    assert after[1:] == before[1:]


def test_learned_a_full_shield_led_is_valued_before_resolution(learned):
    s = start(3)
    before = learned.estimate(s)
    c = s.own_core()
    for sp in BR.shields(c.cfg.board)[0]:
        c.occ[sp] = 0
    after = learned.estimate(s)
    assert after[0] - before[0] >= BR.HALL[c.hall[0]]


def test_learned_works_of_art_in_hand_are_valued_above_their_end_row(learned):
    s = start(3)
    put(s, "works", 0, (1, 1, 0, 0, 0))
    est, now = learned.estimate(s), s.scores()
    assert now[0] - now[1] > 0  # the end row pays for them already
    assert est[0] - est[1] > now[0] - now[1] + 1.0  # and they can still be sold


def test_learned_points_on_the_track_count_one_for_one_in_the_last_round(learned):
    s = start(3)
    before = learned.estimate(s)
    put(s, "vp", 0, s.own_core().vp[0] + 10)
    early = learned.estimate(s)[0] - before[0]
    s.own_core().round = s.own_core().cfg.rounds  # the last round
    late_before = learned.estimate(s)[0]
    put(s, "vp", 0, s.own_core().vp[0] + 10)
    late = learned.estimate(s)[0] - late_before
    assert 8.5 < late < 11.5
    assert 4.0 < early < late  # early points say less about the final score


def test_learned_estimate_is_the_final_score_once_the_game_is_over(learned):
    _, _, end = _random_game(BRUX3, 3)
    assert learned.estimate(end) == [float(x) for x in end.scores()]


def test_learned_spread_shrinks_as_the_game_goes_on(learned):
    _, actions, end = _random_game(BRUX3, 4)
    s = pyspiel.load_game(BRUX3).new_initial_state()
    early = learned.spread(s)
    assert early > learned.spread(end) > 0


# ----- eval=learned in the search agents ---------------------------------------------------
def _first_decision(game_string: str):
    game = pyspiel.load_game(game_string)
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    return game, s


def test_eval_learned_plays_a_legal_move_with_the_shipped_model():
    game, s = _first_decision(BRUX3)
    agent = make_agent("ismcts(sims=30,eval=learned)", game, seed=1)
    assert agent.step(s.clone()) in s.legal_actions()
    assert agent.params["eval"] == "learned" and agent.params["opponents"] == "infer"


def test_eval_learned_reads_a_model_file_given_as_model(tmp_path):
    game, s = _first_decision(BRUX3)
    path = tmp_path / "m.json"
    path.write_text(vm.shipped_path(BE).read_text())
    agent = make_agent(f"ismcts(sims=30,eval=learned,model={path})", game, seed=1)
    assert agent.step(s.clone()) in s.legal_actions()


def test_eval_learned_errors_are_one_line_agent_spec_errors(tmp_path):
    game, _ = _first_decision(BRUX3)
    with pytest.raises(AgentSpecError, match=r": value model not found: \S+none\.json$"):
        make_agent(f"ismcts(eval=learned,model={tmp_path / 'none.json'})", game)
    with pytest.raises(AgentSpecError, match="model is the value model of eval=learned"):
        make_agent(f"ismcts(eval=game,model={tmp_path / 'none.json'})", game)
    other = tmp_path / "other.json"
    data = json.loads(vm.shipped_path(BE).read_text())
    data["game"] = "python_rococo"
    other.write_text(json.dumps(data))
    with pytest.raises(AgentSpecError, match="is for python_rococo"):
        make_agent(f"ismcts(eval=learned,model={other})", game)


def test_eval_learned_on_a_game_without_a_shipped_model_says_how_to_get_one():
    missing = [
        s for s in all_specs() if s.evaluation and not vm.shipped_path(s.evaluation).exists()
    ]
    if not missing:
        pytest.skip("every game ships a value model")
    spec = get_spec(missing[0].short_name)
    game = pyspiel.load_game(spec.typical_config)
    with pytest.raises(AgentSpecError, match="meeple train"):
        make_agent("ismcts(eval=learned)", game)


def test_a_shipped_value_model_is_part_of_the_code_version(tmp_path):
    (tmp_path / "evaluation.py").write_text("FEATURES = ()\n")
    (tmp_path / "value_model.json").write_text("{}\n")
    before = identity._hash((tmp_path,))
    (tmp_path / "value_model.json").write_text('{"changed": 1}\n')
    identity._hash.cache_clear()
    assert identity._hash((tmp_path,)) != before


def test_eval_auto_is_the_learned_model_on_bruxelles_and_the_hand_set_one_elsewhere():
    for game_string, expected in [
        (BRUX3, "learned"),
        ("python_rococo(players=3)", "game"),
        ("python_coloretto(players=3)", "game"),
        ("python_staufer(players=3)", "game"),
    ]:
        agent = make_agent("ismcts(sims=10)", pyspiel.load_game(game_string), seed=0)
        assert agent.params["eval"] == expected, game_string


def test_eval_auto_falls_back_to_the_hand_set_evaluation_without_a_shipped_model(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(vm, "shipped_path", lambda evaluation: tmp_path / "none.json")
    agent = make_agent("ismcts(sims=10)", pyspiel.load_game(BRUX3), seed=0)
    assert agent.params["eval"] == "game"


def test_noisy_is_the_heuristic_at_eps_0_and_random_at_eps_1():
    game = pyspiel.load_game(BRUX3)
    spec = get_spec("python_bruxelles")
    _, s = _first_decision(BRUX3)
    calm = make_agent("noisy(eps=0.0)", game, seed=5)
    assert calm.step(s.clone()) == spec.heuristic(s.clone(), np.random.default_rng(5))
    wild = make_agent("noisy(eps=1.0)", game, seed=5)
    moves = {wild.step(s.clone()) for _ in range(30)}
    assert len(moves) > 1 and moves <= set(s.legal_actions())
    with pytest.raises(AgentSpecError, match="eps"):
        make_agent("noisy(eps=1.5)", game)
