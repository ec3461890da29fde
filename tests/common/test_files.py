"""``spiel_games.common.files``: atomic writes, reads of regular files only, write probes."""

from __future__ import annotations

import errno

import pytest

from spiel_games.common.files import (
    FileTooLarge,
    NotRegularFile,
    atomic_write_text,
    read_regular,
    write_problem,
)


def test_a_write_where_no_file_can_be_made_names_the_folder():
    """Was: 'cannot write /proc/version: No such file or directory' (the temporary file
    beside the target could not be made; the target exists)."""
    with pytest.raises(OSError) as e:
        atomic_write_text("/proc/version", "x")
    assert e.value.errno == errno.ENOENT
    assert e.value.strerror == "cannot make a file in /proc (No such file or directory)"


def test_read_regular_refuses_devices_and_large_files_unread(tmp_path):
    with pytest.raises(NotRegularFile, match="is a character device, not a file"):
        read_regular("/dev/zero", 10)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 11)
    with pytest.raises(FileTooLarge, match="is over 10 bytes"):
        read_regular(big, 10)
    assert read_regular(big, 11) == b"x" * 11


def test_write_problem_says_why_and_leaves_nothing(tmp_path):
    assert write_problem(tmp_path / "a" / "b.json") == ""
    assert list(tmp_path.iterdir()) == []
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert write_problem(blocked / "x.json").startswith("cannot write in")
    assert write_problem("/proc/meeple/x").startswith("cannot write in /proc")
