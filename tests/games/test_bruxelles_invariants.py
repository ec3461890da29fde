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
from spiel_games.bruxelles.state import Phase
from spiel_games.common.conformance import _sample_chance


def _check(s):
    cfg = s.cfg
    n = s.n
    for p in range(n):
        assert s.money[p] >= 0 and s.supply[p] >= 0 and s.court[p] >= 0
        assert s.supply[p] + s.onboard[p] + s.onbrussels[p] + s.court[p] == cfg.total_assistants
        assert min(s.cubes[p]) >= 0 and min(s.works[p]) >= 0
        assert 0 <= s.built[p] <= R.BUILDINGS
        assert s.bld.count(p) == s.built[p]
        assert s.hall[p] < len(R.HALL) and s.palace[p] < len(R.PALACE)
        assert s.arch[p] < len(R.ARCHITECT)
        assert s.rot[p] & ~s.kept[p] == 0
        assert s.onboard[p] == s.occ.count(p)
    assert all(0 <= b <= cfg.max_bid for b in s.bids)
    bidding = s.ctx[0] if s.phase == Phase.BID else -1  # placed, bid not chosen yet
    for sp, (o, b) in enumerate(zip(s.occ, s.bids, strict=True)):
        assert (b > 0) == (0 <= o < n and sp != bidding)
    # cubes: supply + holdings (+ cubes being paid are already back in the supply)
    for k in range(4):
        total = R.JOKER_SUPPLY if k == R.JOKER else R.NOBLE_EACH
        assert s.cube_supply[k] + sum(c[k] for c in s.cubes) == total
    # works of art: stacks + owned + shop (+ a pending workshop draw)
    pending = 0
    if s.phase == Phase.KEEP_WORK:
        pending = len(s.ctx[0])
    elif s.phase == Phase.C_ART and s.ctx[3] == 1:
        pending = len(s.ctx[2])
    elif s.phase == Phase.SLOT:
        pending = 1  # sold, waiting for its shop space
    shown = sum(1 for c in s.shop if c >= 0)
    owned = sum(sum(w) for w in s.works)
    assert sum(s.art_stack) + owned + shown + sum(s.shop_pile) + pending == 5 * R.ART_PER_COLOUR
    # figure cards outside the starting Brugmanns
    kept = sum(bin(m & ~(1 << R.BRUGMANN)).count("1") for m in s.kept)
    display = sum(1 for f in s.display if f >= 0)
    in_play = sum(s.fig_deck) + sum(s.fig_disc) + display + kept
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
            if not state.is_chance_node() or state._s.phase != Phase.C_STRIP:
                _check(state._s)
        assert state._s.round == 5
