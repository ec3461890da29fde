"""The ledger's data safety: a pipe named like a ledger file is refused unread, an --out
inside a ledger is refused before it is made, a full disk says what the ledger holds and
leaves no lock behind, and a damaged part or SPRT sidecar is refused with what to do."""

from __future__ import annotations

import errno
import os
import subprocess

import pytest
from typer.testing import CliRunner

from tests.pipes import pipes, release_later
from tournament.cli import app
from tournament.config import build_config
from tournament.ledger import LedgerError, read_ledger
from tournament.runner import run_tournament
from tournament.sprt.gsprt import Bounds, SprtError
from tournament.sprt.run import SIDECAR, SprtRequest, play_sprt, read_sprt

cli = CliRunner()
GAME2 = "python_coloretto(players=2)"


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


def _listing(d):
    return sorted((p.name, p.stat().st_mtime_ns) for p in d.iterdir())


def _ledger(tmp_path, make_raw, write_toml):
    """A finished 8-game ledger (4 batches of 2) and its config file."""
    raw = make_raw(seeds_per_lineup=4, batch_size=2)
    out = tmp_path / "t"
    run_tournament(build_config(raw), out, executor="serial")
    return out, write_toml(raw)


def _refused(argv, fifo, says, code=1):
    release_later(fifo, 5.0)
    r = _invoke(*argv)
    assert r.exit_code == code and r.stderr.count("\n") == 1, (argv, r.output)
    assert r.stderr.startswith("error: ") and says in r.stderr, (argv, r.stderr)


@pipes
def test_a_part_that_is_a_pipe_is_refused_unread(tmp_path, make_raw, write_toml):
    """Was: ratings, replay, review and a resume waited forever for a writer (pyarrow
    opened the pipe in a worker thread, and SIGTERM waited for that thread)."""
    out, toml = _ledger(tmp_path, make_raw, write_toml)
    part = sorted(out.glob("part-*.parquet"))[0]
    part.unlink()
    os.mkfifo(part)
    before = _listing(out)
    says = f"{part} is a pipe (FIFO), not a file; delete it and rerun"
    for argv in (
        ["ratings", out],
        ["replay", out, "0" * 16],
        ["review", out, "--list"],
        ["tournament", "run", toml, "--out", out, "--executor", "serial", "-q"],
    ):
        _refused(argv, part, says)
    assert _listing(out) == before


@pipes
def test_a_manifest_that_is_a_pipe_is_refused_unread(tmp_path, make_raw, write_toml):
    """Was: every command reading the ledger waited forever on manifest.json."""
    out, toml = _ledger(tmp_path, make_raw, write_toml)
    manifest = out / "manifest.json"
    manifest.unlink()
    os.mkfifo(manifest)
    before = _listing(out)
    says = f"{manifest}: unreadable manifest (is a pipe (FIFO), not a file)"
    run = ["tournament", "run", toml, "--out", out, "--executor", "serial", "-q"]
    for argv in (["ratings", out], ["replay", out, "0" * 16], run, [*run, "--dry-run"]):
        _refused(argv, manifest, says)
    assert _listing(out) == before


def test_a_ledger_error_names_the_part_for_read_ledger_too(tmp_path, make_raw, write_toml):
    """The library call says the same as the commands."""
    out, _ = _ledger(tmp_path, make_raw, write_toml)
    part = sorted(out.glob("part-*.parquet"))[0]
    part.unlink()
    part.mkdir()
    with pytest.raises(LedgerError, match="is a directory, not a file; delete it"):
        read_ledger(out)


REQ = SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 100.0), max_games=4)
SPRT = ["sprt", GAME2, "heuristic", "random", "--elo1", "100", "--max-games", "4"]


def _sprt(tmp_path):
    out = tmp_path / "s"
    play_sprt(REQ, out, executor="serial")
    return out, [*SPRT, "--out", out, "--executor", "serial", "-q"]


@pipes
def test_a_sidecar_that_is_a_pipe_is_refused_unread(tmp_path):
    """Was: the resume and read_sprt waited forever for a writer."""
    out, argv = _sprt(tmp_path)
    (out / SIDECAR).unlink()
    os.mkfifo(out / SIDECAR)
    _refused(argv, out / SIDECAR, f"{out / SIDECAR}: unreadable (is a pipe (FIFO), not a file)")
    release_later(out / SIDECAR, 5.0)
    with pytest.raises(SprtError, match="is a pipe"):
        read_sprt(out)


def test_an_out_inside_a_ledger_is_refused_before_it_is_made(tmp_path, make_raw, write_toml):
    """Was: `tournament run --out LEDGER/nested` played into a folder inside the ledger,
    and `ratings LEDGER` then refused the ledger ("foreign file in the ledger")."""
    out, toml = _ledger(tmp_path, make_raw, write_toml)
    before = _listing(out)
    (tmp_path / "link").symlink_to(out)
    for inner, ledger in (
        (out / "nested", out),
        (out / "a" / "b", out),
        (tmp_path / "x" / ".." / "t" / "y", tmp_path / "x" / ".." / "t"),
        (tmp_path / "link" / "z", tmp_path / "link"),
    ):
        for extra in ([], ["--dry-run"]):
            r = _invoke("tournament", "run", toml, "--out", inner, "-q", *extra)
            assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
            assert f"{inner} is inside the ledger {ledger}, " in r.stderr, r.stderr
    sprt = ["sprt", GAME2, "heuristic", "random", "--max-games", "4", "--out", out / "s"]
    r = _invoke(*sprt, "--executor", "serial", "-q")
    assert r.exit_code == 2 and "is inside the ledger" in r.stderr, r.output
    assert _listing(out) == before
    assert _invoke("ratings", out).exit_code == 0


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_before_the_manifest_leaves_nothing(
    tmp_path, make_raw, write_toml, monkeypatch
):
    """Was: 'finished batches are in OUT' though nothing was, and OUT/.lock left behind."""
    from tournament import ledger_open

    monkeypatch.setattr(ledger_open, "atomic_write_bytes", _full_disk)
    out = tmp_path / "tt"
    r = _invoke("tournament", "run", write_toml(make_raw()), "--out", out, "-q")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert r.stderr == f"error: {out}: cannot create the ledger (No space left on device)\n"
    assert not out.exists()
    out.mkdir()  # made by the user: kept, with nothing added
    r = _invoke("tournament", "run", write_toml(make_raw()), "--out", out, "-q")
    assert r.exit_code == 1 and "cannot write the ledger (No space left" in r.stderr
    assert list(out.iterdir()) == []


def test_a_full_disk_on_a_ledger_without_batches_says_none_finished(
    tmp_path, make_raw, write_toml, monkeypatch
):
    """Was: 'finished batches are in OUT' whenever OUT existed: here it holds the manifest
    of a run killed before its first batch, and no batch."""
    from tournament import runner

    out, toml = _ledger(tmp_path, make_raw, write_toml)
    for part in out.glob("part-*.parquet"):
        part.unlink()
    monkeypatch.setattr(runner, "write_batch", _full_disk)
    r = _invoke("tournament", "run", toml, "--out", out, "--executor", "serial", "-q")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert "(OSError: No space left on device); no batch had finished" in r.stderr, r.stderr
    assert "finished batches are in" not in r.stderr


def test_a_truncated_part_says_what_to_do_and_that_works(tmp_path, make_raw, write_toml):
    """Was: 'unreadable or truncated Parquet file (...)' and nothing about the fix."""
    out, toml = _ledger(tmp_path, make_raw, write_toml)
    whole = read_ledger(out).table.sort_by("game_id").drop_columns(["duration"])
    part = sorted(out.glob("part-*.parquet"))[1]
    part.write_bytes(part.read_bytes()[:-100])
    r = _invoke("ratings", out)
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert r.stderr.startswith(f"error: {part}: unreadable or truncated Parquet file (")
    assert r.stderr.endswith(
        "; delete it and rerun the command that wrote the ledger: only its 2 games are "
        "played again\n"
    )
    part.unlink()
    r = _invoke("tournament", "run", toml, "--out", out, "--executor", "serial", "-q")
    assert r.exit_code == 0 and r.stdout.startswith("2 game(s) played, 6 already"), r.output
    again = read_ledger(out).table.sort_by("game_id").drop_columns(["duration"])
    assert again.equals(whole)


def test_a_missing_sidecar_is_refused_when_the_ledger_holds_games(tmp_path):
    """Was: a rerun wrote the bounds it was given over the lost ones, and went on with the
    test's games under them (other bounds, another test half-way)."""
    out, argv = _sprt(tmp_path)
    (out / SIDECAR).unlink()
    before = _listing(out)
    r = _invoke(*argv[:5], "50", *argv[6:])  # other bounds: nothing says they are not
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert f"error: {out} holds 4 games of this SPRT but not its bounds" in r.stderr
    assert _listing(out) == before
    for part in out.glob("part-*.parquet"):  # no game: nothing to guard, written afresh
        part.unlink()
    assert _invoke(*argv).exit_code == 0 and (out / SIDECAR).exists()


def test_a_damaged_sidecar_says_how_to_write_it_back_and_that_works(tmp_path):
    """Was: '.sprt.json: unreadable (...)' and nothing about the fix."""
    out, argv = _sprt(tmp_path)
    (out / SIDECAR).write_text((out / SIDECAR).read_text()[:20])
    r = _invoke(*argv)
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert r.stderr.startswith(f"error: {out / SIDECAR}: unreadable (")
    assert "delete it and, if the test was started with the bounds" in r.stderr
    command = r.stderr.split("write them back: ")[1].split("; else use another --out")[0]
    (out / SIDECAR).unlink()
    subprocess.run(["sh", "-c", command], check=True)
    assert _invoke(*argv).exit_code == 0
    assert read_sprt(out)[0].games == 4


def test_sprt_on_a_full_disk_is_one_line(tmp_path, monkeypatch):
    """Was: an OSError from the ledger's writes (a full disk) ended `meeple sprt` with a
    traceback."""
    import tournament.sprt.run as sprt_run

    part = tmp_path / "s" / "part-0000000000000000-2.parquet"

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(part))

    monkeypatch.setattr(sprt_run, "play_sprt", full)
    out = tmp_path / "s"
    r = _invoke("sprt", GAME2, "heuristic", "random", "--max-games", "4", "--out", out, "-q")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert r.stderr == f"error: {part}: No space left on device; rerun to resume from {out}\n"
