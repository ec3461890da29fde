"""``run_lock``: one run at a time on an output directory, nothing left by a refused one."""

from __future__ import annotations

import pytest

from spiel_games.common.files import LOCK, run_lock


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
