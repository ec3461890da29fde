"""The Parquet ledger: round trip, atomic batches, resume, refusal of bad files and configs."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tournament.config import build_config
from tournament.ledger import SCHEMA, LedgerError, ledger_bytes, read_ledger, write_batch
from tournament.replay import replay
from tournament.runner import run_tournament
from tournament.schedule import schedule

ROOT = Path(__file__).resolve().parents[2]


def _strip(rows):
    """Rows without wall-clock durations, in game-id order (for exact comparisons)."""
    return sorted(
        ({k: v for k, v in r.items() if k != "duration"} for r in rows), key=lambda r: r["game_id"]
    )


def test_parquet_round_trip_keeps_every_field(tmp_path, small_config):
    run_tournament(small_config, tmp_path / "a", executor="serial")
    led = read_ledger(tmp_path / "a")
    rows = led.table.to_pylist()
    assert len(rows) == len(schedule(small_config))
    (tmp_path / "b").mkdir()
    write_batch(tmp_path / "b", rows)
    back = pq.read_table(next((tmp_path / "b").glob("part-*.parquet"))).cast(SCHEMA).to_pylist()
    for a, b in zip(rows, back, strict=True):
        for key in a:
            if key in ("scores", "returns", "duration"):
                assert a[key] == pytest.approx(b[key])
            else:
                assert a[key] == b[key]
    assert rows[0]["run_id"] == small_config.run_id and len(rows[0]["agents"]) == 2
    assert all(sorted(r["ranks"]) in ([1, 2], [1, 1]) for r in rows)


def test_manifest_records_config_seeds_and_versions(tmp_path, small_config):
    run_tournament(small_config, tmp_path / "a", executor="serial")
    m = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert m["config_hash"] == small_config.config_hash
    assert m["config"]["tournament"]["seeds_per_lineup"] == 6
    assert sum(len(v) for v in m["seeds"].values()) == 6
    assert {"python", "open-spiel", "ray", "meeple-arena"} <= set(m["versions"])
    assert {a["name"]: a["id"] for a in m["agents"]} == {
        a.name: a.agent_id for a in small_config.agents
    }


def test_ledger_is_compact(tmp_path, make_raw):
    cfg = build_config(make_raw(seeds_per_lineup=50, batch_size=100))
    run_tournament(cfg, tmp_path / "a", executor="serial")
    assert ledger_bytes(tmp_path / "a") / 100 <= 300


def test_interrupted_run_resumes_without_loss_or_duplicates(tmp_path, small_config):
    full = tmp_path / "full"
    run_tournament(small_config, full, executor="serial")

    part = tmp_path / "part"

    def stop_after_two(i, rows):
        if i == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(small_config, part, executor="serial", on_batch=stop_after_two)
    assert read_ledger(part).table.num_rows == 8  # two batches of 4 games
    s = run_tournament(small_config, part, executor="serial")
    assert (s.already_done, s.played) == (8, len(schedule(small_config)) - 8)
    again = run_tournament(small_config, part, executor="serial")
    assert again.played == 0
    assert _strip(read_ledger(part).table.to_pylist()) == _strip(
        read_ledger(full).table.to_pylist()
    )


@pytest.mark.slow
def test_kill_9_then_rerun_plays_only_the_missing_games(tmp_path, make_raw, write_toml):
    cfg_path = write_toml(make_raw(seeds_per_lineup=60, batch_size=2))
    out = tmp_path / "ledger"
    cmd = [
        sys.executable,
        "-m",
        "tournament.cli",
        "tournament",
        "run",
        str(cfg_path),
        "--out",
        str(out),
        "--executor",
        "serial",
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline and len(list(out.glob("part-*"))) < 3:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = read_ledger(out).table.num_rows
    assert 0 < done < 120, "the run should have been killed part way"
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert f"{120 - done} game(s) played, {done} already in the ledger" in r.stdout
    ids = read_ledger(out).table.column("game_id").to_pylist()
    assert len(ids) == len(set(ids)) == 120


def test_truncated_file_is_reported_and_refused(tmp_path, small_config):
    out = tmp_path / "a"
    run_tournament(small_config, out, executor="serial")
    victim = sorted(out.glob("part-*.parquet"))[0]
    victim.write_bytes(victim.read_bytes()[:-40])
    with pytest.raises(LedgerError, match=victim.name):
        read_ledger(out)
    with pytest.raises(LedgerError, match="truncated"):
        run_tournament(small_config, out, executor="serial")


def test_foreign_data_files_are_refused_and_stray_files_ignored(tmp_path, small_config):
    """Was: any file besides the batches (a `.DS_Store`, notes, a report saved in the
    directory) made the whole ledger unreadable. Files that cannot hold games are now
    ignored and listed; Parquet files that are not this ledger's batches are still refused."""
    out = tmp_path / "a"
    run_tournament(small_config, out, executor="serial")
    rows = read_ledger(out).table.num_rows
    (out / "notes.txt").write_text("hello")
    (out / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    led = read_ledger(out)
    assert led.table.num_rows == rows
    assert sorted(p.name for p in led.ignored) == [".DS_Store", "notes.txt"]
    assert run_tournament(small_config, out, executor="serial").played == 0
    stray = out / "old-run.parquet"
    pq.write_table(pa.table({"x": [1]}), stray)
    with pytest.raises(LedgerError, match="foreign file"):
        read_ledger(out)
    stray.unlink()
    fake = out / "part-0123456789abcdef-1.parquet"
    pq.write_table(pa.table({"x": [1]}), fake)
    with pytest.raises(LedgerError, match="schema differs"):
        read_ledger(out)


def test_a_different_config_on_an_existing_ledger_is_refused(tmp_path, make_raw, small_config):
    out = tmp_path / "a"
    run_tournament(small_config, out, executor="serial")
    other = build_config(make_raw(seed=4))
    with pytest.raises(LedgerError, match=r"tournament\.seed was 3, now 4"):
        run_tournament(other, out, executor="serial")


def test_a_refused_directory_is_left_exactly_as_it_was(tmp_path, small_config):
    """Old: a non-empty directory that is not a ledger was refused but kept a new .lock."""
    out = tmp_path / "notes"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(LedgerError, match="refusing to mix"):
        run_tournament(small_config, out, executor="serial")
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    (out / ".lock").write_text("")  # a lock file that was there stays there
    with pytest.raises(LedgerError, match="refusing to mix"):
        run_tournament(small_config, out, executor="serial")
    assert sorted(p.name for p in out.iterdir()) == [".lock", "notes.txt"]


def test_unfinished_temporary_files_are_removed_and_replayed(tmp_path, small_config):
    out = tmp_path / "a"
    run_tournament(small_config, out, executor="serial")
    # a batch's temporary file, as the atomic writer names it (.tmp-NAME.PID)
    (out / ".tmp-part-0123456789abcdef-4.parquet.123").write_bytes(b"PAR1 half written")
    s = run_tournament(small_config, out, executor="serial")
    assert s.played == 0 and any("temporary" in n for n in s.notes)
    assert not list(out.glob(".tmp-*"))


def test_agent_failures_are_recorded_and_the_tournament_goes_on(tmp_path, make_raw, test_kinds):
    agents = {
        "greedy": "heuristic",
        "crash": "test_crash(after=2)",
        "illegal": "test_illegal(after=2)",
        "slow": "test_slow(after=1)",
    }
    cfg = build_config(make_raw(agents=agents, seeds_per_lineup=1, time_limit=0.15))
    s = run_tournament(cfg, tmp_path / "a", executor="serial")
    rows = read_ledger(tmp_path / "a").table.to_pylist()
    assert s.played == len(rows) == 12
    names = {a.agent_id: a.name for a in cfg.agents}
    expected = {"crash": "crash", "illegal": "illegal", "slow": "timeout"}
    for r in rows:  # every line-up holds a misbehaving agent, so every game ends early
        culprit = [names[i] for i in r["agents"]][r["failed_seat"]]
        assert r["failure"] == expected[culprit]
        assert r["ranks"][r["failed_seat"]] == 2 and min(r["ranks"]) == 1
        assert all(math.isnan(x) for x in r["scores"])
    assert set(s.failures) == {"crash", "illegal", "timeout"} and sum(s.failures.values()) == 12


def test_void_policy_leaves_failed_games_unranked(tmp_path, make_raw, test_kinds):
    agents = {"greedy": "heuristic", "crash": "test_crash(after=0)"}
    cfg = build_config(make_raw(agents=agents, seeds_per_lineup=2, failure_policy="void"))
    run_tournament(cfg, tmp_path / "a", executor="serial")
    rows = read_ledger(tmp_path / "a").table.to_pylist()
    assert rows and all(r["failure"] == "crash" and r["ranks"] is None for r in rows)


def test_replay_reproduces_a_recorded_game_exactly(tmp_path, small_config):
    run_tournament(small_config, tmp_path / "a", executor="serial")
    row = read_ledger(tmp_path / "a").table.to_pylist()[5]
    rep = replay(tmp_path / "a", row["game_id"])
    assert rep.matches
    moves = [line for line in rep.lines if line[:4].strip().isdigit()]
    assert len(moves) == row["length"]
    with pytest.raises(LedgerError, match="no game"):
        replay(tmp_path / "a", "0000000000000000")


def test_a_ledger_being_written_is_refused_to_a_second_run(tmp_path, small_config):
    from tournament.ledger import make_manifest
    from tournament.ledger_open import open_for_run

    out = tmp_path / "a"

    def second_run(i, rows):
        if i == 0:
            with pytest.raises(LedgerError, match="another run"):
                run_tournament(small_config, out, executor="serial")

    run_tournament(small_config, out, executor="serial", on_batch=second_run)
    with open_for_run(out, make_manifest(small_config, 0, {})) as created:  # released
        assert not created
    assert read_ledger(out).table.num_rows == len(schedule(small_config))


def test_a_ledger_that_cannot_be_made_says_so(tmp_path, small_config, monkeypatch):
    """A new ledger directory that cannot be made is named as not created (an existing
    one that cannot be written: tests/tournament/test_tournament_cli.py)."""
    import errno
    import os

    from tournament.ledger import make_manifest
    from tournament.ledger_open import open_for_run

    def read_only(path, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(os, "mkdir", read_only)
    out = tmp_path / "new"
    with (
        pytest.raises(
            LedgerError, match=r"new: cannot create the ledger \(Read-only file system\)$"
        ),
        open_for_run(out, make_manifest(small_config, 0, {})),
    ):
        pass
