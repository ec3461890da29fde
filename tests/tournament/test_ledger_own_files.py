"""A ledger's own files are the ledger's alone (found in review). Was:

- ``meeple replay L ID --save L/manifest.json --force`` (or a batch's name, or any
  ``.parquet`` or folder in L) exited 0 and left L unreadable: a manifest lost, three
  finished games lost, or a foreign file refusing every read;
- a folder named ``.tmp-x`` in a ledger failed every resume ("IsADirectoryError ...
  rerun to resume", forever) while ``ratings`` and ``--dry-run`` passed it, and a
  resume deleted a user's file named ``.tmp-*``;
- ``--dry-run`` passed a truncated batch the run then refused.
"""

from __future__ import annotations

from typer.testing import CliRunner

from spiel_games.common.files import leftover_of
from tournament.cli import app
from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.runner import run_tournament

cli = CliRunner()


def _ledger(tmp_path, make_raw, write_toml):
    raw = make_raw(seeds_per_lineup=2, batch_size=2)
    out = tmp_path / "L"
    run_tournament(build_config(raw), out, executor="serial")
    return out, write_toml(raw)


def _game_id(out) -> str:
    return read_ledger(out, ["game_id"]).table.column("game_id")[0].as_py()


def test_replay_save_never_writes_into_a_ledger(tmp_path, make_raw, write_toml):
    out, _ = _ledger(tmp_path, make_raw, write_toml)
    gid = _game_id(out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    part = sorted(out.glob("part-*.parquet"))[0].name
    for target in ("manifest.json", part, "g.parquet", "g.json", ".sprt.json"):
        r = cli.invoke(app, ["replay", str(out), gid, "--save", str(out / target), "--force"])
        assert r.exit_code == 2 and r.output.count("\n") == 1, (target, r.output)
        assert "is inside the tournament ledger" in r.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    ok = cli.invoke(app, ["replay", str(out), gid, "--save", str(tmp_path / "g.json")])
    assert ok.exit_code == 0 and (tmp_path / "g.json").exists()


def test_a_folder_named_like_a_leftover_is_refused_alike_and_a_users_file_kept(
    tmp_path, make_raw, write_toml
):
    out, toml = _ledger(tmp_path, make_raw, write_toml)
    sorted(out.glob("part-*.parquet"))[0].unlink()  # a batch to play again
    (out / ".tmp-x").mkdir()
    for argv in (["ratings", str(out)], ["tournament", "run", str(toml), "--out", str(out)]):
        r = cli.invoke(app, argv)
        assert r.exit_code == 1 and "foreign file in the ledger" in r.output, (argv, r.output)
    dry = cli.invoke(app, ["tournament", "run", str(toml), "--out", str(out), "--dry-run"])
    assert dry.exit_code == 1 and ".tmp-x: foreign file in the ledger" in dry.output
    (out / ".tmp-x").rmdir()
    (out / ".tmp-mine").write_text("mine")  # a user's hidden file: ignored, never deleted
    left = out / ".tmp-part-0123456789abcdef-2.parquet.4242"  # a writer's leftover
    left.write_bytes(b"PAR1")
    r = cli.invoke(app, ["tournament", "run", str(toml), "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert (out / ".tmp-mine").read_text() == "mine" and not left.exists()


def test_dry_run_refuses_a_truncated_batch_as_the_run_does(tmp_path, make_raw, write_toml):
    out, toml = _ledger(tmp_path, make_raw, write_toml)
    part = sorted(out.glob("part-*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    args = ["tournament", "run", str(toml), "--out", str(out)]
    dry, real = cli.invoke(app, [*args, "--dry-run"]), cli.invoke(app, [*args, "-q"])
    assert dry.exit_code == real.exit_code == 1, (dry.output, real.output)
    assert "unreadable or truncated Parquet file" in dry.output


def test_leftover_of_names_only_a_writers_regular_file(tmp_path):
    f = tmp_path / ".tmp-manifest.json.123"
    f.write_text("{")
    assert leftover_of(f) == "manifest.json"
    (tmp_path / ".tmp-x.9").mkdir()
    (tmp_path / ".tmp-mine").write_text("")
    assert leftover_of(tmp_path / ".tmp-x.9") is None
    assert leftover_of(tmp_path / ".tmp-mine") is None
    assert leftover_of(tmp_path / "manifest.json") is None


def test_a_resume_removes_a_sidecars_leftover_whose_writer_ended(
    tmp_path, make_raw, write_toml, ended_pid
):
    """Was: an interrupted write of the luck cache or an SPRT's bounds left
    ``.tmp-.luck.json.PID`` in the ledger for ever (only batches' and the manifest's were
    cleared); one a live process may still be writing stays."""
    import os

    out, toml = _ledger(tmp_path, make_raw, write_toml)
    dead = out / f".tmp-.luck.json.{ended_pid}"
    live = out / f".tmp-.sprt.json.{os.getppid()}"
    users = out / f".tmp-notes.txt.{ended_pid}"
    for p in (dead, live, users):
        p.write_text("{")
    r = cli.invoke(app, ["tournament", "run", str(toml), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert not dead.exists() and live.exists() and users.exists()
    assert f"removed unfinished temporary file {dead.name}" in r.output
