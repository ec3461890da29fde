"""``tournament.record_moves``: the ledger keeps each game's move list (ledger version 3), and
replay, training and the luck measurement read it instead of letting the agents play again."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

import tournament.luck_ledger as luck_ledger
import tournament.replay as replay_module
from tournament import training
from tournament.batch import actions_hash, stored_moves
from tournament.config import build_config, config_to_toml_dict
from tournament.ledger import read_ledger
from tournament.replay import replay
from tournament.runner import run_tournament
from tournament.training import TrainConfig, train


def _no_replay(*_args, **_kwargs):
    pytest.fail("the agents played a recorded game again")


def test_recorded_moves_are_the_games_and_change_nothing_else(tmp_path, make_raw):
    plain = build_config(make_raw())
    recorded = build_config(make_raw(record_moves=True))
    assert recorded.config_hash == plain.config_hash  # the same games: resumable either way
    assert config_to_toml_dict(recorded)["tournament"]["record_moves"] is True
    assert "record_moves" not in config_to_toml_dict(plain)["tournament"]
    run_tournament(plain, tmp_path / "a", executor="serial")
    run_tournament(recorded, tmp_path / "b", executor="serial")
    a = sorted(read_ledger(tmp_path / "a").table.to_pylist(), key=lambda r: r["game_id"])
    b = sorted(read_ledger(tmp_path / "b").table.to_pylist(), key=lambda r: r["game_id"])
    assert all(r["moves"] is None for r in a)
    assert all(actions_hash(r["moves"]) == r["actions_hash"] for r in b)
    assert [r["length"] for r in b] == [len(r["moves"]) for r in b]
    skip = {"moves", "duration"}
    assert [{k: v for k, v in r.items() if k not in skip} for r in a] == [
        {k: v for k, v in r.items() if k not in skip} for r in b
    ]


def test_a_resumed_run_may_start_recording(tmp_path, make_raw):
    run_tournament(build_config(make_raw()), tmp_path / "m", executor="serial")
    before = read_ledger(tmp_path / "m").table.num_rows
    again = run_tournament(
        build_config(make_raw(record_moves=True)), tmp_path / "m", executor="serial"
    )
    assert again.played == 0  # the same games: nothing is played again
    assert read_ledger(tmp_path / "m").table.num_rows == before


def test_a_version_2_ledger_is_still_read_with_null_moves(tmp_path, make_raw):
    d = tmp_path / "v2"
    run_tournament(build_config(make_raw(record_moves=True)), d, executor="serial")
    for part in d.glob("part-*.parquet"):  # rewrite as version 2 wrote them
        pq.write_table(pq.read_table(part).drop_columns(["moves"]), part)
    manifest = json.loads((d / "manifest.json").read_text())
    (d / "manifest.json").write_text(json.dumps({**manifest, "ledger_version": 2}))
    table = read_ledger(d).table
    assert table.num_rows > 0 and table.column("moves").null_count == table.num_rows
    game_id = table.column("game_id")[0].as_py()
    assert replay(d, game_id).matches  # replayed by the agents instead


def test_a_recorded_game_replays_from_its_moves_without_the_agents(tmp_path, make_raw, monkeypatch):
    run_tournament(build_config(make_raw()), tmp_path / "a", executor="serial")
    run_tournament(build_config(make_raw(record_moves=True)), tmp_path / "b", executor="serial")
    game_id = read_ledger(tmp_path / "a").table.column("game_id")[0].as_py()
    by_agents = replay(tmp_path / "a", game_id)
    monkeypatch.setattr(replay_module, "play_one", _no_replay)
    by_moves = replay(tmp_path / "b", game_id)
    assert by_moves.matches and by_moves.lines == by_agents.lines
    assert by_moves.actions == by_agents.actions
    assert str(by_moves.state) == str(by_agents.state)


def test_moves_whose_digest_is_not_the_rows_are_not_used():
    row = {"moves": [3, 1, 2], "actions_hash": actions_hash([3, 1, 2])}
    assert stored_moves(row) == [3, 1, 2]
    assert stored_moves({**row, "moves": [3, 1, 4]}) is None
    assert stored_moves({**row, "moves": None}) is None


def test_training_reads_the_self_play_moves_instead_of_replaying(tmp_path, monkeypatch):
    """Was: every self-play game was played a second time, on one core, to collect its
    positions (as long as the self-play itself for a search agent)."""
    cfg = TrainConfig(
        "python_coloretto(players=3)",
        games=6,
        every=3,
        work=str(tmp_path / "w"),
        out=str(tmp_path / "m.json"),
    )
    monkeypatch.setattr(training, "CHUNK", 2)
    first = train(cfg, executor="serial")
    ledger = read_ledger(tmp_path / "w" / "games").table
    assert ledger.column("moves").null_count == 0
    parts = sorted((tmp_path / "w" / "positions").glob("part-*.parquet"))
    parts[0].unlink()
    monkeypatch.setattr(training, "play_one", _no_replay)
    again = train(cfg, executor="serial")
    assert again.model == first.model and again.positions == first.positions


def test_the_luck_measurement_reads_recorded_moves(monkeypatch):
    row = {"game_id": "g", "moves": [5, 7], "actions_hash": actions_hash([5, 7])}
    monkeypatch.setattr(luck_ledger, "play_one", _no_replay)
    assert luck_ledger._moves(None, None, {}, row, {}, "code") == [5, 7]
