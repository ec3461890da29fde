"""Bruxelles 1893 position evaluation for search: each player's expected final score.

The search cuts its rollouts short; ``scores()`` alone (the final scoring applied
now) misses everything that pays later. The estimate is a weighted sum of what a
player has and what is in reach (``FEATURES``, one value per player):

- ``score_now``: the final scoring applied now (track, buildings x architect, end rows,
  nobles, Manneken Pis, unpaid figures);
- ``shield_full`` / ``shield_partial``: the City Hall value of every full shield the player
  leads (scored at the end of the round) and of every shield with 2-3 assistants it leads;
- ``column_lead``: bonus cards of the columns the player leads on bids (shared on a tie);
- ``toward_building`` / ``later_buildings``: progress of the cubes toward the next building
  and the buildings the rounds left still allow, each worth 5 + the architect level;
- ``cubes_in_building``: cubes that will go into that building (no longer nobles);
- ``hall_future``: the City Hall level times the rounds left (shields still to win);
- ``works_early`` / ``works``: works of art (to sell, and for the end row), the first
  weighted by the share of the game left;
- ``figures_early``: upright figures the palace lets the player activate, same weight;
- ``buildings_open``: buildings not yet built times the rounds left;
- ``money``, ``assistants`` (not in the Courthouse), ``architect`` (its level's VP per
  building), ``palace`` (Royal Palace level), ``row_symbols`` (VP symbols on the endgame
  rows), ``figures`` (figure cards kept): resources for the rounds left. The hand-set
  estimate gives them weight 0; the learned model (``value_model.json``, ``meeple train``)
  weighs them.

``WEIGHTS`` were fitted by least squares (score differences between the players of a
position, so only what separates them counts) on 22,710 positions of 150 three-player
games between heuristic players that play a random move 10% of the time: the difference
of two players' final scores is explained to R^2 = 0.47, against 0.39 for ``score_now``
alone and 0.43 for the first hand-set version.

``spread`` is the uncertainty of a score difference, large early, small late, measured
as the residual of the fit.

``level`` (``utility=score`` only) is the players' mean final score expected from the
position: their mean score now plus the mean remaining gain of ``LEVEL`` (the default
rules; other rules are measured when first read), read by player count, segment (rounds)
and the share of the assistants still to be placed (``position``;
``spiel_games.common.level``). The estimate is fitted on differences, so it has no level
of its own: under ``utility=score`` the search returns each player's estimate minus the
players' mean estimate plus ``level``. ``LEVEL`` was measured by
``scripts/measure_score_level.py --games 300 --seed 0``: 300 games per player count
between heuristic players that play a random move 10% of the time (decision positions,
2: 68,412, 3: 98,960, 4: 126,373, 5: 161,318), a least-squares line of the mean
remaining gain on the share left per segment. On those games the mean of (mean final
score - level) is 0.00 in every third of the game; one position's error has a standard
deviation of 5.3 to 13.9 points (the luck still to come).
"""

from __future__ import annotations

# ----- game internals (re-point here when the game's modules move) -----------------------
from spiel_games.bruxelles import rules as R
from spiel_games.common.level import mean_level, remaining_gain, rows_for
from spiel_games.common.registry import SearchDefaults

_SHIELDS = {b: R.shields(b) for b in range(2, R.MAX_BOARD + 1)}
# -----------------------------------------------------------------------------------------

# The search's settings with this evaluation (measured in issue 11): eval=auto is the shipped
# value_model.json (ahead of the hand-set weights head to head at 400 simulations in 0.73 of
# 60 games, +6.0 points, eleventh round); the new leaf is evaluated at once (depth 0 beat
# depth 4); later turns in the tree follow the heuristic (unprune=1, seventh round).
SEARCH_DEFAULTS = SearchDefaults(eval_auto="learned", eval_depth=0, unprune=1.0)

FEATURES = (
    "score_now",
    "shield_full",
    "shield_partial",
    "column_lead",
    "toward_building",
    "later_buildings",
    "cubes_in_building",
    "hall_future",
    "works_early",
    "figures_early",
    "works",
    "buildings_open",
    "money",
    "assistants",
    "architect",
    "palace",
    "row_symbols",
    "figures",
)
_FITTED = (1.114, 1.396, 0.215, 3.425, 0.513, 1.018, -0.773, 1.426, 6.616, 3.390, 1.810, -1.045)
# the resources after them weigh 0 here: only the learned model weighs them
WEIGHTS: tuple[float, ...] = _FITTED + (0.0,) * (len(FEATURES) - len(_FITTED))
BUILDING_VP = 5  # a construction's own VP, before the architect multiplier


def _rounds_left(s) -> float:
    """Rounds still to play after this one, plus the rest of this one (0..rounds)."""
    return float(s.cfg.rounds - s.round) + 0.5


def stage(state) -> float:
    """Share of the game still to play, from about 1 (start) to 0 (end)."""
    s = state._s
    return _rounds_left(s) / (s.cfg.rounds + 0.5)


def features(state) -> list[list[float]]:
    """One row of ``FEATURES`` per player."""
    s = state._s
    n = s.n
    base = state.scores()
    left = _rounds_left(s)
    frac = left / (s.cfg.rounds + 0.5)
    board = s.cfg.board
    full = [0.0] * n
    partial = [0.0] * n
    column = [0.0] * n
    occ = s.occ
    hall = s.hall
    for a, b, c, d in _SHIELDS[board]:
        owners = (occ[a], occ[b], occ[c], occ[d])
        placed = 4 - owners.count(-1)
        if placed < 2:
            continue
        counts = [owners.count(o) for o in range(n + 1)]
        best = max(counts)
        led = full if placed == 4 else partial
        for o in range(n):  # the neutral colour (id n) scores nothing
            if counts[o] == best:
                led[o] += R.HALL[hall[o]]
    bids = s.bids
    for col in range(board):
        if s.strip_bonus[col] < 0:
            continue
        sums = [0] * (n + 1)
        for sp in range(col, board * board, board):
            o = occ[sp]
            if o >= 0:
                sums[o] += bids[sp]
        top = max(sums[:n])
        if top == 0:
            continue
        leaders = [p for p in range(n) if sums[p] == top]
        for p in leaders:
            column[p] += 1.0 / len(leaders)
    rest = max(0.0, left - 1.0)
    out = []
    for p in range(n):
        built = s.built[p]
        toward = later = into = 0.0
        if built < R.BUILDINGS:
            value = BUILDING_VP + R.ARCHITECT[s.arch[p]]
            cost = R.TIER_COSTS[built]
            cubes = sum(s.cubes[p])
            share = min(1.0, cubes / cost)
            toward = share * value
            later = min(R.BUILDINGS - built - share, 0.6 * rest) * value
            into = min(cubes, cost) * share
        works = sum(s.works[p])
        upright = bin(s.kept[p] & ~s.rot[p]).count("1")
        out.append(
            [
                float(base[p]),
                full[p],
                partial[p],
                column[p],
                toward,
                later,
                into,
                R.HALL[hall[p]] * rest,
                frac * works,
                frac * min(upright, R.PALACE[s.palace[p]]),
                float(works),
                (R.BUILDINGS - built) * left,
                float(s.money[p]),
                float(s.supply[p] + s.onboard[p] + s.onbrussels[p]),
                float(R.ARCHITECT[s.arch[p]]),
                float(s.palace[p]),
                float(sum(s.rows[p])),
                float(bin(s.kept[p]).count("1")),
            ]
        )
    return out


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    if state.is_terminal():
        return [float(x) for x in state.scores()]
    w = WEIGHTS
    return [sum(wi * fi for wi, fi in zip(w, f, strict=True)) for f in features(state)]


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position
    (the residual of the fitted estimate on the same games: 12 VP in the last round,
    29 VP in the first)."""
    return 10.0 + 21.0 * stage(state)


# The players' mean remaining gain under the default rules (utility=score's level,
# spiel_games.common.level): per player count, per segment (gain at its start, at its end);
# measured by scripts/measure_score_level.py --games 300 --seed 0 (the module docstring).
LEVEL = {
    2: ((66.7, 59.47), (55.78, 47.0), (43.44, 34.37), (30.04, 20.93), (16.52, 6.44)),
    3: ((64.89, 58.02), (55.21, 46.38), (42.75, 33.5), (30.02, 20.02), (15.99, 5.28)),
    4: ((67.6, 60.1), (57.05, 49.07), (45.85, 36.55), (32.64, 22.64), (17.75, 6.03)),
    5: ((75.05, 68.21), (64.12, 55.83), (51.23, 41.56), (36.31, 25.85), (19.44, 7.76)),
}


def position(state) -> tuple[int, int, float]:
    """Where the level table is read: (round, rounds, share of the round left: the
    assistants still to place by the players who have not passed, of all they have)."""
    s = state._s
    left = sum(s.supply[p] for p in range(s.n) if not (s.passed >> p) & 1)
    total = sum(s.supply) + sum(s.onboard) + sum(s.onbrussels)
    return s.round - 1, s.cfg.rounds, left / max(1, total)


def level(state) -> float:
    """The players' mean final score expected from the position (``utility=score``: the
    level the search adds to the estimates' differences; ``spiel_games.common.level``)."""
    segment, _, share = position(state)
    gain = remaining_gain(rows_for(state, state._s.cfg, LEVEL), segment, share)
    return mean_level(state.scores(), gain)
