"""Rococo scenario tests: one rule each, built from named cards, tiles and dresses and
scripted chance outcomes; they assert on public methods and action strings."""

from __future__ import annotations

import pyspiel

from spiel_games.rococo import rules as R
from spiel_games.rococo.scenario import (
    APPR_2,
    APPR_YL,
    JOURNEYMAN,
    MASTER,
    card,
    deco,
    dress,
    drive,
    finish_round_skipping,
    give,
    guest,
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
    turn,
)


# ----- setup ------------------------------------------------------------------------------------
def test_setup_gives_15_livre_1_yarn_1_lace_and_five_base_cards():
    s = start(3)
    assert all(
        (s.holdings(p)["money"], s.holdings(p)["yarn"], s.holdings(p)["lace"]) == (15, 1, 1)
        for p in range(3)
    )
    deck = s.holdings(0)["supply"]
    assert deck[card(MASTER)] == 2 and deck[card(JOURNEYMAN)] == 1
    assert deck[card(APPR_YL)] == 1 and deck[card(APPR_2)] == 1 and sum(deck) == 5


def test_board_side_by_player_count_warehouse_9_or_12_tiles():
    small, large = start(3), start(4)
    assert sum(len(seg) for seg in small.board()["warehouse"]) == 9
    assert sum(len(seg) for seg in large.board()["warehouse"]) == 12
    assert small.get_game().config.num_guests < large.get_game().config.num_guests


def test_start_player_is_drawn_uniformly():
    s = pyspiel.load_game("python_rococo(players=4)").new_initial_state()
    assert s.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]


def test_employee_stack_reveals_level_one_first_level_six_last():
    s = pyspiel.load_game("python_rococo(players=2)").new_initial_state()
    s.apply_action(0)
    levels = {R.CARDS[a].level for a, _ in s.chance_outcomes()}
    assert levels == {1}
    total = 0
    levels_seen = []
    for _round in range(7):
        for _ in range(4):
            outs = s.chance_outcomes()
            levels_seen.append(R.CARDS[outs[0][0]].level)
            s.apply_action(outs[0][0])
            total += 1
        drive(s)
        while not s.is_chance_node() and not s.is_terminal():
            # Everyone skips: play cards with no main action and no bonus.
            if "skip bonus" in legal_strings(s):
                play(s, "skip bonus")
            elif "main: skip the main action" in legal_strings(s):
                play(s, "main: skip the main action")
            elif "done" in legal_strings(s):
                play(s, "done")
            else:
                s.apply_action(s.legal_actions()[0])
            if s.board()["phase"] == "reveal":  # REVEAL of the next round
                break
    assert levels_seen[:4] == [1, 1, 1, 1] and levels_seen[-4:] == [6, 6, 6, 6]
    assert levels_seen == sorted(levels_seen) and total == 28


# ----- phase 1: prepare -----------------------------------------------------------------------------
def test_favor_holder_becomes_start_player_next_round_and_card_returns():
    s = turn(MASTER)
    play(s, "main: queen's favor")
    assert s.board()["favor"] == 0
    # Let P2 take the start by the favor instead: P2 plays and claims nothing, P1 had it.
    finish_round_skipping(s)
    drive(s)
    assert s.board()["start"] == 0 and s.board()["favor"] == -1  # returned beside the board


def test_favor_taken_by_second_player_moves_start_player():
    s = turn(MASTER)
    play(s, "main: skip the main action")
    assert s.current_player() == 1
    play(s, f"play {MASTER}", "main: queen's favor")
    finish_round_skipping(s)
    drive(s)
    assert s.board()["start"] == 1


def test_leftover_hire_cards_are_removed_at_round_start():
    s = turn(MASTER)
    before = set(s.board()["display"])
    finish_round_skipping(s)
    drive(s)
    assert not before & set(s.board()["display"]) and len(s.board()["display"]) == 4


def test_warehouse_leftovers_stay_and_empty_spaces_refill():
    s = turn(MASTER, money=20)
    set_warehouse(s, [[tile("RR")], [tile("BB"), tile("BB")], [tile("YYY")] * 3])
    play(s, "main: acquire resources", "take BB from segment 2", "keep tile as silk")
    finish_round_skipping(s)
    drive(s)
    ware = s.board()["warehouse"]
    assert tile("RR") in ware[0] and tile("BB") in ware[1] and len(ware[2]) == 3
    assert all(len(seg) == 3 for seg in ware)


def test_tile_discards_are_reshuffled_when_the_stack_runs_out():
    s = turn(MASTER, money=20)
    set_board(s, tile_stack=(0,) * R.NUM_TILES)
    disc = [0] * R.NUM_TILES
    disc[tile("BB")] = 5
    set_board(s, tile_discard=tuple(disc))
    set_warehouse(s, [[tile("RR")], [], []])
    finish_round_skipping(s)
    while s.board()["phase"] != "warefill":  # reveal the display first
        s.apply_action(s.chance_outcomes()[0][0])
    assert s.chance_outcomes() == [(tile("BB"), 1.0)]  # only the reshuffled discards
    drive(s)
    assert sorted(s.board()["warehouse"][1]) == [tile("BB")] * 3 and s.board()["warehouse"][0][
        0
    ] == tile("RR")


def test_workshop_discards_two_rightmost_slides_right_and_refills_from_bag():
    s = turn(MASTER)
    names = ["yellow-1", "yellow-2", "green-1", "red-1", "blue-1", "blue-2"]
    for w, name in enumerate(names):
        set_window(s, w, dress(name))
    set_window(s, 1, -1)  # yellow-2 was made
    finish_round_skipping(s)
    # Now at the reveal chance node of round 2; reveal and refill the warehouse.
    while s.board()["phase"] != "dressfill":
        s.apply_action(s.chance_outcomes()[0][0])
    w = s.board()["windows"]
    assert w[3:] == (dress("yellow-1"), dress("green-1"), dress("red-1"))
    assert (
        s.board()["dress_discard"][dress("blue-1")] == 1
        and s.board()["dress_discard"][dress("blue-2")] == 1
    )


def test_empty_bag_is_refilled_from_the_dress_discards():
    s = turn(MASTER)
    set_board(s, bag=(0,) * R.NUM_DRESSES)
    windows_before = list(s.board()["windows"])
    finish_round_skipping(s)
    while s.board()["phase"] != "dressfill":
        s.apply_action(s.chance_outcomes()[0][0])
    discarded = (
        {d for d in range(R.NUM_DRESSES) if s.board()["dress_discard"][d]}
        if sum(s.board()["dress_discard"])
        else None
    )
    drawn = {a for a, _ in s.chance_outcomes()}
    assert discarded is None  # the discards went back into the bag ...
    assert drawn <= set(windows_before[-2:])  # ... so only they can be drawn


# ----- phase 2: selection -----------------------------------------------------------------------------
def test_selection_is_secret_until_played():
    s = start(2)
    view = s.information_state_string(1)
    other = s.clone()
    play(s, f"select {MASTER}")
    play(other, f"select {APPR_2}")
    assert s.information_state_string(1) == other.information_state_string(1)
    assert s.information_state_string(0) != other.information_state_string(0)
    assert view != s.information_state_string(1)  # P2 sees that a card was selected


def test_exactly_three_cards_left_are_taken_and_supply_not_rebuilt():
    s = start(2)
    select_all(s)
    give(
        s,
        0,
        hand={card(MASTER): 1},
        supply={card(MASTER): 1, card(JOURNEYMAN): 1, card(APPR_2): 1},
        discard={card(APPR_YL): 1},
    )
    give(s, 1, hand={}, supply={card(MASTER): 3}, discard={card(APPR_YL): 2})
    play(s, f"play {MASTER}", "main: skip the main action")  # P2 has no cards: round over
    assert s.board()["round"] == 2
    drive(s)
    assert sum(s.holdings(0)["hand"]) == 3 and sum(s.holdings(0)["supply"]) == 0
    assert (
        s.holdings(0)["discard"][card(APPR_YL)] == 1 and s.holdings(0)["discard"][card(MASTER)] == 1
    )


def test_fewer_than_three_cards_left_rebuild_supply_from_discard_pile():
    s = start(2)
    select_all(s)
    give(
        s,
        0,
        hand={card(MASTER): 1},
        supply={card(JOURNEYMAN): 1},
        discard={card(APPR_YL): 1, card(APPR_2): 1, card(MASTER): 1},
    )
    give(s, 1, hand={})
    play(s, f"play {MASTER}", "main: skip the main action")  # P2 has no cards: round over
    assert s.board()["round"] == 2
    drive(s)
    # P1 (start player) took the Journeyman, and now picks 2 of the rebuilt supply.
    assert s.current_player() == 0 and s.holdings(0)["hand"][card(JOURNEYMAN)] == 1
    assert sum(s.holdings(0)["supply"]) == 4 and sum(s.holdings(0)["discard"]) == 0
    assert s.board()["to_select"] == 2


# ----- phase 4: income ---------------------------------------------------------------------------------------
def test_income_is_5_plus_fountain_upper_per_decoration_and_lower_per_dress():
    from spiel_games.rococo.rules import FOUNTAIN_LOW, FOUNTAIN_UP, STATUE

    s = turn(MASTER, money=0)
    set_deco(s, deco(s, FOUNTAIN_UP, 0), 0)
    set_deco(s, deco(s, FOUNTAIN_LOW, 0), 0)
    set_deco(s, deco(s, STATUE, 0), 0)
    place_dress(s, guest(s, 0, 1), 0, dress("green-1"))
    place_dress(s, guest(s, 1, 1), 0, dress("green-2"))
    give(s, 1, money=0)
    play(s, "main: skip the main action")
    finish_round_skipping(s)
    assert s.holdings(0)["money"] == 5 + 3 + 2 and s.holdings(1)["money"] == 5
