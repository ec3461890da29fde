"""Bruxelles 1893 position evaluation for search: each player's expected final score.

The search cuts its rollouts short; ``scores()`` alone (the final scoring applied
now) misses everything that pays later. On top of it this adds, in VP:

- the end-of-round majorities already decided or being fought on the Art Nouveau
  board: every shield a player leads pays the City Hall value (half when the
  shield is not yet full), every column a player leads on bids wins its bonus card;
- the tracks as engines for the rounds left: City Hall pays on every shield won,
  the architect level multiplies every building still to come;
- goods for what they will become: cubes toward the next building, money (beyond
  the end-game row), works of art still to sell;
- upright figures still to activate.

``spread`` is the uncertainty of a score difference, large early, small late.
"""

from __future__ import annotations

# ----- game internals (re-point here when the game's modules move) -----------------------
from spiel_games.bruxelles import rules as R

_SHIELDS = {b: R.shields(b) for b in range(2, R.MAX_BOARD + 1)}
# -----------------------------------------------------------------------------------------

BONUS_CARD_VP = 3.0  # a won bonus card: a track step or a tucked VP symbol
BUILDING_VP = 5.0  # a construction's own VP, before the architect multiplier
MONEY_VP = 0.35  # one BF spent on an action, in VP
WORK_VP = 2.0  # a work of art still to sell
FIGURE_VP = 2.0  # an upright figure still to activate
SHIELDS_PER_ROUND = 1.5  # shields a player typically wins in a round


def _rounds_left(s) -> float:
    """Rounds still to play after this one, plus the rest of this one (0..rounds)."""
    return float(s.cfg.rounds - s.round) + 0.5


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    s = state._s
    n = s.n
    base = [float(x) for x in state.scores()]
    if state.is_terminal():
        return base
    left = _rounds_left(s)
    frac = left / (s.cfg.rounds + 0.5)
    board = s.cfg.board
    neutral = n  # the neutral colour's owner id on the board
    out = []
    pending = [0.0] * n
    for spaces in _SHIELDS[board]:
        owners = [s.occ[sp] for sp in spaces]
        placed = [o for o in owners if o >= 0]
        if len(placed) < 2:
            continue
        counts: dict[int, int] = {}
        for o in placed:
            counts[o] = counts.get(o, 0) + 1
        best = max(counts.values())
        full = len(placed) == 4
        for o, k in counts.items():
            if k == best and o != neutral and o < n:
                pending[o] += R.HALL[s.hall[o]] * (1.0 if full else 0.5)
    for col in range(board):
        if s.strip_bonus[col] < 0:
            continue
        sums = [0] * n
        for r in range(board):
            sp = r * board + col
            o = s.occ[sp]
            if 0 <= o < n:
                sums[o] += s.bids[sp]
        top = max(sums)
        if top == 0:
            continue
        leaders = [p for p in range(n) if sums[p] == top]
        for p in leaders:
            pending[p] += BONUS_CARD_VP / len(leaders)
    for p in range(n):
        v = base[p] + pending[p]
        arch = R.ARCHITECT[s.arch[p]]
        built = s.built[p]
        if built < R.BUILDINGS:
            cost = R.TIER_COSTS[built]
            cubes = sum(s.cubes[p])
            # progress toward the next building, and more buildings in later rounds
            toward = min(1.0, cubes / cost)
            later = min(R.BUILDINGS - built - toward, 0.6 * max(0.0, left - 1.0))
            v += (toward * 0.8 + later * 0.5) * (BUILDING_VP + arch)
            # the cubes that go into a building no longer count as nobles at the end
            v -= min(cubes, cost) * toward * 0.5
        v += SHIELDS_PER_ROUND * R.HALL[s.hall[p]] * max(0.0, left - 1.0) * 0.5
        v += frac * (MONEY_VP * s.money[p] + WORK_VP * sum(s.works[p]))
        upright = bin(s.kept[p] & ~s.rot[p]).count("1")
        v += frac * FIGURE_VP * min(upright, R.PALACE[s.palace[p]])
        out.append(v)
    return out


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position."""
    s = state._s
    return 6.0 + 30.0 * _rounds_left(s) / (s.cfg.rounds + 0.5)
