"""Table mode: ``?`` entries that a later event shows to the table.

A ``?`` entry is hidden from the user when it is entered, but a later event may put it
face up: in Rococo a face-down stack tile converted to yarn or lace goes to the discard
pile; at the end of Die Staufer every job card is shown. The placeholder world behind
the ``?`` entries (tournament/advice/unknown.py) would then show its own made-up value
as if it were what lies on the table. So after every entry the session asks which ``?``
entries the user can now tell apart, and asks the user for what was shown.

Which entries: ``revealed`` changes one ``?`` choice at a time (every other option of
that entry, the later ``?`` entries replayed by the placeholder rule, every named entry
kept) and compares the user's information state at the end with the placeholder
world's. An entry is revealed when no two options reached that have different names
look alike now: whichever is true, the view tells its name. An entry that some options
share a view with (a bonus offered or not, an income that counts colours: what the user
sees says something about the value, not which it is) is not asked for: the user may not
be able to read it off the table, and a guess would be stored as fact (a move the placeholder world
does not allow is still accepted at its own entry, one earlier ``?`` changed to allow
it). What one entry decides is caught; a value that shows only with two entries changed
together is not. It needs no game-specific knowledge. A value the
user then gives is entered as a named item (``settle``), and the world is rebuilt around
it (the earlier ``?`` entries repaired when the value is impossible in the placeholder
world).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from spiel_games.common.naming import mover
from tournament.advice.unknown import (
    World,
    adopt_world,
    options,
    possible_options,
    prefix,
    single_changes,
    world_choices,
)

REVEAL_BUDGET = 200_000  # moves replayed per check, at most (a few thousand in practice)


@dataclass
class Reveal:
    """A ``?`` entry the user can see now."""

    item: int  # its 0-based index in the history
    seen: dict[int, str]  # per option one change reaches: what the user would see now


def revealed(game, items: list, world: World, viewer: int) -> list[Reveal]:
    """The ``?`` entries of ``world`` (built from ``items``) whose other options would
    change what ``viewer`` sees at the end of the world; earliest first."""
    if not world.unknown:
        return []
    base = world.state.information_state_string(viewer)
    seen: dict[int, dict[int, str]] = {j: {world.actions[j]: base} for j in world.unknown}
    tried: list[int] = []
    for j, alt, end in single_changes(game, items, world, REVEAL_BUDGET, tried):
        seen[j][alt] = end.information_state_string(viewer)
    # an entry whose options the budget cut short is not judged on part of them
    count = Counter(tried)
    full = {j for j in world.unknown if count[j] == len(options(world.states[j])) - 1}
    return [Reveal(j, views) for j, views in seen.items() if j in full and _pinned(world, j, views)]


def _pinned(world: World, j: int, views: dict[int, str]) -> bool:
    """Whether what the user sees now tells entry ``j``'s name, whichever option is true:
    the options reached have more than one name, and no two of other names look alike."""
    state = world.states[j]
    who = mover(state)
    names: dict[str, set[str]] = {}  # view -> the names of the options that show it
    for a, view in views.items():
        names.setdefault(view, set()).add(state.action_to_string(who, a))
    return len(names) > 1 and all(len(n) == 1 for n in names.values())


def reveal_menu(world: World, reveal: Reveal, viewer: int) -> dict[int, tuple[str, dict]]:
    """The options of the revealed entry: {action id: (name, '?' choices of a world that
    allows it)}: those one change of the entry reaches, and those a world re-dealt from
    what ``viewer`` saw before the entry allows (possible only with other '?' changed)."""
    j = reveal.item
    menu = possible_options(prefix(world, j), viewer)
    state = world.states[j]
    for a in reveal.seen:  # a value one change reaches keeps the world's other choices
        menu[a] = (state.action_to_string(mover(state), a), world_choices(world))
    return dict(sorted(menu.items()))


def settle(game, items: list, world: World, j: int, action: int, choice: dict):
    """``items`` with the ``?`` entry ``j`` given as ``action``, and a world for them (the
    '?' entries before ``j`` as in ``choice``, the later ones as in ``world``). Raises
    HistoryError when no world found allows the named entries."""
    named = list(items)
    named[j] = int(action)
    start = {k: v for k, v in choice.items() if k < j}
    start.update({k: v for k, v in world_choices(world).items() if k > j})
    return named, adopt_world(game, named, start, world.viewer)
