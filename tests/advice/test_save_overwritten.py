"""A save that another program overwrites holds nothing of the game (found in review).

Was: `save` wrote the game to the --save file, something else then replaced that file,
and at quit the session refused to overwrite it (right) but counted the saved moves as
kept in it, made no recovery file and exited 0: the game was nowhere.
"""

from __future__ import annotations

import io
import json

from typer.testing import CliRunner

from tournament.advice.play import PlaySession
from tournament.advice.positions import read_record
from tournament.advice.saving import RecordKeeper
from tournament.cli import app

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
OTHER = '{"precious": "a record another program wrote"}\n'


class Replacing(io.StringIO):
    """Input that, when the session reads the line ``quit``, has first replaced ``path``
    with ``OTHER`` (another program writing the file during the game)."""

    def __init__(self, text: str, path):
        super().__init__(text)
        self.path = path

    def readline(self, *args) -> str:
        line = super().readline(*args)
        if line.strip() == "quit":
            self.path.write_text(OTHER)
        return line


def test_unsaved_counts_what_no_intact_file_holds(tmp_path):
    path = tmp_path / "game.json"
    items: list = [1, 2, 3]
    typed = [False, True, True]  # a chance draw from the seed, then two typed moves
    keeper = RecordKeeper(lambda: (None, items, typed), lambda line: None)
    assert keeper.unsaved() == 2
    path.write_text("the game")
    keeper.held[path], keeper.known[path] = [1, 2, 3], "the game"  # as a save leaves them
    assert keeper.unsaved() == 0
    items[2:], typed[2:] = [4, 5], [True, False]  # undo one, play one, an AI replies
    assert keeper.unsaved() == 1
    del items[1:], typed[1:]  # undo back past the save: the save holds more, nothing new
    assert keeper.unsaved() == 0
    items[1:], typed[1:] = [2, 3], [True, True]
    path.write_text(OTHER)  # another program replaced the save
    assert keeper.unsaved() == 2
    path.unlink()  # or removed it
    assert keeper.unsaved() == 2


def test_unsaved_reads_the_longest_history_an_intact_file_holds(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    items: list = [1, 2, 3, 4]
    typed = [True] * 4
    keeper = RecordKeeper(lambda: (None, items, typed), lambda line: None)
    a.write_text("a"), b.write_text("b")
    keeper.held.update({a: [1, 2, 3], b: [1]})
    keeper.known.update({a: "a", b: "b"})
    assert keeper.unsaved() == 1
    a.write_text(OTHER)
    assert keeper.unsaved() == 3  # only b's one entry is still held


def test_session_recovers_the_game_when_its_save_was_overwritten(tmp_path, recovery_dir):
    path = tmp_path / "game.json"
    out, err = io.StringIO(), io.StringIO()
    s = PlaySession(
        TINY,
        ["human", "heuristic"],
        3,
        inp=Replacing("1\n2\nsave\nquit\n", path),
        out=out,
        err=err,
        save_path=str(path),
    )
    result = s.run()
    assert path.read_text() == OTHER  # not overwritten without --force
    assert result.kept == "recovered"
    kept = list(recovery_dir.iterdir())
    assert len(kept) == 1
    assert read_record(kept[0]).action_ids() == result.actions
    assert "continue with: meeple play --load" in out.getvalue() + err.getvalue()


def test_cli_exits_1_and_keeps_the_game_when_its_save_was_overwritten(
    tmp_path, recovery_dir, monkeypatch
):
    path = tmp_path / "game.json"
    real = PlaySession.__init__

    def replacing(self, *args, inp, **kw):
        real(self, *args, inp=Replacing(inp.read(), path), **kw)

    monkeypatch.setattr(PlaySession, "__init__", replacing)
    r = CliRunner().invoke(
        app,
        ["play", TINY, "--seats", "human,heuristic", "--seed", "3", "--save", str(path)],
        input="1\n2\nsave\nquit\n",
    )
    assert r.exit_code == 1, r.output
    assert path.read_text() == OTHER
    (kept,) = recovery_dir.iterdir()
    assert json.loads(kept.read_text())["actions"]
    assert "was changed by another program" in r.output
