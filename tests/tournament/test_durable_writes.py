"""Every writer that replaces a file renames a temporary file that was synced to disk
first, then syncs the directory (``spiel_games.common.files.atomic_file``): a crash right
after the rename leaves the new file or the old one, never an empty one."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from solvers import train_exact
from solvers.policy_file import write_policy
from tournament import luck_cache, positions
from tournament.sprt import run as sprt_run


def _policy(path: Path) -> Path:
    meta = {"game": "kuhn_poker", "abstraction": "none", "abstraction_version": 1,
            "iterations": 1, "solver": "cfr"}  # fmt: skip
    write_policy(path / "p.parquet", {"0": {0: 0.5, 1: 0.5}}, meta)
    return path / "p.parquet"


def _exact_checkpoint(path: Path) -> Path:
    train_exact._write_checkpoint(path / "c.ckpt.parquet", [("0", 0, 0.1, 0.2)], {"iteration": 1})
    return path / "c.ckpt.parquet"


def _positions(path: Path) -> Path:
    row = {"game_id": ["g"], "seed_index": [0], "step": [1], "player": [0], "stage": [0.5],
           "features": [[1.0]], "hand": [0.0], "final": [1.0]}  # fmt: skip
    positions.write_part(path, row)
    return path / "part-00000.parquet"


def _sprt_sidecar(path: Path) -> Path:
    sprt_run.write_sidecar(path, SimpleNamespace(sidecar=lambda: {"max_games": 6}))
    return path / sprt_run.SIDECAR


def _luck_cache(path: Path) -> Path:
    luck_cache._write(path / luck_cache.CACHE, {"format": luck_cache.FORMAT})
    return path / luck_cache.CACHE


@pytest.mark.parametrize(
    "write", [_policy, _exact_checkpoint, _positions, _sprt_sidecar, _luck_cache]
)
def test_the_file_is_synced_before_it_is_renamed_over_the_target(tmp_path, monkeypatch, write):
    """Was: the temporary file renamed unsynced (a crash could leave an empty policy,
    checkpoint, positions part, SPRT sidecar or luck cache under the real name)."""
    synced: list[str] = []
    renamed: list[tuple[str, bool]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        synced.append(os.path.realpath(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    def replace(src, dst, **kw):
        renamed.append((str(dst), os.path.realpath(src) in synced))
        real_replace(src, dst, **kw)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    target = write(tmp_path)
    assert target.is_file()
    assert renamed == [(str(target), True)], renamed  # synced before the rename
    assert synced[-1] == os.path.realpath(tmp_path)  # then the directory, which holds the rename
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
