"""Menus of designed-data options say what tells them apart (was: "stock card 1 (3 BF);
stock card 2 (3 BF)", "workshop dress red-1; ... red-6", "strip 1; strip 2", names a
player at the table cannot match to the card in front of them). The details come from
the rules data in brackets after the name; the name alone is still what one types."""

from __future__ import annotations

import io

from tournament.advice.play import PlaySession


def _table(config: str, seats: list[str], typed: list[str]) -> str:
    out = io.StringIO()
    lines = "".join(f"{t}\n" for t in [*typed, "quit"])
    PlaySession(config, seats, 0, inp=io.StringIO(lines), out=out, chance="manual").run()
    return out.getvalue()


def _menu(text: str, question: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"{question}? 1. "))


def test_bruxelles_strips_bonus_cards_and_stock_cards_show_their_content():
    typed = [
        *[f"strip {k}" for k in (2, 1, 4, 3)],
        *[f"compass {c}" for c in ("noble", "money", "blank", "iron", "stone")],
        "art pink", "art blue", "art green",
        "figure Solvay", "figure VanDeVelde", "figure Vandervelde", "figure Vandervelde",
        "bonus HH", "bonus P", "bonus P|C", "bonus H|C", "bonus P|H",
        "stock card 12 (7 BF)",  # typed by its name, as before
    ]  # fmt: skip
    text = _table("python_bruxelles(players=3)", ["me", "table", "table"], typed)
    strips = _menu(text, "the strip for board row 1")
    assert "1. strip 1 [Workshop, Sale, Theater, Materials, Construction]; " in strips
    assert "2. strip 2 [Theater, Materials, Construction, Workshop, Sale]; " in strips
    bonus = _menu(text, "the bonus card for column 1")
    assert "1. bonus P [Royal Palace +1, 1 VP symbol, 1 Manneken Pis]; " in bonus
    assert "5. bonus P|H [Royal Palace +1 or City Hall +1, 2 VP symbols]; " in bonus
    assert "10. bonus HH [City Hall +2, 1 Manneken Pis]; " in bonus
    assert "12. bonus CC [free 2 assistants, 2 Manneken Pis]" in bonus
    stock = _menu(text, "round 1's stock exchange card")  # shields of the 3-player cards
    assert stock.endswith(
        "; 11. stock card 11 (7 BF) [shields 2-4 and 3-2]; 12. stock card 12 (7 BF) [shields"
        " 2-2 and 3-4]"
    )
    assert "1. stock card 1 (3 BF) [shields 2-2 and 1-3]; 2. stock card 2 (3 BF) [shields" in stock
    assert "  round 1's stock exchange card: 12 (7 BF)" in text
    assert "shield 1 (2-2)" in text and "shield 2 (3-4)" in text  # the card's two shields


ROCOCO = [
    "start player: P1",
    *[f"reveal L1 {c}" for c in ("Journeyman (stack_tile_free)", "Apprentice (gain1)",
                                  "Apprentice (extra_acquire)", "Journeyman (depute_use)")],
    *[f"warehouse tile {t}" for t in ("GGY", "YYG", "GGY", "B-y/l", "YG-y", "GG-y/l", "y+l",
                                       "YY-y/l", "B-y/l")],
    "workshop dress red-2", "workshop dress blue-4 [bales YB, sells for 9 Livre, 2 prestige]",
    *[f"workshop dress {d}" for d in ("yellow-1", "red-5", "green-6", "green-3")],
]  # fmt: skip


def test_rococo_dresses_and_employee_cards_show_what_they_need_and_do():
    text = _table("python_rococo(players=3)", ["table", "me", "table"], ROCOCO)
    dresses = _menu(text, "the dress for workshop window 6")
    assert "1. workshop dress yellow-1 [bales YY + 1 yarn, sells for 11 Livre, 2 prestige]; " in (
        dresses
    )
    assert (
        "27. workshop dress red-1 [bales RR + 1 yarn, sells for 14 Livre, 3 prestige]; "
        "28. workshop dress red-2 [bales RR + 1 lace, sells for 14 Livre, 3 prestige]; "
        "29. workshop dress red-3 [bales RRR + 1 yarn, sells for 23 Livre, 4 prestige,"
        " thimble: a Master makes it]; "
    ) in dresses
    assert "  the dress for workshop window 6: red-2" in text  # typed by name, as before
    # a name copied from the menu with its details is read as the name
    assert "  the dress for workshop window 5: blue-4" in text
    reveal = _menu(text, "employee card 1 of 4 for hire")
    assert "1. reveal L1 Apprentice (gain1) [gain 1 Livre]; " in reveal
    # the user's own decision lists the cards' bonuses too
    assert "   1. select base Master [no bonus]\n" in text
    assert "   4. select base Apprentice (2 Livre) [gain 2 Livre]\n" in text
