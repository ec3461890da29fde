"""Information abstraction for MCCFR on full Coloretto (name "coloretto-rows", version 2).

The key keeps what matters for the decision and drops card identities that the
table values make interchangeable:

- phase, whether the last round has begun, the deck size bucket (0-4, 5-14, 15+);
- for every row, in board order (action ids refer to rows, so order is kept):
  taken or not, cards in it, and what taking it would add to *my* score and to
  the best-placed remaining opponent's score, each in one of seven buckets
  (<= -4, -3..-1, 0, 1..2, 3..5, 6..9, >= 10);
- the drawn card's gain for me when placing (same buckets);
- my score minus the best opponent score, in buckets of 5 clipped to [-20, 20].

Version history: 1 = gains clipped to [-9, 12] (tables kept growing);
2 = seven gain buckets and clipped standings, one score evaluation per player.
"""

from __future__ import annotations

from spiel_games.coloretto.scoring import score_with
from spiel_games.coloretto.state import Phase

NAME = "coloretto-rows"
VERSION = 2


def gain_bucket(x: int) -> str:
    if x <= -4:
        return "n"
    if x < 0:
        return "m"
    if x == 0:
        return "0"
    if x <= 2:
        return "1"
    if x <= 5:
        return "3"
    if x <= 9:
        return "6"
    return "t"


def abstract_key(state, player: int) -> str:
    s = state._s
    cfg = s.cfg
    n = cfg.players
    coll = s.coll
    base = [score_with(cfg, coll[p], ()) for p in range(n)]
    others = [p for p in range(n) if p != player and not (s.done >> p) & 1]
    deck_bucket = 0 if s.deck_size < 5 else 1 if s.deck_size < 15 else 2
    parts = [f"{int(s.phase)}{int(s.last_round)}{deck_bucket}"]
    for r, row in enumerate(s.rows):
        if (s.taken >> r) & 1:
            parts.append("x")
        elif not row:
            parts.append("0")
        else:
            g_me = score_with(cfg, coll[player], row) - base[player]
            g_op = max((score_with(cfg, coll[p], row) - base[p] for p in others), default=0)
            parts.append(f"{len(row)}{gain_bucket(g_me)}{gain_bucket(g_op)}")
    if s.phase == Phase.PLACE:
        parts.append("c" + gain_bucket(score_with(cfg, coll[player], (s.pending,)) - base[player]))
    diff = base[player] - max(base[p] for p in range(n) if p != player)
    parts.append(f"d{max(-4, min(4, diff // 5))}")
    return "|".join(parts)
