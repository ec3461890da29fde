"""Rococo position evaluation for search: each player's expected final score.

``final_scores`` applies the final scoring to the current position (halls, fireworks,
statues, markers, crowns, 1 prestige per 10 Livre) in one pass. What it misses is what
the rounds left will turn into prestige. The estimate is a weighted sum per player:

- ``score_now``: the final scoring applied now;
- ``bales_early``: bales of silk on the player's cloth tiles (the material of every
  dress), weighted by min(1, 2 x the share of the game left);
- ``bales``: the same bales unweighted (late in the game they still make a dress);
- ``employees``: per round left, the employees in the deck (hand, supply, discard), a
  Master worth more than a Journeyman (Apprentices make no dress) plus their level;
- ``livre``: Livre held (they pay for dresses, hires and decorations).

``WEIGHTS`` were fitted by least squares on score differences between the players of
19,296 positions of 100 three-player games between heuristic players that play a
random move 10% of the time (R^2 = 0.40, against 0.36 for ``score_now`` alone and
0.37 for the first hand-set version). Yarn, lace and Apprentices got no weight
beyond what ``score_now`` already counts, so they are left out.

``spread`` is the uncertainty of a score difference, large early, small late, measured
as the residual of the fit.

``level`` (``utility=score`` only) is the players' mean final score expected from the
position: their mean score now plus the mean remaining gain of ``LEVEL`` (the default
rules; other rules are measured when first read), read by player count, segment (rounds)
and 1 while the cards are selected, then the share of the selected cards still in hand
(``position``; ``spiel_games.common.level``). The estimate is fitted on differences, so
it has no level of its own: under ``utility=score`` the search returns each player's
estimate minus the players' mean estimate plus ``level``. ``LEVEL`` was measured by
``scripts/measure_score_level.py --games 300 --seed 0``: 300 games per player count
between heuristic players that play a random move 10% of the time (decision positions,
2: 88,778, 3: 127,355, 4: 164,165, 5: 196,929), a least-squares line of the mean
remaining gain on the share left per segment. On those games the mean of (mean final
score - level) is 0.00 in every third of the game; one position's error has a standard
deviation of 2.1 to 4.7 points (the luck still to come).
"""

from __future__ import annotations

import math
from functools import lru_cache

from spiel_games.common.level import mean_level, remaining_gain, rows_for
from spiel_games.common.registry import SearchDefaults

# ----- game internals (re-point here when the game's modules move) -----------------------
from spiel_games.rococo import rules as R
from spiel_games.rococo import scoring as S
from spiel_games.rococo import state as ST

_KIND = tuple(R.CARDS[k].kind for k in range(R.NUM_CARDS))
_LEVEL = tuple(R.CARDS[k].level for k in range(R.NUM_CARDS))
_PER_LIVRE = R.RULES["actions.prestige_per_livre"]
_FAVOR = R.RULES["actions.favor_prestige"]
_PER_PIECE = R.RULES["jewelry.prestige_per_piece"]
_CROWN_DECK = R.RULES["employees.deck_crown"]
_CROWN_CARD = {R.CARDS[k].bonus: k for k in range(4, R.NUM_CARDS)}
_DECK_CROWN = _CROWN_CARD[R.BONUS["crown_deck"]]
_YARN_LACE_CROWN = _CROWN_CARD[R.BONUS["crown_yarn_lace"]]
_MASTER_CROWN = _CROWN_CARD[R.BONUS["crown_master_spaces"]]
_PAIRS_CROWN = _CROWN_CARD[R.BONUS["crown_pairs"]]
# a Festivity dress gave its prestige once when made: its marker scores 0 at the end
_DRESS = tuple((d.colour, 0 if d.festive else d.prestige, d.lady) for d in R.DRESSES)
# -----------------------------------------------------------------------------------------

# The search's settings with this evaluation (measured in issue 11): the new leaf is evaluated
# at once (depth 0 beat depth 4 and heuristic rollouts, eighth round). Searched and inferred
# opponents play the heuristic's move until their node is reached 0.05 x sims times (issue
# 33: its SPRT against opp_until=0 at 400 simulations, seed 2034, the heuristic in the third
# seat, accepted H1 after 558 games, mean set score 0.573, Elo +47 [+12, +81]).
SEARCH_DEFAULTS = SearchDefaults(eval_depth=0, opp_until=0.05)

FEATURES = ("score_now", "bales_early", "bales", "employees", "livre")
WEIGHTS = (1.063, 0.981, 0.162, 1.0, 0.054)
# prestige per round left of one employee in the deck, by kind, and per card level
EMPLOYEE = {R.MASTER: 0.331, R.JOURNEYMAN: 0.056, R.APPRENTICE: 0.0}
EMPLOYEE_LEVEL = 0.040
_CARD_ROUND = tuple(EMPLOYEE[_KIND[k]] + EMPLOYEE_LEVEL * _LEVEL[k] for k in range(R.NUM_CARDS))


def _left(c) -> float:
    """Share of the game still to play, from 1 (round 1) toward 0 (last round)."""
    return max(0.0, (c.cfg.rounds - c.round + 0.5) / c.cfg.rounds)


_TABLES: dict[int, tuple] = {}


def _tables(cfg):
    """(hall and master flag per guest space, musician space per hall, statue spaces,
    (space, prestige) of every decoration), cached by configuration identity (hashing
    the frozen Config dataclass costs more than the scoring itself)."""
    hit = _TABLES.get(id(cfg))
    if hit is not None and hit[0] is cfg:
        return hit[1]
    tables = _build_tables(cfg)
    _TABLES[id(cfg)] = (cfg, tables)
    return tables


def _build_tables(cfg):
    guests = tuple((g.hall, int(g.master)) for g in cfg.guests)
    musician = tuple(
        next((d for d, x in enumerate(cfg.decos) if x.kind == R.MUSICIAN and x.index == h), -1)
        for h in range(R.NUM_HALLS)
    )
    statues = tuple(d for d, x in enumerate(cfg.decos) if x.kind == R.STATUE)
    prestige = tuple((d, x.prestige) for d, x in enumerate(cfg.decos) if x.prestige)
    return guests, musician, statues, prestige


def final_scores(c) -> list[int]:
    """``scoring.scores(c)`` (the final scoring applied now) in one pass over the board.

    The search calls this at every rollout cut-off; the rulebook-ordered breakdown in
    scoring.py stays the reference (a test checks both agree on random positions)."""
    cfg = c.cfg
    n = cfg.players
    two = n == 2
    guests, musician, statue_spaces, deco_prestige = _tables(cfg)
    terrace = {g: cfg.terrace_mult[i] for i, g in enumerate(c.terr) if g >= 0}
    nh = R.NUM_HALLS
    counts = [[0] * n for _ in range(nh)]
    masters = [[0] * n for _ in range(nh)]
    colours = [[0, 0, 0, 0] for _ in range(n)]
    dress_pts = [0] * n
    ladies = [0] * n
    dresses = [0] * n
    on_master = [0] * n
    gdress = c.gdress
    for g, o in enumerate(c.gown):
        if o < 0:
            continue
        h, m = guests[g]
        counts[h][o] += 1
        masters[h][o] += m
        on_master[o] += m
        colour, prestige, lady = _DRESS[gdress[g]]
        colours[o][colour] += 1
        dress_pts[o] += prestige * terrace.get(g, 1)
        dresses[o] += 1
        ladies[o] += lady
    deco = c.deco
    out = [c.prestige[p] + c.money[p] // _PER_LIVRE for p in range(n)]
    for h in range(nh):
        mus = musician[h]
        won = S.hall_awards(
            counts[h], masters[h], deco[mus] if mus >= 0 else -1, cfg.hall_values[h], two
        )
        for p in range(n):
            out[p] += won[p]
    fw = c.tab.fireworks
    fw_counts = [0] * n
    fw_best = [-1] * n
    for i, d in enumerate(fw):
        o = deco[d]
        if o >= 0:
            fw_counts[o] += 1
            fw_best[o] = i
    for p, v in enumerate(S.fireworks_awards(fw_counts, fw_best, cfg.fireworks_majority, two)):
        out[p] += v
    statues = [0] * n
    for d in statue_spaces:
        if deco[d] >= 0:
            statues[deco[d]] += 1
    for d, v in deco_prestige:
        if deco[d] >= 0:
            out[deco[d]] += v
    for v, o in zip(cfg.all_halls, c.allh, strict=True):
        if o >= 0:
            out[o] += v
    for p in range(n):
        out[p] += dress_pts[p] + S.statue_points(colours[p], statues[p])
        if c.favor == p:
            out[p] += _FAVOR
        sup, hand, disc = c.supply[p], c.hand[p], c.discard[p]
        if sup[_DECK_CROWN] + hand[_DECK_CROWN] + disc[_DECK_CROWN]:
            size = sum(sup) + sum(hand) + sum(disc) + (1 if c.inplay and c.cur == p else 0)
            out[p] += _CROWN_DECK[R.deck_bracket(size)] if size >= 4 else 0
        if sup[_YARN_LACE_CROWN] + hand[_YARN_LACE_CROWN] + disc[_YARN_LACE_CROWN]:
            out[p] += 3 * min(c.yarn[p], c.lace[p])
        if sup[_MASTER_CROWN] + hand[_MASTER_CROWN] + disc[_MASTER_CROWN]:
            out[p] += 3 * (on_master[p] // 2)
        if sup[_PAIRS_CROWN] + hand[_PAIRS_CROWN] + disc[_PAIRS_CROWN]:
            out[p] += 2 * min(ladies[p], dresses[p] - ladies[p])
        if cfg.jewelry:
            out[p] += sum(c.jewels[p]) * _PER_PIECE
    return out


def stage(state) -> float:
    """Share of the game still to play, from 1 (round 1) toward 0 (last round)."""
    return _left(state._s)


def features(state) -> list[list[float]]:
    """One row of ``FEATURES`` per player."""
    c = state._s
    base = final_scores(c)
    early = min(1.0, 2 * _left(c))
    rounds_left = c.cfg.rounds - c.round + 0.5
    out = []
    for p in range(len(base)):
        bales = sum(ST.bales_of(c.tpub[p], c.tsec[p]))
        staff = _staff(c.hand[p], c.supply[p], c.discard[p])
        out.append([float(base[p]), early * bales, float(bales), rounds_left * staff, c.money[p]])
    return out


@lru_cache(maxsize=16384)
def _staff(*piles: tuple) -> float:
    """Prestige per round left of the employees in these count vectors (hand, supply,
    discard); cached, as a deck changes far less often than it is evaluated."""
    staff = 0.0
    for counts in piles:
        for k, m in enumerate(counts):
            if m:
                staff += m * _CARD_ROUND[k]
    return staff


def estimate(state) -> list[float]:
    """Each player's expected final score from the whole position."""
    if state.is_terminal():
        return [float(x) for x in final_scores(state._s)]
    w = WEIGHTS
    return [sum(wi * fi for wi, fi in zip(w, f, strict=True)) for f in features(state)]


def spread(state) -> float:
    """Standard deviation of a difference of two final scores, given the position
    (the residual of the fitted estimate: about 6 in the last round, 19 in the first)."""
    return 2.0 + 18.0 * math.sqrt(_left(state._s))


# The players' mean remaining gain under the default rules (utility=score's level,
# spiel_games.common.level): per player count, per segment (gain at its start, at its end);
# measured by scripts/measure_score_level.py --games 300 --seed 0 (the module docstring).
LEVEL = {
    2: (
        (56.94, 51.66),
        (51.08, 44.31),
        (45.51, 37.22),
        (37.88, 26.94),
        (27.82, 19.12),
        (20.06, 10.3),
        (11.16, 4.67),
    ),
    3: (
        (52.55, 47.33),
        (46.16, 41.37),
        (41.59, 33.21),
        (33.95, 23.57),
        (24.4, 16.35),
        (16.79, 7.27),
        (8.31, 3.24),
    ),
    4: (
        (49.63, 43.78),
        (42.36, 38.22),
        (37.98, 29.49),
        (29.93, 20.74),
        (21.15, 13.96),
        (14.0, 5.12),
        (6.64, 3.38),
    ),
    5: (
        (42.77, 37.42),
        (36.14, 33.01),
        (32.35, 24.42),
        (24.52, 17.3),
        (17.42, 11.39),
        (11.18, 4.33),
        (5.4, 2.78),
    ),
}


def position(state) -> tuple[int, int, float]:
    """Where the level table is read: (round, rounds, share of the round left: 1 while
    the cards are selected, then the cards still in the players' hands)."""
    c = state._s
    cfg = c.cfg
    share = 1.0
    if c.phase != ST.PH_SELECT:
        share = sum(sum(h) for h in c.hand) / (cfg.players * cfg.hand_size)
    return c.round - 1, cfg.rounds, share


def level(state) -> float:
    """The players' mean final score expected from the position (``utility=score``: the
    level the search adds to the estimates' differences; ``spiel_games.common.level``)."""
    segment, _, share = position(state)
    gain = remaining_gain(rows_for(state, state._s.cfg, LEVEL), segment, share)
    return mean_level(final_scores(state._s), gain)
