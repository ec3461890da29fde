"""Rococo's resampler: re-deal what one player cannot know, consistent with what they know.

For player p, the unknowns are:
- each other player's secretly selected hand cards, drawn from that player's
  hidden cards (supply + secret hand; the known hand cards stay);
- each other player's face-down stack tiles, drawn (with the stack) from the
  pool of tiles p cannot see (stack + others' secret tiles).
The employee stack and the bag are unordered count vectors whose contents are
public, so nothing else needs re-dealing.

The world returned is a real game: the history is rewritten (this round's
select actions of the other players, and the chance outcomes of the face-down
draws still held) and replayed from the initial state, so its `history()`
rebuilds it. Selections can always be rewritten (every card selected this
round came from the same supply, in any order). A tile rewrite can clash with
later public draws or a reshuffle of the stack: such a world is rejected and
redrawn (a few times, then the other players keep their real face-down tiles).
A terminal state is returned unchanged. Cost: one replay of the history from the first
rewritten move (the untouched prefix is replayed once and kept for the next calls).
"""

from __future__ import annotations

import random
from operator import add as _plus
from operator import sub as _sub
from typing import Any

from spiel_games.rococo import rules as R
from spiel_games.rococo.state import inc, put

TILE_TRIES = 4


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


def _expand(counts) -> list[int]:
    return [k for k, m in enumerate(counts) for _ in range(m)]


def _hand_rewrites(c, player: int, u) -> dict[int, int]:
    """History index -> new select action, for every other player's select actions of
    this round. Built from public facts only (where the selections are, which selected
    cards were shown since, how many are still secret), never from the secret itself:
    the new selection is the shown cards plus a fresh draw of the secret ones, in card
    order (every card came from the same supply, so any order is legal)."""
    out: dict[int, int] = {}
    ids = c.lay.card_ids["select"]
    for q in range(c.cfg.players):
        if q == player:
            continue
        secret_n = sum(c.hand[q]) - sum(c.known[q])
        if secret_n == 0:
            continue
        plies = [i for i, who in c.sels if who == q]
        shown = [k for who, k in c.sspent if who == q]
        if len(plies) != len(shown) + secret_n:  # a hand set up outside the rules: leave it
            continue
        pool = list(map(_sub, map(_plus, c.supply[q], c.hand[q]), c.known[q]))
        cards = sorted(shown + _expand(_draw(pool, secret_n, u)))
        for i, k in zip(plies, cards, strict=True):
            out[i] = ids[k]
    return out


def _tile_rewrites(c, player: int, u) -> dict[int, int]:
    """History index -> new chance outcome, for the others' face-down tiles still held."""
    out: dict[int, int] = {}
    # another player deciding on a face-down tile just drawn: that tile is secret too
    pending = c.cur if c.pend >= 0 and c.pend_secret and c.cur != player else -1
    held = [sum(c.tsec[q]) + (q == pending) for q in range(c.cfg.players)]
    others = [q for q in range(c.cfg.players) if q != player and held[q]]
    if not others:
        return out
    pool = list(c.tstack)
    for q in others:
        pool = list(map(_plus, pool, c.tsec[q]))
    if pending >= 0:
        pool[c.pend] += 1
    for q in others:
        plies = [i for i, who, _ in c.sdraws if who == q]
        if len(plies) != held[q]:  # tiles set up outside the rules: leave them
            return {}
        for i, t in zip(plies, _expand(_draw(pool, len(plies), u)), strict=True):
            out[i] = t
    return out


_PREFIXES: dict[tuple[str, tuple[int, ...]], Any] = {}  # the last few replayed prefixes


def _prefix(game, head: list[int]):
    """The state after the actions ``head`` (kept for the next resample: the rewrites start
    at this round's first selection or at a face-down tile still held, so many calls
    share the same untouched prefix)."""
    key = (str(game), tuple(head))
    state = _PREFIXES.get(key)
    if state is None:
        state = game.new_initial_state()
        for a in head:
            state.apply_action(a)
        if len(_PREFIXES) >= 4:
            del _PREFIXES[next(iter(_PREFIXES))]
        _PREFIXES[key] = state
    return state.clone()


def _replay(game, hist: list[int], rewrites: dict[int, int]):
    """The state reached by the history with `rewrites` applied; None if a step is illegal."""
    first = min(rewrites)
    new = _prefix(game, hist[:first])
    try:
        for i in range(first, len(hist)):
            new.apply_action(rewrites.get(i, hist[i]))
    except Exception:  # SpielError / ValueError: that world contradicts the public history
        return None
    return new


def resample(state, player: int, probability_sampler=None, tries: int | None = None):
    """The engine's resampler: ``tries`` tile re-deals (default ``TILE_TRIES``) before the
    others keep their real face-down tiles."""
    u = probability_sampler if probability_sampler is not None else random.random
    c = state._s
    if c.returns is not None:  # terminal: nothing is secret any more that matters
        return state.clone()
    hist = state.history()
    hands = _hand_rewrites(c, player, u)
    game = state.get_game()
    want = state.information_state_string(player)
    for _ in range(TILE_TRIES if tries is None else tries):
        tiles = _tile_rewrites(c, player, u)
        if not tiles:
            break
        new = _replay(game, hist, {**hands, **tiles})
        if new is not None and new.information_state_string(player) == want:
            return new
    if not hands:
        return state.clone()
    new = _replay(game, hist, hands)
    if new is None or new.information_state_string(player) != want:
        raise AssertionError("a rewritten selection contradicts the history (a bug)")
    return new


def redeal(state, player: int, probability_sampler=None):
    """A world consistent with what `player` knows, re-dealt in the position only.

    The same unknowns as `resample` (others' secret selections and face-down tiles), drawn
    from the same pools, but written straight into a clone's core: no history rewrite, no
    replay (tens of microseconds instead of milliseconds). The world's ``history()`` is
    still the real game's, so this is for search, which never reads the history; the
    OpenSpiel API (``resample_from_infostate``) uses `resample`. The face-down tile another
    player is deciding on right now is kept (it goes into a public choice at once).
    """
    u = probability_sampler if probability_sampler is not None else random.random
    new = state.clone()
    c = new.own_core()
    if c.returns is not None:
        return new
    n = c.cfg.players
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
    others = [q for q in range(n) if q != player and sum(c.tsec[q])]
    if others:
        pool = list(c.tstack)
        for q in others:
            pool = list(map(_plus, pool, c.tsec[q]))
        draws = list(c.sdraws)
        for q in others:
            got = _draw(pool, sum(c.tsec[q]), u)
            c.tsec = put(c.tsec, q, tuple(got))
            # keep the draw records naming the tiles this world holds
            tiles = iter(_expand(got))
            draws = [(i, who, next(tiles, t)) if who == q else (i, who, t) for i, who, t in draws]
        c.sdraws = tuple(draws)
        c.tstack = tuple(pool)
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
    hidden_hand = [k for k in range(len(c.hand[player])) if c.hand[player][k] > c.known[player][k]]
    supply = [k for k in range(len(c.supply[player])) if c.supply[player][k]]
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
    s = new.own_core()
    if kind == "hand":
        s.hand = put(s.hand, player, inc(inc(s.hand[player], a, -1), b))
        s.supply = put(s.supply, player, inc(inc(s.supply[player], b, -1), a))
    else:
        s.tstack = inc(inc(s.tstack, b, -1), a)
        if kind == "tile":
            s.tsec = put(s.tsec, player, inc(inc(s.tsec[player], a, -1), b))
        else:
            s.pend = b
    return new
