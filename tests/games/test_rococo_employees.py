"""Rococo's Jewelry Box employees and exams (`jewelry=true`), one scenario per rule.

Published: 28 new employees (10 level-0 apprentices with conditions and prestige, 9
Journeymen in the level-2 pool, 9 Masters in the level-5 pool), pools of 11 with 2 cards
unseen in the stack, exams of three tasks done with Apprentices / Journeymen, trading in a
card and paying to choose a new one, as often as you like. Every card text, task, fee and
condition is designed (rules.toml [jewelry.exams] and [jewelry.employees], "assumed").
"""

from __future__ import annotations

import pyspiel
import pytest

from spiel_games.rococo import rules as R
from spiel_games.rococo.phases.chance import reveal_outcomes
from spiel_games.rococo.scenario import (
    APPR_2,
    JOURNEYMAN,
    MASTER,
    REST,
    card,
    dress,
    drive,
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
    set_exam,
    set_warehouse,
    set_window,
    start,
    tile,
    use_text,
)


# ----- components and set-up ---------------------------------------------------------------------
def test_jewelry_adds_28_employees_10_specialists_9_journeymen_9_masters():
    new = R.CARDS[R.N_BASE_CARDS :]
    assert len(new) == 28 and R.NUM_CARDS == 60
    assert [c.kind for c in new[:10]] == [R.APPRENTICE] * 10
    assert all(c.level == 0 for c in new[:10])
    assert [(c.level, c.kind) for c in new[10:19]] == [(2, R.JOURNEYMAN)] * 9
    assert [(c.level, c.kind) for c in new[19:]] == [(5, R.MASTER)] * 9
    assert len({c.name for c in R.CARDS}) == 60


def test_new_employees_enter_the_stack_only_with_the_jewelry_option():
    base = pyspiel.load_game("python_rococo(players=4)").new_initial_state()
    emp = base._s.emp
    assert all(0 <= k < R.N_BASE_CARDS for lv in emp for k in lv)
    assert len(base.holdings(0)["hand"]) == R.N_BASE_CARDS
    jw = pyspiel.load_game("python_rococo(players=4,jewelry=true)").new_initial_state()
    b = jw.board()
    assert b["employee_stack"][1] == (card("extra_dress_yg"), card("depute_money"), -2, -2)
    assert b["employee_stack"][4] == (card("L5 Apprentice (prestige_deco2)"), 24, -3, -3)
    pools = b["exam_pools"]
    assert len(pools[0]) == len(pools[1]) == 11
    assert card("money_yellow_red") in pools[0] and card("money_dress") in pools[1]
    assert b["specialists"] == R.SPECIALIST_IDS


def test_reveal_with_reserved_slots_has_exact_probabilities():
    """Level 2 = two fixed cards and two unseen cards of the 11-card journeyman pool."""
    s = pyspiel.load_game("python_rococo(players=2,jewelry=true)").new_initial_state()
    s.apply_action(0)
    core = s.own_core()
    core.emp = core.emp[1:]  # level 1 used up: level 2 is on top
    outs = dict(s.chance_outcomes())
    assert abs(sum(outs.values()) - 1) < 1e-12
    assert outs[11] == pytest.approx(1 / 4) and outs[12] == pytest.approx(1 / 4)
    pool = s.board()["exam_pools"][0]
    assert all(outs[k] == pytest.approx(2 / (4 * 11)) for k in pool)
    assert outs == dict(reveal_outcomes(s._s.emp[0], s._s.xpool))


def test_a_pool_card_revealed_from_the_stack_leaves_its_pool():
    s = pyspiel.load_game("python_rococo(players=2,jewelry=true)").new_initial_state()
    s.apply_action(0)
    core = s.own_core()
    core.emp = core.emp[1:]
    s.apply_action(card("money_jewel2"))
    b = s.board()
    assert card("money_jewel2") in b["display"]
    assert card("money_jewel2") not in b["exam_pools"][0]
    assert b["employee_stack"][0].count(-2) == 1


def test_jewelry_employee_parameters_need_jewelry_true_and_are_validated():
    with pytest.raises(ValueError, match="needs jewelry=true"):
        pyspiel.load_game("python_rococo(players=2,specialists=3)")
    with pytest.raises(ValueError, match="exam_cards must be 0-9"):
        pyspiel.load_game("python_rococo(players=2,jewelry=true,exam_cards=10)")
    s = start(2, jewelry="true", specialists=2, exam_cards=1)
    assert s.board()["specialists"] == R.SPECIALIST_IDS[:2]
    assert len(s.board()["exam_pools"][0]) == 3


# ----- specialised apprentices -------------------------------------------------------------------
def _meet(s, cond: str, n: int) -> None:
    colours = ["yellow-1", "green-1", "red-1", "blue-1"]
    if cond == "bales":
        give(s, 0, tiles={tile("Y-y"): n})
    elif cond == "yarn_lace":
        give(s, 0, yarn=n)
    elif cond == "livre":
        give(s, 0, money=n)
    elif cond == "dresses":
        for i in range(n):
            place_dress(s, guest(s, i % 5, 1 + i // 5), 0, dress("yellow-1"))
    elif cond == "halls":
        for h in range(n):
            place_dress(s, guest(s, h, 1), 0, dress("yellow-1"))
    elif cond == "decorations":
        for d in range(n):
            set_deco(s, d, 0)
    elif cond == "jewellery":
        give(s, 0, jewels={jewel("blue ring"): n})
    elif cond == "colours":
        for i in range(n):
            place_dress(s, guest(s, 0, 1 + i), 0, dress(colours[i]))
    elif cond == "master_spaces":
        for h in range(n):
            place_dress(s, guest(s, h, 0), 0, dress("yellow-1"))
    elif cond == "deck":  # the played Master counts: supply n - 1 makes a deck of n
        give(s, 0, supply={card(MASTER): n - 1})


@pytest.mark.parametrize("k", R.SPECIALIST_IDS, ids=[R.CARDS[k].name for k in R.SPECIALIST_IDS])
@pytest.mark.parametrize("met", [True, False])
def test_specialist_needs_its_condition_costs_2_livre_and_gives_prestige(k, met):
    cond, need, prestige = R.SPECIALIST[k]
    s = start(2, jewelry="true")
    select_all(s)
    set_board(s, display=())  # only the specialist row can be hired from
    give(s, 0, hand={card(MASTER): 1}, supply=dict(REST), money=10, yarn=0, lace=0, tiles={})
    _meet(s, cond, need if met else need - 1)
    money = s.holdings(0)["money"]
    play(s, f"play {MASTER}")
    if not met:
        assert "main: hire an employee" not in legal_strings(s)
        return
    play(s, "main: hire an employee", f"hire {R.CARDS[k].name}")
    h = s.holdings(0)
    assert h["money"] == money - 2
    assert h["prestige"] == prestige
    assert h["hand"][k] == 1 and h["known_hand"][k] == 1
    assert k not in s.board()["specialists"]


def test_specialist_hire_does_not_change_display_prices():
    s = start(2, jewelry="true")
    select_all(s)
    display = s.board()["display"]
    give(s, 0, hand={card(MASTER): 1}, supply=dict(REST), money=20)
    play(s, f"play {MASTER}", "main: hire an employee", "hire specialist bookkeeper")
    assert s.board()["display"] == display
    assert s.holdings(0)["money"] == 18


def test_specialist_is_an_apprentice_deputed_for_4():
    s = jewelry_turn("specialist usher", main="main: depute the employee", money=0)
    assert s.holdings(0)["money"] == R.DEPUTE_MONEY[R.APPRENTICE] == 4


# ----- exams -------------------------------------------------------------------------------------
def test_journeyman_exam_tasks_are_marked_by_apprentice_main_actions():
    s = start(2, jewelry="true")
    select_all(s)
    set_warehouse(s, [[tile("Y-y+l")], [], []])
    give(s, 0, hand={card(APPR_2): 1}, supply=dict(REST), money=20)
    play(s, f"play {APPR_2}", "main: acquire resources", "take Y-y+l from segment 1")
    assert s.holdings(0)["exam"] == (0, 1)  # acquired a yellow resource
    play(s, "convert to yarn+lace")
    assert s.holdings(0)["exam"] == (0, 3)  # converted it
    s = jewelry_turn(APPR_2, main="main: fund a decoration", money=20)
    play(s, next(x for x in legal_strings(s) if x.startswith("fund fireworks 1")))
    assert s.holdings(0)["exam"] == (0, 4)


def test_master_exam_tasks_are_marked_by_journeyman_rent_sell_and_fund():
    for last, bit in (("rent to Salon of Venus guest 2", 1), ("sell for 11 Livre", 2)):
        s = start(2, jewelry="true")
        select_all(s)
        set_window(s, 5, dress("yellow-1"))
        give(s, 0, hand={card(JOURNEYMAN): 1}, supply=dict(REST), money=20, tiles={tile("YYY"): 1})
        set_exam(s, 0, side=1)
        play(
            s,
            f"play {JOURNEYMAN}",
            "main: make a dress",
            "make yellow-1 at window 6 (0 Livre)",
            "pay with tile YYY",
            last,
        )
        assert s.holdings(0)["exam"] == (1, bit)
    s = start(2, jewelry="true")
    select_all(s)
    give(s, 0, hand={card(JOURNEYMAN): 1}, supply=dict(REST), money=20)
    set_exam(s, 0, side=1)
    play(s, f"play {JOURNEYMAN}", "main: fund a decoration")
    play(s, next(x for x in legal_strings(s) if x.startswith("fund fireworks 1")))
    assert s.holdings(0)["exam"] == (1, 4)


def test_exam_tasks_not_marked_by_bonuses_or_other_card_types():
    s = start(2, jewelry="true")
    select_all(s)
    set_warehouse(s, [[tile("YYY")], [], []])
    give(s, 0, hand={card(JOURNEYMAN): 1}, supply=dict(REST), money=20)
    play(s, f"play {JOURNEYMAN}", "main: acquire resources", "take YYY from segment 1")
    assert s.holdings(0)["exam"] == (0, 0)  # a Journeyman on the journeyman's exam
    s = start(2, jewelry="true")
    select_all(s)
    set_warehouse(s, [[tile("YYY")], [], []])
    give(s, 0, hand={card("extra_acquire"): 1}, supply=dict(REST), money=20)
    play(s, "play L1 Apprentice (extra_acquire)", "main: skip the main action")
    play(s, use_text("extra_acquire"), "take YYY from segment 1")
    assert s.holdings(0)["exam"] == (0, 0)  # a bonus action


def test_exam_needs_three_tasks_the_right_played_card_and_the_fee():
    def offered(key, side=0, tasks=7, money=10):
        s = start(2, jewelry="true")
        select_all(s)
        set_exam(s, 0, side, tasks)
        give(s, 0, hand={card(key): 1}, supply=dict(REST), money=money)
        play(s, f"play {key}")
        return "main: pass the exam" in legal_strings(s)

    assert offered(APPR_2)
    assert offered(JOURNEYMAN, side=1)
    assert offered("specialist page")  # any Apprentice
    assert not offered(APPR_2, tasks=3)
    assert not offered(APPR_2, money=2)  # fee 3
    assert not offered(JOURNEYMAN, side=1, money=4)  # fee 5
    assert not offered(JOURNEYMAN)  # journeyman's exam needs an Apprentice
    assert not offered(APPR_2, side=1)
    assert not offered(MASTER)


def test_exam_shows_two_public_cards_one_to_the_hand_other_leaves_the_game():
    s = start(2, jewelry="true")
    select_all(s)
    set_exam(s, 0, 0, 7)
    give(s, 0, hand={card(APPR_2): 1}, supply=dict(REST), money=10)
    play(s, f"play {APPR_2}", "main: pass the exam")
    pool = s.board()["exam_pools"][0]
    outs = dict(s.chance_outcomes())
    assert set(outs) == set(pool) and all(p == pytest.approx(1 / 11) for p in outs.values())
    a, b = card("sell_dress_free"), card("acquire_free")
    drive(s, [a, b])
    assert s.board()["exam_offer"] == (a, b)
    assert sorted(legal_strings(s)) == sorted(f"take exam card {R.CARDS[k].name}" for k in (a, b))
    play(s, f"take exam card {R.CARDS[b].name}")
    h = s.holdings(0)
    assert h["hand"][b] == 1 and h["known_hand"][b] == 1
    assert h["money"] == 7
    for k in (a, b):
        assert k not in s.board()["exam_pools"][0]
    assert all(v[a] == 0 for v in (h["hand"], h["supply"], h["discard"]))
    assert s.current_player() == 1


def _trade_in_apprentice_for_an_exam():
    """P1 passes the apprentice exam at 7 Livre by playing (and trading in) an Apprentice."""
    s = start(2, jewelry="true")
    select_all(s)
    set_exam(s, 0, 0, 7)
    give(s, 0, hand={card(APPR_2): 1}, supply=dict(REST), money=10)
    play(s, f"play {APPR_2}", "main: pass the exam")
    drive(s)
    play(s, legal_strings(s)[0])
    return s


def test_exam_card_turns_over_and_tasks_restart_after_a_trade_in():
    s = _trade_in_apprentice_for_an_exam()
    assert s.holdings(0)["exam"] == (1, 0)


def test_traded_in_card_leaves_the_game_without_its_bonus():
    s = _trade_in_apprentice_for_an_exam()
    h = s.holdings(0)
    assert h["money"] == 7  # no "gain 2 Livre" bonus
    assert h["discard"][card(APPR_2)] == 0 and h["supply"][card(APPR_2)] == 1  # REST's copy


def test_exam_with_one_card_left_takes_it_and_none_left_is_not_offered():
    def exam_state(pool):
        s = start(2, jewelry="true")
        select_all(s)
        b = s.board()
        emp = tuple(lv for lv in (tuple(k for k in lv if k != -2) for lv in b["employee_stack"]))
        set_board(s, exam_pools=(pool, b["exam_pools"][1]), employee_stack=emp)
        set_exam(s, 0, 0, 7)
        give(s, 0, hand={card(APPR_2): 1}, supply=dict(REST), money=10)
        play(s, f"play {APPR_2}")
        return s

    k = card("yarn_and_lace")
    s = exam_state((k,))
    play(s, "main: pass the exam")
    assert s.chance_outcomes() == [(k, 1.0)]
    drive(s)
    assert s.holdings(0)["hand"][k] == 1 and s.current_player() == 1
    s = exam_state(())
    assert "main: pass the exam" not in legal_strings(s)


def test_reserved_slots_keep_exam_cards_back_for_the_stack():
    """Two of the 11 pool cards are in the stack unseen: the exam stack holds 9."""
    s = start(2, jewelry="true")
    select_all(s)
    b = s.board()
    set_board(s, exam_pools=(b["exam_pools"][0][:2], b["exam_pools"][1]))
    set_exam(s, 0, 0, 7)
    give(s, 0, hand={card(APPR_2): 1}, supply=dict(REST), money=10)
    play(s, f"play {APPR_2}")
    assert "main: pass the exam" not in legal_strings(s)  # both left are the reserved ones
