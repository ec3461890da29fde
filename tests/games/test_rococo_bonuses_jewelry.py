"""Rococo's Jewelry Box employees (`jewelry=true`): the new bonuses, one scenario per rule,
and the heuristic with them. Every card text and bonus is designed (rules.toml
[jewelry.employees], "assumed")."""

from __future__ import annotations

import random

import pyspiel
import pytest

from spiel_games.rococo import rules as R
from spiel_games.rococo.heuristic import heuristic_action
from spiel_games.rococo.scenario import (
    APPR_2,
    MASTER,
    REST,
    card,
    clear_windows,
    deco,
    dress,
    give,
    guest,
    jewel,
    jewelry_turn,
    legal_strings,
    place_dress,
    play,
    select_all,
    set_board,
    set_deco,
    set_warehouse,
    set_window,
    start,
    tile,
    use_text,
)


# ----- the new bonuses ---------------------------------------------------------------------------
def _board_for_instants(s):
    place_dress(s, guest(s, 0, 0), 0, dress("yellow-1"))  # a Master guest space
    place_dress(s, guest(s, 1, 1), 0, dress("green-1"))
    set_deco(s, deco(s, R.MUSICIAN, 2), 0)  # present in hall 3 through its Musician
    give(s, 0, jewels={jewel("red necklace"): 2})


@pytest.mark.parametrize(
    "key, gain",
    [
        ("money_jewel2", (4, 0)),
        ("money_colours", (4, 0)),
        ("money_halls", (3, 0)),
        ("money_master_spaces", (2, 0)),
        ("prestige_jewel", (0, 2)),
        ("prestige_halls2", (0, 1)),
        ("prestige_colours", (0, 2)),
        ("prestige_master_spaces", (0, 1)),
        ("money_dress_jewel", (4, 0)),
    ],
)
def test_new_instant_bonus_gives_its_livre_and_prestige(key, gain):
    s = start(2, jewelry="true")
    select_all(s)
    give(s, 0, hand={card(key): 1}, supply=dict(REST), money=0)
    _board_for_instants(s)
    play(s, f"play {R.CARDS[card(key)].name}", "main: skip the main action", use_text(key))
    h = s.holdings(0)
    assert (h["money"], h["prestige"]) == gain


def test_new_instant_bonus_worth_nothing_is_not_offered():
    s = jewelry_turn("prestige_jewel", money=0)
    assert s.current_player() == 1


def test_yarn_and_lace_bonus_gives_both():
    s = jewelry_turn("yarn_and_lace", yarn=0, lace=0)
    play(s, use_text("yarn_and_lace"))
    h = s.holdings(0)
    assert (h["yarn"], h["lace"]) == (1, 1)


def test_sell_dress_free_makes_without_window_cost_and_must_sell():
    s = start(2, jewelry="true")
    select_all(s)
    clear_windows(s)
    set_window(s, 0, dress("yellow-1"))  # window 1 costs 6 Livre
    give(
        s, 0, hand={card("sell_dress_free"): 1}, supply=dict(REST), money=0, tiles={tile("YYY"): 1}
    )
    play(s, "play L2 Journeyman (sell_dress_free)", "main: skip the main action")
    play(s, use_text("sell_dress_free"), "make yellow-1 at window 1 (0 Livre)", "pay with tile YYY")
    assert legal_strings(s) == ["sell for 11 Livre"]
    play(s, "sell for 11 Livre")
    assert s.holdings(0)["money"] == 11


def test_extra_dress_master_allows_thimble_dress_and_master_guest_space():
    s = start(2, jewelry="true")
    select_all(s)
    clear_windows(s)
    set_window(s, 5, dress("yellow-3"))  # thimble: a Master dress
    give(
        s,
        0,
        hand={card("extra_dress_master"): 1},
        supply=dict(REST),
        money=0,
        yarn=1,
        tiles={tile("YYY"): 1, tile("Y-y"): 1},
    )
    play(s, "play L5 Master (extra_dress_master)", "main: skip the main action")
    play(s, use_text("extra_dress_master"), "make yellow-3 at window 6 (0 Livre)")
    play(s, "pay with tile YYY", "pay with tile Y-y")
    assert "rent to Salon of Venus guest 1 (Master)" in legal_strings(s)


def test_acquire_free_takes_a_tile_without_paying():
    s = start(2, jewelry="true")
    select_all(s)
    set_warehouse(s, [[tile("YYY"), tile("GGG"), tile("RR")], [], []])  # 2 Livre to acquire
    give(s, 0, hand={card("acquire_free"): 1}, supply=dict(REST), money=0)
    play(s, "play L2 Journeyman (acquire_free)", "main: skip the main action")
    play(s, use_text("acquire_free"), "take RR from segment 1", "keep tile as silk")
    h = s.holdings(0)
    assert h["money"] == 0 and h["tiles"][tile("RR")] == 1


@pytest.mark.parametrize("key, discount", [("extra_fund3", 3), ("extra_fund8", 8)])
def test_extra_fund_3_and_8_discounts(key, discount):
    s = jewelry_turn(key, money=6 - discount if discount < 6 else 0)
    play(s, use_text(key), f"fund fireworks 1 ({max(0, 6 - discount)} Livre)")
    assert s.holdings(0)["money"] == 0
    assert s.board()["decorations"][deco(s, R.FIREWORKS, 0)] == 0


def test_hire_extra_hires_again_at_the_normal_price():
    s = jewelry_turn("hire_extra", money=20)
    display = s.board()["display"]
    play(s, use_text("hire_extra"), f"hire {R.CARDS[display[0]].name}")
    h = s.holdings(0)
    assert h["money"] == 20 - R.HIRE_COST[len(display) - 1]
    assert h["hand"][display[0]] == 1


@pytest.mark.parametrize("key, paid", [("jewel_buy", 3), ("jewel_free", 0)])
def test_jewel_buy_and_jewel_free_bonuses_without_a_dress(key, paid):
    s = start(2, jewelry="true")
    select_all(s)
    pieces = ("blue ring", "red necklace", "green ring", "yellow necklace")
    set_board(s, jeweller=tuple(jewel(x) for x in pieces))
    give(s, 0, hand={card(key): 1}, supply=dict(REST), money=3)
    play(s, f"play {R.CARDS[card(key)].name}", "main: skip the main action", use_text(key))
    assert "no jewellery" not in legal_strings(s)
    assert len(legal_strings(s)) == (1 if key == "jewel_buy" else 4)
    price = "3 Livre" if key == "jewel_buy" else "free"
    play(s, f"buy yellow necklace at jeweller space 4 ({price})")
    h = s.holdings(0)
    assert h["money"] == 3 - paid and h["jewellery"][jewel("yellow necklace")] == 1
    assert s.current_player() == 1  # no colour-match reward without a dress


# ----- agent -------------------------------------------------------------------------------------
def test_heuristic_passes_exams_and_hires_specialists():
    game = pyspiel.load_game("python_rococo(players=4,jewelry=true)")
    seen = {"exam": 0, "specialist": 0}
    for seed in range(3):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                a = rng.choices([a for a, _ in outs], [p for _, p in outs])[0]
            else:
                a = heuristic_action(s, rng)
                text = s.action_to_string(s.current_player(), a)
                seen["exam"] += text == "main: pass the exam"
                seen["specialist"] += text.startswith("hire specialist")
            s.apply_action(a)
    assert seen["exam"] >= 1 and seen["specialist"] >= 1


def test_depute_bonus_takes_a_new_card_from_the_hand_or_supply():
    """The new cards have their own action ids (`depute_x`, `depute_hand_x`)."""
    s = start(2, jewelry="true")
    select_all(s)
    spec = card("specialist usher")
    give(
        s,
        0,
        hand={card("depute_money"): 1, spec: 1},
        supply={card(MASTER): 2, card("prestige_jewel"): 1, card(APPR_2): 1},
        money=0,
    )
    play(s, "play L2 Apprentice (depute_money)", "main: skip the main action")
    play(s, use_text("depute_money"))
    assert "depute L5 Master (prestige_jewel)" in legal_strings(s)
    play(s, "depute specialist usher from hand")
    h = s.holdings(0)
    assert h["money"] == R.DEPUTE_MONEY_BONUS[R.APPRENTICE] and h["hand"][spec] == 0


def test_jewelry_public_state_survives_resampling():
    """Jewellery, exam cards, pools and the specialist row are public: every world the
    resampler deals for a player keeps them."""
    game = pyspiel.load_game("python_rococo(players=3,jewelry=true)")
    rng = random.Random(5)
    s = game.new_initial_state()
    exams = 0
    while not s.is_terminal() and exams < 2:
        if s.is_chance_node():
            outs = s.chance_outcomes()
            a = rng.choices([a for a, _ in outs], [p for _, p in outs])[0]
        else:
            a = heuristic_action(s, rng)
            exams += s.action_to_string(s.current_player(), a) == "main: pass the exam"
        s.apply_action(a)
    assert exams == 2
    keys = ("employee_stack", "specialists", "exam_pools", "exam_offer", "jeweller", "jewel_stack")
    for p in range(3):
        world = s.resample_from_infostate(p, rng.random)
        assert {k: world.board()[k] for k in keys} == {k: s.board()[k] for k in keys}
        for q in range(3):
            for k in ("exam", "jewellery", "known_hand"):
                assert world.holdings(q)[k] == s.holdings(q)[k]
