"""Low-level steps shared by the Bruxelles 1893 engine modules.

Every rule module changes a ``Core`` through these: set the pending decision or
chance event, push follow-up tasks, and update holdings that are tuples.
"""

from __future__ import annotations

from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.core import Phase

RUNNING = -1  # phase while the engine is running tasks
J = R.JOKER


def decide(s, phase: Phase, actor: int, ctx: tuple = ()) -> None:
    s.phase = phase
    s.actor = actor
    s.ctx = ctx


def set_chance(s, phase: Phase, ctx: tuple = ()) -> None:
    s.phase = phase
    s.actor = -1
    s.ctx = ctx


def push(s, *tasks) -> None:
    s.tasks = tasks + s.tasks


def set_at(tup: tuple, i: int, v) -> tuple:
    """A copy of `tup` with item i replaced (holdings are immutable tuples)."""
    return tup[:i] + (v,) + tup[i + 1 :]


def take_one(counts: tuple, kind: int) -> tuple:
    """Draw one card of `kind` from a count vector; raise if none is left."""
    if counts[kind] <= 0:
        raise ValueError(f"no card of type {kind} left to draw")
    return counts[:kind] + (counts[kind] - 1,) + counts[kind + 1 :]


def add_at(tup: tuple, i: int, k: int) -> tuple:
    lst = list(tup)
    lst[i] += k
    return tuple(lst)


def gain_cubes(s, p: int, kind: int, k: int) -> int:
    k = min(k, s.cube_supply[kind])
    if k > 0:
        s.cube_supply = add_at(s.cube_supply, kind, -k)
        s.cubes = set_at(s.cubes, p, add_at(s.cubes[p], kind, k))
    return k


def spend_cube(s, p: int, kind: int) -> None:
    if s.cubes[p][kind] <= 0:
        raise ValueError(f"P{p + 1} has no {R.CUBES[kind]} cube")
    s.cubes = set_at(s.cubes, p, add_at(s.cubes[p], kind, -1))
    s.cube_supply = add_at(s.cube_supply, kind, 1)


def advance_track(s, p: int, power: str) -> None:
    if power == "P":
        s.palace = set_at(s.palace, p, min(s.palace[p] + 1, len(R.PALACE) - 1))
    elif power == "H":
        s.hall = set_at(s.hall, p, min(s.hall[p] + 1, len(R.HALL) - 1))
    elif power == "A":
        s.arch = set_at(s.arch, p, min(s.arch[p] + 1, len(R.ARCHITECT) - 1))
    elif power == "C":
        if s.court[p] > 0:
            s.court = add_at(s.court, p, -1)
            s.supply[p] += 1
    else:
        raise ValueError(f"unknown power {power!r}")
