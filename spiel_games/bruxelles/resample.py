"""Bruxelles 1893 resampler: re-deal what one player cannot know, consistent with what he
knows (OpenSpiel's ``resample_from_infostate``, used by IS-MCTS).
"""

from __future__ import annotations

from spiel_games.bruxelles import rules as R


def resample_from_infostate(state, player_id: int, probability_sampler=None):
    """Re-deal what `player_id` cannot know: the works other players drew and put back.

    Everything else is public or still in a deck (decks are count vectors that
    chance nodes draw from, so there is no order to re-deal). Each other player's
    memory keeps the work he kept (public) and gets fresh put-back works drawn
    from the colour proportions of the current stack.
    """
    clone = state.clone()
    s = clone.own_core()
    if s.cfg.private_works:
        _redeal_hidden_works(s, player_id, probability_sampler)
    weights = [max(k, 0) for k in s.art_stack[: R.COLOURS]]
    total = sum(weights) or 1

    def draw() -> int:
        x = (probability_sampler() if probability_sampler else 0.5) * total
        acc = 0
        for c, w in enumerate(weights):
            acc += w
            if x < acc:
                return c
        return max(range(R.COLOURS), key=lambda c: weights[c])

    for q in range(s.n):
        if q == player_id or not s.seen[q]:
            continue
        fresh = tuple((kept, tuple(sorted(draw() for _ in others))) for kept, others in s.seen[q])
        s.seen = s.seen[:q] + (fresh,) + s.seen[q + 1 :]
    return clone


def _redeal_hidden_works(s, player_id: int, sampler) -> None:
    """private_works: deal the other players' hidden works afresh from the pool of
    colours nobody has seen (their hidden works and the colour stack)."""
    pool = list(s.art_stack[: R.COLOURS])
    hidden = {}
    for q in range(s.n):
        if q == player_id:
            continue
        h = [s.works[q][c] - s.pub_works[q][c] for c in range(R.COLOURS)]
        hidden[q] = sum(h)
        for c in range(R.COLOURS):
            pool[c] += h[c]
    for q, k in hidden.items():
        w = list(s.works[q])
        for c in range(R.COLOURS):
            w[c] = s.pub_works[q][c]
        for _ in range(k):
            x = (sampler() if sampler else 0.5) * sum(pool)
            c, acc = 0, pool[0]
            while x >= acc and c < R.COLOURS - 1:
                c += 1
                acc += pool[c]
            while pool[c] == 0:  # guard against rounding at the top end
                c = (c - 1) % R.COLOURS
            pool[c] -= 1
            w[c] += 1
        s.works = s.works[:q] + (tuple(w),) + s.works[q + 1 :]
    s.art_stack = tuple(pool) + s.art_stack[R.COLOURS :]
