"""`meeple train`: self-play through the tournament runner, positions, the fit; resumable, and
bad requests fail in one line before anything is written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq
import pyspiel
import pytest
from typer.testing import CliRunner

from solvers import value_model as vm
from solvers.registry import make_agent
from tournament import training
from tournament.cli import app
from tournament.config import ConfigError, build_config
from tournament.ledger import read_ledger
from tournament.training import (
    TrainConfig,
    TrainError,
    extract_positions,
    load_positions,
    tournament_config,
    train,
    validate,
    work_dir,
)

GAME = "python_coloretto(players=3)"
runner = CliRunner()


def _cfg(tmp_path, **kw) -> TrainConfig:
    kw.setdefault("games", 6)
    kw.setdefault("every", 3)
    return TrainConfig(GAME, work=str(tmp_path / "work"), out=str(tmp_path / "m.json"), **kw)


def test_train_plays_self_play_games_and_writes_a_model_search_can_use(tmp_path):
    result = train(_cfg(tmp_path), executor="serial")
    assert result.games == 6 and result.failed == 0 and result.positions > 6 * 10
    ledger = read_ledger(tmp_path / "work" / "games").table
    assert ledger.num_rows == 6
    assert {a for row in ledger.column("agents").to_pylist() for a in row} == {
        ledger.column("agents").to_pylist()[0][0]
    }  # one agent in every seat
    model = vm.load(result.model_path)
    assert model.game == "python_coloretto" and model.trained["agent"] == "noisy(eps=0.1)"
    assert model.trained["games"] == 6 and "r2_heldout" in model.trained
    game = pyspiel.load_game(GAME)
    agent = make_agent(f"ismcts(sims=20,eval=learned,model={result.model_path})", game, seed=0)
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    assert agent.step(s.clone()) in s.legal_actions()


def _games_per_part(tmp_path) -> list[list[str]]:
    parts = sorted((tmp_path / "work" / "positions").glob("part-*.parquet"))
    return [sorted(set(pq.read_table(p).column("game_id").to_pylist())) for p in parts]


def test_a_rerun_resumes_and_an_interrupted_extraction_replays_only_missing_games(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(training, "CHUNK", 2)  # 3 part files of 2 games
    first = train(_cfg(tmp_path), executor="serial")
    parts = sorted((tmp_path / "work" / "positions").glob("part-*.parquet"))
    assert len(parts) == 3
    before = _games_per_part(tmp_path)
    played = []
    again = train(_cfg(tmp_path), executor="serial", on_batch=lambda i, rows: played.append(rows))
    assert played == []  # every game already in the ledger
    assert again.model == first.model
    # lose the middle part: only its 2 games are replayed, into a new part (no part is
    # overwritten), and the model is the same
    parts[1].unlink()
    seen = []
    rebuilt = train(_cfg(tmp_path), executor="serial", on_progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (4, 6) and seen[-1] == (6, 6)
    after = _games_per_part(tmp_path)
    assert after == [before[0], before[2], before[1]]
    assert sorted(g for part in after for g in part) == sorted(g for part in before for g in part)
    assert rebuilt.model == first.model and rebuilt.games == 6


def test_positions_of_another_request_are_refused_not_mixed(tmp_path):
    train(_cfg(tmp_path), executor="serial")
    with pytest.raises(TrainError, match="every"):
        other = TrainConfig(GAME, games=6, every=2, out=str(tmp_path / "m2.json"))
        extract_positions(
            validate(other),
            tournament_config(validate(_cfg(tmp_path))),
            tmp_path / "work" / "games",
            tmp_path / "work" / "positions",
        )


def test_positions_missing_for_a_game_are_an_error_not_a_smaller_fit(tmp_path):
    train(_cfg(tmp_path), executor="serial")
    ids = set(read_ledger(tmp_path / "work" / "games").table.column("game_id").to_pylist())
    with pytest.raises(TrainError, match="1 game"):
        load_positions(tmp_path / "work" / "positions", ids | {"not-a-game"})


def test_a_time_budget_agent_is_refused(tmp_path):
    with pytest.raises(TrainError, match="time budget"):
        validate(_cfg(tmp_path, agent="ismcts(time=0.1)"))


def test_the_default_work_directory_is_named_for_the_request(tmp_path):
    a = validate(TrainConfig(GAME, games=10))
    b = validate(TrainConfig(GAME, games=11))
    assert work_dir(a) != work_dir(b) and work_dir(a).parts[:2] == ("runs", "train")


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"games": 2}, "at least 5"),
        ({"every": 0}, "--every"),
        ({"agent": "heuristic(depth=2)"}, "--agent"),
        ({"agent": "nosuch"}, "--agent"),
        ({"holdout": 0.9}, "held-out"),
        ({"kind": "forest"}, "--kind must be one of linear, mlp"),
        ({"pool": ("no-such-dir",)}, "--pool no-such-dir: no positions"),
    ],
)
def test_bad_requests_are_refused_before_anything_runs(tmp_path, kw, message):
    with pytest.raises(TrainError, match=message):
        train(_cfg(tmp_path, **kw), executor="serial")
    assert not (tmp_path / "work").exists()


def test_a_bad_game_or_output_name_is_one_line_exit_2(tmp_path):
    r = runner.invoke(app, ["train", "python_nosuch(players=3)", "--work", str(tmp_path / "w")])
    assert r.exit_code == 2 and r.output.count("error:") == 1
    r = runner.invoke(app, ["train", GAME, "--out", str(tmp_path / "m.txt")])
    assert r.exit_code == 2 and "--out must name a .json file" in r.output
    assert not (tmp_path / "w").exists()


def test_an_out_that_holds_no_value_model_is_never_overwritten(tmp_path):
    """Was: `--out game.json` naming a saved game (any JSON file) was replaced by the model
    after the run; only an earlier model may be replaced."""
    saved = tmp_path / "game.json"
    saved.write_text('{"format": "meeple-game-record"}')
    r = runner.invoke(app, ["train", GAME, "--work", str(tmp_path / "w"), "--out", str(saved)])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "not a value model" in r.output
    assert saved.read_text() == '{"format": "meeple-game-record"}'
    assert not (tmp_path / "w").exists()


def test_an_out_holding_another_runs_model_is_never_overwritten(tmp_path):
    """Was: `--out MODEL.json` replaced any value model, another game's included; only a
    rerun of the command that trained it may."""
    first = train(_cfg(tmp_path), executor="serial")
    before = first.model_path.read_text()
    for argv in (["--games", "7"], ["--seed", "1"]):
        r = runner.invoke(app, ["train", GAME, "--out", str(first.model_path), *argv])
        assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
        assert "holds the value model of another run (meeple train" in r.output
        # this run's command is named too (was: only the file's, which for a run that
        # differs in --kind alone read as the user's own)
        assert "not of this one (meeple train 'python_coloretto(" in r.output
    r = runner.invoke(app, ["train", "python_coloretto(players=4)", "--out", str(first.model_path)])
    assert r.exit_code == 2 and "of another run" in r.output
    assert first.model_path.read_text() == before
    assert _train_cli(tmp_path / "work", first.model_path).exit_code == 0  # the same command


def test_a_work_directory_of_other_files_is_refused_before_anything_runs(tmp_path):
    """Was: `--work` wrote games/ and positions/ into any folder: a tournament ledger (which
    then no command could read) or a folder of the user's own files."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "notes.txt").write_text("mine")
    ledger = tmp_path / "ledger"
    ledger.mkdir()
    (ledger / "manifest.json").write_text("{}")
    afile = tmp_path / "afile"
    afile.write_text("mine")
    for work, reason in ((notes, "notes.txt"), (ledger, "manifest.json"), (afile, "is a file")):
        argv = ["train", GAME, "--work", str(work), "--out", str(tmp_path / "m.json")]
        r = runner.invoke(app, argv)
        assert r.exit_code == 2 and r.output.count("\n") == 1 and reason in r.output, r.output
    assert sorted(p.name for p in notes.iterdir()) == ["notes.txt"]
    assert sorted(p.name for p in ledger.iterdir()) == ["manifest.json"]


def _train_cli(work, out):
    """`meeple train` on the tests' small request (serial, quiet)."""
    argv = ["train", GAME, "--games", "6", "--every", "3", "--work", str(work), "--out", str(out)]
    return runner.invoke(app, [*argv, "--executor", "serial", "-q"])


def test_a_corrupted_positions_file_is_a_one_line_error_and_the_ledger_survives(tmp_path):
    train(_cfg(tmp_path), executor="serial")
    part = next((tmp_path / "work" / "positions").glob("part-*.parquet"))
    part.write_bytes(b"not parquet")
    r = _train_cli(tmp_path / "work", tmp_path / "m2.json")
    assert r.exit_code == 1 and "unreadable positions file" in r.output
    assert read_ledger(tmp_path / "work" / "games").table.num_rows == 6


def test_train_command_reports_held_out_r2_and_how_to_use_the_model(tmp_path):
    out = tmp_path / "m.json"
    r = _train_cli(tmp_path / "w", out)
    assert r.exit_code == 0, r.output
    assert "held-out R^2" in r.output and f"model={out}" in r.output
    assert json.loads(out.read_text())["format"] == vm.FORMAT


def test_kind_mlp_with_a_pooled_run_trains_on_both_and_holds_out_only_its_own(tmp_path):
    """A second request (another seed) pools the first run's positions: the pooled games
    train, never held out; the network model is written and searched with."""
    first = train(_cfg(tmp_path, games=5), executor="serial")
    cfg = TrainConfig(
        GAME,
        games=6,
        every=3,
        seed=1,
        work=str(tmp_path / "w2"),
        out=str(tmp_path / "m2.json"),
        kind="mlp",
        pool=(str(first.work),),
    )
    result = train(cfg, executor="serial")
    r = result.report
    assert r["pooled_games"] == 5 and r["games"] == 11 and r["heldout_games"] == 1
    assert {"r2_linear", "network_epochs"} <= set(r) and result.model.kind == "mlp"
    assert (
        "--pool" in result.model.trained["command"]
        and "--kind mlp" in result.model.trained["command"]
    )
    game = pyspiel.load_game(GAME)
    agent = make_agent(f"ismcts(sims=10,eval=learned,model={result.model_path})", game, seed=0)
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    assert agent.step(s.clone()) in s.legal_actions()


def test_a_pooled_run_of_other_features_is_refused(tmp_path):
    first = train(_cfg(tmp_path, games=5), executor="serial")
    manifest = first.work / "positions" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["features"] = ["score_now"]
    manifest.write_text(json.dumps(data))
    cfg = _cfg(tmp_path, games=5, seed=1, pool=(str(first.work),))
    cfg.work, cfg.out = str(tmp_path / "w2"), str(tmp_path / "m2.json")
    with pytest.raises(TrainError, match="other features"):
        train(cfg, executor="serial")
    assert not (tmp_path / "w2").exists()  # was: said after the self-play games were played
    argv = ["train", GAME, "--games", "5", "--seed", "1", "--pool", str(first.work)]
    r = runner.invoke(app, [*argv, "--work", str(tmp_path / "w2"), "--out", cfg.out])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "other features" in r.output
    assert not (tmp_path / "w2").exists()


def test_self_play_fixed_tables_need_self_play_true(make_raw):
    raw = make_raw(schedule="fixed", tables=[["a", "a"]], agents={"a": "heuristic"})
    with pytest.raises(ConfigError, match="self_play = true"):
        build_config(raw)
    raw["tournament"]["self_play"] = True
    cfg = build_config(raw)
    assert [a.name for a in cfg.agents] == ["a"] and cfg.tables == (("a", "a"),)


@pytest.mark.ray
def test_train_plays_its_self_play_games_on_ray(ray_cluster, tmp_path):
    result = train(_cfg(tmp_path, games=8), executor="ray")
    assert result.games == 8
    serial = train(
        TrainConfig(GAME, games=8, every=3, work=str(tmp_path / "s"), out=str(tmp_path / "s.json")),
        executor="serial",
    )
    assert serial.model == result.model  # the same seeds give the same games and model


def test_an_output_it_cannot_write_is_said_before_the_self_play(tmp_path, monkeypatch):
    """Was: `--out ro/m.json` on a read-only disk failed after every game was played, and
    the message named the temporary file (`.tmp-m.json.9561`), not the reason."""
    import os

    real = os.access
    ro = tmp_path / "ro"
    ro.mkdir()
    monkeypatch.setattr(os, "access", lambda p, m: real(p, m) and Path(p) != ro)
    r = runner.invoke(
        app, ["train", GAME, "--work", str(tmp_path / "w"), "--out", str(ro / "m.json")]
    )
    assert r.exit_code == 2 and r.output.count("\n") == 1 and f"cannot write in {ro}" in r.output
    assert not (tmp_path / "w").exists()
    monkeypatch.undo()
    replace = os.replace

    def full_disk(src, dst):
        if str(dst).endswith("m.json"):
            raise OSError(28, "No space left on device", str(src))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(TrainError) as e:
        train(_cfg(tmp_path), executor="serial")
    assert str(e.value) == f"cannot write {tmp_path / 'm.json'}: No space left on device"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_an_out_in_a_folder_nothing_can_be_created_in_is_said_before_the_self_play(tmp_path):
    """Was: `--out /proc/m.json` passed the permission check (the bits allow writing),
    played and replayed every game, then failed with exit 1."""
    r = runner.invoke(app, ["train", GAME, "--work", str(tmp_path / "w"), "--out", "/proc/m.json"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert "--out /proc/m.json: cannot write in /proc" in r.output
    assert not (tmp_path / "w").exists()


def _pool_cfg(tmp_path, name, pool, **kw) -> TrainConfig:
    kw.setdefault("games", 5)
    kw.setdefault("every", 3)
    work, out = str(tmp_path / name), str(tmp_path / f"{name}.json")
    return TrainConfig(kw.pop("game", GAME), work=work, out=out, pool=pool, **kw)


def test_a_pool_of_this_runs_own_games_or_another_game_string_is_refused(tmp_path):
    """Was: `--pool` of the run's own --work, of an earlier run of the same request (a
    copy of its work directory), of one directory given twice or of another variant (4
    players, other scoring: same feature names) was accepted, and the held-out games also
    trained: a wrong held-out R^2."""
    import shutil

    first = train(_pool_cfg(tmp_path, "a", ()), executor="serial")
    shutil.copytree(first.work, tmp_path / "copy")
    other = _pool_cfg(tmp_path, "b", (), game="python_coloretto(players=4)")
    train(other, executor="serial")
    again = _pool_cfg(tmp_path, "a", ())
    again.out = str(tmp_path / "a2.json")  # not the first run's model (another command)
    cases = [
        ((str(first.work),), "is this run's --work"),
        ((str(tmp_path / "copy"),), "this request's own games"),
        ((str(tmp_path / "b"),), "holds games of python_coloretto("),
    ]
    for pool, message in cases:
        again.pool = pool
        with pytest.raises(TrainError, match=re.escape(message)):
            validate(again)
    twice = _pool_cfg(tmp_path, "c", (str(first.work), str(tmp_path / "copy")), seed=1)
    with pytest.raises(TrainError, match="the same games as --pool"):
        train(twice, executor="serial")
    assert not (tmp_path / "c").exists()
    argv = ["train", GAME, "--games", "5", "--every", "3", "--work", str(first.work)]
    r = runner.invoke(app, [*argv, "--out", str(tmp_path / "a2.json"), "--pool", str(first.work)])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "--work" in r.output, r.output


def test_pooled_games_identical_to_this_runs_are_left_out(tmp_path):
    """Was: a pool of an earlier run with the same seed and fewer games (its games are this
    run's first ones, the same moves) trained on this run's games, held-out ones included."""
    first = train(_pool_cfg(tmp_path, "a", ()), executor="serial")
    alone = train(_pool_cfg(tmp_path, "b", (), games=6), executor="serial")
    cfg = _pool_cfg(tmp_path, "b", (str(first.work),), games=6)
    cfg.out = str(tmp_path / "b-pooled.json")
    pooled = train(cfg, executor="serial")
    r = pooled.report
    assert r["pooled_left_out"] == 5 and r.get("pooled_games", 0) == 0
    assert r["r2_heldout"] == alone.report["r2_heldout"] and pooled.positions == alone.positions
    other = train(_pool_cfg(tmp_path, "c", (str(first.work),), seed=1), executor="serial")
    assert other.report["pooled_games"] == 5 and "pooled_left_out" not in other.report


def test_a_work_directory_of_another_request_names_the_options_that_changed(tmp_path):
    """Was: growing --games on the same --work said "games holds another tournament:
    tournament.seeds_per_lineup was 10, now 15" (the user gave no tournament), and another
    --every was refused only after the self-play, exit 1."""
    first = train(_cfg(tmp_path, games=5), executor="serial")
    argv = ["train", GAME, "--work", str(first.work), "--out", str(tmp_path / "m2.json")]
    for extra, said in (
        (["--games", "6", "--every", "3"], "(--games 5 -> 6)"),
        (["--games", "5", "--every", "2"], "(--every 3 -> 2)"),
        (["--games", "7", "--seed", "2", "--every", "3"], "(--games 5 -> 7, --seed 0 -> 2)"),
    ):
        r = runner.invoke(app, [*argv, *extra, "--executor", "serial", "-q"])
        assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
        assert said in r.output and "give a new --work, or the same options" in r.output
    assert read_ledger(first.work / "games").table.num_rows == 5
