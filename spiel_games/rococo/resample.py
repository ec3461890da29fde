"""Rococo's resampler: re-deal what one player cannot know, consistent with what they know.

For player p, the unknowns are:
- each other player's secretly selected hand cards, drawn from that player's
  hidden cards (supply + secret hand; the known hand cards stay);
- each other player's face-down stack tiles, drawn (with the stack) from the
  pool of tiles p cannot see (stack + others' secret tiles).
The employee stack and the bag are unordered count vectors whose contents are
public, so nothing else needs re-dealing. Cost: a few list operations per player,
no history replay.
"""

from __future__ import annotations

import random
from operator import add as _plus
from operator import sub as _sub

from spiel_games.rococo import rules as R
from spiel_games.rococo.state import changed, inc, put


def _draw(counts: list[int], k: int, u) -> list[int]:
    """Remove k items from `counts` uniformly at random; return what was drawn."""
    got = [0] * len(counts)
    total = sum(counts)
    for _ in range(k):
        x = int(u() * total)
        if x >= total:
            x = total - 1
        for i, m in enumerate(counts):
            if x < m:
                counts[i] -= 1
                got[i] += 1
                break
            x -= m
        total -= 1
    return got


def resample(state, player: int, probability_sampler=None):
    u = probability_sampler if probability_sampler is not None else random.random
    new = state.clone()
    c = new._s
    n = c.cfg.players
    # Hands: others' secret selections from their hidden cards.
    for q in range(n):
        if q == player:
            continue
        secret_n = sum(c.hand[q]) - sum(c.known[q])
        if secret_n == 0:
            continue
        pool = list(map(_sub, map(_plus, c.supply[q], c.hand[q]), c.known[q]))
        drawn = _draw(pool, secret_n, u)
        c.hand = put(c.hand, q, tuple(map(_plus, c.known[q], drawn)))
        c.supply = put(c.supply, q, tuple(pool))
    # Tiles: others' face-down tiles from everything p cannot see.
    others = [q for q in range(n) if q != player and sum(c.tsec[q])]
    if others:
        pool = c.tstack
        for q in others:
            pool = map(_plus, pool, c.tsec[q])
        pool = list(pool)
        for q in others:
            c.tsec = put(c.tsec, q, tuple(_draw(pool, sum(c.tsec[q]), u)))
        c.tstack = tuple(pool)
    assert len(c.tstack) == R.NUM_TILES
    changed(c)
    return new


def perturb_secret(state, player: int, rng):
    """A state differing from `state` only in `player`'s private information (info-leak test).

    Picks at random one of the player's secrets that can change: a secretly selected
    hand card swapped with a different supply card, a face-down stack tile swapped with
    a different tile of the stack, or the face-down tile just drawn (before the player
    keeps or converts it). None if the player has no secret that can change.
    """
    c = state._s
    if state.is_terminal():
        return None
    hidden_hand = [k for k in range(R.NUM_CARDS) if c.hand[player][k] > c.known[player][k]]
    supply = [k for k in range(R.NUM_CARDS) if c.supply[player][k]]
    stack = [t for t in range(R.NUM_TILES) if c.tstack[t]]
    secret = [t for t in range(R.NUM_TILES) if c.tsec[player][t]]
    options = []
    options += [("hand", a, b) for a in hidden_hand for b in supply if a != b]
    options += [("tile", a, b) for a in secret for b in stack if a != b]
    if c.pend >= 0 and c.pend_secret and c.cur == player:
        options += [("pending", c.pend, b) for b in stack if b != c.pend]
    if not options:
        return None
    kinds = sorted({o[0] for o in options})
    kind = rng.choice(kinds)
    _, a, b = rng.choice([o for o in options if o[0] == kind])
    new = state.clone()
    s = new._s
    if kind == "hand":
        s.hand = put(s.hand, player, inc(inc(s.hand[player], a, -1), b))
        s.supply = put(s.supply, player, inc(inc(s.supply[player], b, -1), a))
    else:
        s.tstack = inc(inc(s.tstack, b, -1), a)
        if kind == "tile":
            s.tsec = put(s.tsec, player, inc(inc(s.tsec[player], a, -1), b))
        else:
            s.pend = b
    changed(s)
    return new
