"""``meeple play``: play a game in the terminal against AI seats.

Seats are agent specs, one per player, with ``human`` for a person at the
keyboard (several humans share the keyboard in seat order). A human sees only
their own view (the game's ``render_view(player)`` where it has one, built only from
what that player knows; otherwise ``observation_string``; the full board text only for
perfect-information games) and, in games with hidden information, only their own
moves in the log. At a human decision the legal moves are listed numbered and
named; the human types a number or a name (or an unambiguous start of one), or:

    hint         advice for this decision (the hint agent, from your information state)
    undo         go back to your previous decision (AI moves after it are redone)
    save [FILE]  write the game record (default: the --save path, else the loaded
                 record); a file this session did not load or write is overwritten only
                 with 'save FILE --force'
    board        show your view and the legal moves again
    help         list the commands
    quit         stop (the record is saved first when --save was given; moves no save
                 holds go to a recovery file, see tournament/advice/saving.py)

Chance outcomes come from the seed: the outcome at ply k is drawn from a stream
derived from (seed, k), so replaying, undoing and loading never re-roll the
cards that the same sequence of moves would reveal. AI seat p gets the seat seed
``tournament.match.seed_streams(seed, n)[1][p]``.

Table mode (``--chance manual``, or any seat ``table``) mirrors a physical game: the
one ``human`` (or ``me``) seat is the user; the user types the chance outcomes they see
(a number or a name) and the moves of the ``table`` seats. What the user cannot see (a
card dealt to another player, another player's secret choice) is entered as ``?``
automatically; a ``?`` typed where the user can see the value is refused. A move that no
world consistent with what the user saw allows is refused with the legal choices listed;
nothing is lost. ``undo`` steps back one entry; ``hint`` works at every prompt.

Input is read line by line from a stream, so tests drive a whole game through
``io.StringIO``. Invalid input prints a one-line reason and asks again; nothing
already played is lost. End of input ends the session like ``quit``; Ctrl-C saves
(with ``--save``, else to a recovery file when moves are unsaved) and stops.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np
import pyspiel

import spiel_games
from solvers.registry import KINDS, AgentSpec, resolve
from spiel_games.common.chance import sample_chance
from spiel_games.common.errors import MeepleError, one_line
from tournament.advice.advise import advise, render
from tournament.advice.positions import (
    CHANCE,
    GameRecord,
    HistoryError,
    record_items,
    record_of,
    replay_record_world,
)
from tournament.advice.saving import RecordKeeper
from tournament.advice.unknown import (
    UNKNOWN,
    World,
    adopt_world,
    check_hidden,
    extend_world,
    hidden_from,
    is_unknown,
    options,
    possible_options,
    scores_determined,
)
from tournament.match import final_scores, seed_streams

HUMAN = "human"
ME = "me"  # the human seat at a physical table (same as human)
TABLE = "table"  # a person at the physical table whose moves the user types
CHANCE_MODES = ("seed", "manual")
COMMANDS = ("hint", "undo", "save", "board", "help", "quit")


class PlayError(MeepleError):
    """A setup problem (bad seats, unreadable record): one line for the user."""


def split_seats(text: str) -> list[str]:
    """'human,mcts(sims=10,uct_c=2),heuristic' -> three specs (commas inside brackets kept)."""
    seats: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            seats.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    seats.append("".join(cur).strip())
    if any(not s for s in seats):
        raise PlayError(f"empty seat in {text!r}")
    return seats


def chance_rng(seed: int, ply: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, ply, 0x6D65]))


def draw_chance(state, seed: int, ply: int) -> int:
    return sample_chance(state, chance_rng(seed, ply))


def default_hint_agent() -> str:
    # Two seconds of search: a hint must come quickly in every game (full IS-MCTS rollouts
    # run at ~30 sims/s in 4-player Rococo but ~500 in Coloretto).
    for kind, spec in (("ismcts", "ismcts(time=2)"), ("mcts", "mcts(time=2)")):
        if kind in KINDS:
            return spec
    return "heuristic"


def readable_observation(state, player: int) -> str:
    """What ``player`` sees.

    A game may provide ``state.render_view(player)`` (a readable text built from that
    player's observation only); otherwise perfect-information games show the board
    (``str(state)``) and the others show ``observation_string(player)`` one piece per line.
    """
    custom = getattr(state, "render_view", None)
    if callable(custom):
        return str(custom(player))
    game = state.get_game()
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return str(state)
    text = state.observation_string(player).strip()
    # PieceObserver strings are "name:value name:value ..."; one aligned piece per line.
    pieces = re.split(r"\s+(?=[A-Za-z_][A-Za-z0-9_]*:)", text)
    rows = [p.partition(":") for p in pieces]
    if not all(sep for _, sep, _ in rows):
        return text
    width = max(len(name) for name, _, _ in rows)
    return "\n".join(f"  {name:<{width}}  {value}" for name, _, value in rows)


def observable(before, mover: int, action: int, watchers) -> bool:
    """Whether every watcher can tell ``action`` apart from the mover's other options.

    It can when no other legal action (or chance outcome) leads to the same information
    state for that watcher: then the watcher's own view already reveals which move was
    made, and naming it tells nothing new. A secret choice, or a card dealt to someone
    else, leaves the watcher's information state the same for several options: hidden.
    """
    if mover == CHANCE:
        options = [int(a) for a, _ in before.chance_outcomes()]
    else:
        options = [int(a) for a in before.legal_actions()]
    if len(options) <= 1 or not watchers:
        return True

    def info_after(a: int, h: int) -> str:
        child = before.clone()
        child.apply_action(a)
        return child.information_state_string(h)

    for h in watchers:
        seen = info_after(action, h)
        if any(b != action and info_after(b, h) == seen for b in options):
            return False
    return True


def rank_order(scores: list[float]) -> list[int]:
    """1-based rank per player, ties sharing the better rank."""
    return [1 + sum(1 for t in scores if t > s) for s in scores]


@dataclass
class PlayResult:
    finished: bool
    actions: list[int]
    scores: list[float] | None = None
    returns: list[float] | None = None
    saved: list[str] = field(default_factory=list)
    error: str = ""  # why an AI seat stopped the game, if one did
    interrupted: bool = False  # stopped by Ctrl-C
    lost: bool = False  # unsaved moves could not be written anywhere
    items: list = field(default_factory=list)  # table mode: the entries ("?" where unseen)


class PlaySession:
    def __init__(
        self,
        game_string: str,
        seats: list[str],
        seed: int = 0,
        *,
        inp: IO[str],
        out: IO[str],
        save_path: str | None = None,
        hint_agent: str | AgentSpec | None = None,
        record: GameRecord | None = None,
        chance: str = "seed",
        load_path: str | None = None,
        force: bool = False,
        recovery: Path | None = None,
    ):
        if seed < 0:
            raise PlayError("the seed must be non-negative")
        if chance not in CHANCE_MODES:
            raise PlayError(f"--chance must be one of {', '.join(CHANCE_MODES)}, got {chance!r}")
        self.game_string = game_string
        self.game = spiel_games.load_game(game_string)
        n = self.game.num_players()
        if len(seats) != n:
            raise PlayError(f"{game_string} has {n} players but {len(seats)} seats were given")
        self.seats = list(seats)
        kinds = [s.strip().lower() for s in seats]
        self.humans = {p for p, k in enumerate(kinds) if k in (HUMAN, ME)}
        self.table = {p for p, k in enumerate(kinds) if k == TABLE}
        self.chance = chance
        self.table_mode = chance == "manual" or bool(self.table)
        if self.table_mode and len(self.humans) != 1:
            raise PlayError(
                "table mode (--chance manual or a 'table' seat) needs exactly one 'me' seat,"
                f" got {len(self.humans)}"
            )
        self.me: int = min(self.humans) if self.table_mode else -1  # -1: not table mode
        self.seed = seed
        self.inp, self.out = inp, out
        self.hint_agent = resolve(hint_agent or default_hint_agent())
        _, seat_seeds = seed_streams(seed, n)
        self.agents = {}
        for p, spec in enumerate(seats):
            if p not in self.humans and p not in self.table:
                self.agents[p] = resolve(spec).make(self.game, seat_seeds[p])
                self.agents[p].reset()
        self.world = World(states=[self.game.new_initial_state()])
        self.items: list = []  # history items: action ids, or "?" (table mode)
        self.typed: list[bool] = []  # per item: entered at a prompt (undo steps back to these)
        if record is not None:
            try:
                self.world = replay_record_world(
                    self.game, record, viewer=self.me if self.table_mode else None
                )
            except HistoryError as e:
                raise PlayError(str(e)) from None
            self.items = record.items()
            self.typed = [not self._automatic(s) for s in self.world.states[:-1]]
        self.files = RecordKeeper(
            lambda: (self.record(), self.items, self.typed),
            self.say,
            save_path=save_path,
            load_path=load_path,
            force=force,
            recovery=recovery,
        )

    @property
    def state(self):
        return self.world.state

    @property
    def actions(self) -> list[int]:
        return list(self.world.actions)

    # ----- output helpers -------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _perfect(self) -> bool:
        return self.game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION

    def _log(self, mover: int, action: int, before) -> None:
        """Announce a move in the words the watching humans may read."""
        watchers = [h for h in self.humans if h != mover]
        visible = self._perfect() or observable(before, mover, action, watchers)
        who = "chance" if mover == CHANCE else f"P{mover + 1}"
        if visible:
            self.say(f"  {who}: {before.action_to_string(mover, action)}")
        elif mover != CHANCE:
            self.say(f"  {who} moved (hidden from you)")

    # ----- the game loop --------------------------------------------------------------
    def _apply(self, action: int, typed: bool = False) -> None:
        nxt = self.state.clone()
        nxt.apply_action(action)
        self.world.states.append(nxt)
        self.world.actions.append(int(action))
        self.items.append(int(action))
        self.typed.append(typed)

    def _enter(self, item, typed: bool):
        """Table mode: add one entry (a name, an id or "?"); the world is rebuilt if needed.
        Returns the state before the entry."""
        self.world = extend_world(self.game, self.world, self.items, item)
        i = len(self.items)
        s = self.world.states[i]
        self.items.append(UNKNOWN if is_unknown(item) else self.world.actions[i])
        self.typed.append(typed)
        return s

    def _automatic(self, state) -> bool:
        """Whether table mode fills this entry in itself (no prompt)."""
        if state.is_terminal():
            return True
        mover = CHANCE if state.is_chance_node() else state.current_player()
        if mover in self.humans:
            return False
        if mover != CHANCE and mover not in self.table:
            return True  # an AI seat
        if mover == CHANCE and self.chance == "seed":
            return True
        if hidden_from(state, self.me):
            return True
        # One option is forced only when nothing is unknown: with '?' in the history, the
        # placeholder world may offer one option where the real game offers several.
        return len(options(state)) == 1 and not self.world.unknown

    def run(self) -> PlayResult:
        """Play until the end, a quit or end of input; Ctrl-C saves (with --save) and stops."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.say("")
            kept = self.files.keep()
            self.say(
                {
                    "saved": "interrupted: the game is saved",
                    "recovered": "interrupted: the game is kept in a recovery file",
                    "clean": f"interrupted after {len(self.items)} actions (nothing unsaved)",
                    "lost": "interrupted: the game could NOT be saved",
                }[kept]
            )
            return self._result(False, interrupted=True, kept=kept)

    def _result(self, finished: bool, kept: str | None = None, **kw) -> PlayResult:
        if kept is None:
            kept = self.files.keep()
        return PlayResult(
            finished,
            self.actions,
            saved=self.files.saved,
            items=list(self.items),
            lost=kept == "lost",
            **kw,
        )

    def _run(self) -> PlayResult:
        names = ", ".join(
            f"P{p + 1}={s}" + (" (you)" if p in self.humans else "")
            for p, s in enumerate(self.seats)
        )
        mode = "  chance: entered by you" if self.chance == "manual" else f"  seed {self.seed}"
        self.say(f"{self.game_string}{mode}  seats: {names}")
        if self.items:
            self.say(f"loaded {len(self.items)} actions")
        while not self.state.is_terminal():
            s = self.state
            if self.table_mode and not s.is_chance_node() and s.current_player() in self.table:
                if not self._table_entry():
                    return self._result(False)
                continue
            if self.table_mode and s.is_chance_node() and self.chance == "manual":
                if not self._table_entry():
                    return self._result(False)
                continue
            if s.is_chance_node():
                a = draw_chance(s, self.seed, len(self.actions))
                before = s.clone()
                self._apply(a)
                self._log(CHANCE, a, before)
                continue
            p = s.current_player()
            if p in self.humans:
                if not self._human_turn(p):
                    return self._result(False)
                continue
            try:
                a = int(self.agents[p].step(s.clone()))
                if a not in s.legal_actions():
                    raise ValueError(f"it chose the illegal action {a}")
            except Exception as e:  # an AI failure stops the game; the moves so far are kept
                self.say(f"seat P{p + 1} ({self.seats[p]}) failed: {one_line(e)}; game stopped")
                return self._result(False, error=f"P{p + 1}: {one_line(e)}")
            before = s.clone()
            self._apply(a)
            self._log(p, a, before)
        return self._finish()

    def _finish(self) -> PlayResult:
        self.say("")
        self.say("game over")
        if not self._scores_known():
            self.say(
                "final scores: they depend on cards entered as '?' (hidden from you);"
                " count them at the table"
            )
            return self._result(True)
        scores = final_scores(self.state)
        returns = [float(x) for x in self.state.returns()]
        ranks = rank_order(scores)
        self.say("final scores: " + ", ".join(f"P{p + 1} {_num(x)}" for p, x in enumerate(scores)))
        self.say("ranking:")
        for p in sorted(range(len(scores)), key=lambda q: (ranks[q], q)):
            you = " (you)" if p in self.humans else ""
            self.say(f"  {ranks[p]}. P{p + 1} {self.seats[p]}{you}: {_num(scores[p])}")
        return self._result(True, scores=scores, returns=returns)

    def _scores_known(self) -> bool:
        return not self.world.unknown or scores_determined(self.game, self.items, self.world)

    def record(self) -> GameRecord:
        rec = record_of(self.game_string, self.state, self.seed, self.seats, self.actions)
        rec.chance = self.chance
        if self.world.unknown:
            rec.actions = record_items(self.world)
            if rec.terminal and not self._scores_known():
                rec.scores = rec.returns = None
        return rec

    def _show(self, p: int) -> list[tuple[int, str]]:
        s = self.state
        legal = [(int(a), s.action_to_string(p, a)) for a in s.legal_actions()]
        self.say("")
        self.say(f"--- P{p + 1} to move (you) ---")
        self.say(readable_observation(s, p))
        self.say("legal moves:")
        self._list(legal)
        return legal

    def _list(self, legal: list[tuple[int, str]]) -> None:
        for i, (_, name) in enumerate(legal, start=1):
            self.say(f"  {i:>2}. {name}")

    def _read(self, prompt: str) -> str | None:
        """The next non-empty input line, or None at end of input."""
        while True:
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline()
            if line == "":
                self.say("")
                self.say("end of input: stopping")
                return None
            if line.strip():
                return line.strip()

    def _command(self, text: str, p: int, show, board=None) -> str | None:
        """Handle a command typed at any prompt: 'stop', 'again' (prompt anew), 'handled',
        or None when ``text`` is not a command. ``board`` shows the user's view (default
        ``show``, which does at the user's own decisions)."""
        word, _, rest = text.partition(" ")
        cmd = word.lower()
        if cmd == "quit":
            return "stop"
        if cmd == "help":
            extra = ", or '?' for what you cannot see" if self.table_mode else ""
            self.say("type a number or a name" + extra + "; commands: " + ", ".join(COMMANDS))
            return "handled"
        if cmd == "board":
            (board or show)()
            return "handled"
        if cmd == "hint":
            self._hint(p)
            return "handled"
        if cmd == "save":
            words = rest.split()
            force = "--force" in words
            words = [w for w in words if w != "--force"]
            path = " ".join(words) or self.files.default_path()
            if not path:
                self.say("save needs a file name (or start with --save FILE)")
            else:
                self.files.save(path, force=force)
            return "handled"
        if cmd == "undo":
            return "again" if self._undo(p) else "handled"
        return None

    def _human_turn(self, p: int) -> bool:
        """Read commands until a move is made; False when the session should stop."""
        legal = self._show(p)
        while True:
            text = self._read(f"P{p + 1}> ")
            if text is None:
                return False
            done = self._command(text, p, lambda: self._show(p))
            if done == "stop":
                return False
            if done == "again":
                return True
            if done == "handled":
                legal = [
                    (int(a), self.state.action_to_string(p, a)) for a in self.state.legal_actions()
                ]
                continue
            try:
                a = choose(legal, text)
            except ValueError as e:
                self.say(str(e))
                continue
            self.say(f"  P{p + 1} (you): {self.state.action_to_string(p, a)}")
            self._apply(a, typed=True)
            return True

    # ----- table mode -------------------------------------------------------------------
    def _fill_automatic(self) -> bool:
        """Fill in entries that need no prompt (one option, or hidden from you); True if any."""
        s = self.state
        if s.is_terminal() or not self._automatic(s):
            return False
        mover = CHANCE if s.is_chance_node() else s.current_player()
        who = "chance" if mover == CHANCE else f"P{mover + 1}"
        opts = options(s)
        if len(opts) == 1 and not hidden_from(s, self.me):
            self._enter(opts[0], typed=False)
            self.say(f"  {who}: {s.action_to_string(mover, opts[0])}")
        else:
            self._enter(UNKNOWN, typed=False)
            self.say(f"  {who}: ? (hidden from you; one of {len(opts)})")
        return True

    def _table_entry(self) -> bool:
        """One chance outcome or table seat's move, typed by the user; False to stop."""
        if self._fill_automatic():
            return True
        s = self.state
        mover = CHANCE if s.is_chance_node() else s.current_player()
        who = "chance" if mover == CHANCE else f"P{mover + 1}"

        possible = possible_options(self.world, self.me)

        def show():
            what = "chance outcome" if mover == CHANCE else f"P{mover + 1}'s move"
            listed = "; ".join(f"{i}. {name}" for i, (_, name) in enumerate(legal_now(), 1))
            self.say(f"{what}? {listed}")

        def board():
            self.say("")
            self.say(f"--- {who} to move; your view (P{self.me + 1}) ---")
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
                    check_hidden(self.state, self.me, len(self.items) + 1)
                except HistoryError as e:
                    self.say(str(e).replace("history item", "entry"))
                    continue
                self._enter(UNKNOWN, typed=True)
                self.say(f"  {who}: ?")
                return True
            legal = legal_now()
            item: int | str
            try:
                item = choose(legal, text)
            except ValueError:
                item = text  # maybe legal in another world consistent with what you saw
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
            a = self.world.actions[-1]
            self.say(f"  {who}: {before.action_to_string(mover, a)}")
            return True

    def _hint(self, p: int) -> None:
        s = self.state
        if s.is_chance_node():
            self.say("no hint: chance is to move (type the outcome first)")
            return
        mover = s.current_player()
        try:
            adv = advise(
                self.game_string,
                s,
                [self.hint_agent],
                player=p,
                top=3,
                seed=self.seed * 1_000_003 + len(self.items),
                ply=len(self.items),
            )
        except Exception as e:  # a failing hint never ends the game
            self.say(f"no hint: {one_line(e)}")
            return
        if mover == p:
            self.say(f"hint for P{p + 1}, from your information state only:")
        else:
            self.say(f"P{mover + 1} is to move; what P{mover + 1} should play, as far as you know:")
        self.say(render(adv, header=False, timing=False))

    def _truncate(self, n: int) -> None:
        self.world = World(
            states=self.world.states[: n + 1],
            actions=self.world.actions[:n],
            unknown=[u for u in self.world.unknown if u < n],
        )
        del self.items[n:]
        del self.typed[n:]

    def _undo(self, p: int) -> bool:
        """Table mode: back to the previous typed entry. Otherwise: back to player ``p``'s
        previous decision. False if there is none."""
        if self.table_mode:
            target = max((i for i, t in enumerate(self.typed) if t), default=None)
            what = "your previous entry"
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
            what = "your previous decision"
        if target is None:
            self.say(f"nothing to undo: there is no {what}")
            return False
        undone = len(self.items) - target
        self._truncate(target)
        self.say(f"undone: back {undone} actions to {what}")
        return True


def choose(legal: list[tuple[int, str]], text: str) -> int:
    """The action a human typed: a 1-based number, a name, or an unambiguous start of a name."""
    t = text.strip()
    if re.fullmatch(r"\d+", t):
        k = int(t)
        if 1 <= k <= len(legal):
            return legal[k - 1][0]
        raise ValueError(f"no move number {k}: choose 1-{len(legal)}, a move name, or 'help'")
    low = " ".join(t.split()).lower()
    exact = [a for a, name in legal if name.lower() == low]
    if len(exact) == 1:
        return exact[0]
    starts = [(a, name) for a, name in legal if name.lower().startswith(low)]
    if len(starts) == 1:
        return starts[0][0]
    if len(starts) > 1:
        raise ValueError(f"{t!r} is ambiguous: " + ", ".join(name for _, name in starts))
    raise ValueError(
        f"{t!r} is not a legal move or command: type a number 1-{len(legal)}, a move name, or 'help'"
    )


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"
