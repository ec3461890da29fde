"""What a user adds to a game record survives a save back to it (found in review). Was:
``play --load n.json`` then ``save`` rewrote the record from the game alone, dropping a
top-level ``notes`` field and an action's ``comment`` without a word."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tournament.cli import app
from tournament.records import GameRecord, carry_notes, parse_record

GAME = "python_coloretto(players=3)"


def test_notes_in_a_loaded_record_are_written_back(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_RECOVERY_DIR", str(tmp_path / "rec"))
    path = tmp_path / "g.json"
    seats = ["--seats", "human,heuristic,heuristic", "--seed", "1", "--save", str(path)]
    r = CliRunner().invoke(app, ["play", GAME, *seats], input="1\nquit\n")
    assert path.exists(), r.output
    data = json.loads(path.read_text())
    data["notes"] = "Game night at Anna"
    data["actions"][3]["comment"] = "nice"
    path.write_text(json.dumps(data))
    r = CliRunner().invoke(app, ["play", "--load", str(path)], input="1\nsave\nquit\n")
    assert r.exit_code == 0, r.output
    saved = json.loads(path.read_text())
    assert saved["notes"] == "Game night at Anna"
    assert saved["actions"][3]["comment"] == "nice"
    assert len(saved["actions"]) > len(data["actions"])  # the move played since is in
    assert parse_record(saved).extra == {"notes": "Game night at Anna"}


def _rec(*names: str, **extra) -> GameRecord:
    actions = [{"player": 0, "id": k, "action": n} for k, n in enumerate(names)]
    return GameRecord(game=GAME, actions=actions, extra=extra)


def test_an_entry_replaced_after_an_undo_drops_its_notes():
    loaded = _rec("a", "b", "c", notes="x")
    loaded.actions[0]["comment"] = "kept"
    loaded.actions[2]["comment"] = "about c"
    now = _rec("a", "b", "d")  # undone to "b", then another move
    now.actions[2]["id"] = 7
    out = carry_notes(now, loaded)
    assert out.extra == {"notes": "x"} and out.actions[0]["comment"] == "kept"
    assert "comment" not in out.actions[2]
    assert out.to_json()["notes"] == "x"
    assert carry_notes(_rec("a"), None).extra == {}


def test_a_note_cannot_replace_a_field_of_the_record():
    rec = _rec("a", game_over="?")
    rec.extra["seed"] = 99  # not an extra field: the record's own wins
    assert rec.to_json()["seed"] == 0 and rec.to_json()["game_over"] == "?"


def test_notes_follow_the_move_not_its_spelling_nor_a_revealed_question_mark():
    """Found in review of the fix: entries matched on the action string too, so a loaded
    entry written another accepted way (case, a unique beginning) or a "?" the table
    revealed since stopped the match, and every later note was dropped."""
    loaded = _rec("A", "?", "c")
    loaded.actions[1]["id"] = None
    for k, note in enumerate(("one", "two", "three")):
        loaded.actions[k]["comment"] = note
    now = _rec("take row 1", "deck: blue", "c")  # the engine's strings, the "?" now known
    out = carry_notes(now, loaded)
    assert [a.get("comment") for a in out.actions] == ["one", "two", "three"]
    assert out.actions[0]["action"] == "take row 1"  # the entry itself is the game's
