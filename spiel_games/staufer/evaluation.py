"""Die Staufer position evaluation for search: each player's expected final score.

``scores()`` already applies the final scoring (jobs, end bonuses) to the current
position. The estimate is a weighted sum per player of (``FEATURES``):

- ``score_now``: the final scoring applied now;
- ``pending``: the point tile awards of the regions this round scores, as the
  majorities stand now (still open);
- ``court_envoys`` / ``court_nobles``: figures at court, ready to be placed;
- ``province_envoys`` / ``province_nobles``: figures in the province (they come to
  court through the supply actions);
- ``chests``: turquoise chests held.

Each weight depends on the share of the game left (``stage``, 1 in the first round
down to 1/rounds in the last): ``END + SLOPE * stage``, never below 0 for anything a
player holds. They were fitted by least squares on score differences between the
players of 4,284 positions of 250 three-player games between heuristic players that
play a random move 10% of the time (R^2 = 0.36, against 0.30 for ``score_now`` alone
and 0.29 for the first hand-set version, which added the pending awards only).

``spread`` is the uncertainty of a score difference, large early, small late, measured
as the residual of the fit.

``level`` (``utility=score`` only) is the players' mean final score expected from the
position: their mean score now plus the mean remaining gain of ``LEVEL`` (the default
rules; other rules are measured when first read), read by player count, segment (rounds)
and the share of the round's turns still to take (``position``;
``spiel_games.common.level``). The estimate is fitted on differences, so it has no level
of its own: under ``utility=score`` the search returns each player's estimate minus the
players' mean estimate plus ``level``. ``LEVEL`` was measured by
``scripts/measure_score_level.py --games 300 --seed 0``: 300 games per player count
between heuristic players that play a random move 10% of the time (decision positions,
2: 24,018, 3: 35,188, 4: 47,374, 5: 59,015), a least-squares line of the mean remaining
gain on the share left per segment. On those games the mean of (mean final score -
level) is 0.00 in every third of the game; one position's error has a standard deviation
of 2.0 to 7.6 points (the luck still to come).
"""

from __future__ import annotations

import math

from spiel_games.common.level import mean_level, remaining_gain, rows_for
from spiel_games.common.registry import SearchDefaults

# ----- game internals (re-point here when the game's modules move) -----------------------
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.state import ROUND, TI

# -----------------------------------------------------------------------------------------

# The search's settings with this evaluation (measured in issue 11): the new leaf is evaluated
# at once (depth 0 beat depth 4).
SEARCH_DEFAULTS = SearchDefaults(eval_depth=0)

FEATURES = (
    "score_now",
    "pending",
    "court_envoys",
    "court_nobles",
    "province_envoys",
    "province_nobles",
    "chests",
)
END = (1.105, 0.742, 0.858, 2.272, 0.736, 1.121, 0.527)
SLOPE = (-0.653, -0.533, -1.191, -0.704, -1.041, -1.451, -2.373)


def _round(c) -> int:
    return min(c.v[ROUND], c.t.cfg.rounds - 1)


def stage(state) -> float:
    """Share of the game still to play: 1 in the first round, 1/rounds in the last."""
    c = state._s
    rounds = c.t.cfg.rounds
    return (rounds - _round(c)) / rounds


def weights(state) -> list[float]:
    """The weight of every feature at this point of the game."""
    x = stage(state)
    out = [END[0] + SLOPE[0] * x]
    out += [max(0.0, e + k * x) for e, k in zip(END[1:], SLOPE[1:], strict=True)]
    return out


def features(state) -> list[list[float]]:
    """One row of ``FEATURES`` per player."""
    c = state._s
    v = c.v
    t = c.t
    n = t.n
    base = state.scores()
    pending = [0.0] * n
    for pos in S.scored_positions(c):
        counts, left = S.majority_counts(c, pos)
        if not any(counts):
            continue
        tile = R.POINT_TILES[c.tile_at[pos]]
        for p, a in enumerate(S.region_awards(counts, left, tile)):
            pending[p] += a
    out = []
    for p in range(n):
        court = t.court + 2 * p
        prov = t.prov + 2 * p
        tq = t.tq + 3 * p
        out.append(
            [
                float(base[p]),
                pending[p],
                v[court],
                v[court + 1],
                v[prov],
                v[prov + 1],
                v[tq] + v[tq + 1] + v[tq + 2],
            ]
        )
    return out


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    if state.is_terminal():
        return [float(x) for x in state.scores()]
    w = weights(state)
    return [sum(wi * fi for wi, fi in zip(w, f, strict=True)) for f in features(state)]


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position
    (the residual of the fitted estimate: about 8 VP in the last round, 15 in the first)."""
    return 2.0 + 14.0 * math.sqrt(stage(state))


# The players' mean remaining gain under the default rules (utility=score's level,
# spiel_games.common.level): per player count, per segment (gain at its start, at its end);
# measured by scripts/measure_score_level.py --games 300 --seed 0 (the module docstring).
LEVEL = {
    2: ((80.29, 67.6), (63.71, 52.98), (48.87, 38.31), (33.77, 23.27), (19.43, 8.32)),
    3: ((70.3, 56.03), (55.05, 43.67), (42.02, 30.72), (29.4, 18.71), (16.91, 6.55)),
    4: ((63.45, 50.06), (49.23, 38.81), (37.89, 27.7), (26.63, 16.36), (15.38, 5.14)),
    5: ((56.06, 43.09), (43.1, 33.12), (32.77, 23.15), (22.62, 13.17), (12.89, 4.49)),
}


def position(state) -> tuple[int, int, float]:
    """Where the level table is read: (round, rounds, share of the round's turns left)."""
    c = state._s
    t = c.t
    return _round(c), t.cfg.rounds, 1.0 - c.v[TI] / t.F


def level(state) -> float:
    """The players' mean final score expected from the position (``utility=score``: the
    level the search adds to the estimates' differences; ``spiel_games.common.level``)."""
    segment, _, share = position(state)
    gain = remaining_gain(rows_for(state, state._s.t.cfg, LEVEL), segment, share)
    return mean_level(state.scores(), gain)
