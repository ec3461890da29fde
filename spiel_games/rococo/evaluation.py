"""Rococo position evaluation for search: each player's expected final score.

``scores()`` applies the final scoring to the current position (halls, fireworks,
statues, markers, crowns, 1 prestige per 10 Livre). What it misses is what the
rounds left will turn into prestige; on top of it this adds, weighted by the
share of the game still to play:

- Livre beyond the 1-per-10 conversion (money pays for dresses, hires, decorations);
- bales of silk on the player's cloth tiles, yarn and lace (the materials of dresses);
- the employees in the deck (Masters make every dress, Apprentices none).

``spread`` is the uncertainty of a score difference, large early, small late.
"""

from __future__ import annotations

# ----- game internals (re-point here when the game's modules move) -----------------------
from spiel_games.rococo import rules as R

_TILE_BALES = tuple(sum(t.bales) for t in R.TILES)
_CARD_VALUE = tuple((1.5, 1.0, 0.3)[R.CARDS[k].kind] for k in range(R.NUM_CARDS))
# -----------------------------------------------------------------------------------------

LIVRE = 0.25  # prestige per Livre while there are rounds to spend it in
BALE = 1.2  # prestige per bale of silk held
TRIM = 0.8  # prestige per yarn or lace marker
CARD = 1.0  # scale of an employee's value per round left


def _left(c) -> float:
    """Share of the game still to play, from 1 (round 1) toward 0 (last round)."""
    return max(0.0, (c.cfg.rounds - c.round + 0.5) / c.cfg.rounds)


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    base = [float(x) for x in state.scores()]
    if state.is_terminal():
        return base
    c = state._s
    left = _left(c)
    rounds_left = c.cfg.rounds - c.round + 0.5
    for p in range(len(base)):
        bales = 0
        for counts in (c.tpub[p], c.tsec[p]):
            for t, k in enumerate(counts):
                if k:
                    bales += k * _TILE_BALES[t]
        cards = 0.0
        for counts in (c.hand[p], c.supply[p], c.discard[p]):
            for k, m in enumerate(counts):
                if m:
                    cards += m * _CARD_VALUE[k]
        base[p] += (
            min(1.0, 2 * left)
            * (LIVRE * c.money[p] + BALE * bales + TRIM * (c.yarn[p] + c.lace[p]))
            + CARD * 0.15 * rounds_left * cards
        )
    return base


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position."""
    return 5.0 + 25.0 * _left(state._s)
