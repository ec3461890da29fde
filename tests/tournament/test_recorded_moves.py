"""``tournament.record_moves``: the ledger keeps each game's move list (ledger version 3), and
replay, training and the luck measurement read it instead of letting the agents play again."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import spiel_games
import tournament.luck_ledger as luck_ledger
import tournament.replay as replay_module
from tournament import training
from tournament.batch import actions_hash, plays_as_recorded, stored_moves
from tournament.config import build_config, config_to_toml_dict
from tournament.ledger import LedgerError, read_game, read_ledger
from tournament.replay import replay
from tournament.runner import batch_spec, run_tournament
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


def test_moves_that_do_not_play_as_recorded_are_not_used(tmp_path, make_raw):
    """The digest proves the moves are the ledger's; the rules may have changed since: moves
    that are illegal now, or end the game with other scores, are replayed by the agents."""
    run_tournament(build_config(make_raw(record_moves=True)), tmp_path / "l", executor="serial")
    row = read_ledger(tmp_path / "l").table.to_pylist()[0]
    game = spiel_games.load_game(row["game"])
    moves = row["moves"]
    assert stored_moves(row, game) == moves
    assert stored_moves({**row, "moves": moves[:-1]}, game) is None  # digest differs
    other = {**row, "scores": [s + 1 for s in row["scores"]]}
    assert stored_moves(other, game) is None and not plays_as_recorded(game, moves, other)
    assert not plays_as_recorded(game, moves[:-1], row)  # the game is not over
    assert plays_as_recorded(game, moves[:-1], {**row, "failure": "crash"})  # stops early
    assert not plays_as_recorded(game, [*moves[:-1], 10**6], {**row, "failure": "crash"})
    assert stored_moves({**row, "moves": None}, game) is None


def test_a_replay_whose_recorded_result_the_rules_no_longer_give_is_played_again(
    tmp_path, make_raw, monkeypatch
):
    d = tmp_path / "l"
    run_tournament(build_config(make_raw(record_moves=True)), d, executor="serial")
    part = next(d.glob("part-*.parquet"))
    t = pq.read_table(part)
    rows = t.to_pylist()
    rows[0]["scores"] = [s + 1 for s in rows[0]["scores"]]  # as if scoring had changed
    pq.write_table(pa.Table.from_pylist(rows, schema=t.schema), part)
    calls = []
    real = replay_module.play_one
    monkeypatch.setattr(replay_module, "play_one", lambda *a, **k: calls.append(1) or real(*a, **k))
    r = replay(d, rows[0]["game_id"])
    assert calls == [1] and r.matches  # the agents played it: their scores are printed
    assert r.lines[-3] != "scores: " + ", ".join(
        f"P{p + 1} {x:g}" for p, x in enumerate(rows[0]["scores"])
    )
    replay(d, rows[1]["game_id"])
    assert calls == [1]  # an untouched game is read from its moves


def test_a_file_with_fewer_columns_than_version_1_is_refused(tmp_path, make_raw):
    d = tmp_path / "l"
    run_tournament(build_config(make_raw()), d, executor="serial")
    for part in d.glob("part-*.parquet"):
        pq.write_table(
            pq.read_table(part).drop_columns(["actions_hash", "coverage", "moves"]), part
        )
    for columns in (None, ["game_id", "agents", "ranks"]):
        with pytest.raises(LedgerError, match="schema differs"):
            read_ledger(d, columns)


def test_an_old_ledger_resumed_with_recording_holds_both_kinds_of_batch(tmp_path, make_raw):
    d = tmp_path / "l"
    run_tournament(build_config(make_raw()), d, executor="serial")
    parts = sorted(d.glob("part-*.parquet"))
    parts[0].unlink()  # games still to play
    for part in parts[1:]:  # the rest as version 2 wrote them
        pq.write_table(pq.read_table(part).drop_columns(["moves"]), part)
    manifest = json.loads((d / "manifest.json").read_text())
    (d / "manifest.json").write_text(json.dumps({**manifest, "ledger_version": 2}))
    summary = run_tournament(build_config(make_raw(record_moves=True)), d, executor="serial")
    assert summary.played > 0
    table = read_ledger(d).table
    recorded = table.num_rows - table.column("moves").null_count
    assert recorded == summary.played and table.column("moves").null_count > 0
    for row in table.to_pylist():
        assert replay(d, row["game_id"]).matches


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


def test_the_luck_measurement_reads_recorded_moves(tmp_path, make_raw, monkeypatch):
    cfg = build_config(make_raw(record_moves=True))
    run_tournament(cfg, tmp_path / "l", executor="serial")
    row = read_ledger(tmp_path / "l").table.to_pylist()[0]
    monkeypatch.setattr(luck_ledger, "play_one", _no_replay)
    spec = batch_spec(cfg)
    assert luck_ledger._moves(tmp_path, spec, {}, row, {}, "code") == row["moves"]


def test_finding_one_game_reads_the_moves_of_its_own_file_only(tmp_path, make_raw, monkeypatch):
    """``read_game`` (meeple replay, review LEDGER ID) returns the row a full read gives, for
    every game, and loads the whole row (the moves with it) from one file, not the ledger."""
    import tournament.ledger as ledger_module

    d = tmp_path / "l"
    run_tournament(build_config(make_raw(record_moves=True)), d, executor="serial")
    assert len(list(d.glob("part-*.parquet"))) > 1  # else one file is the whole ledger
    full = {r["game_id"]: r for r in read_ledger(d).table.to_pylist()}
    real = ledger_module._read_part
    whole = []

    def spy(p, run_id, columns=None):
        if columns is None or "moves" in columns:
            whole.append(p)
        return real(p, run_id, columns)

    monkeypatch.setattr(ledger_module, "_read_part", spy)
    for game_id, row in full.items():
        whole.clear()
        assert ledger_module.read_game(d, game_id) == (
            row,
            json.loads((d / "manifest.json").read_text()),
        )
        assert len(whole) == 1
    with pytest.raises(LedgerError, match="no game"):
        ledger_module.read_game(d, "0" * 16)


@pytest.mark.parametrize(
    ("column", "retype"),
    [
        ("moves", lambda m: None if m is None else str(m)),  # text, not a list of ints
        ("agents", lambda row: [{"id": a} for a in row]),  # a list of structs, not of text
        ("seed", lambda s: f"deal {s}"),  # text where the ledger holds numbers
    ],
)
def test_a_file_with_a_column_of_another_type_is_refused_by_every_reader(
    tmp_path, make_raw, column, retype
):
    """Only the game ids are read from the other files by read_game, but every column's
    type is checked, element types of lists included (a cast of an empty column skips
    them), as a full read checks it: the ledger is refused in one LedgerError line."""
    d = tmp_path / "l"
    run_tournament(build_config(make_raw(record_moves=True)), d, executor="serial")
    parts = sorted(d.glob("part-*.parquet"))
    t = pq.read_table(parts[-1])
    k = t.schema.get_field_index(column)
    values = pa.array([retype(v) for v in t.column(column).to_pylist()])
    pq.write_table(t.set_column(k, column, values), parts[-1])
    first = pq.read_table(parts[0]).column("game_id")[0].as_py()
    with pytest.raises(LedgerError, match="schema differs"):
        read_ledger(d)
    with pytest.raises(LedgerError, match="schema differs"):
        read_game(d, first)
