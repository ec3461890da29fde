"""A full disk mid-run (ENOSPC, simulated on the files named): one line naming the file
that could not be written, a non-zero exit, and nothing already written lost: the rerun
goes on from it. Also a ``train --out`` that is a pipe, refused unread."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from tests.pipes import pipes, release_later
from tournament.cli import app

runner = CliRunner()
NO_SPACE = os.strerror(errno.ENOSPC)
TUNE = [
    "tune", "python_coloretto(players=2)", "--agent", "mcts(sims=5)", "--params", "uct_c",
    "--opponent", "random", "-q",
]  # fmt: skip
TRAIN = ["train", "python_coloretto(players=3)", "--games", "6", "--every", "3"]


def _no_space():
    return OSError(errno.ENOSPC, NO_SPACE)


class _FullFile:
    """A file opened on a full disk: opening (and truncating) works, writing fails."""

    def __init__(self, f):
        self.f = f

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()

    def write(self, _data):
        raise _no_space()

    def __getattr__(self, name):
        return getattr(self.f, name)


def _full_disk(monkeypatch, name: str) -> None:
    """Writes to files whose name holds ``name`` fail as on a full disk, however they are
    written: through Path.open / write_text (the write fails) or a file synced to disk
    (the sync fails, as it does when the disk fills under a buffered write)."""
    real_open, real_fsync = Path.open, os.fsync

    def path_open(self, mode="r", *args, **kwargs):
        f = real_open(self, mode, *args, **kwargs)
        return _FullFile(f) if name in self.name and mode[0] in "wa" else f

    def fsync(fd):
        if name in os.path.basename(os.readlink(f"/proc/self/fd/{fd}")):
            raise _no_space()
        real_fsync(fd)

    monkeypatch.setattr(Path, "open", path_open)
    monkeypatch.setattr(os, "fsync", fsync)


def _parquet_full(monkeypatch, name: str) -> None:
    """pyarrow's Parquet writes to a file whose name holds ``name`` fail: no space."""
    real = pq.write_table

    def write_table(table, where, *args, **kwargs):
        if name in os.path.basename(str(getattr(where, "name", where))):
            raise _no_space()
        return real(table, where, *args, **kwargs)

    monkeypatch.setattr(pq, "write_table", write_table)


def test_tune_on_a_full_disk_keeps_its_request_and_log(tmp_path, monkeypatch):
    """Was: the resume rewrote tune.json in place: a full disk left it empty with a
    traceback, and every later run said 'unreadable; delete the run'. A full disk while
    an evaluation was appended was a traceback too."""
    out = tmp_path / "tu"
    assert runner.invoke(app, [*TUNE, "--budget", "4", "--out", str(out)]).exit_code == 0
    request, log = out / "tune.json", out / "evaluations.jsonl"
    before = (request.read_text(), log.read_text())
    with monkeypatch.context() as m:
        _full_disk(m, "tune.json")
        r = runner.invoke(app, [*TUNE, "--budget", "8", "--out", str(out)])
    assert r.exit_code == 1 and r.stderr == f"error: cannot write {request}: {NO_SPACE}\n"
    assert (request.read_text(), log.read_text()) == before
    with monkeypatch.context() as m:  # the request (its new budget) written, then a game
        _full_disk(m, "evaluations.jsonl")
        r = runner.invoke(app, [*TUNE, "--budget", "8", "--out", str(out)])
    assert r.exit_code == 1 and r.stderr == f"error: cannot write {log}: {NO_SPACE}\n"
    assert json.loads(request.read_text())["budget"] == 8 and log.read_text() == before[1]
    r = runner.invoke(app, [*TUNE, "--budget", "8", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["played_now"] == 4  # the four earlier games were kept


def test_train_on_a_full_disk_is_one_line_and_resumes(tmp_path, monkeypatch):
    """Was: pyarrow's OSError [Errno 28] as a traceback while the positions were written."""
    work, out = tmp_path / "w", tmp_path / "m.json"
    argv = [*TRAIN, "--work", str(work), "--out", str(out), "--executor", "serial", "-q"]
    with monkeypatch.context() as m:
        _parquet_full(m, "part-")
        r = runner.invoke(app, argv)
    part = work / "positions" / "part-00000.parquet"
    assert r.exit_code == 1 and r.stderr == (
        f"error: {part}: {NO_SPACE}; rerun the same command to resume from {work}\n"
    ), r.output
    assert sorted(p.name for p in (work / "positions").iterdir()) == ["manifest.json"]
    r = runner.invoke(app, argv)
    assert r.exit_code == 0, r.output  # the self-play games were kept: only replayed


@pipes
def test_train_out_that_is_a_pipe_is_refused_unread(tmp_path):
    """Was: the check of an existing --out read the pipe and waited for a writer."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    release = release_later(fifo)  # the old code's read, released, fails the test
    r = runner.invoke(app, [*TRAIN, "--work", str(tmp_path / "w"), "--out", str(fifo)])
    release.cancel()
    assert r.exit_code == 2 and r.stderr == (
        f"error: --out {fifo} is a pipe (FIFO), not a file; choose another --out\n"
    ), r.output
    assert not (tmp_path / "w").exists()


def test_solve_on_a_full_disk_names_the_checkpoint_it_could_not_write(tmp_path, monkeypatch):
    """Was: 'cannot write p.parquet' when it was the checkpoint beside it that failed."""
    out = tmp_path / "p.parquet"
    _parquet_full(monkeypatch, ".ckpt.parquet")
    r = runner.invoke(app, ["solve", "kuhn_poker", "--solver", "cfr", "--iterations", "4",
                            "--out", str(out)])  # fmt: skip
    ckpt = tmp_path / "p.parquet.ckpt.parquet"
    assert r.exit_code == 1 and r.stderr == f"error: cannot write {ckpt}: {NO_SPACE}\n", r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []
