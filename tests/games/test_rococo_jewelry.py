"""Rococo's Jewelry Box (`jewelry=true`): the jeweller and its jewellery, one scenario per rule.

Published: 24 jewellery tiles (7/7/6/4), +1 Livre income and +1 prestige per piece, a free
material on a colour match, prices that drop as pieces are bought. The board, prices, refill,
trigger and reward kind are designed (rules.toml [jewelry], source = "assumed").
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import spiel_games
from spiel_games.common.errors import ConfigError
from spiel_games.rococo import rules as R
from spiel_games.rococo.heuristic import heuristic_action
from spiel_games.rococo.scenario import (
    card,
    dress,
    drive,
    finish_round_skipping,
    give,
    jewel,
    legal_strings,
    play,
    select_all,
    set_board,
    set_warehouse,
    set_window,
    start,
    tile,
)

MASTER, JOURNEYMAN = "base Master", "base Journeyman"
APPR_2 = "base Apprentice (2 Livre)"
REST = {card(MASTER): 2, card(JOURNEYMAN): 1, card(APPR_2): 1}
DISPLAY = ("blue ring", "red necklace", "green ring", "yellow necklace")  # 6, 5, 4, 3 Livre


def jeweller(*names):
    return tuple(jewel(x) if x else -1 for x in names)


def made(money=20, name="yellow-1", key=MASTER, **extra):
    """P1 plays `key` and has made dress `name` (window 6, free), about to place it."""
    s = start(2, jewelry="true", **extra)
    select_all(s)
    set_board(s, jeweller=jeweller(*DISPLAY))
    set_window(s, 5, dress(name))
    give(
        s,
        0,
        hand={card(key): 1},
        supply=dict(REST),
        money=money,
        yarn=2,
        lace=2,
        tiles={tile("YYY"): 1},
    )
    play(
        s,
        f"play {key}",
        "main: make a dress",
        f"make {name} at window 6 (0 Livre)",
        "pay with tile YYY",
    )
    return s


def test_jewelry_components_24_pieces_in_four_kinds_7_7_6_4():
    assert R.RULES["jewelry.jewel_counts"] == [7, 7, 6, 4]
    s = start(2, jewelry="true")
    b = s.board()
    assert sum(b["jewel_stack"]) + sum(k >= 0 for k in b["jeweller"]) == 24
    assert len(b["jeweller"]) == 4


def test_jeweller_filled_in_phase_one_cheapest_space_first():
    game = pyspiel.load_game("python_rococo(players=2,jewelry=true)")
    s = game.new_initial_state()
    s.apply_action(0)
    while s.board()["phase"] != "jewelfill":
        s.apply_action(s.chance_outcomes()[0][0])
    outcomes = dict(s.chance_outcomes())
    assert outcomes == {k: c / 24 for k, c in enumerate([7, 7, 6, 4])}
    assert s.action_to_string(-1, jewel("red necklace")) == "jeweller piece red necklace"
    s.apply_action(jewel("red necklace"))
    assert s.board()["jeweller"] == (-1, -1, -1, jewel("red necklace"))
    s.apply_action(jewel("blue ring"))
    assert s.board()["jeweller"] == (-1, -1, jewel("blue ring"), jewel("red necklace"))
    drive(s)
    assert s.board()["phase"] == "select" and -1 not in s.board()["jeweller"]
    assert sum(s.board()["jewel_stack"]) == 20


def test_jeweller_stays_empty_when_the_stack_runs_out():
    s = start(2, jewelry="true", jewels=2)
    assert s.board()["phase"] == "select"
    assert s.board()["jeweller"][:2] == (-1, -1) and -1 not in s.board()["jeweller"][2:]
    assert sum(s.board()["jewel_stack"]) == 0


def test_renting_a_dress_offers_one_piece_of_jewellery():
    s = made(money=5)
    play(s, "rent to Salon of Venus guest 2")  # no reward
    assert legal_strings(s) == [
        "buy red necklace at jeweller space 2 (5 Livre)",
        "buy green ring at jeweller space 3 (4 Livre)",
        "buy yellow necklace at jeweller space 4 (3 Livre)",
        "no jewellery",
    ]  # the blue ring (6 Livre) is not affordable


def test_selling_a_dress_offers_no_jewellery():
    s = made()
    play(s, "sell for 11 Livre")
    assert s.board()["phase"] != "jewel"
    assert not any(a.startswith("buy ") for a in legal_strings(s))


def test_jeweller_not_offered_when_no_piece_is_affordable():
    s = made(money=2)
    play(s, "rent to Salon of Venus guest 2")
    assert s.board()["phase"] != "jewel"


def test_jewellery_costs_its_space_price_and_dearer_pieces_slide_cheaper():
    s = made(money=20)
    play(s, "rent to Salon of Venus guest 2", "buy green ring at jeweller space 3 (4 Livre)")
    h = s.holdings(0)
    assert h["money"] == 16 and h["jewellery"] == (0, 1, 0, 0)
    assert s.board()["jeweller"] == jeweller(None, "blue ring", "red necklace", "yellow necklace")
    assert s.current_player() == 1  # no colour match; a base Master has no bonus


def test_colour_match_gives_a_free_yarn_or_lace():
    s = made(money=20)  # a yellow dress
    play(s, "rent to Salon of Venus guest 2", "buy yellow necklace at jeweller space 4 (3 Livre)")
    assert legal_strings(s) == ["take yarn", "take lace"]
    play(s, "take lace")
    h = s.holdings(0)
    assert h["money"] == 17 and h["lace"] == 3  # 2 held (yellow-1 needs 1 yarn) + 1 free


def test_no_colour_match_no_free_material():
    s = made(money=20)
    play(s, "rent to Salon of Venus guest 2", "buy red necklace at jeweller space 2 (5 Livre)")
    assert "take yarn" not in legal_strings(s)


def test_jewellery_offer_follows_the_guest_space_tile_reward():
    s = made(money=20)
    set_warehouse(s, [[tile("BB")] * 3, [], []])
    play(s, "rent to Salon of Diana guest 1 (Master)")  # reward: a free warehouse tile
    assert legal_strings(s) == ["take BB from segment 1"]
    play(s, "take BB from segment 1", "keep tile as silk")
    assert "no jewellery" in legal_strings(s)


def test_rented_festivity_dress_may_take_jewellery():
    s = made(money=20, name="festive yellow-1", festivity="true", fancy="true")
    assert "sell for 0 Livre" not in legal_strings(s)
    play(s, "rent to Salon of Venus guest 2")
    assert "no jewellery" in legal_strings(s)
    play(s, "no jewellery")
    assert s.holdings(0)["prestige"] == 3


def test_dress_of_an_extra_dress_bonus_may_take_jewellery_then_the_turn_ends():
    s = start(2, jewelry="true")
    select_all(s)
    set_board(s, jeweller=jeweller(*DISPLAY))
    set_window(s, 5, dress("yellow-1"))
    give(
        s,
        0,
        hand={card("extra_dress_yg"): 1},
        supply=dict(REST),
        money=20,
        yarn=2,
        tiles={tile("YYY"): 1},
    )
    play(
        s,
        "play L2 Master (extra_dress_yg)",
        "main: skip the main action",
        "use bonus: one more Make a Dress, 1 yellow/green bale less",
        "make yellow-1 at window 6 (0 Livre)",
        "pay with tile YYY",
        "rent to Salon of Venus guest 2",
        "buy blue ring at jeweller space 1 (6 Livre)",
    )
    assert s.current_player() == 1 and s.holdings(0)["jewellery"] == (0, 0, 0, 1)


def test_jewellery_gives_one_livre_income_every_round():
    s = start(2, jewelry="true")
    select_all(s)
    give(s, 0, jewels={jewel("green ring"): 2, jewel("blue ring"): 1}, money=0)
    give(s, 1, money=0)
    finish_round_skipping(s)
    assert s.holdings(0)["money"] == 5 + 3 and s.holdings(1)["money"] == 5


def test_jewellery_scores_one_prestige_each_at_the_end():
    s = start(2, jewelry="true")
    give(s, 0, jewels={jewel("red necklace"): 2, jewel("yellow necklace"): 1})
    assert s.score_breakdown()[0]["jewellery"] == 3
    assert s.score_breakdown()[1]["jewellery"] == 0
    assert "jewellery" not in start(2).score_breakdown()[0]


@pytest.mark.parametrize(
    "params",
    [
        "jeweller=2",
        "jewels=5",
        "jewelry=true,jeweller=5",
        "jewelry=true,jewels=25",
        "jewelry=perhaps",
    ],
)
def test_jewelry_parameters_need_jewelry_true_and_are_validated(params):
    with pytest.raises((ConfigError, pyspiel.SpielError, ValueError)):
        pyspiel.load_game(f"python_rococo(players=2,{params})")


def test_jeweller_parameter_keeps_the_cheapest_spaces():
    s = start(2, jewelry="true", jeweller=2)
    assert s._s.tab.jprices == (4, 3)


@pytest.mark.parametrize("players", [2, 4])
def test_base_action_ids_unchanged_by_the_jewelry_option(players):
    base = pyspiel.load_game(f"python_rococo(players={players})")
    jw = pyspiel.load_game(f"python_rococo(players={players},jewelry=true)")
    nb = base.num_distinct_actions()
    # jeweller 4 + no jewellery 1 + exam 1 + five card blocks of 28 + exam pick 60
    assert jw.num_distinct_actions() == nb + 4 + 1 + 1 + 5 * 28 + 60
    lb, lj = base.layout, jw.layout
    assert [lb.decode(a) for a in range(nb)] == [lj.decode(a) for a in range(nb)]


def test_jewelry_tiny_config_whole_tree_is_small_enough_for_exact_cfr():
    game = pyspiel.load_game(spiel_games.get_spec("rococo").tiny_configs[2])
    counts = {"states": 0, "jewel": 0}

    def walk(state):
        counts["states"] += 1
        if state.is_terminal():
            assert abs(sum(state.returns())) < 1e-9
            return
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
            counts["jewel"] += state.board()["phase"] == "jewel"
        for a in actions:
            walk(state.child(a))

    walk(game.new_initial_state())
    assert counts["states"] == 15503  # documented in docs/games/rococo.md
    assert counts["jewel"] > 0  # the expansion's decision is in the tree


def test_heuristic_buys_jewellery_and_beats_random_players():
    game = pyspiel.load_game("python_rococo(players=3,jewelry=true,utility=score)")
    wins = pieces = 0
    for seed in range(4):
        rng = random.Random(seed)
        s = game.new_initial_state()
        me = seed % 3
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
            elif s.current_player() == me:
                a = heuristic_action(s, rng)
                assert a in s.legal_actions()
                s.apply_action(a)
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        scores = s.scores()
        wins += scores[me] == max(scores)
        pieces += sum(s.holdings(me)["jewellery"])
    assert wins >= 3
    assert pieces > 0
