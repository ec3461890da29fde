"""Bruxelles 1893 scenario tests for the resolution phase, end of turn, final scoring
and the two-player rules. Helpers and the fixed setup are described in
test_bruxelles_rules.py."""

from __future__ import annotations

import random

import pyspiel

import spiel_games  # noqa: F401
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles import scoring
from spiel_games.bruxelles.scenario import each, game, legal_strings, pass_all, play, put, start
from spiel_games.common.conformance import random_playout

P_CARD = R.BONUS_NAMES.index("P")  # Royal Palace +1, 1 VP symbol, 1 Manneken Pis
PH_CARD = R.BONUS_NAMES.index("P|H")
PP_CARD = R.BONUS_NAMES.index("PP")


def test_highest_column_bid_wins_the_bonus_card():
    state = start(3)
    assert state.board()["bonus_strip"][0] == PP_CARD  # fixed setup deals double powers first
    play(state, "place r1c1", "bid 2", "skip")  # P1 bids 2 in column 1
    play(state, "place r2c1", "bid 1", "skip")  # P2 bids 1 in column 1
    pass_all(state)
    b = state.board()
    assert each(state, "palace") == (2, 0, 0)  # P1 used the double Royal Palace power
    assert b["round"] == 2 or state.is_chance_node() or b["phase"] != "main"


def test_tied_column_bids_give_every_tied_player_the_central_power_and_discard_the_card():
    state = start(3)
    play(state, "place r1c1", "bid 1", "skip", "place r2c1", "bid 1", "skip")
    pass_all(state)
    assert each(state, "palace")[:2] == (2, 2) and state.holdings(2)["palace"] == 0


def test_tied_players_choose_between_the_two_powers_but_cannot_tuck():
    state = start(3)
    put(state, "strip_bonus", 0, PH_CARD)
    play(state, "place r1c1", "bid 1", "skip", "place r2c1", "bid 1", "skip")
    pass_all(state)
    assert state.board()["phase"] == "bonus"
    assert legal_strings(state) == ["bonus power 1 (P)", "bonus power 2 (H)"]


def test_a_won_bonus_card_is_used_or_tucked_under_a_row_once_per_row_per_round():
    state = start(3)
    state.own_core()
    put(state, "strip_bonus", 0, P_CARD)
    put(state, "strip_bonus", 1, P_CARD)
    play(state, "place r1c1", "bid 1", "skip", "pass", "pass")
    play(state, "place r1c2", "bid 1", "skip", "pass")
    assert state.current_player() == 0 and state.board()["phase"] == "bonus"
    assert legal_strings(state) == [
        "bonus power 1 (P)",
        "tuck row 1 (4BF)",
        "tuck row 2 (art)",
        "tuck row 3 (figure)",
        "tuck row 4 (assistant)",
    ]
    play(state, "tuck row 2")
    assert "tuck row 2 (art)" not in legal_strings(state)
    play(state, "tuck row 1")
    assert state.holdings(0)["rows"] == (2, 2, 1, 1)


def test_cards_without_vp_symbols_cannot_be_tucked():
    state = start(3)
    play(state, "place r1c1", "bid 1", "skip")
    pass_all(state)
    assert state.holdings(0)["rows"] == (1, 1, 1, 1) and state.holdings(0)["palace"] == 2


def test_most_manneken_pis_this_round_becomes_first_player():
    state = start(3)
    play(state, "place r1c1", "bid 1", "skip")  # P1 will win PP (1 Manneken Pis)
    play(state, "pass")  # P2 passes first: exhibition tile, 2 Manneken Pis
    play(state, "pass", "pass")
    assert state.board()["first"] == 1
    assert state.scores()[1] >= 5  # the Manneken Pis pawn is worth 5 VP at the end


def test_manneken_pis_ties_go_to_the_first_tied_player_clockwise_from_the_current_first():
    assert R.new_first_player([2, 2, 0], 1) == 1
    assert R.new_first_player([2, 0, 2], 1) == 2
    assert R.new_first_player([1, 0, 1], 2) == 2
    assert R.new_first_player([1, 1, 0, 0], 3) == 0


def test_full_shields_score_city_hall_level_for_the_majority_and_ties_all_score():
    state = start(3)
    s = state.own_core()
    s.hall = (0, 2, 1)  # levels 1, 3, 2
    # shield 1-1 (spaces r1c1 r1c2 r2c1 r2c2): P1 two, P2 one, P3 one -> P1 scores 1
    s.occ[0], s.occ[1], s.occ[5], s.occ[6] = 0, 0, 1, 2
    # shield 2-4 (r2c4 r2c5 r3c4 r3c5): P2 two, P3 two -> both score their own level
    s.occ[8], s.occ[9], s.occ[13], s.occ[14] = 1, 1, 2, 2
    # shield 4-1 (r4c1 r4c2 r5c1 r5c2) has only three assistants: not scored
    s.occ[15], s.occ[20], s.occ[21] = 0, 0, 0
    pass_all(state)
    assert each(state, "vp") == (1, 3, 2)


def test_bids_do_not_matter_for_shield_majorities():
    owners = (0, 1, 1, 2)
    assert R.shield_scorers(owners, neutral=3) == [1]


def test_two_players_place_neutral_assistants_first_without_bids():
    state = game(2).new_initial_state()
    play(state, "shield 1")  # 2 players, card 1: shield 2-2, a 9-space area
    assert state.board()["phase"] == "neutral" and state.current_player() == 0
    neutral = legal_strings(state)
    assert len(neutral) == 9 and all(a.startswith("neutral") for a in neutral)
    play(state, "neutral r3c3")
    assert state.board()["phase"] == "neutral" and state.current_player() == 1
    assert "neutral r3c3" not in legal_strings(state)
    play(state, "neutral r3c4")
    assert state.board()["phase"] == "main" and state.current_player() == 0
    assert (
        state.board()["occupants"][12] == 2
        and state.board()["occupants"][13] == 2
        and sum(state.board()["bids"]) == 0
    )


def test_neutral_assistants_avoid_buildings():
    state = game(2).new_initial_state()
    put(state, "bld", 12, 0)
    play(state, "shield 1")
    assert "neutral r3c3" not in legal_strings(state)


def test_a_shield_won_by_the_neutral_colour_alone_scores_nothing_but_a_tie_scores():
    assert R.shield_scorers((2, 2, 0, 1), neutral=2) == []
    assert R.shield_scorers((2, 2, 0, 0), neutral=2) == [0]
    state = game(2).new_initial_state()
    play(state, "shield 1", "neutral r3c3", "neutral r3c4")
    s = state.own_core()
    s.occ[17], s.occ[18] = 0, 1  # shield 3-3: neutral 2, P1 1, P2 1 -> nobody
    s.occ[0], s.occ[1], s.occ[5], s.occ[6] = 2, 2, 0, 0  # shield 1-1: neutral 2, P1 2 -> P1
    pass_all(state)
    assert each(state, "vp") == (R.HALL[0], 0)


def test_most_assistants_on_the_brussels_board_sends_one_to_the_courthouse():
    state = start(3)
    play(state, "brussels Market", "brussels Market", "pass", "pass", "pass")
    assert each(state, "courthouse") == (2, 3, 2)  # P2 used 2 assistants there
    state = start(3)
    play(state, "brussels Market", "brussels Bourse", "pass", "pass", "pass")
    assert each(state, "courthouse") == (3, 3, 2)  # tie: both send one


def test_bonus_courthouse_power_frees_an_assistant():
    state = start(3)
    put(state, "strip_bonus", 0, R.BONUS_NAMES.index("CC"))
    play(state, "place r1c1", "bid 1", "skip")
    pass_all(state)
    assert state.holdings(0)["courthouse"] == 0


def test_end_of_turn_returns_assistants_clears_bids_unrotates_and_refreshes_cards():
    state = start(3)
    state.own_core()
    put(state, "kept", 0, state.holdings(0)["kept"] | 1 << R.MAETERLINCK)
    put(state, "rot", 0, 1 << R.MAETERLINCK)
    play(state, "place r1c1", "bid 2", "skip", "brussels Market", "pass")
    play(state, "pass", "pass")
    # resolution is over; the end of turn refills the theater (chance) first
    assert state.is_chance_node() and state.board()["phase"] == "c_figure"
    b = state.board()
    assert b["display"] == (R.BULS, R.ALBERT, R.VANDERVELDE, -1)  # space 0 (Solvay) discarded
    assert b["figure_discard"][R.SOLVAY] == 1
    # P2 lost one to the Courthouse
    assert each(state, "supply") == (5, 4, 5) and each(state, "courthouse") == (2, 3, 2)
    assert sum(b["bids"]) == 0 and max(b["occupants"]) < 0 and each(state, "rotated") == (0, 0, 0)
    assert b["round"] == 2 and b["stock"] == -1
    play(state, "figure Empain")
    b = state.board()
    # the fixed deal goes on down its order: PP HH AA CC P were dealt in round 1
    assert b["bonus_strip"] == tuple(R.BONUS_NAMES.index(n) for n in ("P", "P", "H", "H", "H"))
    assert b["phase"] == "shield" and b["stock"] == 1


def test_the_game_lasts_five_rounds_and_the_last_round_skips_the_end_of_turn():
    game5 = pyspiel.load_game("python_bruxelles(players=3)")
    final = random_playout(game5, random.Random(3))
    assert final.is_terminal() and final.board()["round"] == 5
    state = start(3, rounds=1)
    play(state, "place r1c1", "bid 1", "skip")
    pass_all(state)
    assert state.is_terminal()
    assert state.board()["occupants"][0] == 0  # assistants stay where they are: no end of turn


def test_final_score_matches_the_rulebook_example():
    # 80 VP on the track, architect level 8 with 5 buildings (40 VP), rows 5/1/1/2 with
    # 6 BF (5), 3 works (3), 2 figures (2), 5 assistants (6), 3 noble cubes (3).
    d = scoring.final_score(
        vp=80,
        money=6 + R.FIG_COST[R.BRUGMANN] + R.FIG_COST[R.EMPAIN],
        built=5,
        architect_level=R.ARCHITECT.index(8),
        rows=(5, 1, 1, 2),
        works=3,
        kept=(R.BRUGMANN, R.EMPAIN),
        assistants_owned=5,
        nobles=3,
        has_manneken=False,
    )
    assert (d.track, d.buildings, d.rows, d.nobles, d.manneken) == (80, 40, 5 + 3 + 2 + 6, 3, 0)
    assert d.total == 139 and d.money_left == 6


def test_unpaid_public_figures_cost_5_vp_each_and_leave_the_player():
    d = scoring.final_score(
        vp=10,
        money=5,
        built=0,
        architect_level=0,
        rows=(1, 1, 1, 1),
        works=0,
        kept=(R.BRUGMANN, R.BULS),
        assistants_owned=2,
        nobles=0,
        has_manneken=False,
    )
    # 3 + 4 BF due, 5 BF held: one card stays unpaid (-5 VP); paying Brugmann (3)
    # leaves more money than paying Buls (4), with the same score otherwise
    assert d.unpaid == 1 and d.track == 5 and d.money_left == 2 and d.rows == 1


def test_figures_are_paid_at_the_end_of_the_game():
    state = start(3, rounds=1)
    s = state.own_core()
    put(state, "kept", 0, state.holdings(0)["kept"] | 1 << R.BULS)
    s.money[0] = 2
    pass_all(state)
    assert state.is_terminal()
    # P1 passed first with 1 colour: 2 + 2 = 4 BF for 3 + 4 BF of figures -> one unpaid
    d = state.score_details()[0]
    assert d.unpaid == 1 and d.track == -5


def test_noble_cubes_score_1_vp_and_jokers_nothing():
    base = dict(
        vp=0,
        money=0,
        built=0,
        architect_level=0,
        rows=(1, 1, 1, 1),
        works=0,
        kept=(),
        assistants_owned=2,
        has_manneken=False,
    )
    assert scoring.final_score(nobles=4, **base).total == 4


def test_tie_break_is_money_left_then_shared():
    state = start(3, rounds=1)
    ahead = state.clone()
    pass_all(ahead)
    scores = ahead.scores()
    s = state.own_core()
    for p in range(3):
        s.vp[p] += max(scores) - scores[p]  # make the final scores equal
    pass_all(state)
    assert len(set(state.scores())) == 1
    money = [d.money_left for d in state.score_details()]
    assert money == [4, 4, 5]  # 7, 7, 8 BF after passing, minus 3 BF for Brugmann
    assert state.returns() == [-0.5, -0.5, 1.0]


def test_random_games_end_with_returns_in_bounds_for_every_player_count():
    for n in range(2, 6):
        g = pyspiel.load_game(f"python_bruxelles(players={n},utility=score)")
        final = random_playout(g, random.Random(n))
        assert final.is_terminal()
        assert all(g.min_utility() <= r <= g.max_utility() for r in final.returns())
        assert final.returns() == [float(x) for x in final.scores()]


def test_score_breakdown_and_board_are_the_public_face_of_the_final_score():
    state = start(3, rounds=1)
    play(state, "place r1c1", "bid 2", "skip")
    pass_all(state)
    assert state.is_terminal() and state.board()["phase"] == "end"
    parts = state.score_breakdown()
    assert [d["total"] for d in parts] == state.scores()
    assert parts == [vars(d) for d in state.score_details()]
    assert state.board()["bids"][0] == 2 and state.board()["occupants"][0] == 0
    assert state.holdings(0)["palace"] == 2  # the won PP card
