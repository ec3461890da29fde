"""Information abstraction for MCCFR on Rococo (name "rococo-coarse", version 2).

The key is built only from what `player` knows (own holdings, the public board,
round, rough standings), so it never leaks hidden information:

- phase, round, and the legal action ids (they fix which decision this is and
  keep keys of different action sets apart, as MCCFR requires);
- own holdings: Livre in buckets of 3 (capped at 30), yarn and lace (capped at 3),
  silk bales per colour (capped at 4), the hand as counts of Masters /
  Journeymen / Apprentices, and the card being played;
- public board: free guest spaces and free decoration spaces in buckets of 3,
  whether the favor is free, the number of dresses I could make now;
- standings: my current prestige minus the best opponent's, in buckets of 5.

- with the Jewelry Box: own jewellery pieces (capped at 4), the exam card's side and
  tasks done.

Version history: 1 = initial; 2 = phase ids renumbered (Jewelry Box phases), jewellery;
3 = phase ids renumbered again (exam phases), exam card.
"""

from __future__ import annotations

from spiel_games.rococo import rules as R
from spiel_games.rococo import scoring
from spiel_games.rococo import state as ST
from spiel_games.rococo.phases import checks as T

NAME = "rococo-coarse"
VERSION = 3


def abstract_key(state, player: int) -> str:
    c = state._s
    cfg = c.cfg
    p = player
    hand = [0, 0, 0]
    for k, m in enumerate(c.hand[p]):
        if m:
            hand[R.CARDS[k].kind] += m
    bales = [min(4, b) for b in ST.bales_held(c, p)]
    free_guests = sum(1 for o in c.gown if o < 0) // 3
    free_decos = sum(1 for o in c.deco if o < 0) // 3
    makeable = len(T.makeable_windows(c, p, True, "")) if c.cur == p else 0
    scores = scoring.scores(c)
    best_other = max(scores[q] for q in range(cfg.players) if q != p)
    legal = state.legal_actions(p) if c.cur == p else []
    parts = [
        f"{int(c.phase)}.{c.round}",
        f"m{min(c.money[p], 30) // 3}y{min(c.yarn[p], 3)}l{min(c.lace[p], 3)}",
        "b" + "".join(map(str, bales)),
        "h" + "".join(map(str, hand)),
        f"c{c.card}",
        f"g{free_guests}d{free_decos}f{int(c.favor < 0)}k{makeable}",
        f"s{(scores[p] - best_other) // 5}",
        "a" + ",".join(map(str, legal)),
    ]
    if cfg.jewelry:
        parts.append(f"j{min(4, sum(c.jewels[p]))}x{c.xside[p]}{c.xbits[p]}")
    return "|".join(parts)
