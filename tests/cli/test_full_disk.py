"""A full disk mid-run (ENOSPC, simulated on the files named): one line naming the file
that could not be written, a non-zero exit, and nothing already written lost: the rerun
goes on from it."""

from __future__ import annotations

import errno
import os

import pyarrow.parquet as pq
from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()
NO_SPACE = os.strerror(errno.ENOSPC)


def _no_space():
    return OSError(errno.ENOSPC, NO_SPACE)


def _parquet_full(monkeypatch, name: str) -> None:
    """pyarrow's Parquet writes to a file whose name holds ``name`` fail: no space."""
    real = pq.write_table

    def write_table(table, where, *args, **kwargs):
        if name in os.path.basename(str(getattr(where, "name", where))):
            raise _no_space()
        return real(table, where, *args, **kwargs)

    monkeypatch.setattr(pq, "write_table", write_table)


def test_solve_on_a_full_disk_names_the_checkpoint_it_could_not_write(tmp_path, monkeypatch):
    """Was: 'cannot write p.parquet' when it was the checkpoint beside it that failed."""
    out = tmp_path / "p.parquet"
    _parquet_full(monkeypatch, ".ckpt.parquet")
    r = runner.invoke(app, ["solve", "kuhn_poker", "--solver", "cfr", "--iterations", "4",
                            "--out", str(out)])  # fmt: skip
    ckpt = tmp_path / "p.parquet.ckpt.parquet"
    assert r.exit_code == 1 and r.stderr == f"error: cannot write {ckpt}: {NO_SPACE}\n", r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []
