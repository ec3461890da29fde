"""``spiel_games.common.files``: atomic writes, reads of regular files only, write probes."""

from __future__ import annotations

import errno
import os
import re
import stat
import tracemalloc

import pytest

from spiel_games.common import files
from spiel_games.common.files import (
    ANY_SIZE,
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


def test_read_regular_asks_for_the_files_size_not_the_limit(tmp_path):
    # A 1 GiB limit on a kilobyte file asked for a 1 GiB buffer on every read (and a
    # 64 GiB limit raised MemoryError): the buffer now follows the file.
    small = tmp_path / "small.json"
    small.write_bytes(b"{}" * 500)
    tracemalloc.start()
    try:
        assert read_regular(small, 1 << 30) == b"{}" * 500
        assert read_regular(small, ANY_SIZE) == b"{}" * 500
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_read_regular_reads_a_file_that_grew_and_refuses_it_past_the_limit(tmp_path, monkeypatch):
    grown = tmp_path / "grown"
    grown.write_bytes(b"y" * 3000)
    real = os.fstat

    def stale(fd):  # the size fstat saw before a writer appended
        st = real(fd)
        return os.stat_result((*st[:6], 5, *st[7:]))

    monkeypatch.setattr(files.os, "fstat", stale)
    assert read_regular(grown, 5000) == b"y" * 3000
    with pytest.raises(FileTooLarge):
        read_regular(grown, 2999)


def test_write_problem_says_why_and_leaves_nothing(tmp_path):
    assert write_problem(tmp_path / "a" / "b.json") == ""
    assert list(tmp_path.iterdir()) == []
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert write_problem(blocked / "x.json").startswith("cannot write in")
    assert write_problem("/proc/meeple/x").startswith("cannot write in /proc")


def test_write_problem_checks_a_symlinks_target_folder(tmp_path):
    """Was: the link's own folder was checked, so `play --save LINK` with a link into a
    folder no file can be made in passed the check and failed at the first save."""
    link = tmp_path / "game.json"
    link.symlink_to("/proc/meeple-game.json")
    assert write_problem(link).startswith("cannot write in /proc")
    fine = tmp_path / "fine.json"
    fine.symlink_to(tmp_path / "sub" / "target.json")
    assert write_problem(fine) == ""


def test_a_symlink_is_written_through_and_the_link_kept(tmp_path):
    """Was: the link replaced by a regular file holding the new text, the file it named
    left as it was (``meeple play --load link.json`` then ``save``)."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "game.json").write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to("real/game.json")  # relative, as `ln -s` makes it
    atomic_write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == "real/game.json"
    assert (real / "game.json").read_text() == "new"
    assert sorted(p.name for p in real.iterdir()) == ["game.json"]  # no temporary file left
    dangling = tmp_path / "dangling.json"  # a link to nothing: the file is made, as open does
    dangling.symlink_to(real / "new.json")
    atomic_write_text(dangling, "made")
    assert dangling.is_symlink() and (real / "new.json").read_text() == "made"


@pytest.mark.parametrize("mode", [0o600, 0o400, 0o640])
def test_the_new_file_keeps_the_old_ones_permissions(tmp_path, mode):
    """Was: 0644 (the umask's) whatever the record's mode: a private 0600 record became
    world-readable. A new file still gets the umask's."""
    path = tmp_path / "g.json"
    path.write_text("old")
    path.chmod(mode)
    atomic_write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == mode
    atomic_write_text(tmp_path / "fresh.json", "x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o666 & ~umask


def test_a_hard_link_is_replaced_not_written_in_place(tmp_path):
    """Documented: the rename gives the path a new file, so another hard link of the old
    one keeps the old content."""
    path, other = tmp_path / "g.json", tmp_path / "other.json"
    path.write_text("old")
    os.link(path, other)
    atomic_write_text(path, "new")
    assert path.read_text() == "new" and other.read_text() == "old"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_target_that_is_no_regular_file_is_refused_before_anything_is_written(tmp_path):
    """Was: a device (as root) or a pipe replaced by a regular file; a directory failed
    only at the rename."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    to_dev = tmp_path / "to-null"
    to_dev.symlink_to("/dev/null")
    for path, kind in ((fifo, "a pipe (FIFO)"), (to_dev, "a character device"),
                       (tmp_path, "a directory")):  # fmt: skip
        with pytest.raises(NotRegularFile, match=f"^is {re.escape(kind)}, not a file$") as e:
            atomic_write_text(path, "x")
        assert e.value.filename == str(path)
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and to_dev.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "to-null"]


def test_a_failed_write_names_the_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    """A full disk found by the sync: the error names the file asked for (not the
    temporary one), the old content is kept and nothing is left behind."""
    path = tmp_path / "g.json"
    path.write_text("old")

    def full(_fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as e:
        atomic_write_text(path, "new")
    assert (e.value.errno, e.value.filename) == (errno.ENOSPC, str(path))
    assert e.value.strerror == "No space left on device"
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["g.json"]
