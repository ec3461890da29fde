"""Rococo employee bonuses: one scenario per bonus (3 base bonuses + 28 hireable cards)."""

from __future__ import annotations

import pytest

from spiel_games.rococo import rules as R
from spiel_games.rococo.rules import FIREWORKS
from spiel_games.rococo.scenario import (
    card,
    clear_windows,
    deco,
    dress,
    give,
    guest,
    legal_strings,
    place_dress,
    play,
    select_all,
    set_deco,
    set_warehouse,
    set_window,
    start,
    tile,
)
from spiel_games.rococo.text import BONUS_TEXT

MASTER, JOURNEYMAN = "base Master", "base Journeyman"
APPR_YL, APPR_2 = "base Apprentice (yarn/lace)", "base Apprentice (2 Livre)"
BASE_REST = {card(MASTER): 2, card(JOURNEYMAN): 1, card(APPR_2): 1}


def bonus_turn(key: str, players: int = 2, main: str = "main: skip the main action", **holdings):
    """P1 plays card `key`, does `main`, and is offered the card's bonus."""
    s = start(players)
    select_all(s)
    k = card(key)
    holdings.setdefault("supply", dict(BASE_REST))
    give(s, 0, hand={k: 1}, **holdings)
    play(s, f"play {R.CARDS[k].name}", main)
    return s


def use_text(key: str) -> str:
    return "use bonus: " + BONUS_TEXT[R.BONUS_NAMES[R.CARDS[card(key)].bonus]]


def dresses(s, owner, names):
    for i, name in enumerate(names):
        place_dress(s, guest(s, i % 5, 1 + i // 5), owner, dress(name))


def decos(s, owner, ids):
    for d in ids:
        set_deco(s, d, owner)


def state_money_prestige(s, p=0):
    return s.holdings(p)["money"], s.holdings(p)["prestige"]


# ----- bonuses that need no decision ------------------------------------------------------------------
def _dress_setup(names):
    return lambda s: dresses(s, 0, names)


def _deco_setup(k):
    return lambda s: decos(s, 0, list(range(k)))


INSTANT = [
    # (card, set-up, extra discard cards, Livre gained, prestige gained)
    ("gain1", None, 0, 1, 0),
    (APPR_2, None, 0, 2, 0),
    ("money_yellow_red", _dress_setup(["yellow-1", "yellow-2", "red-1", "green-1"]), 0, 4, 0),
    ("L2 Journeyman (prestige_deco2)", _deco_setup(5), 0, 0, 2),
    ("money_deco", _deco_setup(3), 0, 3, 0),
    ("prestige_dress3", _dress_setup([f"green-{i}" for i in range(1, 8)]), 0, 0, 2),
    ("money_deck", None, 4, 10, 0),  # 5 + 4 = 9 cards -> 10 Livre
    ("money_deck", None, 0, 2, 0),  # 5 cards -> 2 Livre
    ("money_deck_small", None, 2, 3, 0),  # 7 cards -> 3 Livre
    ("green_blue", _dress_setup(["green-1", "green-2", "blue-1", "red-1"]), 0, 4, 1),
    ("money_dress", _dress_setup(["green-1", "green-2", "blue-1"]), 0, 3, 0),
    ("L5 Apprentice (prestige_deco2)", _deco_setup(4), 0, 0, 2),
    ("prestige_dress2", _dress_setup(["green-1", "green-2", "blue-1", "red-1", "red-2"]), 0, 0, 2),
]


@pytest.mark.parametrize(
    "key,setup,extra,livre,prestige",
    INSTANT,
    ids=[f"{row[0]}-{row[3]}L-{row[4]}P" for row in INSTANT],
)
def test_instant_bonus_gives_its_livre_and_prestige(key, setup, extra, livre, prestige):
    s = start(2)
    select_all(s)
    k = card(key)
    give(
        s,
        0,
        hand={k: 1},
        supply=dict(BASE_REST),
        money=40,
        discard={card(MASTER): extra} if extra else {},
    )
    if setup:
        setup(s)
    before = state_money_prestige(s)
    play(s, f"play {R.CARDS[k].name}", "main: skip the main action", use_text(key))
    after = state_money_prestige(s)
    assert (after[0] - before[0], after[1] - before[1]) == (livre, prestige)
    assert s.current_player() == 1


def test_instant_bonus_worth_nothing_is_not_offered():
    s = bonus_turn("money_dress")  # no dresses on the board
    assert s.current_player() == 1


def test_base_masters_have_no_bonus():
    s = bonus_turn(MASTER)
    assert s.current_player() == 1


# ----- choice bonuses -------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", [JOURNEYMAN, "extra_acquire"])
def test_extra_acquire_resources_bonus(key):
    s = bonus_turn(key, money=10, main="main: acquire resources")
    set_warehouse(s, [[tile("RR")] * 3, [tile("BB")], []])
    play(
        s,
        "take RR from segment 1",
        "keep tile as silk",
        use_text(key),
        "take BB from segment 2",
        "keep tile as silk",
    )
    assert (
        s.holdings(0)["money"] == 8
        and s.holdings(0)["tiles"][tile("BB")] == 1
        and s.holdings(0)["tiles"][tile("RR")] == 1
    )


def test_base_apprentice_pays_1_livre_for_yarn_or_lace():
    s = bonus_turn(APPR_YL, money=3)
    play(s, use_text(APPR_YL), "take lace")
    assert (s.holdings(0)["money"], s.holdings(0)["yarn"], s.holdings(0)["lace"]) == (2, 1, 2)


def test_level1_free_yarn_or_lace():
    s = bonus_turn("yarn_or_lace_free", money=0)
    play(s, use_text("yarn_or_lace_free"), "take yarn")
    assert (s.holdings(0)["money"], s.holdings(0)["yarn"], s.holdings(0)["lace"]) == (0, 2, 1)


def test_level1_depute_another_employee_and_use_its_bonus_without_money():
    s = bonus_turn("depute_use", money=0)
    play(s, use_text("depute_use"))
    assert "depute base Apprentice (2 Livre)" in legal_strings(s)
    play(s, "depute base Apprentice (2 Livre)", "use bonus: gain 2 Livre")
    assert s.holdings(0)["money"] == 2 and s.holdings(0)["supply"][card(APPR_2)] == 0
    assert (
        sum(s.holdings(0)["supply"]) + sum(s.holdings(0)["discard"]) == 4
    )  # 3 left + the played card


def test_level1_depute_bonus_respects_the_four_card_limit():
    s = bonus_turn("depute_use", supply={card(MASTER): 3})
    assert s.current_player() == 1  # deck of 4 (3 + the played card): bonus not offered


@pytest.mark.parametrize("key,cost", [("stack_tile_pay1", 1), ("stack_tile_free", 0)])
def test_level1_stack_tile_is_drawn_face_down_and_secret(key, cost):
    s = bonus_turn(key, money=5)
    play(s, use_text(key))
    assert s.is_chance_node() and s.holdings(0)["money"] == 5 - cost
    outcomes = [a for a, _ in s.chance_outcomes()]
    a, b = s.child(outcomes[0]), s.child(outcomes[-1])
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    play(a, "keep tile as silk")
    assert a.holdings(0)["secret_tiles"][outcomes[0]] == 1 and sum(a.holdings(0)["tiles"]) == 0


def test_level2_extra_dress_may_hand_in_one_yellow_bale_fewer_and_no_master_dress():
    s = bonus_turn("extra_dress_yg", money=10, yarn=1, lace=1, tiles={tile("Y-y"): 1})
    clear_windows(s)
    set_window(s, 5, dress("yellow-1"))  # 2 yellow + 1 yarn
    set_window(s, 4, dress("yellow-7"))  # thimble: a Master dress
    play(s, use_text("extra_dress_yg"))
    assert legal_strings(s) == ["make yellow-1 at window 6 (0 Livre)"]
    play(s, "make yellow-1 at window 6 (0 Livre)", "pay with tile Y-y")
    assert not any("(Master)" in t for t in legal_strings(s))


def test_level4_extra_dress_may_hand_in_up_to_two_red_bales_fewer():
    s = start(2)
    select_all(s)
    k = card("extra_dress_red")
    give(s, 0, hand={k: 1}, supply=dict(BASE_REST), money=10, yarn=1, lace=1, tiles={})
    clear_windows(s)
    set_window(s, 5, dress("red-1"))  # 2 red + 1 yarn
    play(
        s,
        f"play {R.CARDS[k].name}",
        "main: skip the main action",
        use_text("extra_dress_red"),
        "make red-1 at window 6 (0 Livre)",
    )
    assert "sell for 14 Livre" in legal_strings(s)  # no silk needed at all


def test_level2_depute_another_employee_for_8_5_2_livre():
    s = bonus_turn("depute_money", money=0)
    play(s, use_text("depute_money"), "depute base Master")
    assert s.holdings(0)["money"] == 8 and s.holdings(0)["supply"][card(MASTER)] == 1


@pytest.mark.parametrize(
    "key,space,price", [("extra_fund5", 2, 7), ("extra_fund10", 2, 2), ("extra_fund10", 0, 0)]
)
def test_extra_fund_a_decoration_with_discount(key, space, price):
    s = bonus_turn(key, money=10)
    play(s, use_text(key))
    d = deco(s, FIREWORKS, space)
    play(s, f"fund fireworks {space + 1} ({price} Livre)")
    assert s.holdings(0)["money"] == 10 - price and s.board()["decorations"][d] == 0


@pytest.mark.parametrize("key,rate", [("buy_prestige4", 4), ("buy_prestige3", 3)])
def test_return_livre_for_prestige_without_limit(key, rate):
    s = bonus_turn(key, money=3 * rate + 1)
    play(s, use_text(key))
    text = f"pay {rate} Livre for 1 prestige"
    play(s, text, text)
    assert s.holdings(0)["prestige"] == 2 and s.current_player() == 0
    play(s, text)  # the last affordable purchase ends the bonus
    assert (
        s.holdings(0)["prestige"] == 3 and s.holdings(0)["money"] == 1 and s.current_player() == 1
    )


def test_level5_discard_tiles_for_prestige_blue_red_and_pairs_of_yellow_green():
    s = bonus_turn(
        "tiles_prestige", tiles={tile("BB"): 1, tile("RR"): 1, tile("YYY"): 1, tile("GG-y/l"): 1}
    )
    play(s, use_text("tiles_prestige"))
    assert "done" not in legal_strings(s)  # at least one tile first
    play(
        s,
        "discard tile BB for prestige",
        "discard tile RR for prestige",
        "discard tile YYY for prestige",
        "discard tile GG-y/l for prestige",
    )
    assert s.holdings(0)["prestige"] == 2 + 2 + 5 // 2 and s.current_player() == 1


def test_crown_cards_have_no_bonus_during_the_game():
    s = bonus_turn("crown_pairs")
    assert s.current_player() == 1


# ----- crown bonuses (final scoring) ------------------------------------------------------------------------
def _crowns(key, setup):
    s = start(2)
    give(
        s,
        0,
        supply={
            card(key): 1,
            card(MASTER): 2,
            card(JOURNEYMAN): 1,
            card(APPR_2): 1,
            card(APPR_YL): 1,
        },
    )
    setup(s)
    return s.score_breakdown()[0]["crowns"]


def test_crown_deck_size_bonus_2_5_8_11():
    assert _crowns("crown_deck", lambda s: None) == 2  # 6 cards
    assert _crowns("crown_deck", lambda s: give(s, 0, discard={card(MASTER): 1})) == 5  # 7


def test_crown_three_prestige_per_yarn_and_lace_pair():
    assert _crowns("crown_yarn_lace", lambda s: give(s, 0, yarn=3, lace=2)) == 6


def test_crown_three_prestige_per_two_dresses_on_master_spaces():
    def setup(s):
        for h in range(3):
            place_dress(s, guest(s, h, 0), 0, dress(f"green-{h + 1}"))

    assert _crowns("crown_master_spaces", setup) == 3


def test_crown_two_prestige_per_lady_and_man_pair():
    assert (
        _crowns(
            "crown_pairs",
            lambda s: dresses(s, 0, ["yellow-1", "red-1", "green-1", "blue-1", "green-2"]),
        )
        == 4
    )


def test_deputed_crown_card_does_not_score():
    s = start(2)
    give(s, 0, supply={card(MASTER): 2}, discard={}, yarn=3, lace=3)
    assert s.score_breakdown()[0]["crowns"] == 0
