"""Bruxelles 1893 resampler: re-deal what one player cannot know, consistent with what he
knows and with the public history (OpenSpiel's ``resample_from_infostate``, for IS-MCTS).

Hidden from player p: the works another player drew at a Workshop and put back, and with
``private_works`` also the work he kept (until sold). Everything else is public or still in
a deck (count vectors drawn by chance nodes).

Put-back works never change anything later (they go back to the stack, which is then the
same whatever they were), so they are re-dealt cheaply: for each past draw of two or more
works, the put-back works are drawn afresh from the colour stack as it was before that draw
(less the kept work, which everyone saw), and the draw's chance outcomes in the history are
rewritten to match, so replaying ``history()`` rebuilds the resampled world.

With ``private_works`` the kept works are re-dealt by replaying the history with the
others' hidden draws and keeps chosen afresh; a replay is accepted when it shows p
exactly what the real game showed (later sales and pass income by colours owned constrain
the hidden works). If a few replays fail, only the put-back works are re-dealt.
"""

from __future__ import annotations

import random

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.state import Phase, log_tokens, set_at
from spiel_games.common.history import with_history_changes

REPLAY_TRIES = 4


def resample_from_infostate(state, player_id: int, probability_sampler=None, tries=None):
    """The engine's resampler: with private works, ``tries`` replays (default
    ``REPLAY_TRIES``) before the fallback that re-deals the put-back works only."""
    s = state._s
    u = probability_sampler if probability_sampler is not None else random.random
    if s.phase == Phase.END:
        return state.clone()  # every work is public at the end
    if s.cfg.private_works:
        world = _replayed(state, player_id, u, REPLAY_TRIES if tries is None else tries)
        if world is not None:
            return world
    return _redeal_put_backs(state, player_id, u)


def _draw(pool: list[int], u) -> int:
    """One colour drawn without replacement from the count vector `pool`."""
    total = sum(pool)
    x = min(int(u() * total), total - 1)
    for c, k in enumerate(pool):
        if x < k:
            pool[c] -= 1
            return c
        x -= k
    raise AssertionError("empty pool")


def _hidden_draws(s, player_id: int) -> dict[int, list[tuple[int, int]]]:
    """For each other player, (history index of the first draw, works drawn) of each of
    his Workshop draws, oldest first, read from the move log."""
    tokens = log_tokens(s)
    out: dict[int, list[tuple[int, int]]] = {q: [] for q in range(s.n) if q != player_id}
    i = 0
    while i < len(tokens):
        q = tokens[i] - A.HIDDEN_TOKEN
        if q in out:
            j = i
            while j < len(tokens) and tokens[j] == tokens[i]:
                j += 1
            out[q].append((i, j - i))
            i = j
        else:
            i += 1
    return out


def _redeal_put_backs(state, player_id: int, u):
    s = state._s
    drawer = _pending_drawer(s)
    pending = drawer not in (-1, player_id)
    owners = [q for q in range(s.n) if q != player_id and s.seen[q]]
    if not owners and not pending:
        return state.clone()
    groups = _hidden_draws(s, player_id)
    if pending and _pending_works(s):
        # The draw still waiting for its keep (or its next work) is the drawer's last run
        # of hidden tokens: not one of his finished draws, it is re-dealt whole below.
        groups[drawer].pop()
    core = s.__deepcopy__(None)
    changes: dict[int, int] = {}
    for q in owners:
        # With private works a hidden keep token follows the draws of 2+ works.
        draws = [g for g in groups[q] if g[1] >= 2]
        fresh = []
        for (kept, put_back), stack, (at, _k) in zip(
            s.seen[q], s.drawn_from[q], draws, strict=True
        ):
            pool = list(stack)
            pool[kept] -= 1
            new = [_draw(pool, u) for _ in put_back]
            order = list(new)
            order.insert(min(int(u() * (len(new) + 1)), len(new)), kept)
            for k, c in enumerate(order):
                changes[at + k] = c
            fresh.append((kept, tuple(sorted(new))))
        core.seen = set_at(core.seen, q, tuple(fresh))
    if pending:
        _redeal_pending(s, core, changes, u)
    world = with_history_changes(state, changes)
    core.cache = None
    world._s = core
    return world


def _pending_drawer(s) -> int:
    if s.phase == Phase.KEEP_WORK:
        return s.actor
    if s.phase == Phase.C_ART and s.ctx[3] == 1:
        return s.ctx[0]
    return -1


def _pending_works(s) -> tuple[int, ...]:
    """The works of the draw still waiting for its keep (or its next work)."""
    return s.ctx[0] if s.phase == Phase.KEEP_WORK else s.ctx[2]


def _redeal_pending(s, core, changes: dict[int, int], u) -> None:
    """A draw still waiting for its keep (or its next work): re-deal it whole."""
    drawn = _pending_works(s)
    pool = list(s.art_stack[: R.COLOURS])
    for c in drawn:
        pool[c] += 1
    new = [_draw(pool, u) for _ in drawn]
    first = s.ply - len(drawn)
    for k, c in enumerate(new):
        changes[first + k] = c
    core.art_stack = tuple(pool) + s.art_stack[R.COLOURS :]
    if s.phase == Phase.KEEP_WORK:
        core.ctx = (tuple(sorted(new)),)
    else:
        p, k, _, purpose = s.ctx
        core.ctx = (p, k, tuple(new), purpose)


def _replayed(state, player_id: int, u, tries: int):
    """private_works: replay the history with the others' hidden draws and keeps chosen
    afresh; the first replay that shows `player_id` what the real game showed him."""
    game = state.get_game()
    target = state.information_state_string(player_id)
    actions = state.history()
    for _ in range(tries):
        world = game.new_initial_state()
        try:
            for action in actions:
                w = world._s
                if w.phase == Phase.C_ART and w.ctx[3] == 1 and w.ctx[0] != player_id:
                    pool = list(w.art_stack[: R.COLOURS])
                    action = _draw(pool, u)
                elif w.phase == Phase.KEEP_WORK and w.actor != player_id:
                    keeps = world.legal_actions()
                    action = keeps[min(int(u() * len(keeps)), len(keeps) - 1)]
                world.apply_action(action)
        except ValueError:
            continue  # a public move is impossible in this world: try again
        if world.information_state_string(player_id) == target:
            return world
    return None
