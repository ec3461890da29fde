"""Rococo scenario tests of the action phase, income and final scoring: one rule each, built
from named cards, tiles and dresses and scripted chance outcomes; they assert on public
methods and action strings."""

from __future__ import annotations

import pyspiel
import pytest

from spiel_games.rococo import rules as R
from spiel_games.rococo.scenario import (
    APPR_2,
    JOURNEYMAN,
    MASTER,
    card,
    clear_windows,
    deco,
    dress,
    drive,
    finish_round_skipping,
    give,
    guest,
    legal_strings,
    money,
    only_window,
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


# ----- phase 3: main actions ----------------------------------------------------------------------------
def test_queens_favor_gives_5_livre_and_start_player_and_3_prestige():
    s = turn(JOURNEYMAN)
    play(s, "main: queen's favor")
    assert money(s) == 20 and s.score_breakdown()[0]["favor"] == 3
    s2 = turn(JOURNEYMAN)
    set_board(s2, favor=1)
    assert "main: queen's favor" not in legal_strings(s2)


def test_apprentice_cannot_claim_favor_make_dress_or_hire():
    s = turn(APPR_2, money=50, yarn=5, lace=5, tiles={tile("YYY"): 3})
    options = legal_strings(s)
    assert "main: queen's favor" not in options and "main: make a dress" not in options
    assert "main: hire an employee" not in options
    assert "main: acquire resources" in options and "main: fund a decoration" in options


def test_only_master_can_hire():
    s = turn(JOURNEYMAN, money=20)
    assert "main: hire an employee" not in legal_strings(s)


@pytest.mark.parametrize("tiles_in_segment,cost", [(4, 2), (3, 2), (2, 1), (1, 0)])
def test_acquire_cost_by_tiles_in_segment(tiles_in_segment, cost):
    s = turn(APPR_2, players=4, money=10)
    set_warehouse(s, [[tile("RR")] * tiles_in_segment, [], []])
    play(s, "main: acquire resources", "take RR from segment 1", "keep tile as silk")
    assert money(s) == 10 - cost and s.holdings(0)["tiles"][tile("RR")] == 1


def test_acquired_tile_plus_gives_both_and_slash_gives_a_choice():
    s = turn(APPR_2, money=10)
    set_warehouse(s, [[tile("y+l")], [tile("YY-y/l")], []])
    play(s, "main: acquire resources", "take y+l from segment 1")
    assert sorted(legal_strings(s)) == ["convert to yarn+lace", "keep tile as silk"]
    play(s, "convert to yarn+lace")
    assert s.holdings(0)["yarn"] == 2 and s.holdings(0)["lace"] == 2
    s = turn(APPR_2, money=10)
    set_warehouse(s, [[tile("YY-y/l")], [], []])
    play(s, "main: acquire resources", "take YY-y/l from segment 1")
    assert sorted(legal_strings(s)) == ["convert to lace", "convert to yarn", "keep tile as silk"]


def test_make_dress_pays_window_silk_yarn_lace_and_excess_bales_are_lost():
    s = turn(JOURNEYMAN, money=10, yarn=0, lace=1, tiles={tile("YYY"): 1, tile("RRY"): 1})
    only_window(s, 2, "yellow-2")  # 3 yellow + 1 lace, window cost 3
    play(s, "main: make a dress", "make yellow-2 at window 3 (3 Livre)")
    assert money(s) == 7 and s.holdings(0)["lace"] == 0
    assert sorted(legal_strings(s)) == ["pay with tile RRY", "pay with tile YYY"]
    play(s, "pay with tile YYY")
    assert "sell for 15 Livre" in legal_strings(s)
    play(s, "sell for 15 Livre")
    assert money(s) == 22 and s.holdings(0)["tiles"][tile("RRY")] == 1


def test_thimble_dress_needs_a_master():
    for key, ok in ((JOURNEYMAN, False), (MASTER, True)):
        s = turn(key, money=30, yarn=2, lace=2, tiles={tile("YYY"): 2})
        only_window(s, 5, "yellow-3")  # shows a thimble
        assert ("main: make a dress" in legal_strings(s)) == ok


def test_master_guest_space_only_for_dresses_made_by_a_master():
    spaces = {}
    for key in (JOURNEYMAN, MASTER):
        s = turn(key, money=30, yarn=2, lace=2, tiles={tile("YYY"): 2})
        set_window(s, 5, dress("yellow-1"))
        play(s, "main: make a dress", "make yellow-1 at window 6 (0 Livre)", "pay with tile YYY")
        spaces[key] = [t for t in legal_strings(s) if "(Master)" in t]
    assert spaces[JOURNEYMAN] == [] and len(spaces[MASTER]) == 5


def test_renting_takes_the_guest_space_reward_at_once():
    s = turn(MASTER, money=30, yarn=2, lace=2, tiles={tile("YYY"): 2})
    set_window(s, 5, dress("yellow-1"))
    play(s, "main: make a dress", "make yellow-1 at window 6 (0 Livre)", "pay with tile YYY")
    play(s, "rent to Salon of Venus guest 1 (Master)")  # reward: 3 Livre
    assert money(s) == 33 and s.board()["guest_owner"][guest(s, 0, 0)] == 0
    assert s.score_breakdown()[0]["markers"] == 2  # yellow-1 shows 2 prestige


def test_tile_reward_takes_a_free_warehouse_tile():
    s = turn(MASTER, money=30, yarn=2, lace=2, tiles={tile("YYY"): 2})
    set_window(s, 5, dress("yellow-1"))
    set_warehouse(s, [[tile("BB")] * 3, [], []])
    play(s, "main: make a dress", "make yellow-1 at window 6 (0 Livre)", "pay with tile YYY")
    play(
        s, "rent to Salon of Diana guest 1 (Master)", "take BB from segment 1", "keep tile as silk"
    )
    assert money(s) == 30 and s.holdings(0)["tiles"][tile("BB")] == 1


def test_no_free_guest_space_forces_a_sale():
    s = turn(JOURNEYMAN, money=30, yarn=2, lace=2, tiles={tile("YYY"): 2})
    for g, gs in enumerate(s.get_game().config.guests):
        if not gs.master:
            place_dress(s, g, 1, dress("green-1"))
    set_window(s, 5, dress("yellow-1"))
    play(s, "main: make a dress", "make yellow-1 at window 6 (0 Livre)", "pay with tile YYY")
    assert legal_strings(s) == ["sell for 11 Livre"]


@pytest.mark.parametrize("displayed,cost", [(4, 5), (3, 3), (2, 1), (1, 0)])
def test_hire_costs_5_3_1_free_and_card_joins_the_hand(displayed, cost):
    s = turn(MASTER, money=10)
    set_board(s, display=s.board()["display"][:displayed])
    k = s.board()["display"][0]
    play(s, "main: hire an employee", f"hire {R.CARDS[k].name}")
    assert money(s) == 10 - cost and s.holdings(0)["hand"][k] == 1 and k not in s.board()["display"]


@pytest.mark.parametrize("key,livre", [(MASTER, 10), (JOURNEYMAN, 7), (APPR_2, 4)])
def test_depute_gives_10_7_4_livre_and_removes_the_card(key, livre):
    s = turn(key, money=0)
    play(s, "main: depute the employee")
    if "skip bonus" in legal_strings(s):
        play(s, "skip bonus")
    assert (
        s.holdings(0)["money"] == livre
        and sum(s.holdings(0)["supply"])
        + sum(s.holdings(0)["hand"])
        + sum(s.holdings(0)["discard"])
        == 4
    )
    assert s.current_player() == 1  # the turn is over; the card left the game


def test_depute_forbidden_with_only_four_cards_in_deck():
    s = turn(MASTER)
    give(s, 0, supply={card(MASTER): 1}, discard={card(JOURNEYMAN): 1, card(APPR_2): 1})
    assert "main: depute the employee" not in legal_strings(s)  # 3 + the played card = 4


def test_fund_decoration_pays_cost_and_fountain_allows_one_marker_per_row():
    from spiel_games.rococo.rules import FOUNTAIN_UP

    s = turn(MASTER, money=30)
    set_deco(s, deco(s, FOUNTAIN_UP, 0), 0)
    play(s, "main: fund a decoration")
    options = legal_strings(s)
    assert not any("fountain-upper" in t for t in options)
    play(s, "fund fireworks 2 (9 Livre)")
    assert money(s) == 21 and s.board()["decorations"][deco(s, 0, 1)] == 0


def test_all_halls_bonus_when_present_in_all_five_halls():
    from spiel_games.rococo.rules import MUSICIAN

    s = turn(MASTER, money=30)
    for h in range(4):
        place_dress(s, guest(s, h, 1), 0, dress("green-1"))
    play(s, "main: fund a decoration", "fund musician of King's hall (8 Livre)")
    assert s.board()["all_halls"][0] == 0
    assert s.score_breakdown()[0]["markers"] == 4 * 2 + 2 + 7  # dresses, musician, All halls
    assert s.board()["decorations"][deco(s, MUSICIAN, 4)] == 0


# ----- final scoring --------------------------------------------------------------------------------------
def test_money_left_breaks_prestige_ties():
    s = start(2, rounds=1, utility="win")
    select_all(s)
    give(s, 0, money=28)  # after 5 income: 33 -> 3 prestige, 3 left
    give(s, 1, money=31)  # after 5 income: 36 -> 3 prestige, 6 left
    finish_round_skipping(s)
    assert s.is_terminal() and s.scores() == [3, 3] and s.returns() == [0.0, 1.0]


def test_hall_majority_tie_goes_to_more_master_spaces_then_musician_else_all_first():
    from spiel_games.rococo.rules import MUSICIAN

    s = start(3)
    h = 0  # Salon of Venus: 4 / 2
    place_dress(s, guest(s, h, 0), 0, dress("green-1"))  # P1 on the Master space
    place_dress(s, guest(s, h, 1), 1, dress("green-2"))
    assert [b["halls"] for b in s.score_breakdown()] == [4, 2, 0]
    s = start(3)
    place_dress(s, guest(s, h, 1), 0, dress("green-1"))
    place_dress(s, guest(s, h, 2), 1, dress("green-2"))
    set_deco(s, deco(s, MUSICIAN, h), 1)
    assert [b["halls"] for b in s.score_breakdown()] == [2, 4, 0]
    s = start(3)
    place_dress(s, guest(s, h, 1), 0, dress("green-1"))
    place_dress(s, guest(s, h, 2), 1, dress("green-2"))
    assert [b["halls"] for b in s.score_breakdown()] == [4, 4, 0]


def test_two_player_game_scores_only_first_place_in_majorities():
    s = start(2)
    place_dress(s, guest(s, 0, 1), 0, dress("green-1"))
    place_dress(s, guest(s, 0, 2), 0, dress("green-2"))
    place_dress(s, guest(s, 0, 3), 1, dress("green-3"))
    set_deco(s, deco(s, 0, 0), 0)
    set_deco(s, deco(s, 0, 1), 0)
    set_deco(s, deco(s, 0, 2), 1)
    b = s.score_breakdown()
    assert (b[0]["halls"], b[1]["halls"]) == (4, 0)
    assert (b[0]["fireworks"], b[1]["fireworks"]) == (6, 0)


def test_fireworks_majority_tie_goes_to_the_dearer_space():
    s = start(4)  # 7 / 3 on the large side
    set_deco(s, deco(s, 0, 0), 0)
    set_deco(s, deco(s, 0, 3), 1)
    assert [b["fireworks"] for b in s.score_breakdown()] == [3, 7, 0, 0]


def test_terrace_move_multiplies_a_kings_hall_dress():
    s = start(2, rounds=1)
    select_all(s)
    place_dress(s, guest(s, R.KINGS_HALL, 1), 0, dress("blue-3"))  # 4 prestige
    set_deco(s, deco(s, 0, 2), 0)  # fireworks 3: terrace x3
    _finish_round_skipping_until_terrace(s)
    assert s.current_player() == 0 and "terrace: King's hall guest 2" in legal_strings(s)
    play(s, "terrace: King's hall guest 2")
    assert s.is_terminal()
    assert s.score_breakdown()[0]["markers"] == 4 * 3 + 3


def _finish_round_skipping_until_terrace(s):
    while not s.is_terminal() and s.board()["phase"] != "terrace":
        if s.is_chance_node():
            drive(s)
            continue
        options = legal_strings(s)
        for text in ("skip bonus", "main: skip the main action"):
            if text in options:
                play(s, text)
                break
        else:
            s.apply_action(s.legal_actions()[0])


def test_statues_score_disjoint_sets_of_distinct_colours():
    from spiel_games.rococo.rules import STATUE

    s = start(2)
    names = ["yellow-1", "green-1", "red-1", "blue-1", "yellow-2", "green-2", "green-3"]
    for i, name in enumerate(names):
        place_dress(s, guest(s, i % 5, 1 + i // 5), 0, dress(name))
    set_deco(s, deco(s, STATUE, 0), 0)
    set_deco(s, deco(s, STATUE, 1), 0)
    assert s.score_breakdown()[0]["statues"] == 8 + 4


def test_festivity_dress_cannot_be_sold_and_gives_one_time_prestige():
    s = start(2, festivity="true")
    select_all(s)
    give(s, 0, hand={card(JOURNEYMAN): 1}, money=10, yarn=1, tiles={tile("YYY"): 1})
    set_window(s, 5, dress("festive yellow-1"))
    play(
        s,
        f"play {JOURNEYMAN}",
        "main: make a dress",
        "make festive yellow-1 at window 6 (0 Livre)",
        "pay with tile YYY",
    )
    assert not any(t.startswith("sell") for t in legal_strings(s))
    play(s, "rent to Salon of Venus guest 2")
    assert s.holdings(0)["prestige"] == 3


def test_fancy_option_adds_4_dresses_and_5_tiles():
    plain = pyspiel.load_game("python_rococo(players=2)")
    fancy = pyspiel.load_game("python_rococo(players=2,fancy=true)")
    assert sum(fancy.config.dress_counts) - sum(plain.config.dress_counts) == 4
    assert sum(fancy.config.tile_counts) - sum(plain.config.tile_counts) == 5


def test_published_totals_42_dresses_48_tiles_28_hireable_cards():
    cfg = pyspiel.load_game("python_rococo(players=4)").config
    assert sum(cfg.dress_counts) == 42 and sum(cfg.tile_counts) == 48
    colours = [R.DRESSES[d].colour for d in range(R.NUM_DRESSES) if cfg.dress_counts[d]]
    assert [colours.count(c) for c in range(4)] == [13, 13, 10, 6]
    assert cfg.stack_size == 28
    assert all(
        6 <= R.DRESSES[d].money <= 28 and 2 <= R.DRESSES[d].prestige <= 4
        for d in range(R.NUM_DRESSES)
        if cfg.dress_counts[d]
    )
    assert cfg.window_costs[-2:] == (0, 0) and max(cfg.window_costs) == 8


@pytest.mark.parametrize(
    "params",
    [
        "players=6",
        "rounds=0",
        "hand_size=4",
        "base_deck=JJ",
        "display=5",
        "windows=9",
        "utility=best",
        "festivity=maybe",
        "colour=3",
    ],
)
def test_invalid_parameters_raise_a_clear_error(params):
    with pytest.raises(Exception, match="must|takes|unknown|needs|Wrong type|Unknown parameter"):
        pyspiel.load_game(f"python_rococo({params})")


def test_base_deck_is_refused_past_20_cards_in_one_line_naming_the_limit():
    pyspiel.load_game(f"python_rococo(base_deck={'M' * 20})").new_initial_state()
    with pytest.raises(Exception, match="base_deck has 21 cards, more than 20"):
        pyspiel.load_game(f"python_rococo(base_deck={'M' * 21})")
    with pytest.raises(Exception, match="base_deck has 100000 cards, more than 20") as e:
        pyspiel.load_game(f"python_rococo(base_deck={'MJab' * 25_000})")
    assert "\n" not in str(e.value) and "MJab" not in str(e.value)


def test_turns_go_clockwise_skip_empty_hands_and_a_hired_card_gives_an_extra_turn():
    s = start(3)
    select_all(s)
    give(s, 0, hand={card(MASTER): 1}, money=20)
    give(s, 1, hand={})
    give(s, 2, hand={card(MASTER): 1})
    k = s.board()["display"][0]
    play(s, f"play {MASTER}", "main: hire an employee", f"hire {R.CARDS[k].name}")
    assert s.current_player() == 2  # P2 has no cards left
    play(s, f"play {MASTER}", "main: skip the main action")
    assert s.current_player() == 0 and legal_strings(s) == [f"play {R.CARDS[k].name}"]


def test_no_acquire_with_an_empty_warehouse_no_make_with_an_empty_workshop_no_hire_without_display():
    s = turn(MASTER, money=30, yarn=3, lace=3, tiles={tile("YYY"): 3})
    set_warehouse(s, [[], [], []])
    clear_windows(s)
    set_board(s, display=())
    options = legal_strings(s)
    assert "main: acquire resources" not in options
    assert "main: make a dress" not in options
    assert "main: hire an employee" not in options


def test_only_one_all_halls_space_per_player():
    s = turn(MASTER, money=30)
    for h in range(4):
        place_dress(s, guest(s, h, 1), 0, dress("green-1"))
    set_board(s, all_halls=(0, -1, -1))
    play(s, "main: fund a decoration", "fund musician of King's hall (8 Livre)")
    assert s.board()["all_halls"] == (0, -1, -1)


def test_made_dress_leaves_its_window_empty_until_the_next_round():
    s = turn(MASTER, money=30, yarn=2, lace=2, tiles={tile("YYY"): 2})
    only_window(s, 5, "yellow-1")
    play(s, "main: make a dress", "make yellow-1 at window 6 (0 Livre)", "pay with tile YYY")
    play(s, "sell for 11 Livre")
    assert s.board()["windows"][5] == -1 and s.board()["dress_discard"][dress("yellow-1")] == 1


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    s = turn(JOURNEYMAN, money=3)
    lay = s.get_game().layout
    before, history = str(s), s.history()
    for bad in (lay.main + 3, lay.select, lay.hire, lay.done, lay.num_actions):
        with pytest.raises(Exception, match="not allowed|outside|cannot|not legal|illegal|Illegal"):
            s.apply_action(bad)
        assert str(s) == before and s.history() == history
