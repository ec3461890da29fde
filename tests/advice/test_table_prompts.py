"""Table mode names what each chance entry is for: "P2's start card? 1. start: yellow; ...",
not a bare "chance outcome?", so a player at a physical table knows which card to type.

Each scenario types the set-up of a game at the table (always the first option listed, by
number) and reads back the questions the session asked, the entries it confirmed and the
ones it filled in itself. The expected order is the games' own dealing order (Coloretto
deals P1's start cards first; Bruxelles fills the board row by row; Die Staufer places the
regions clockwise, then point tiles, each player's jobs, the round tiles, the chests).
"""

from __future__ import annotations

import io
import re

import pytest

from tournament.advice.play import PlaySession
from tournament.advice.positions import read_record

HINT = "ismcts(sims=10,rollout_depth=4)"


def _table(config: str, seats: list[str], typed: list[str], chance: str = "manual") -> str:
    """The session's output after typing ``typed`` (then quit)."""
    out = io.StringIO()
    lines = "".join(f"{t}\n" for t in [*typed, "quit"])
    session = PlaySession(
        config, seats, 0, inp=io.StringIO(lines), out=out, hint_agent=HINT, chance=chance
    )
    session.run()
    return out.getvalue()


def _questions(text: str) -> list[str]:
    """What each menu asked for: "P1's start card" of "P1's start card? 1. start: ..."."""
    return [line.split("? 1. ", 1)[0] for line in text.splitlines() if "? 1. " in line]


def _entries(text: str) -> list[str]:
    """The lines confirming an entry (typed after a prompt, or filled in by the session)."""
    return [
        "  " + line.split(">   ", 1)[1] if ">   " in line else line
        for line in text.splitlines()
        if ">   " in line or (line.startswith("  ") and ": " in line)
    ]


def test_coloretto_asks_for_each_players_start_card_then_the_start_player():
    text = _table("python_coloretto(players=3)", ["me", "table", "table"], ["1"] * 5)
    assert _questions(text) == [
        "P1's start card",
        "P2's start card",
        "P3's start card",
        "the start player",
        "the card P1 draws from the deck",
    ]
    assert text.splitlines()[2].startswith("P1's start card? 1. start: yellow; 2. start: blue")
    assert "P1's start card> " in text  # the input prompt names it too
    assert _entries(text)[:5] == [
        "  P1's start card: yellow",
        "  P2's start card: blue",
        "  P3's start card: green",
        "  the start player: P1",
        "  P1 (you): draw",
    ]


def test_coloretto_at_two_players_deals_two_start_cards_each_p1_first():
    text = _table("python_coloretto(players=2)", ["me", "table"], ["1"] * 4)
    assert _questions(text)[:5] == [
        "P1's start card 1 of 2",
        "P1's start card 2 of 2",
        "P2's start card 1 of 2",
        "P2's start card 2 of 2",
        "the start player",
    ]


def test_board_at_a_chance_prompt_says_what_is_to_be_entered():
    text = _table("python_coloretto(players=3)", ["me", "table", "table"], ["1", "board"])
    assert "--- to enter: P2's start card; your view (P1) ---" in text


def test_a_seeded_game_names_each_chance_outcome_too():
    text = _table("python_coloretto(players=3)", ["human", "random", "random"], [], "seed")
    entries = _entries(text)
    assert [e.split(": ", 1)[0] for e in entries[:4]] == [
        "  P1's start card",
        "  P2's start card",
        "  P3's start card",
        "  the start player",
    ]
    assert "  chance: " not in text


def test_rococo_names_the_display_card_warehouse_segment_and_window():
    text = _table("python_rococo(players=3)", ["table", "me", "table"], ["1"] * 20)
    assert _questions(text) == [
        "the start player",
        *[f"employee card {k} of 4 for hire" for k in (1, 2, 3, 4)],
        *[
            f"the tile for warehouse segment {s}, tile {t} of 3"
            for s in (1, 2, 3)
            for t in (1, 2, 3)
        ],
        *[f"the dress for workshop window {w}" for w in (6, 5, 4, 3, 2, 1)],  # right to left
    ]
    assert "  employee card 1 of 4 for hire: reveal L1 Apprentice (gain1)" in _entries(text)
    # P1 starts and selects in secret: a player's move, filled in as '?'
    assert "  P1: ? (hidden from you; one of 4)" in _entries(text)


def test_bruxelles_names_the_board_row_compass_space_player_theater_space_and_column():
    text = _table("python_bruxelles(players=3)", ["me", "table", "table"], ["1"] * 22)
    assert _questions(text) == [
        *[f"the strip for board row {r}" for r in (1, 2, 3, 4)],
        *[f"the tile for compass space {c}" for c in (1, 2, 3, 4, 5)],
        "P1's start work of art",
        "P2's start work of art",
        "P3's start work of art",
        *[f"the figure for the theater's {k} BF space" for k in (0, 1, 2, 3)],
        *[f"the bonus card for column {c}" for c in (1, 2, 3, 4, 5)],
        "round 1's stock exchange card",
    ]
    entries = _entries(text)
    # The last strip and the last compass tile are forced: filled in and named.
    assert "  the strip for board row 5: strip 5 (the only option)" in entries
    assert "  the tile for compass space 6: blank (the only option)" in entries


def test_staufer_names_positions_regions_players_jobs_rounds_and_chest_spaces():
    text = _table("python_staufer(players=3)", ["me", "table", "table"], ["1"] * 60)
    asked = _questions(text)
    assert asked[:5] == [f"the region at board position {p}" for p in (2, 3, 4, 5)] + [
        "the point tile for Milan"  # Milan is fixed at position 1
    ]
    assert asked[9:12] == ["P1's region job card", "P1's design job card", "P1's office job card"]
    assert asked[12:17] == [f"the A tile for round {r}" for r in (1, 2, 3, 4, 5)]
    # the last A tile is forced: filled in, though the other players' jobs are '?' now
    assert "  the extra A tile (the king's start region): Palermo (the only option)" in (
        _entries(text)
    )
    assert asked[17:26] == [f"the B tile for round {r}" for r in (1, 2, 3, 4, 5)] + [
        f"the C tile for round {r}" for r in (1, 2, 3, 4)
    ]
    assert asked[26:32] == [f"the chest for supply space {s}" for s in (1, 2, 3, 4, 5)] + [
        "the chest for Milan's seat 1 (3N)"
    ]
    # The other players' jobs are dealt face down: entered as '?', and named.
    hidden = [e for e in _entries(text) if "hidden from you" in e]
    assert hidden == [
        "  P2's region job card: ? (hidden from you; one of 5)",
        "  P2's design job card: ? (hidden from you; one of 5)",
        "  P2's office job card: ? (hidden from you; one of 5)",
        "  P3's region job card: ? (hidden from you; one of 4)",
        "  P3's design job card: ? (hidden from you; one of 4)",
        "  P3's office job card: ? (hidden from you; one of 4)",
    ]


@pytest.mark.parametrize(
    "config, seats, typed",
    [
        ("python_coloretto(players=3)", ["me", "table", "table"], 6),
        ("python_rococo(players=3)", ["table", "me", "table"], 20),
        ("python_bruxelles(players=3)", ["me", "table", "table"], 22),
        ("python_staufer(players=3)", ["me", "table", "table"], 60),
    ],
)
def test_each_entry_line_says_what_it_entered_once(config, seats, typed):
    """Was: "the start player: start player: P1", "the tile for warehouse segment 1, tile 1
    of 3: warehouse tile GGY", "P1's region job card: job region 2 for P1: Nijmegen"."""
    text = _table(config, seats, ["1"] * typed)
    lines = [e for e in _entries(text) if "hidden from you" not in e and " (you): " not in e]
    assert lines
    for line in lines:
        label, value = line.strip().split(": ", 1)
        said = {w.lower().removesuffix("'s") for w in label.split()}
        first = value.split()[0].rstrip(":").lower()
        numbered = re.fullmatch(r"\w+ \d+", value.removesuffix(" (the only option)"))
        assert first.isdigit() or first not in said or numbered, line  # "strip 2", not "2"


def test_loading_a_table_game_shows_the_board_first(tmp_path):
    """Was: after 'loaded N actions' came the next prompt, with no board."""
    config = "python_coloretto(players=3)"
    path = tmp_path / "game.json"
    _table(config, ["me", "table", "table"], ["1"] * 3 + [f"save {path}"])
    record = read_record(path)
    out = io.StringIO()
    session = PlaySession(
        config,
        ["me", "table", "table"],
        0,
        inp=io.StringIO("quit\n"),
        out=out,
        hint_agent=HINT,
        chance="manual",
        record=record,
    )
    session.run()
    lines = out.getvalue().splitlines()
    at = lines.index("loaded 3 actions")
    # The start player is next: the user's view comes before its prompt
    assert lines[at + 2] == "--- to enter: the start player; your view (P1) ---"
    assert lines[at + 3] == str(session.state).splitlines()[0]
    prompt = next(i for i, line in enumerate(lines) if line.startswith("the start player? 1."))
    assert prompt > at + 3


@pytest.mark.parametrize(
    "config, seats, said",
    [
        ("python_coloretto(players=3)", ["me", "table", "table"], "orange left out of the box"),
        ("python_coloretto(players=2)", ["me", "table"], "brown, orange left out of the box"),
        ("python_rococo(players=3)", ["table", "me", "table"], "filled from window 6"),
        ("python_bruxelles(players=3)", ["me", "table", "table"], "P1 is the first player"),
        ("python_staufer(players=3)", ["me", "table", "table"], "clockwise from Milan"),
    ],
)
def test_a_table_game_starts_with_the_games_set_up_conventions(config, seats, said):
    """Was: never said, so a player could not know that Coloretto at 3 players leaves
    orange out, or from where Die Staufer's board positions count."""
    lines = _table(config, seats, []).splitlines()
    assert lines[1].startswith("set-up: ") and said in lines[1]
    assert "P1" in lines[1]


def test_an_outcome_is_not_shortened_to_a_bare_number():
    """Was: 'the strip for board row 1: 2' (the word 'strip' dropped as said already)."""
    from spiel_games.common.chance import outcome_after

    assert outcome_after("the strip for board row 1", "strip 2") == "strip 2"
    assert outcome_after("the start player", "start player: P1") == "P1"
