"""Table mode of `meeple play`: the entries a person types at a physical table.

The user types the chance outcomes they see and the moves of the ``table`` seats; what
they cannot see is entered as ``?`` by the session itself. The entries build one world
consistent with what the user saw (tournament/advice/unknown.py); the menus list every
option some such world allows. ``TableEntries`` is the part of ``PlaySession`` that does
this; it uses the session's ``world``, ``items``, ``typed``, ``say`` and ``_read``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spiel_games.common.naming import NoMatch
from tournament.advice.positions import CHANCE, HistoryError
from tournament.advice.reveal import ChangeMemo, Reveal, reveal_menu, revealed, settle
from tournament.advice.terminal import (
    PlayError,
    choose,
    entry_name,
    entry_text,
    menu_name,
    readable_observation,
    round_summary,
    view_header,
)
from tournament.advice.unknown import (
    UNKNOWN,
    World,
    adopt_world,
    check_hidden_in_worlds,
    extend_world,
    hidden_from,
    is_unknown,
    options,
    possible_options,
    world_choices,
)
from tournament.records import record_viewer


def check_resumable(record, chance: str, table_mode: bool, me: int) -> None:
    """A table-mode record continues only as it was entered: chance outcomes typed by hand
    stay typed (a seed cannot draw the outcomes that follow ones nobody saw), and moves
    entered as ``?`` stay unseen by the same one ``me`` seat (any other seating would show
    cards the session made up, and save a record that no command can load)."""
    if record.chance == "manual" and chance != "manual":
        raise PlayError(
            "this record's chance outcomes were entered at a table; continue it with"
            " --chance manual"
        )
    if not any(is_unknown(a["action"]) for a in record.actions):
        return
    viewer = record_viewer(record)
    who = "its 'me' seat" if viewer is None else f"P{viewer + 1}"
    if not table_mode or viewer not in (None, me):
        raise PlayError(
            f"this record holds moves {who} could not see ('?'); continue it in table mode"
            f" with {who} as the one 'me' seat (as its seats say: {','.join(record.seats)})"
        )


class TableEntries:
    """Table-mode entries of a play session (a mixin of ``PlaySession``)."""

    # What the mixin uses of the session (set in PlaySession.__init__).
    game: Any
    world: World
    items: list
    typed: list[bool]
    me: int
    humans: set[int]
    table: set[int]
    chance: str
    revealing: int | None = None  # the '?' entry being asked for, while one is
    answers: list[tuple[int, int]]  # (entry, entries then): the reveals answered, in order
    changes: ChangeMemo | None = None  # the reveal checks' worlds, to go on from

    if TYPE_CHECKING:

        @property
        def state(self) -> Any: ...
        def say(self, text: str = "") -> None: ...
        def _read(self, prompt: str) -> str | None: ...
        def _command(self, text: str, p: int, show, board=None) -> str | None: ...

    def _enter(self, item, typed: bool):
        """Table mode: add one entry (a name, an id or "?"); the world is rebuilt if needed.
        Returns the state before the entry."""
        self.world = extend_world(self.game, self.world, self.items, item)
        i = len(self.items)
        s = self.world.states[i]
        self.items.append(UNKNOWN if is_unknown(item) else self.world.actions[i])
        self.typed.append(typed)
        return s

    def _automatic(self, world: World) -> bool:
        """Whether table mode fills in the entry at the end of ``world`` itself (no prompt)."""
        state = world.state
        if state.is_terminal():
            return True
        mover = CHANCE if state.is_chance_node() else state.current_player()
        if mover in self.humans:
            return False
        if mover != CHANCE and mover not in self.table:
            return True  # an AI seat
        if mover == CHANCE and self.chance == "seed":
            return True
        return hidden_from(state, self.me) or self._forced(world)

    def _forced(self, world: World) -> bool:
        """Whether the entry at the end of ``world`` has one option in every world consistent
        with what you saw: the placeholder world's one option, and no other in the worlds
        the menu comes from (``possible_options``; was: never with '?' in the history, so
        a forced public entry after a '?' was asked as a one-line menu)."""
        if len(options(world.state)) != 1:
            return False
        return not world.unknown or len(possible_options(world, self.me)) == 1

    def _fill_automatic(self) -> bool:
        """Fill in entries that need no prompt (one option, or hidden from you); True if any."""
        s = self.state
        if s.is_terminal() or not self._automatic(self.world):
            return False
        who = entry_name(s)  # at a chance node what it decides: "P3's start card"
        opts = options(s)
        item: int | str
        if len(opts) == 1 and not hidden_from(s, self.me):
            item, line = opts[0], f"  {who}: {entry_text(s, opts[0])} (the only option)"
        else:
            item, line = UNKNOWN, f"  {who}: ? (hidden from you; one of {len(opts)})"
        self._said(line, self._enter(item, typed=False))
        return True

    def _said(self, line: str, before) -> None:
        """Confirm the entry just made from ``before`` in ``line``, then say what it ended."""
        self.say(line)
        self._round_end(before, self.world.actions[-1])

    def _round_end(self, before, action: int) -> None:
        """Say what the entry ``action`` from ``before`` ended that no move shows: a round's
        scoring (Die Staufer, Bruxelles 1893), from the public position only
        (terminal.round_summary)."""
        text = round_summary(before, action, self.state)
        if text:
            self.say(text)

    def _table_entry(self) -> bool:
        """One chance outcome or table seat's move, typed by the user; False to stop."""
        if self._fill_automatic():
            return True
        s = self.state
        mover = CHANCE if s.is_chance_node() else s.current_player()
        # Whom the entry is for: a player, or what the chance node decides ("P2's start
        # card", so the user knows which card at the table to type).
        who = entry_name(s)

        possible = possible_options(self.world, self.me)

        def show():
            what = who if mover == CHANCE else f"{who}'s move"
            listed = "; ".join(
                f"{i}. {menu_name(self.state, mover, a, name)}"
                for i, (a, name) in enumerate(legal_now(), 1)
            )
            self.say(f"{what}? {listed}")

        def board():
            self.say("")
            self.say(view_header(self.state, self.me))
            self.say(readable_observation(self.state, self.me))
            show()

        def legal_now():
            # Every option some world consistent with what you saw allows, not only the
            # placeholder world's.
            return [(a, name) for a, (name, _) in possible.items()]

        show()
        while True:
            text = self._read(f"{who}> ")
            if text is None:
                return False
            done = self._command(text, self.me, show, board)
            if done == "stop":
                return False
            if done == "again":
                return True
            if done == "handled":
                continue
            if is_unknown(text):
                try:
                    check_hidden_in_worlds(self.game, self.items, self.world, possible, self.me)
                except HistoryError as e:
                    self.say(str(e).replace("history item", "entry"))
                    continue
                self._said(f"  {who}: ?", self._enter(UNKNOWN, typed=True))
                return True
            legal = legal_now()
            item: int | str
            try:
                item = choose(legal, text)
            except NoMatch as e:
                if e.candidates:  # was: retried in the placeholder world, or "impossible"
                    self.say(f"{e} (or a number)")
                    continue
                item = text  # maybe legal in another world consistent with what you saw
            except ValueError as e:  # a number off the menu
                self.say(str(e))
                continue
            if isinstance(item, int) and item not in options(self.state):
                # Possible only in another world consistent with what you saw: move there.
                self.world = adopt_world(self.game, self.items, possible[item][1], self.me)
            try:
                before = self._enter(item, typed=True)
            except HistoryError:
                self.say(
                    f"{text!r} is impossible here: legal: "
                    + ", ".join(name for _, name in legal)
                    + " (or a command: help)"
                )
                continue
            self._said(f"  {who}: {entry_text(before, self.world.actions[-1])}", before)
            return True

    def _settle_reveals(self) -> bool:
        """Ask for each '?' entry that the table now shows (tournament/advice/reveal.py),
        so the world never shows a made-up value as if it were on the table; False to
        stop."""
        while self.world.unknown:
            if self.changes is None:
                self.changes = ChangeMemo()
            found = revealed(self.game, self.items, self.world, self.me, self.changes)
            if not found:
                return True
            if not self._ask_revealed(found[0]):
                return False
        return True

    def _ask_revealed(self, reveal: Reveal) -> bool:
        """One revealed '?' entry, given by the user; False to stop."""
        j = reveal.item
        s = self.world.states[j]
        who = entry_name(s)
        what = who if s.is_chance_node() else f"{who}'s move"
        by = CHANCE if s.is_chance_node() else s.current_player()
        menu = self._settling(j, reveal_menu(self.world, reveal, self.me))
        legal = [(a, name) for a, (name, _) in menu.items()]

        def show():
            listed = "; ".join(
                f"{i}. {menu_name(s, by, a, name)}" for i, (a, name) in enumerate(legal, 1)
            )
            self.say(f"shown now: {what} (entry {j + 1}, entered as '?'); which is it? {listed}")

        def board():
            # before the entry that showed it: the board after it would show the
            # placeholder world's value as if it lay on the table
            before = self.world.states[-2] if len(self.world.states) > 1 else self.state
            self.say("")
            self.say(view_header(before, self.me, f"before the last entry, which shows {what}"))
            self.say(readable_observation(before, self.me))
            show()

        show()
        self.revealing = j
        try:
            return self._read_revealed(reveal, who, what, menu, show, board)
        finally:
            self.revealing = None

    def _read_revealed(self, reveal: Reveal, who: str, what: str, menu, show, board) -> bool:
        j = reveal.item
        legal = [(a, name) for a, (name, _) in menu.items()]
        while True:
            text = self._read(f"{who}> ")
            if text is None:
                return False
            done = self._command(text, self.me, show, board)
            if done in ("stop", "again"):
                return done == "again"  # after an undo: check again
            if done == "handled":
                continue
            if is_unknown(text):
                self.say(f"{what} is shown at the table now: give it")
                continue
            try:
                a = choose(legal, text)
                named, world = settle(self.game, self.items, self.world, j, a, menu[a][1])
            except (ValueError, HistoryError) as e:
                self.say(
                    str(e)
                    if isinstance(e, ValueError)
                    else f"{text!r} is impossible with the other entries (or a command: help)"
                )
                continue
            self.items[:] = named
            self.world = world
            self.answers.append((j, len(self.items)))
            self.say(f"  {what}: {entry_text(self.world.states[j], a)}")
            return True

    def _settling(self, j: int, menu: dict) -> dict:
        """The options of a revealed entry that a world with every named entry allows (was:
        every tile of the stack, a wrong pick refused only once typed); the whole menu if
        none would (it cannot happen: the placeholder world's own value does)."""
        ok = {}
        for a, (name, choice) in menu.items():
            try:
                settle(self.game, self.items, self.world, j, a, choice)
            except HistoryError:
                continue
            ok[a] = (name, choice)
        return ok or menu

    def _forget_answers(self, n: int) -> list[int]:
        """Turn back into '?' the answers to reveals that entries from ``n`` on triggered
        (those entries being undone, or ``n`` = the last entry: the answer itself), and
        rebuild the world (the same choices); returns those entries."""
        back = [j for j, at in self.answers if at > n and j < n]
        self.answers[:] = [(j, at) for j, at in self.answers if at <= n]
        if back:
            choice = {**world_choices(self.world), **{j: self.world.actions[j] for j in back}}
            for j in back:
                self.items[j] = UNKNOWN
            self.world = adopt_world(self.game, self.items, choice, self.me)
        return back
