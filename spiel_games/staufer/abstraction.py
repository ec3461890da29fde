"""Information abstraction for MCCFR on Die Staufer (name "staufer-board", version 1).

The key keeps what drives a decision and drops exact counts:

- phase, round, my court (envoys capped at 6, nobles), my turquoise chests (has/has not);
- for every board position, clockwise from the king: whether it scores this round,
  my majority count minus the best opponent's (clipped to [-2, 2]), free seats (capped 3);
- the pending deployment (target position relative to the king, seat, occupant);
- my own job cards (region, design, office);
- my score minus the best opponent's score, in buckets of 8.

Version history: 1 = initial.
"""

from __future__ import annotations

from spiel_games.staufer import scoring as S
from spiel_games.staufer.core import Phase, seats_in

NAME = "staufer-board"
VERSION = 1


def abstract_key(state, player: int) -> str:
    s = state._s
    cfg = s.cfg
    me = player
    parts = [f"{int(s.phase)}r{s.round}c{min(s.court[me * 2], 6)}{s.court[me * 2 + 1]}"
             f"t{''.join('1' if s.tq[me * 3 + i] else '0' for i in range(3))}"]
    if s.phase in (Phase.TURN, Phase.SEAT, Phase.OCCUPANT, Phase.PAYMENT, Phase.PRIVILEGE):
        scored = S.scored_positions(s)
        for step in range(cfg.regions):
            pos = (s.king + step) % cfg.regions
            counts, _ = S.majority_counts(s, pos)
            other = max(c for q, c in enumerate(counts) if q != me)
            diff = max(-2, min(2, counts[me] - other))
            free = sum(1 for i in range(seats_in(s, pos)) if s.seat[pos * cfg.max_seats + i] < 0)
            parts.append(f"{'!' if pos in scored else ''}{diff}:{min(free, 3)}")
        if s.pend_pos >= 0:
            parts.append(f"p{(s.pend_pos - s.king) % cfg.regions}.{s.pend_seat}.{s.pend_occ}")
    parts.append("j" + ".".join(str(c) for c in s.jobs[me * 3:me * 3 + 3]))
    sc = S.scores(s)
    best_other = max(sc[p] for p in range(cfg.players) if p != me)
    parts.append(f"d{(sc[me] - best_other) // 8}")
    return "|".join(parts)
