"""``run_lock``: one run at a time on an output directory, nothing left by a refused one."""

from __future__ import annotations

import pytest

from spiel_games.common.files import LOCK, file_lock, run_lock


class Refused(Exception):
    pass


def test_a_second_holder_is_refused_and_a_directory_it_made_is_removed(tmp_path):
    d = tmp_path / "run"
    with run_lock(d, Refused):
        assert (d / LOCK).exists()
        with pytest.raises(Refused, match="is being written by another run"), run_lock(d, Refused):
            pass
        assert d.is_dir()  # the first holder's directory stays while it runs
    assert not d.exists()  # made by the lock and left empty: removed


def test_a_directory_with_work_in_it_is_kept_and_a_file_is_refused(tmp_path):
    d = tmp_path / "run"
    with run_lock(d, Refused):
        (d / "log").write_text("work")
    assert (d / "log").read_text() == "work"
    with run_lock(d, Refused):  # free again
        pass
    f = tmp_path / "file"
    f.write_text("mine")
    with pytest.raises(Refused, match="exists and is not a directory"), run_lock(f, Refused):
        pass
    assert f.read_text() == "mine"


def test_a_file_lock_refuses_a_second_holder_and_leaves_no_lock_file(tmp_path):
    out = tmp_path / "p.ckpt.parquet"
    with file_lock(out, Refused):
        assert (tmp_path / ("p.ckpt.parquet" + LOCK)).exists()
        with (
            pytest.raises(Refused, match="is being written by another run"),
            file_lock(out, Refused),
        ):
            pass
        out.write_text("work")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.ckpt.parquet"]
    with file_lock(out, Refused):  # free again
        pass


def test_a_request_refused_under_the_lock_leaves_no_lock_file_in_an_existing_folder(tmp_path):
    """Was: `meeple tune -o W` on a folder of other files was refused after taking the lock,
    and the .lock it made stayed: `meeple train --work W` then refused W as holding a
    foreign file."""
    d = tmp_path / "work"
    d.mkdir()
    (d / "note.txt").write_text("mine")
    with pytest.raises(Refused, match="not mine"), run_lock(d, Refused):
        raise Refused("not mine")
    assert sorted(p.name for p in d.iterdir()) == ["note.txt"]
    (d / LOCK).write_text("")  # a lock file that was there before stays
    with pytest.raises(Refused, match="not mine"), run_lock(d, Refused):
        raise Refused("not mine")
    assert sorted(p.name for p in d.iterdir()) == [LOCK, "note.txt"]


@pytest.mark.parametrize("lock", [file_lock, run_lock])
def test_a_lock_whose_file_was_removed_while_waiting_is_refused(tmp_path, monkeypatch, lock):
    """A run that opened the lock file just before its holder ended (and removed it) must
    not hold that file's lock beside a third run holding the new one (file_lock always
    removes its file; run_lock removes one it made when its block fails)."""
    import os

    target = tmp_path / "p.ckpt.parquet"
    if lock is run_lock:
        target = tmp_path / "run"
        target.mkdir()
        (target / "log").write_text("work")
    real = os.open

    def open_then_lose_it(path, *args):
        fd = real(path, *args)
        os.unlink(path)  # the holder ends between this run's open and its lock
        return fd

    monkeypatch.setattr(os, "open", open_then_lose_it)
    with pytest.raises(Refused, match="has just ended; rerun"), lock(target, Refused):
        pass
