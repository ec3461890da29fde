"""Information and action abstraction for MCCFR on Bruxelles 1893 (name "bruxelles-holdings",
version 2).

Coarse on purpose: the keys met in play must recur often enough for sampled regrets to
settle (``solvers/mccfr_tables.py``). The *key* is the context of a decision, the
*labels* describe each action by what it does, so that board spaces alike for me are
one choice. Everything is read from what the player knows.

- key: the phase, the round, my money (0, 1-2, 3-5, 6-9, 10+), my victory points minus
  the best opponent's (behind by 10 or more, within 9, ahead by 10 or more); on a turn also my
  buildings built (0, 1, 2, 3+) and assistants in supply (0, 1, 2+);
- labels: place an assistant: 100 + 20 x the space's Art Nouveau action + 10 x (I can
  lead its column's bonus with half my money) + (another player's building is there);
  a Brussels action: 200 + which; pass 29; a bid: 300 + the amount (capped at 9) + 10 x
  (it is the bid that leads the column); a cursor position: 400 + its rank by the sale
  reward (victory points plus half the money) for the work being sold (0, 1, 2 = third
  or lower); build on a space: 500 + the space's action; every other choice: its id.

Version history: 1 = own holdings, board, columns and compass in the key (a new key
nearly every decision); 2 = the context key and action labels above.
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.heuristic import _column_bonus
from spiel_games.bruxelles.state import Phase

NAME = "bruxelles-holdings"
VERSION = 2

_MAIN, _BID, _CURSOR, _BUILD = Phase.MAIN, Phase.BID, Phase.CURSOR, Phase.BUILD


def _money_bucket(m: int) -> int:
    return 0 if m <= 0 else 1 if m <= 2 else 2 if m <= 5 else 3 if m <= 9 else 4


def abstract_key(state, player: int) -> str:
    s = state._s
    p = player
    vp = s.vp  # the victory-point track (final scoring adds more; this is the cheap part)
    diff = vp[p] - max(vp[q] for q in range(s.n) if q != p)
    standing = "b" if diff <= -10 else "a" if diff >= 10 else "e"
    key = f"{int(s.phase)}r{s.round}m{_money_bucket(s.money[p])}{standing}"
    if s.phase == _MAIN:
        key += f"b{min(s.built[p], 3)}s{min(s.supply[p], 2)}"
    return key


def action_labels(state, player: int, legal) -> list[int]:
    s = state._s
    p = player
    phase = s.phase
    if phase == _MAIN:
        board = s.cfg.board
        columns: dict[int, int] = {}
        out = []
        for a in legal:
            if a < A.BRUSSELS0:
                sp = a - A.PLACE0
                col = sp % board
                lead = columns.get(col)
                if lead is None:
                    value, need = _column_bonus(s, p, col)
                    lead = columns[col] = int(value > 0 and need <= max(1, s.money[p] // 2))
                other = int(s.bld[sp] >= 0 and s.bld[sp] != p)
                out.append(100 + 20 * s.acts[sp] + 10 * lead + other)
            elif a < A.PASS:
                out.append(200 + a - A.BRUSSELS0)
            else:
                out.append(a)
        return out
    if phase == _BID:
        _, need = _column_bonus(s, p, s.ctx[0] % s.cfg.board)
        out = []
        for a in legal:
            bid = a - A.BID0 + 1
            out.append(300 + min(bid, 9) + 10 * (bid == need))
        return out
    if phase == _CURSOR:
        colour = s.ctx[0]
        rewards = [
            (lambda m: m[1] + 0.5 * m[0])(R.sale_reward(A.cursor_of(a), colour)) for a in legal
        ]
        order = sorted(set(rewards), reverse=True)
        return [400 + min(order.index(x), 2) for x in rewards]
    if phase == _BUILD:
        return [500 + s.acts[a - A.BUILD0] for a in legal]
    return list(legal)
