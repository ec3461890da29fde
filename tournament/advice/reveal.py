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


class ChangeMemo:
    """The one-change worlds of the last check, as far as its history went: table mode
    checks after every entry, and a check that replays every change from its ``?`` entry
    to the end costs the history's length squared over a game (a whole 3-player Die
    Staufer game: 64 of its 71 seconds). When the history only grew and the world kept
    its ``?`` choices, each change goes on from where it stood (the same worlds: a
    replay is fixed by the items and the choices); otherwise it starts again."""

    def __init__(self):
        self.items: list = []
        self.choices: dict[int, int] = {}
        self.ends: dict[tuple[int, int], object] = {}  # (entry, option) -> state or None
        self.length = 0  # the history the kept states stand at
        self.fresh: dict[tuple[int, int], object] = {}  # this check's, kept by done()

    def sync(self, items: list, world: World) -> None:
        """Keep the states only for a history that goes on from the kept one."""
        choices = world_choices(world)
        grown = len(items) >= len(self.items) and items[: len(self.items)] == self.items
        same = all(choices.get(k) == v for k, v in self.choices.items())
        if not (grown and same):
            self.ends.clear()
        self.length = len(self.items) if grown and same else 0
        self.items, self.choices = list(items), choices
        self.fresh = {}

    def start(self, j: int, alt: int, world: World):
        """(state, item index) to replay change (j, alt) from; state None: a named item
        it kept was already impossible."""
        key = (j, alt)
        if key in self.ends and j < self.length:
            return self.ends[key], self.length
        return world.states[j], j

    def keep(self, j: int, alt: int, end) -> None:
        self.fresh[(j, alt)] = end

    def done(self) -> None:
        self.ends = self.fresh


def revealed(
    game, items: list, world: World, viewer: int, memo: ChangeMemo | None = None
) -> list[Reveal]:
    """The ``?`` entries of ``world`` (built from ``items``) whose other options would
    change what ``viewer`` sees at the end of the world; earliest first. ``memo``: the
    session's, so that a check after one more entry replays one entry per change."""
    if not world.unknown:
        return []
    base = world.state.information_state_string(viewer)
    seen: dict[int, dict[int, str]] = {j: {world.actions[j]: base} for j in world.unknown}
    tried: list[int] = []
    if memo is not None:
        memo.sync(items, world)
    for j, alt, end in single_changes(game, items, world, REVEAL_BUDGET, tried, memo):
        seen[j][alt] = end.information_state_string(viewer)
    if memo is not None:
        memo.done()
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
