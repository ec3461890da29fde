"""Issue 13 findings on Rococo (audit F2-F5): each test starts from a position where the
old code broke the rule, named after the rule."""

from __future__ import annotations

from spiel_games.rococo.scenario import (
    card,
    clear_windows,
    dress,
    give,
    legal_strings,
    play,
    select_all,
    set_window,
    start,
    tile,
)

MASTER, JOURNEYMAN = "base Master", "base Journeyman"
APPR_YL, APPR_2 = "base Apprentice (yarn/lace)", "base Apprentice (2 Livre)"
BASE_REST = {card(MASTER): 2, card(JOURNEYMAN): 1, card(APPR_2): 1}


def test_level5_discard_tiles_for_prestige_is_offered_for_any_silk_tile():
    """Old code: `any(discardable(...))` over tile ids; YY-y/l is id 0, so a player whose
    only silk tiles were YY-y/l was never offered the bonus."""
    assert tile("YY-y/l") == 0
    s = start(2)
    select_all(s)
    k = card("tiles_prestige")
    give(s, 0, hand={k: 1}, supply=dict(BASE_REST), tiles={tile("YY-y/l"): 1})
    play(s, "play L5 Master (tiles_prestige)", "main: skip the main action")
    assert "use bonus: discard tiles for prestige" in legal_strings(s)
    play(s, "use bonus: discard tiles for prestige", "discard tile YY-y/l for prestige")
    assert s.holdings(0)["prestige"] == 1  # 2 yellow bales
    assert s.current_player() == 1


def _yg_position(tiles):
    s = start(2)
    select_all(s)
    clear_windows(s)
    set_window(s, 5, dress("yellow-4"))  # 2 yellow + 1 green, no thimble
    give(
        s,
        0,
        hand={card("extra_dress_yg"): 1},
        supply=dict(BASE_REST),
        money=10,
        yarn=0,
        lace=0,
        tiles=tiles,
    )
    play(s, "play L2 Master (extra_dress_yg)", "main: skip the main action")
    return s


def test_level2_extra_dress_may_save_the_green_bale_instead_of_a_yellow_one():
    """Old code saved a yellow bale whenever the dress needed yellow, so with the two
    yellow bales but no green one the bonus was not offered (rulebook: green OR yellow)."""
    s = _yg_position({tile("YY-y/l"): 1})
    text = "use bonus: one more Make a Dress, 1 yellow/green bale less"
    assert text in legal_strings(s)
    play(s, text, "make yellow-4 at window 6 (0 Livre)", "pay with tile YY-y/l")
    assert any(a.startswith("rent to") for a in legal_strings(s))
    assert "pay with tile YY-y/l" not in legal_strings(s)


def test_level2_extra_dress_cannot_save_two_bales():
    s = _yg_position({tile("Y-y"): 1})  # 1 yellow: a yellow and the green would be missing
    assert s.current_player() == 1  # no bonus offered: the turn passed


def _depute_position(**extra):
    s = start(2)
    select_all(s)
    hand = {card("depute_use"): 1, card(JOURNEYMAN): 1}
    supply = {card(MASTER): 2, card(APPR_2): 1, card(APPR_YL): 1}
    give(s, 0, hand=hand, supply=supply, discard={}, **extra)
    return s


def test_depute_bonus_may_take_a_card_from_the_hand():
    """Old code offered only supply and discard cards; the Employee deck includes the hand."""
    s = _depute_position()
    play(
        s,
        "play L1 Journeyman (depute_use)",
        "main: skip the main action",
        "use bonus: depute a deck card and use its bonus",
    )
    assert "depute base Journeyman from hand" in legal_strings(s)
    play(s, "depute base Journeyman from hand")
    assert "use bonus: one more Acquire Resources" in legal_strings(s)
    assert sum(s.holdings(0)["hand"]) == 0


def test_depute_money_bonus_may_take_a_card_from_the_hand():
    """Old code: no hand card offered. A known (hired) hand card leaves known_hand too."""
    s = start(2)
    select_all(s)
    k, j = card("depute_money"), card(JOURNEYMAN)
    supply = {card(MASTER): 2, card(APPR_2): 1, card(APPR_YL): 1}
    give(s, 0, hand={k: 1, j: 1}, known={j: 1}, supply=supply, money=0)
    play(
        s,
        "play L2 Apprentice (depute_money)",
        "main: skip the main action",
        "use bonus: depute a deck card for 8/5/2 Livre",
        "depute base Journeyman from hand",
    )
    h = s.holdings(0)
    assert h["money"] == 5
    assert h["hand"][j] == 0 and h["known_hand"][j] == 0


def test_festivity_dress_prestige_is_gained_once_not_again_at_the_end():
    """Old code scored the Festivity dress's printed prestige again as a marker at the end
    (seed: prestige 'immediately and only this once')."""
    s = start(2, festivity="true")
    select_all(s)
    clear_windows(s)
    set_window(s, 5, dress("festive yellow-1"))
    give(
        s,
        0,
        hand={card(JOURNEYMAN): 1},
        supply=dict(BASE_REST),
        tiles={tile("YYY"): 1},
        yarn=1,
    )
    play(
        s,
        "play base Journeyman",
        "main: make a dress",
        "make festive yellow-1 at window 6 (0 Livre)",
        "pay with tile YYY",
        "rent to Salon of Venus guest 2",
    )
    b = s.score_breakdown()[0]
    assert b["in_game"] == 3
    assert b["markers"] == 0
    assert b["halls"] == 4  # the dress still wins the Salon of Venus (small side: 4/2)
