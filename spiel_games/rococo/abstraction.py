"""Information and action abstraction for MCCFR on Rococo (name "rococo-coarse", version 4).

Coarse on purpose: the keys met in play must recur often enough for sampled regrets to
settle (``solvers/mccfr_tables.py``). The *key* is the context of a decision, the
*labels* describe each action by what it is worth by the heuristic's own yardsticks, so
that cards, tiles, dresses or guest spaces alike for me are one choice. Everything is
read from what the player knows (own holdings, the public board).

- key: the phase, the round, my Livre (0-2, 3-5, 6-9, 10-14, 15+), my prestige so far
  plus a tenth of my Livre minus the best opponent's (behind by 5 or more, within 4,
  ahead by 5 or more), the kind of the card being played (Master, Journeyman, Apprentice);
- labels: 100 x the action's block (select, play, main, take, ...) + the action's rank
  within its block (0 best, 1 second, 2 any other) by the heuristic's own yardstick:
  the card value for cards to select, hire or take at an exam; the play value for a
  card to play (a dress it could make, a hire, the favor...); the tile's worth to me
  minus its cost for a tile to take; the dress's value for a window; the bales wasted
  for silk to pay; the guest space's value to me; the decoration's value; the jeweller
  space's value; the prestige of a dress to move to the terrace; the card's value
  (lowest first) for a card to depute; otherwise (main action, conversion, bonus, buy,
  done...) the argument itself. Ranks make the same few labels recur at every decision
  of a kind, so each is learned from many samples.

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


def _value(c, p: int, block: str, arg: int, cache: dict) -> float | None:
    """The heuristic's yardstick for an action of a block (None: the block has none)."""
    if block in _CARD_BLOCKS:
        return _card_value(c, arg)
    if block == "play":
        return _play_value(c, arg)
    if block in ("take", "discard"):
        if "held" not in cache:
            cache["held"], cache["want"] = ST.bales_held(c, p), _wanted_bales(c)
        if block == "discard":
            return -_tile_value(arg, cache["held"], cache["want"])
        seg, t = divmod(arg, R.NUM_TILES)
        return _tile_value(t, cache["held"], cache["want"]) - 0.5 * T.acquire_cost(c, seg)
    if block == "make":
        return _dress_value(c, arg)
    if block == "pay":
        b = R.TILES[arg].bales
        useful = sum(min(b[i], c.need[i]) for i in range(4))
        return -(sum(b) - useful) + 0.1 * useful
    if block == "place":
        if "counts" not in cache:
            cache["counts"] = _hall_counts(c)
        return _guest_value(c, arg, cache["counts"])
    if block == "fund":
        return _fund_value(c, arg)
    if block == "jewel":
        return _jewel_value(c, arg)
    if block == "terrace":
        return float(_final_prestige(c.gdress[arg]))
    if block in ("depute", "depute_hand"):
        return -_card_value(c, arg) - (1.0 if block == "depute_hand" else 0.0)
    return None


def action_labels(state, player: int, legal) -> list[int]:
    c = state._s
    lay = c.lay
    cache: dict = {}
    decoded = [lay.decode(a) for a in legal]
    values = [_value(c, player, block, arg, cache) for block, arg in decoded]
    top: dict[str, list[float]] = {}  # per block, its distinct values (best first)
    for (block, _), v in zip(decoded, values, strict=True):
        if v is not None:
            top.setdefault(block, []).append(v)
    for block, vs in top.items():
        top[block] = sorted(set(vs), reverse=True)[:2]
    out = []
    for (block, arg), v in zip(decoded, values, strict=True):
        base = 100 * _BLOCK[block]
        if v is None:
            out.append(base + min(arg, 99))
            continue
        # the distinct better values of the block, at most 2 counted
        out.append(base + sum(1 for x in top[block] if x > v))
    return out
