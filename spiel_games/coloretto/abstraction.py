"""Information abstraction for MCCFR on full Coloretto (name "coloretto-rows", version 3).

Coarse on purpose: the keys met in play must recur often enough for sampled regrets to
settle (the blueprint's tables, ``solvers/mccfr_tables.py``). The key keeps what the
heuristic and the evaluation decide by and drops card identities:

- the phase (take-or-draw, place, joker colour) and the stage: deck left 0-4, 5-14, 15+;
- for every row, in board order (action ids refer to rows): taken, empty, or its
  length with what taking it would add to *my* score (five buckets: < 0, 0, 1-2, 3-4,
  >= 5) and to the best-placed remaining opponent's (two: < 3, >= 3);
- when placing: what the drawn card alone would add to my score (< 0, 0-1, >= 2); when
  giving a joker its colour (the immediate-joker variant): the colour it helps most;
- my score minus the best opponent's: behind by 5 or more, within 4, ahead by 5 or more.

Row gains are cached per (collection, cards) pair, so a key costs a few dictionary
lookups once the game's common collections have been seen.

Version history: 1 = gains clipped to [-9, 12] (tables kept growing); 2 = seven gain
buckets for me and the opponent, standings in buckets of 5; 3 = the coarse buckets above
(about a tenth of version 2's keys in the same play).
"""

from __future__ import annotations

from spiel_games.coloretto.scoring import score_with
from spiel_games.coloretto.state import PLACE, PLAY

NAME = "coloretto-rows"
VERSION = 3

_MINE = "nn0112334" + "5" * 40  # gain + 2 -> bucket (gains below -1 clip to "n")
_CACHES: dict[int, dict] = {}


def _gain_table(cfg) -> dict:
    cache = _CACHES.get(id(cfg))
    if cache is None:
        cache = _CACHES[id(cfg)] = {}
    return cache


def _gain(cfg, cache: dict, col: tuple[int, ...], cards: tuple[int, ...]) -> int:
    g = cache.get((col, cards))
    if g is None:
        g = score_with(cfg, col, cards) - _score(cfg, cache, col)
        if len(cache) > 500_000:
            cache.clear()
        cache[(col, cards)] = g
    return g


def _score(cfg, cache: dict, col: tuple[int, ...]) -> int:
    g = cache.get(col)
    if g is None:
        g = cache[col] = score_with(cfg, col, ())
    return g


def _mine(g: int) -> str:
    return "n" if g < 0 else _MINE[g + 2]


def abstract_key(state, player: int) -> str:
    s = state._s
    cfg = s.cfg
    cache = _gain_table(cfg)
    coll = s.coll
    mine = coll[player]
    others = [coll[p] for p in range(cfg.players) if p != player and not (s.done >> p) & 1]
    deck = s.deck_size
    parts = [f"{s.phase}{0 if deck < 5 else 1 if deck < 15 else 2}"]
    taken = s.taken
    for r, row in enumerate(s.rows):
        if (taken >> r) & 1:
            parts.append("x")
        elif not row:
            parts.append("0")
        else:
            op = max((_gain(cfg, cache, c, row) for c in others), default=0)
            parts.append(f"{len(row)}{_mine(_gain(cfg, cache, mine, row))}{'+' if op >= 3 else ''}")
    if s.phase == PLACE:
        g = _gain(cfg, cache, mine, (s.pending,))
        parts.append("c" + ("n" if g < 0 else "0" if g < 2 else "2"))
    elif s.phase != PLAY:  # a joker's colour: the colour it helps most
        gains = [_gain(cfg, cache, mine, (c,)) for c in range(cfg.colours)]
        parts.append(f"j{gains.index(max(gains))}")
    me = _score(cfg, cache, mine)
    best = max(_score(cfg, cache, coll[p]) for p in range(cfg.players) if p != player)
    diff = me - best
    parts.append("b" if diff <= -5 else "a" if diff >= 5 else "e")
    return "|".join(parts)
