"""Information abstraction for MCCFR on full Coloretto (name "coloretto-rows", version 1).

The key keeps what matters for the decision and drops card identities that the
table values make interchangeable:

- phase, whether the last round has begun, the deck size bucket (0-4, 5-14, 15+);
- for every row, in board order (action ids refer to rows, so order is kept):
  taken or not, cards in it, and what taking it would add to *my* score and to
  the best-placed remaining opponent's score, each clipped to [-9, 12];
- the drawn card's gain for me when placing;
- my score minus the best opponent score, in buckets of 5.

Version history: 1 = initial.
"""

from __future__ import annotations

from spiel_games.coloretto.game import Phase
from spiel_games.coloretto.heuristic import row_gain

NAME = "coloretto-rows"
VERSION = 1


def _clip(x: int, lo: int = -9, hi: int = 12) -> int:
    return lo if x < lo else hi if x > hi else x


def abstract_key(state, player: int) -> str:
    s = state._s
    cfg = s.cfg
    me = player
    others = [p for p in range(cfg.players) if p != me and not (s.done >> p) & 1]
    deck_bucket = 0 if s.deck_size < 5 else 1 if s.deck_size < 15 else 2
    parts = [f"{int(s.phase)}{int(s.last_round)}{deck_bucket}"]
    for r, row in enumerate(s.rows):
        if (s.taken >> r) & 1:
            parts.append("x")
            continue
        g_me = _clip(row_gain(cfg, s.coll[me], row)) if row else 0
        g_op = max((_clip(row_gain(cfg, s.coll[p], row)) for p in others), default=0) if row else 0
        parts.append(f"{len(row)}:{g_me}:{g_op}")
    if s.phase == Phase.PLACE:
        parts.append(f"c{_clip(row_gain(cfg, s.coll[me], (s.pending,)))}")
    scores = state.scores()
    best_other = max(scores[p] for p in range(cfg.players) if p != me)
    parts.append(f"d{(scores[me] - best_other) // 5}")
    return "|".join(parts)
