"""Names near or over the 255 bytes a name may have (spiel_games.common.files).

Was: a file whose name had 245 to 255 bytes could not be written at all (its temporary
file, ``.tmp-NAME.PID``, was over 255 bytes): ``solve --out`` or ``train --out`` said so
only after the whole run, and ``write_problem`` passed it. ``lookup_problem`` is new: the
one check commands make before Path.exists (which raises for a name over 255 bytes)."""

from __future__ import annotations

import os

import pytest

from spiel_games.common.files import (
    NAME_MAX,
    TMP_PREFIX,
    atomic_file,
    atomic_write_text,
    is_folder,
    lookup_problem,
)


@pytest.mark.parametrize("name", ["c" * 250 + ".json", "é" * 125 + ".json", "x" * 255])
def test_a_name_of_up_to_255_bytes_is_written(tmp_path, name):
    assert len(os.fsencode(name)) <= NAME_MAX
    atomic_write_text(tmp_path / name, "old")
    seen = []
    with atomic_file(tmp_path / name) as f:
        seen = [p.name for p in tmp_path.iterdir() if p.name.startswith(TMP_PREFIX)]
        f.write(b"new")
    assert (tmp_path / name).read_text() == "new"
    assert len(seen) == 1 and len(os.fsencode(seen[0])) <= NAME_MAX
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # the temporary file gone


def test_two_long_names_sharing_their_start_get_two_temporary_files(tmp_path):
    a, b = tmp_path / ("d" * 240 + "-a"), tmp_path / ("d" * 240 + "-b")
    with atomic_file(a) as fa, atomic_file(b) as fb:
        fa.write(b"a")
        fb.write(b"b")
    assert a.read_text() == "a" and b.read_text() == "b"


def test_the_short_temporary_name_is_unchanged(tmp_path):
    with atomic_file(tmp_path / "m.json"):
        names = [p.name for p in tmp_path.iterdir()]
    assert names == [f"{TMP_PREFIX}m.json.{os.getpid()}"]


def test_lookup_problem(tmp_path):
    (tmp_path / "f").write_text("x")
    for fine in (tmp_path, tmp_path / "f", tmp_path / "missing", tmp_path / "f" / "under"):
        assert lookup_problem(fine) == ""
    assert lookup_problem(tmp_path / ("a" * 256)) == "File name too long"
    assert lookup_problem(tmp_path / ("a" * 300) / "x") == "File name too long"
    assert not is_folder(tmp_path / ("a" * 300))
