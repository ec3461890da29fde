"""Resampling what a Die Staufer player cannot know: the opponents' job cards.

Job cards are the only hidden facts (chest stacks are face down for everyone, so they
are chance nodes, and their remaining counts are public). For each job type the
opponents' cards are re-dealt uniformly, without replacement, from the cards of that
type the resampling player does not hold, and the job deals in the history are rewritten
to match, so replaying ``history()`` rebuilds the resampled world. Cheap: no history
replay. At the end every job card is public, so a terminal state is returned unchanged.
"""

from __future__ import annotations

from spiel_games.common.history import with_history_changes
from spiel_games.staufer import rules as R
from spiel_games.staufer.state import END, ST_JOB


def resample(state, player: int, sampler, tries: int | None = None):
    """The engine's resampler (a direct re-deal that cannot fail: ``tries`` is unused)."""
    s = state._s
    if s.phase == END:
        return state.clone()  # the jobs were revealed at the end
    core = s.__deepcopy__(None)
    cfg = s.cfg
    n = cfg.players
    jobs = s.t.jobs
    # History index of each job deal: setup steps are the first chance nodes, in order.
    deal_at = {arg: i for i, (kind, arg) in enumerate(s.t.steps) if kind == ST_JOB}
    changes = {}
    for t in range(cfg.job_types):
        mine = s.v[jobs + player * 3 + t]
        others = [p for p in range(n) if p != player and s.v[jobs + p * 3 + t] >= 0]
        pool = [
            t * R.JOB_POOL_MAX + i for i in range(cfg.job_pool[t]) if t * R.JOB_POOL_MAX + i != mine
        ]
        for p in others:
            j = min(int(sampler() * len(pool)), len(pool) - 1)
            card = pool.pop(j)
            core.v[jobs + p * 3 + t] = card
            changes[deal_at[p * 3 + t]] = card - t * R.JOB_POOL_MAX
    world = with_history_changes(state, changes)
    core.cache = None
    world._s = core
    return world


def perturb_secret(state, player: int, rng):
    """Swap one of `player`'s job cards for an undealt card of the same type."""
    s = state._s
    cfg = s.cfg
    jobs = s.arr("jobs")
    options: list[tuple[int, int]] = []  # (job type, card id)
    for t in range(cfg.job_types):
        card = jobs[player * 3 + t]
        if card < 0:
            continue
        dealt = {jobs[p * 3 + t] for p in range(cfg.players)}
        free = [
            t * R.JOB_POOL_MAX + i
            for i in range(cfg.job_pool[t])
            if t * R.JOB_POOL_MAX + i not in dealt
        ]
        options.extend((t, c) for c in free)
    if not options:
        return None
    t, card = rng.choice(options)
    other = state.clone()
    other.own_core().v[s.t.jobs + player * 3 + t] = card
    return other
