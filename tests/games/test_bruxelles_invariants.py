"""Bruxelles 1893 invariants along random games: nothing is created or lost.

Assistants, works of art, cubes and figure cards are conserved; money, cubes
and counts never go negative; the rules' limits (tracks, buildings, one
assistant per space) always hold.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import spiel_games  # noqa: F401
from spiel_games.bruxelles import rules as R
from spiel_games.common.chance import sample_chance as _sample_chance


def _check(state):
    cfg = state.get_game().config
    n = cfg.players
    b = state.board()
    hs = [state.holdings(p) for p in range(n)]
    for p, h in enumerate(hs):
        assert h["money"] >= 0 and h["supply"] >= 0 and h["courthouse"] >= 0
        assert (
            h["supply"] + h["on_board"] + h["on_brussels"] + h["courthouse"] == cfg.total_assistants
        )
        assert min(h["cubes"]) >= 0 and min(h["works"]) >= 0
        assert 0 <= h["built"] <= R.BUILDINGS
        assert b["buildings"].count(p) == h["built"]
        assert h["city_hall"] < len(R.HALL) and h["palace"] < len(R.PALACE)
        assert h["architect"] < len(R.ARCHITECT)
        assert h["rotated"] & ~h["kept"] == 0
        assert h["on_board"] == b["occupants"].count(p)
    assert all(0 <= x <= cfg.bid_cap for x in b["bids"])
    phase, ctx = b["phase"], b["context"]
    bidding = ctx[0] if phase == "bid" else -1  # placed, bid not chosen yet
    for sp, (o, x) in enumerate(zip(b["occupants"], b["bids"], strict=True)):
        assert (x > 0) == (0 <= o < n and sp != bidding)
    # cubes: supply + holdings (+ cubes being paid are already back in the supply)
    for k in range(4):
        total = R.JOKER_SUPPLY if k == R.JOKER else R.NOBLE_EACH
        assert b["cube_supply"][k] + sum(h["cubes"][k] for h in hs) == total
    # works of art: stacks + owned + shop (+ a pending workshop draw)
    pending = 0
    if phase == "keep_work":
        pending = len(ctx[0])
    elif phase == "c_art" and ctx[3] == 1:
        pending = len(ctx[2])
    elif phase == "slot":
        pending = 1  # sold, waiting for its shop space
    shown = sum(1 for c in b["shop"] if c >= 0)
    owned = sum(sum(h["works"]) for h in hs)
    total_works = sum(b["art_stack"]) + owned + shown + sum(b["shop_pile"]) + pending
    assert total_works == 5 * R.ART_PER_COLOUR
    # figure cards outside the starting Brugmanns
    kept = sum(bin(h["kept"] & ~(1 << R.BRUGMANN)).count("1") for h in hs)
    display = sum(1 for f in b["display"] if f >= 0)
    in_play = sum(b["figure_deck"]) + sum(b["figure_discard"]) + display + kept
    # (one card may be in a player's hand between taking it and keeping or discarding it)
    assert sum(R.FIG_COPIES) - 1 <= in_play <= sum(R.FIG_COPIES)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_conserve_pieces(players):
    game = pyspiel.load_game(f"python_bruxelles(players={players})")
    rng = random.Random(players)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            if not state.is_chance_node() or state.board()["phase"] != "c_strip":
                _check(state)
        assert state.board()["round"] == 5
