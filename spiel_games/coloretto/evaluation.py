"""Coloretto position evaluation for search: each player's expected final score.

``scores()`` scores each collection now (best colour choice and joker use). The
estimate weighs it with what is still to come (``FEATURES``):

- ``score_now``: the collection scored now; early in the game a lead is worth less
  (much of the deck is still to be shared out), so its weight grows as the deck empties;
- ``open_row``: a player who has not yet taken a row this round will still take one:
  the best gain among the rows on the table (others may take it first, and more
  cards may spoil it).

Each weight is ``END + SLOPE * stage`` with ``stage`` the share of the deck left,
fitted by least squares on score differences between the players of 5,755 positions
of 300 three-player games between heuristic players that play a random move 10% of the
time (R^2 = 0.28, against 0.23 for ``score_now`` alone and 0.26 for the first hand-set
version, which counted half the best row).

``spread`` is the uncertainty of a score difference: it shrinks with the deck.

``level`` (``utility=score`` only) is the players' mean final score expected from the
position: their mean score now plus the mean remaining gain of ``LEVEL`` (the default
rules; other rules are measured when first read), read by player count, segment (tenths
of the deck) and the share of that tenth still to draw (``position``;
``spiel_games.common.level``). The estimate is fitted on differences, so it has no level
of its own: under ``utility=score`` the search returns each player's estimate minus the
players' mean estimate plus ``level``. ``LEVEL`` was measured by
``scripts/measure_score_level.py --games 300 --seed 0``: 300 games per player count
between heuristic players that play a random move 10% of the time (decision positions,
2: 31,190, 3: 38,655, 4: 44,910, 5: 43,812), a least-squares line of the mean remaining
gain on the share left per segment (the last tenth is rarely reached: its entries are
the noisiest). On those games the mean of (mean final score - level) is 0.00 in every
third of the game; one position's error has a standard deviation of 1.8 to 5.1 points
(the luck still to come).
"""

from __future__ import annotations

import math

from spiel_games.coloretto.heuristic import row_gain
from spiel_games.common.level import mean_level, remaining_gain, rows_for
from spiel_games.common.registry import SearchDefaults

# The search's settings with this evaluation (measured in issue 11): 4 moves after a new leaf,
# played by the heuristic (ahead of random moves at 3 players, even at 4: tenth round).
SEARCH_DEFAULTS = SearchDefaults(eval_rollout="heuristic")

FEATURES = ("score_now", "open_row")
END = (1.036, 0.626)
SLOPE = (-0.585, -0.207)


def stage(state) -> float:
    """Share of the deck still to be drawn (1 at the start, 0 at the end)."""
    s = state._s
    return s.deck_size / max(1, s.cfg.deck_size_after_setup())


def features(state) -> list[list[float]]:
    """One row of ``FEATURES`` per player."""
    s = state._s
    cfg = s.cfg
    base = state.scores()
    rows = [row for r, row in enumerate(s.rows) if row and not (s.taken >> r) & 1]
    out = []
    for p in range(len(base)):
        best = 0.0
        if rows and not (s.done >> p) & 1:
            best = float(max(row_gain(cfg, s.coll[p], row) for row in rows))
        out.append([float(base[p]), best])
    return out


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    if state.is_terminal():
        return [float(x) for x in state.scores()]
    x = stage(state)
    w0 = END[0] + SLOPE[0] * x
    w1 = END[1] + SLOPE[1] * x
    return [w0 * a + w1 * b for a, b in features(state)]


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position
    (the residual of the fitted estimate: about 3 near the end, 9 at the start)."""
    return 1.0 + 8.5 * math.sqrt(stage(state))


LEVEL_SEGMENTS = 10  # the level table cuts the deck into tenths


# The players' mean remaining gain under the default rules (utility=score's level,
# spiel_games.common.level): per player count, per segment (gain at its start, at its end);
# measured by scripts/measure_score_level.py --games 300 --seed 0 (the module docstring).
LEVEL = {
    2: (
        (42.89, 40.27),
        (39.99, 35.87),
        (35.79, 30.74),
        (30.75, 24.99),
        (25.05, 18.85),
        (18.85, 12.29),
        (12.2, 5.32),
        (5.18, 0.23),
        (1.37, -4.24),
        (-4.24, -4.24),
    ),
    3: (
        (34.1, 31.67),
        (31.09, 28.57),
        (28.07, 24.84),
        (24.61, 20.89),
        (20.63, 16.32),
        (16.15, 11.43),
        (11.46, 6.39),
        (6.36, 1.72),
        (1.64, -0.8),
        (-0.8, -0.8),
    ),
    4: (
        (27.2, 25.78),
        (24.77, 22.67),
        (23.07, 19.59),
        (19.92, 17.24),
        (16.81, 14.24),
        (13.77, 10.41),
        (10.45, 6.8),
        (6.88, 3.01),
        (2.81, 0.65),
        (0.28, 1.67),
    ),
    5: (
        (20.95, 20.45),
        (20.39, 16.82),
        (17.3, 15.93),
        (15.49, 12.82),
        (13.66, 10.94),
        (10.48, 8.59),
        (8.57, 4.84),
        (5.3, 2.66),
        (2.16, 1.45),
        (1.26, -1.98),
    ),
}


def position(state) -> tuple[int, int, float]:
    """Where the level table is read: (tenth of the deck being drawn, 10, share of that
    tenth still to draw)."""
    done = (1.0 - stage(state)) * LEVEL_SEGMENTS
    segment = min(LEVEL_SEGMENTS - 1, int(done))
    return segment, LEVEL_SEGMENTS, 1.0 - (done - segment)


def level(state) -> float:
    """The players' mean final score expected from the position (``utility=score``: the
    level the search adds to the estimates' differences; ``spiel_games.common.level``)."""
    segment, _, share = position(state)
    gain = remaining_gain(rows_for(state, state._s.cfg, LEVEL), segment, share)
    return mean_level(state.scores(), gain)
