"""A '?' at the table is taken only for what the user cannot see in any world the menu
comes from (was: only the placeholder world was asked, and where it offered one option
the '?' was taken and the world then made the move up: a Bruxelles player's face-up keep,
a public Die Staufer tile). Scenarios from a player's walkthrough of table mode."""

from __future__ import annotations

import io

from tournament.advice.play import PlaySession
from tournament.advice.positions import read_record

BRUXELLES = [
    "strip 1", "strip 2", "strip 3", "strip 4", "compass wood", "compass stone", "compass iron",
    "compass noble", "compass money", "art blue", "art pink", "art yellow", "figure Solvay",
    "figure Buls", "figure Albert", "figure Empain", "bonus P", "bonus H", "bonus A", "bonus C",
    "bonus PP", "stock card 1 (3 BF)", "shield 1 (2-2)", "place r3c4 (Theater)", "bid 1",
    "skip", "pass", "pass", "pass", "bonus power 1 (C)", "figure Solvay", "bonus P", "bonus P",
    "bonus H", "bonus H", "bonus A", "stock card 2 (3 BF)", "shield 1 (3-2)",
    "place r2c4 (Workshop)", "bid 1", "perform",
]  # fmt: skip
STAUFER = [
    "region 2: Nijmegen", "region 3: Strasbourg", "region 4: Augsburg", "region 5: Palermo",
    "point tile (8, 4, 1)", "point tile (9, 5, 2)", "point tile (10, 5, 2)",
    "point tile (8, 4, 2)", "point tile (7, 4, 1)",
    "job region 3 for P1", "job design 4 for P1", "job office 2 for P1",
    "A tile: Milan", "A tile: Nijmegen", "A tile: Strasbourg", "A tile: Aachen",
    "A tile: Augsburg",
]  # fmt: skip


def _table(config: str, typed: list[str]) -> str:
    out = io.StringIO()
    lines = "".join(f"{t}\n" for t in [*typed, "quit"])
    PlaySession(
        config, ["me", "table", "table"], 0, inp=io.StringIO(lines), out=out, chance="manual"
    ).run()
    return out.getvalue()


def test_a_face_up_keep_the_placeholder_deal_forces_is_not_taken_as_hidden():
    text = _table("python_bruxelles(players=3)", [*BRUXELLES, "?"])
    assert "P2's Workshop draw 2 of 2: ? (hidden from you" in text  # the draws are hidden
    assert (
        "('?'): P1 can see this move of P2 (it is one of keep blue, keep pink, keep yellow,"
        " keep green): give it" in text
    )
    assert "  P2: ?" not in text


def test_a_forced_entry_after_question_marks_is_filled_in_not_asked():
    """Was: with '?' entries in the history (the other players' jobs) the one remaining A
    tile was asked as a one-line menu; without them forced entries were filled in. Now
    both are filled in when no world consistent with what the user saw offers another."""
    text = _table("python_staufer(players=3)", [*STAUFER, "?"])
    assert "P3's office job card: ? (hidden from you; one of 4)" in text  # '?' before it
    assert "the extra A tile (the king's start region)?" not in text
    assert "  the extra A tile (the king's start region): Palermo (the only option)" in text
    assert "  the region at board position 6: Aachen (the only option)" in text  # no '?' yet
    # the typed '?' lands on the next real question, a public tile: refused with its menu
    assert "('?'): P1 can see this chance outcome (the B tile for round 1; it is one of" in text


def test_a_forced_entry_after_question_marks_is_not_an_undo_step():
    """Undo steps back over the filled-in entry to the last typed one (the fifth A tile)."""
    text = _table("python_staufer(players=3)", [*STAUFER, "undo", "A tile: Palermo"])
    assert "undone: back 2 actions to your previous entry" in text
    assert "  the extra A tile (the king's start region): Augsburg (the only option)" in text


def test_a_loaded_table_game_counts_forced_entries_after_question_marks_as_filled_in(tmp_path):
    """A loaded game's undo also steps over them (was: counted typed, so undo stopped there
    and, now filled in again at once, went nowhere)."""
    path = tmp_path / "g.json"
    _table("python_staufer(players=3)", [*STAUFER, f"save {path}"])
    out = io.StringIO()
    PlaySession(
        "python_staufer(players=3)", ["me", "table", "table"], 0, inp=io.StringIO("undo\nquit\n"),
        out=out, chance="manual", record=read_record(path), load_path=str(path),
    ).run()  # fmt: skip
    assert "undone: back 2 actions to your previous entry" in out.getvalue()


def test_help_offers_a_question_mark_only_where_one_can_be_taken():
    """Was: help offered '?' at your own move too, where it is always refused."""
    text = _table("python_coloretto(players=3)", ["help", *["1"] * 6, "help"])
    helps = [line for line in text.splitlines() if "commands: " in line]
    assert "'?' for what you cannot see" in helps[0]  # at P1's start card: a chance entry
    assert "'?'" not in helps[-1]  # at P1's own placement


def test_staufer_job_cards_are_listed_by_their_printed_names():
    """Was: "job region 3 for P1", the region's internal id, which a player holding the
    Strasbourg card read as the third board position; the older strings still name them."""
    import pyspiel

    from tournament.advice.positions import position_from

    text = _table("python_staufer(players=3)", STAUFER[:9])
    menu = next(line for line in text.splitlines() if line.startswith("P1's region job card? "))
    assert "4. job region 3 for P1: Aachen" in menu and "3. job region 2 for P1: Nijmegen" in menu
    # with the two forced entries table mode fills in itself: the 6th region and point tile
    items = [*STAUFER[:4], "region 6: Aachen", *STAUFER[4:9], "point tile (6, 3, 1)", STAUFER[9]]
    pos = position_from("python_staufer(players=3)", history="; ".join(items), player=0)
    replay = pos.state.get_game().new_initial_state()
    for a in pos.state.history()[:11]:
        replay.apply_action(a)
    job = pos.state.history()[11]  # typed as the older "job region 3 for P1"
    assert replay.action_to_string(pyspiel.PlayerId.CHANCE, job) == "job region 3 for P1: Aachen"


def test_help_says_what_each_command_does_and_undo_as_table_mode_takes_it():
    """Was: help listed the command names only ('commands: hint, undo, ...'), so a player
    had to find docs/advice.md to learn that save takes a file name or what quit keeps."""
    from tournament.advice.commands import COMMANDS, TABLE_UNDO

    text = _table("python_coloretto(players=3)", ["help"])
    for name in COMMANDS:
        assert any(line.startswith(f"  {name} ") for line in text.splitlines()), name
    assert "save [FILE] [--force]" in text and "recovery file" in text
    assert TABLE_UNDO.split(" (")[0] in text  # table mode: undo is the last typed entry
    out = io.StringIO()
    PlaySession(
        "python_coloretto(players=3)", ["me", "heuristic", "heuristic"], 0,
        inp=io.StringIO("help\nquit\n"), out=out,
    ).run()  # fmt: skip
    assert "back to your previous decision" in out.getvalue()
    assert TABLE_UNDO.split(" (")[0] not in out.getvalue()
