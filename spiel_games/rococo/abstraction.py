"""Information and action abstraction for MCCFR on Rococo (name "rococo-coarse", version 4).

Coarse on purpose: the keys met in play must recur often enough for sampled regrets to
settle (``solvers/mccfr_tables.py``). The *key* is the context of a decision, the
*labels* describe each action by what it is worth by the heuristic's own yardsticks, so
that cards, tiles, dresses or guest spaces alike for me are one choice. Everything is
read from what the player knows (own holdings, the public board).

- key: the phase, the round, my Livre (0-2, 3-5, 6-9, 10-14, 15+), my prestige so far
  plus a tenth of my Livre minus the best opponent's (behind by 5 or more, within 4,
  ahead by 5 or more), the kind of the card being played (Master, Journeyman, Apprentice);
- labels: 100 x the action's block (select, play, main, take, ...) + a value within the
  block: for cards to select, hire or take at an exam twice the heuristic's card value;
  for a card to play its play value (a dress it could make, a hire, the favor...); for a
  tile to take twice its worth to me minus its cost; for a window the dress's value; for
  silk to pay the bales wasted; for a guest space twice its value to me; for a
  decoration its value; for a jeweller space its value; for a dress to move to the
  terrace its prestige; for a card to depute its kind and level; otherwise (main action,
  conversion, bonus, buy, done...) the argument itself. Values are clipped to 0-99.

Version history: 1 = initial; 2 = phase ids renumbered (Jewelry Box phases), jewellery;
3 = phase ids renumbered again (exam phases), exam card; 4 = the context key and action
labels above (version 3 put the legal actions and the holdings in the key and met nearly
a new key per decision).
"""

from __future__ import annotations

from spiel_games.rococo import rules as R
from spiel_games.rococo import state as ST
from spiel_games.rococo.actions import _BLOCKS
from spiel_games.rococo.heuristic import (
    T,
    _card_value,
    _dress_value,
    _final_prestige,
    _fund_value,
    _guest_value,
    _hall_counts,
    _jewel_value,
    _play_value,
    _tile_value,
    _wanted_bales,
)

NAME = "rococo-coarse"
VERSION = 4

_BLOCK = {name: i for i, name in enumerate(b for b in _BLOCKS if not b.endswith("_x"))}
_CARD_BLOCKS = ("select", "hire", "xpick")


def _money(m: int) -> int:
    return 0 if m <= 2 else 1 if m <= 5 else 2 if m <= 9 else 3 if m <= 14 else 4


def abstract_key(state, player: int) -> str:
    c = state._s
    p = player
    n = c.cfg.players
    worth = [10 * c.prestige[q] + c.money[q] for q in range(n)]
    diff = worth[p] - max(worth[q] for q in range(n) if q != p)
    standing = "b" if diff <= -50 else "a" if diff >= 50 else "e"
    kind = R.CARDS[c.card].kind if c.card >= 0 and c.cur == p else 3
    return f"{c.phase}r{c.round}m{_money(c.money[p])}{standing}{kind}"


def _clip(x: float) -> int:
    return max(0, min(99, int(x)))


def action_labels(state, player: int, legal) -> list[int]:
    c = state._s
    lay = c.lay
    p = player
    out = []
    held: list[int] = []
    want: list[int] = []
    counts = None
    for a in legal:
        block, arg = lay.decode(a)
        base = 100 * _BLOCK[block]
        if block in _CARD_BLOCKS:
            v = _clip(2 * _card_value(c, arg))
        elif block == "play":
            v = _clip(_play_value(c, arg) + 1)
        elif block == "take":
            if not held:
                held, want = ST.bales_held(c, p), _wanted_bales(c)
            s, t = divmod(arg, R.NUM_TILES)
            v = _clip(2 * (_tile_value(t, held, want) - 0.5 * T.acquire_cost(c, s)) + 10)
        elif block == "make":
            v = _clip(_dress_value(c, arg) + 10)
        elif block == "pay":
            b = R.TILES[arg].bales
            useful = sum(min(b[i], c.need[i]) for i in range(4))
            v = _clip(10 * (sum(b) - useful) + useful)
        elif block == "place":
            if counts is None:
                counts = _hall_counts(c)
            v = _clip(2 * _guest_value(c, arg, counts))
        elif block == "fund":
            v = _clip(_fund_value(c, arg) + 10)
        elif block == "jewel":
            v = _clip(_jewel_value(c, arg) + 10)
        elif block == "terrace":
            v = _clip(_final_prestige(c.gdress[arg]))
        elif block in ("depute", "depute_hand"):
            card = R.CARDS[arg]
            v = 10 * card.kind + min(9, card.level)
        elif block == "discard":
            if not held:
                held, want = ST.bales_held(c, p), _wanted_bales(c)
            v = _clip(2 * _tile_value(arg, held, want))
        else:
            v = _clip(arg)
        out.append(base + v)
    return out
