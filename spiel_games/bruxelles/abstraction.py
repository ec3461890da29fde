"""Information abstraction for MCCFR on Bruxelles 1893 (name "bruxelles-holdings", version 1).

The key keeps what drives a decision and buckets the rest:

- decision: phase, round, and the phase's public arguments (space, action, figure...);
- own holdings: money (buckets 0, 1-2, 3-5, 6-9, 10+), works by colour (capped at 2),
  cubes (wood/stone/iron/joker capped at 3), buildings built, City Hall / Royal
  Palace / Architect levels, assistants in supply, exhibition tiles, upright
  figures (bitmask), whether I have passed;
- public board: the available area's free spaces by action (counts capped at 3),
  the bonus card under each column and whether I lead its bids, the theater
  display, the shop, the compass needles' tiles;
- rough standings: my current score minus the best opponent's, in buckets of 10.

Version history: 1 = initial.
"""

from __future__ import annotations

from spiel_games.bruxelles.state import Phase

NAME = "bruxelles-holdings"
VERSION = 1


def _money_bucket(m: int) -> int:
    return 0 if m <= 0 else 1 if m <= 2 else 2 if m <= 5 else 3 if m <= 9 else 4


def abstract_key(state, player: int) -> str:
    s = state._s
    p = player
    b = s.cfg.board
    ctx = (
        ""
        if s.phase == Phase.KEEP_WORK and s.actor != p
        else ",".join(str(v) for v in s.ctx if isinstance(v, int))
    )
    if s.phase == Phase.KEEP_WORK and s.actor == p:
        ctx = "".join(str(c) for c in s.ctx[0])
    own = (
        _money_bucket(s.money[p]),
        "".join(str(min(k, 2)) for k in s.works[p]),
        "".join(str(min(k, 3)) for k in s.cubes[p]),
        s.built[p],
        s.hall[p],
        s.palace[p],
        s.arch[p],
        s.supply[p],
        s.exhib[p],
        s.upright(p),
        (s.passed >> p) & 1,
    )
    free = [0] * 5
    for sp in range(s.cfg.spaces):
        if (s.area >> sp) & 1 and s.occ[sp] < 0 and s.acts:
            free[s.acts[sp]] += 1
    columns = []
    for col in range(b):
        card = s.strip_bonus[col]
        sums = [0] * s.n
        for r in range(b):
            o = s.occ[r * b + col]
            if 0 <= o < s.n:
                sums[o] += s.bids[r * b + col]
        lead = max(sums)
        columns.append(f"{card}{'L' if lead and sums[p] == lead else ''}")
    needles = "".join(str(s.compass[i]) for i in s.needles) if len(s.compass) == 6 else "-"
    scores = state.scores()
    others = max(scores[q] for q in range(s.n) if q != p)
    return "|".join(
        (
            f"{int(s.phase)}r{s.round}:{ctx}",
            ".".join(map(str, own)),
            "".join(str(min(k, 3)) for k in free),
            ",".join(columns),
            ",".join(map(str, s.display)),
            f"{s.shop[0]},{s.shop[1]}",
            needles,
            f"d{(scores[p] - others) // 10}",
        )
    )
