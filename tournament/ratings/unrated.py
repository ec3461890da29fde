"""Agents the ledgers name but that have no rated game against another agent: every game of
theirs void (a time limit, a crash under ``failure_policy = "void"``), none played yet (an
interrupted run), or only self-play. The data say nothing of their strength, so they get
no rating, no interval and no rank, are left out of the fit and of the anchor, and are
listed with the reason (``meeple ratings``'s notes, the JSON's ``unrated``)."""

from __future__ import annotations

import numpy as np

from tournament.ratings.pairs import Games


def met_others(groups: list[Games], k: int) -> np.ndarray:
    """(k,) bool: the agent has at least one rated game against another agent."""
    met = np.zeros(k, dtype=bool)
    for g in groups:
        for s in range(g.agents.shape[1]):
            other = (g.agents != g.agents[:, [s]]).any(axis=1)
            met[g.agents[other, s]] = True
    return met


def split_unrated(agents: list, groups: list[Games]) -> tuple[list, list[Games], list]:
    """(the agents with a rated game against another agent, the games re-indexed to them,
    the other agents). Games of the others alone (self-play) are dropped and the duplicate
    sets renumbered without gaps; nothing changes when every agent is rated."""
    met = met_others(groups, len(agents))
    if met.all():
        return agents, groups, []
    lut = np.full(len(agents), -1, dtype=np.int64)
    lut[met] = np.arange(int(met.sum()))
    kept = []
    for g in groups:
        keep = met[g.agents].all(axis=1)
        ids = None if g.ids is None else g.ids[keep]
        kept.append(Games(lut[g.agents[keep]], g.ranks[keep], g.scores[keep], g.blocks[keep], ids))
    used = np.unique(np.concatenate([g.blocks for g in kept] or [np.zeros(0, np.int64)]))
    out = [
        Games(g.agents, g.ranks, g.scores, np.searchsorted(used, g.blocks), g.ids)
        for g in kept
        if len(g.agents)
    ]
    rated = [a for a, m in zip(agents, met, strict=True) if m]
    return rated, out, [a for a, m in zip(agents, met, strict=True) if not m]


def reason(agent) -> str:
    """Why ``agent`` (an ``AgentInfo``) has no rating, in words."""
    read, void = agent.games_read, agent.void_games
    if read and void >= read:
        failures = ", ".join(f"{k} {v}" for k, v in sorted(agent.failures.items()))
        own = f", its own failures: {failures}" if failures else ""
        return f"all {void} of its games void{own}"
    if read:
        return "no rated game against another agent (self-play only)"
    return "no game of it in the ledger"
