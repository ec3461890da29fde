"""The save at a stop never shortens a record (docs/advice.md, "Your work is never
dropped"). Was: `meeple play --load long.json --save long.json`, then undo and quit (or
Ctrl-D, Ctrl-C, a hang-up), wrote the shorter game over the record: "saved 15 actions",
no warning, nothing in the recovery folder; in table mode the entries dropped were a
physical game's moves."""

from __future__ import annotations

import io
from pathlib import Path

from typer.testing import CliRunner

from tournament.advice.play import PlaySession
from tournament.advice.positions import read_record
from tournament.cli import app

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


def _long(path, seats=("human", "heuristic"), **kw) -> list:
    """A record of a few moves at ``path``: its items."""
    session = PlaySession(
        TINY, list(seats), 3, inp=io.StringIO("1\n" * 6 + "quit\n"), out=io.StringIO(),
        save_path=str(path), **kw,
    )  # fmt: skip
    session.run()
    return list(session.items)


def _resume(path, lines: str, **kw):
    out, err = io.StringIO(), io.StringIO()
    session = PlaySession(
        TINY, kw.pop("seats", ["human", "heuristic"]), 3, inp=io.StringIO(lines), out=out,
        err=err, record=read_record(path), load_path=str(path), save_path=str(path), **kw,
    )  # fmt: skip
    return session, session.run(), out.getvalue(), err.getvalue()


def test_undo_then_quit_leaves_the_longer_record_and_keeps_the_game_apart(tmp_path, recovery_dir):
    path = tmp_path / "long.json"
    before_items = _long(path)
    before = path.read_text()
    for stop in ("quit\n", ""):  # quit, end of input
        session, result, out, err = _resume(path, "undo\nundo\n" + stop)
        assert path.read_text() == before  # was: the shorter game written over it
        assert result.kept == "recovered" and len(session.items) < len(before_items)
        kept = Path(result.saved[-1])
        assert kept.parent == recovery_dir
        assert read_record(kept).items() == session.items
        assert f"{path} holds {len(before_items)} actions" in err
        assert f"meeple play --load {path}" in err and f"meeple play --load {kept}" in err


def test_a_save_that_goes_on_from_the_record_is_written(tmp_path, recovery_dir):
    path = tmp_path / "long.json"
    first = _long(path)
    session, result, _, err = _resume(path, "1\nquit\n")
    assert result.kept == "saved" and err == ""
    assert read_record(path).items() == session.items and len(session.items) > len(first)
    assert not recovery_dir.exists() or not list(recovery_dir.iterdir())


def test_the_save_command_writes_what_was_asked_and_says_it_shortened_the_file(tmp_path):
    path = tmp_path / "long.json"
    first = _long(path)
    session, result, out, _ = _resume(path, "undo\nundo\nsave\nquit\n")
    n = len(session.items)
    assert read_record(path).items() == session.items and n < len(first)
    assert f"saved {n} actions to {path} (the file held {len(first)} actions: the undone" in out
    assert result.kept == "saved"  # the quit's save then goes on from the one just written


def test_the_cli_exits_non_zero_when_the_save_file_did_not_take_the_game(tmp_path, recovery_dir):
    path = tmp_path / "long.json"
    _long(path)
    before = path.read_text()
    argv = ["play", "--load", str(path), "--save", str(path)]
    r = CliRunner().invoke(app, argv, input="undo\nundo\nquit\n")
    assert r.exit_code == 1 and path.read_text() == before
    assert "left as it was" in r.stderr and len(list(recovery_dir.iterdir())) == 1


def test_table_mode_undo_then_quit_keeps_the_entries_typed(tmp_path, recovery_dir):
    path = tmp_path / "table.json"
    kw = {"seats": ["me", "table"], "chance": "manual"}
    first = PlaySession(
        TINY, ["me", "table"], 0, inp=io.StringIO("1\n" * 8 + "quit\n"), out=io.StringIO(),
        save_path=str(path), chance="manual",
    )  # fmt: skip
    first.run()
    before = path.read_text()
    session, result, _, err = _resume(path, "undo\nundo\nundo\nquit\n", **kw)
    assert path.read_text() == before and len(session.items) < len(first.items)
    assert result.kept == "recovered" and "left as it was" in err
