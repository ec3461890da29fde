"""A rule-based Coloretto player that plays as a sensible casual human would.

- Take a row when what it adds to my score beats what waiting is likely to
  bring: the fuller the table, the less waiting is worth.
- Place a drawn card where it helps me most if it is good for me, otherwise
  where it hurts me least and spoils the row for the others.
- Give an immediate joker the colour that raises my score most.
"""

from __future__ import annotations

from spiel_games.coloretto.actions import DRAW
from spiel_games.coloretto.scoring import score_with
from spiel_games.coloretto.state import Phase


def row_gain(cfg, col, row) -> int:
    """What taking `row` adds to the score of a player holding `col`."""
    return score_with(cfg, col, row) - score_with(cfg, col, ())


def take_threshold(s) -> int:
    """The gain at which the heuristic takes its best row instead of drawing. Waiting is
    worth roughly one good card per two free places, and less once the last round has
    begun (no later rounds to make up for it)."""
    free = sum(
        cap - len(row)
        for r, (cap, row) in enumerate(zip(s.cfg.capacities, s.rows, strict=True))
        if not (s.taken >> r) & 1
    )
    return 2 + free // 2 - (1 if s.last_round else 0)


def place_value(mine_gain: int, theirs: int, solo_gain: int) -> float:
    """How the heuristic values placing the drawn card in a row: what the row would add to
    me against what it would add to the best remaining opponent (``theirs``), weighed by
    whether the card alone is good for me (``solo_gain``)."""
    if solo_gain > 0:
        return mine_gain - 0.5 * theirs
    return -theirs + 0.25 * mine_gain


def heuristic_action(state, rng=None) -> int:
    s = state._s
    cfg = s.cfg
    lay = s.layout
    me = s.cur
    legal = state._legal_actions(me)
    if len(legal) == 1:
        return legal[0]
    mine = s.coll[me]
    if s.phase == Phase.PLAY:
        takes = [a for a in legal if a != DRAW]
        if not takes:
            return DRAW
        gains = {a: row_gain(cfg, mine, s.rows[a - lay.take0]) for a in takes}
        best = max(takes, key=lambda a: (gains[a], -a))
        if DRAW not in legal:
            return best
        return best if gains[best] >= take_threshold(s) else DRAW
    if s.phase == Phase.PLACE:
        others = [p for p in range(cfg.players) if p != me and not (s.done >> p) & 1]
        card = s.pending
        solo_gain = row_gain(cfg, mine, (card,))

        def value(a: int) -> float:
            row = s.rows[a - lay.place0] + (card,)
            mine_gain = row_gain(cfg, mine, row)
            theirs = max((row_gain(cfg, s.coll[p], row) for p in others), default=0)
            return place_value(mine_gain, theirs, solo_gain)

        return max(legal, key=lambda a: (value(a), -a))
    if s.phase == Phase.ASSIGN:

        def colour_value(a: int) -> int:
            counts = list(mine)
            counts[a - lay.assign0] += 1
            return score_with(cfg, tuple(counts), ())

        return max(legal, key=lambda a: (colour_value(a), -a))
    return legal[0]
