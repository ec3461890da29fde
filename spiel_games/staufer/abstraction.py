"""Information abstraction for MCCFR on Die Staufer (name "staufer-board", version 1).

The key keeps what drives a decision and drops exact counts:

- phase, round, my court (envoys capped at 6, nobles), my turquoise chests (has/has not);
- for every board position, clockwise from the king: whether it scores this round,
  my majority count minus the best opponent's (clipped to [-2, 2]), free seats (capped 3);
- the pending deployment (target position relative to the king, seat, occupant) and, while
  paying nobles are placed, how many are left and where the last one went;
- while missing figures are taken from payment areas, how many envoys and nobles are left;
- my own job cards (region, design, office);
- my score minus the best opponent's score, in buckets of 8 (opponents' scores without
  their secret jobs, which I cannot know).

Version history: 1 = initial; 2 = the noble-placement and take-from-payment decisions.
"""

from __future__ import annotations

from spiel_games.staufer import scoring as S
from spiel_games.staufer.state import (
    KING,
    NOB_AT,
    NOB_CUR,
    NOB_LEFT,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PLAYER_PHASES,
    ROUND,
    TAKE_E,
    TAKE_N,
)

NAME = "staufer-board"
VERSION = 2


def abstract_key(state, player: int) -> str:
    s = state._s
    v = s.v
    t = s.t
    me = player
    court = t.court + 2 * me
    turq = "".join("1" if v[t.tq + me * 3 + i] else "0" for i in range(3))
    parts = [f"{s.phase}r{v[ROUND]}c{min(v[court], 6)}{v[court + 1]}t{turq}"]
    if s.phase in PLAYER_PHASES:
        scored = S.scored_positions(s)
        for step in range(t.r):
            pos = (v[KING] + step) % t.r
            counts, _ = S.majority_counts(s, pos)
            other = max(c for q, c in enumerate(counts) if q != me)
            diff = max(-2, min(2, counts[me] - other))
            free = sum(1 for i in range(s.seats_in(pos)) if v[t.seat + pos * t.K + i] < 0)
            parts.append(f"{'!' if pos in scored else ''}{diff}:{min(free, 3)}")
        if v[PEND_POS] >= 0:
            parts.append(f"p{(v[PEND_POS] - v[KING]) % t.r}.{v[PEND_SEAT]}.{v[PEND_OCC]}")
        if v[NOB_LEFT]:
            parts.append(f"n{v[NOB_LEFT]}.{v[NOB_CUR]}.{v[NOB_AT]}")
        if v[TAKE_E] or v[TAKE_N]:
            parts.append(f"k{v[TAKE_E]}.{v[TAKE_N]}")
    parts.append("j" + ".".join(str(c) for c in v[t.jobs + me * 3 : t.jobs + me * 3 + 3]))
    sc = S.known_scores(s, me)  # never the opponents' secret jobs
    best_other = max(sc[p] for p in range(t.n) if p != me)
    parts.append(f"d{(sc[me] - best_other) // 8}")
    return "|".join(parts)
