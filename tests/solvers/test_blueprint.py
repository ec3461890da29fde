"""Blueprints: plain npz files checked against the game, the ``blueprint`` agent, its coverage
in the ledger and in the ratings, and the blueprints the games ship."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import spiel_games
from solvers.blueprint import load_blueprint, save_blueprint, shipped_blueprints
from solvers.mccfr_tables import TablesError, load_npz, save_npz
from solvers.policy_file import PolicyFileError
from solvers.registry import make_agent
from solvers.spec import AgentSpecError
from solvers.train import SolveConfig, solve
from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.match import play_match
from tournament.ratings.load import ratings_from_ledgers
from tournament.ratings.report import notes
from tournament.runner import run_tournament

COLORETTO = spiel_games.get_spec("coloretto")
TINY = COLORETTO.tiny_configs[1]  # two colours, three rows: several real decisions


@pytest.fixture(scope="module")
def tiny_blueprint(tmp_path_factory):
    path = tmp_path_factory.mktemp("bp") / "tiny.npz"
    solve(SolveConfig(TINY, "mccfr-os", 300, str(path), report_every=1000))
    return path


def test_a_blueprint_is_plain_arrays_with_a_manifest(tiny_blueprint):
    meta, arrays = load_npz(tiny_blueprint)
    assert meta["kind"] == "meeple-blueprint" and meta["iterations"] == 300
    assert meta["abstraction"] == COLORETTO.abstraction_name
    assert meta["abstraction_version"] == COLORETTO.abstraction_version
    assert all(a.dtype != object for a in arrays.values())
    with np.load(tiny_blueprint, allow_pickle=False) as z:  # never pickle
        assert set(z.files) >= {"keys", "slot_row", "slot_action", "probability", "visits"}
    bp = load_blueprint(tiny_blueprint, spiel_games.load_game(TINY))
    for m in bp.probs:
        assert sum(m.values()) == pytest.approx(1.0, abs=1e-5)


def test_policy_returns_legal_actions_and_probabilities(tiny_blueprint):
    game = spiel_games.load_game(TINY)
    bp = load_blueprint(tiny_blueprint, game)
    state = game.new_initial_state()
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        p = state.current_player()
        found = bp.policy(state, p)
        if found is not None:
            actions, probs = found
            assert set(actions) <= set(state.legal_actions())
            assert sum(probs) == pytest.approx(1.0)
            seen += 1
        state.apply_action(state.legal_actions()[0])
    assert seen > 0


def test_blueprint_agent_plays_and_reports_its_coverage(tiny_blueprint):
    game = spiel_games.load_game(TINY)
    agent = make_agent(f"blueprint(path={tiny_blueprint},fallback=random)", game, seed=0)
    for seed in range(4):
        result = play_match(game, [agent, make_agent("heuristic", game, seed)], seed)
        assert result.failure == ""
        assert agent.decisions > 0 and agent.coverage() == agent.from_table / agent.decisions
    assert agent.coverage() > 0.5


def test_play_best_takes_the_most_likely_action(tiny_blueprint):
    game = spiel_games.load_game(TINY)
    best = make_agent(f"blueprint(path={tiny_blueprint},play=best)", game, seed=0)
    sampled = make_agent(f"blueprint(path={tiny_blueprint},play=sample)", game, seed=0)
    assert not best.sample and sampled.sample
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
            continue
        found = best.blueprint.policy(state, state.current_player())
        if found is not None and len(found[0]) > 1:
            actions, probs = found
            assert best.step(state.clone()) == actions[probs.index(max(probs))]
            checked += 1
        state.apply_action(state.legal_actions()[-1])
    assert checked > 0
    with pytest.raises(AgentSpecError, match="auto, sample or best"):
        make_agent(f"blueprint(path={tiny_blueprint},play=greedy)", game, seed=0)


def test_an_empty_blueprint_falls_back_on_every_decision(tmp_path):
    game = spiel_games.load_game(TINY)
    path = tmp_path / "empty.npz"
    arrays = {
        "keys": np.zeros(0, np.uint8),
        "rows_count": np.asarray([0]),
        "visits": np.zeros(0, np.int64),
        "slot_row": np.zeros(0, np.int32),
        "slot_action": np.zeros(0, np.int32),
        "probability": np.zeros(0, np.float32),
    }
    meta = {
        "game": str(game),
        "abstraction": COLORETTO.abstraction_name,
        "abstraction_version": COLORETTO.abstraction_version,
        "iterations": 0,
        "solver": "test",
    }
    save_blueprint(path, arrays, meta)
    agent = make_agent(f"blueprint(path={path})", game, seed=0)
    play_match(game, [agent, make_agent("random", game, 1)], 2)
    assert agent.decisions > 0 and agent.coverage() == 0.0


def test_mismatched_files_are_one_line_errors(tmp_path, tiny_blueprint):
    other = spiel_games.load_game(COLORETTO.tiny_configs[0])
    with pytest.raises(PolicyFileError, match="policy file is for game"):
        make_agent(f"blueprint(path={tiny_blueprint})", other, seed=0)
    with pytest.raises(PolicyFileError, match="not found"):
        make_agent(f"blueprint(path={tmp_path / 'nope.npz'})", other, seed=0)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, x=np.arange(3))
    with pytest.raises(PolicyFileError, match="no meeple manifest"):
        make_agent(f"blueprint(path={foreign})", other, seed=0)
    meta, arrays = load_npz(tiny_blueprint)
    old = tmp_path / "old.npz"
    save_blueprint(old, arrays, {**meta, "abstraction_version": meta["abstraction_version"] - 1})
    with pytest.raises(PolicyFileError, match="version"):
        make_agent(f"blueprint(path={old})", spiel_games.load_game(TINY), seed=0)
    with pytest.raises(AgentSpecError, match="fallback cannot itself"):
        make_agent(f"blueprint(path={tiny_blueprint},fallback=blueprint)", other, seed=0)


def test_coverage_is_recorded_in_the_ledger_and_the_ratings(tmp_path, tiny_blueprint):
    raw = {
        "tournament": {"game": TINY, "seeds_per_lineup": 4, "seed": 1, "batch_size": 4},
        "agents": {"bp": f"blueprint(path={tiny_blueprint})", "h": "heuristic"},
    }
    run_tournament(build_config(raw), tmp_path / "led", executor="serial")
    table = read_ledger(tmp_path / "led").table
    names = {a["id"]: a["name"] for a in read_ledger(tmp_path / "led").manifest["agents"]}
    for agents, shares in zip(
        table.column("agents").to_pylist(), table.column("coverage").to_pylist(), strict=True
    ):
        for a, x in zip(agents, shares, strict=True):
            assert (x is None) == (names[a] == "h")
            assert x is None or 0.0 <= x <= 1.0
    ratings, _ = ratings_from_ledgers([tmp_path / "led"], bootstrap=0)
    bp = next(a for a in ratings.agents if a.name == "bp")
    assert bp.coverage is not None and bp.coverage_games == 8
    assert any(
        line.startswith("bp: ") and "played from its table" in line for line in notes(ratings)
    )
    assert "coverage" in json.dumps(ratings.as_records())


def test_a_version_1_ledger_is_still_read_with_null_coverage(tmp_path):
    raw = {
        "tournament": {"game": TINY, "seeds_per_lineup": 2, "seed": 1, "batch_size": 4},
        "agents": {"r": "random", "h": "heuristic"},
    }
    d = tmp_path / "v1"
    run_tournament(build_config(raw), d, executor="serial")
    for part in d.glob("part-*.parquet"):  # rewrite as version 1 wrote them
        pq.write_table(pq.read_table(part).drop_columns(["coverage", "moves"]), part)
    manifest = json.loads((d / "manifest.json").read_text())
    (d / "manifest.json").write_text(json.dumps({**manifest, "ledger_version": 1}))
    table = read_ledger(d).table
    assert table.num_rows == 4 and table.column("coverage").null_count == 4
    assert table.column("moves").null_count == 4
    assert table.schema.field("coverage").type == pa.list_(pa.float32())


SHIPPED = [
    path
    for spec in spiel_games.all_specs()
    for path in shipped_blueprints(spiel_games.load_game(spec.typical_config))
]


def test_every_game_ships_a_three_player_blueprint():
    names = {p.parent.name for p in SHIPPED if p.name == "blueprint_3p.npz"}
    assert names == {s.short_name.removeprefix("python_") for s in spiel_games.all_specs()}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.parent.name)
def test_shipped_blueprints_load_and_play_for_their_game(path):
    meta, _ = load_npz(path)
    game = spiel_games.load_game(meta["game"])
    bp = load_blueprint(path, game)
    assert bp.rows > 0 and meta["min_visits"] >= 1 and meta["iterations"] > 0
    agent = make_agent("blueprint", game, seed=0)  # the shipped one by default
    assert agent.blueprint is bp
    result = play_match(game, [agent] + [make_agent("heuristic", game, s) for s in (1, 2)], 0)
    assert result.failure == "" and agent.coverage() is not None


def test_a_truncated_or_corrupted_npz_is_a_one_line_error(tmp_path, damaged_npz):
    """Was: a cut-off file raised zipfile.BadZipFile and a damaged member zlib.error, past
    load_npz's except clause: a traceback from every command that reads a blueprint."""
    path = tmp_path / "t.npz"
    save_npz(path, {"x": np.arange(5000, dtype=np.int64) % 7}, {"kind": "test"})
    assert load_npz(path)[0]["kind"] == "test"
    for damaged in damaged_npz(path):
        with pytest.raises(TablesError, match="truncated, corrupt or not an .npz file") as e:
            load_npz(damaged)
        assert str(e.value).startswith(str(damaged)) and "\n" not in str(e.value)
    np.save(tmp_path / "a.npy", np.arange(3))
    with pytest.raises(TablesError, match="single .npy array"):  # was a TypeError
        load_npz(tmp_path / "a.npy")


def test_a_damaged_blueprint_is_a_policy_file_error(tiny_blueprint, damaged_npz):
    game = spiel_games.load_game(TINY)
    for damaged in damaged_npz(tiny_blueprint):
        with pytest.raises(PolicyFileError, match=f"blueprint {damaged} is truncated, corrupt"):
            make_agent(f"blueprint(path={damaged})", game, seed=0)
        with pytest.raises(AgentSpecError, match="truncated, corrupt"):
            make_agent(f"ismcts(sims=5,prior=blueprint,blueprint={damaged})", game, seed=0)
