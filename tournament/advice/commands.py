"""The commands a player types at any prompt of `meeple play`: hint, undo, save, board,
help and quit. ``SessionCommands`` is the part of ``PlaySession`` that runs them."""

from __future__ import annotations

import os
import shlex
import textwrap
from typing import TYPE_CHECKING, Any

from solvers.registry import AgentSpec
from spiel_games.common.errors import one_line
from tournament.advice.advise import COMPARED, advise, only_move, opponent_models
from tournament.advice.advise_text import render
from tournament.advice.saving import RecordKeeper
from tournament.advice.unknown import World, prefix

COMMANDS = ("hint", "undo", "save", "board", "help", "quit")
HELP = {  # what `help` says of each command (docs/advice.md's table, in the terminal)
    "hint": "the hint agent's advice for the player to move, from your information state: "
    f"its {COMPARED} most searched moves compared, and the opponent model its values assume"
    " (on a forced move: that move, at once)",
    "undo": "back to your previous decision (AI moves after it are played again)",
    "save": "save [FILE] [--force]: write the game record (to --save or the --load record "
    "when no FILE is given; --force to overwrite a file this session did not write)",
    "board": "show the view and the legal moves again",
    "help": "this list",
    "quit": "stop: the game goes to --save when given, else unsaved moves to a recovery file",
}
TABLE_UNDO = "back to the last entry you typed (what followed from it is asked again)"


class SessionCommands:
    """In-game commands of a play session (a mixin of ``PlaySession``)."""

    # What the mixin uses of the session (set in PlaySession.__init__).
    game_string: str
    game: Any  # the loaded game (pyspiel)
    seed: int
    world: World
    items: list
    typed: list[bool]
    me: int
    table_mode: bool
    hint_agent: AgentSpec
    files: RecordKeeper

    if TYPE_CHECKING:

        @property
        def state(self) -> Any: ...
        def say(self, text: str = "") -> None: ...
        def _forget_answers(self, n: int) -> list[int]: ...

    answers: list[tuple[int, int]]

    def _command(self, text: str, p: int, show, board=None) -> str | None:
        """Handle a command typed at any prompt: 'stop', 'again' (prompt anew), 'handled',
        or None when ``text`` is not a command. ``board`` shows the user's view (default
        ``show``, which does at the user's own decisions)."""
        word, _, rest = text.partition(" ")
        cmd = word.lower()
        if cmd in COMMANDS and cmd != "save" and rest.strip():
            self.say(f"{cmd} takes no arguments: type just '{cmd}'")
            return "handled"
        if cmd == "quit":
            return "stop"
        if cmd == "help":
            s = self.state  # '?' is for others' moves and chance, never your own move
            yours = not s.is_terminal() and not s.is_chance_node() and s.current_player() == p
            extra = ", or '?' for what you cannot see" if self.table_mode and not yours else ""
            self.say("type a number or a name" + extra + "; commands: " + ", ".join(COMMANDS))
            for name in COMMANDS:
                what = TABLE_UNDO if name == "undo" and self.table_mode else HELP[name]
                self.say(
                    textwrap.fill(
                        what, 88, initial_indent=f"  {name:<7}", subsequent_indent=" " * 9
                    )
                )
            return "handled"
        if cmd == "board":
            (board or show)()
            return "handled"
        if cmd == "hint":
            self._hint(p)
            return "handled"
        if cmd == "save":
            self._save(rest)
            return "handled"
        if cmd == "undo":
            return "again" if self._undo(p) else "handled"
        return None

    def _save(self, rest: str) -> None:
        """``save [FILE] [--force]``: one file name, quoted when it has spaces."""
        try:
            words = shlex.split(rest)
        except ValueError as e:  # an unclosed quote
            self.say(f"save: {e}; quote a file name with spaces, e.g. save 'my game.json'")
            return
        force = "--force" in words
        words = [w for w in words if w != "--force"]
        if len(words) > 1:
            self.say("save takes one file name; quote a name with spaces, e.g. save 'my game.json'")
            return
        if words and not words[0]:  # save '' (was: the default file, as a bare save)
            self.say("save needs a file name: '' names none (save alone writes the default)")
            return
        # save ~/game.json as a shell reads it (was: refused as a folder named ~)
        path = os.path.expanduser(words[0]) if words else self.files.default_path()
        if not path:
            self.say("save needs a file name (or start with --save FILE)")
        else:
            self.files.save(path, force=force)

    def _hint(self, p: int) -> None:
        s = self.state
        if s.is_chance_node():
            self.say("no hint: chance is to move (type the outcome first)")
            return
        mover = s.current_player()
        seed = self.seed * 1_000_003 + len(self.items)
        try:
            only = only_move(s, p, seed)  # a forced move: no search (it would take its time)
            adv = None
            if only is None:
                adv = advise(
                    self.game_string,
                    s,
                    [self.hint_agent],
                    player=p,
                    top=COMPARED,
                    seed=seed,
                    ply=len(self.items),
                )
        except Exception as e:  # a failing hint never ends the game
            self.say(f"no hint: {one_line(e)}")
            return
        if mover == p:
            self.say(f"hint for P{p + 1}, from your information state only:")
        else:
            self.say(f"P{mover + 1} is to move; what P{mover + 1} should play, as far as you know:")
        if adv is None:
            self.say(f"only one legal move: {only}")
            return
        for line in opponent_models(self.game, [self.hint_agent]):
            self.say(line)
        self.say(render(adv, header=False, timing=False))
        shown, legal = len(adv.items[0].moves), adv.items[0].num_legal
        if shown < legal:
            self.say(f"(the {shown} most searched of {legal} legal moves)")

    def _truncate(self, n: int) -> None:
        self.world = prefix(self.world, n)
        del self.items[n:]
        del self.typed[n:]
        if self.table_mode:  # a reveal an undone entry triggered is no longer shown
            self._forget_answers(n)

    def _undo(self, p: int) -> bool:
        """Table mode: back to the previous typed entry. Otherwise: back to player ``p``'s
        previous decision. False if there is none."""
        if self.table_mode and self.answers and self.answers[-1][1] == len(self.items):
            back = self._forget_answers(len(self.items) - 1)  # the last thing entered
            shown = ", ".join(f"entry {j + 1}" for j in back)
            self.say(f"undone: {shown} back to '?' (asked again)")
            return True
        if self.table_mode:
            target = max((i for i, t in enumerate(self.typed) if t), default=None)
            what = "entry"
        else:
            states = self.world.states
            target = max(
                (
                    i
                    for i in range(len(self.items))
                    if not states[i].is_chance_node() and states[i].current_player() == p
                ),
                default=None,
            )
            what = "decision"
        if target is None:
            self.say(f"nothing to undo: you have no previous {what}")
            return False
        undone = len(self.items) - target
        self._truncate(target)
        plural = "" if undone == 1 else "s"
        self.say(f"undone: back {undone} action{plural} to your previous {what}")
        return True
