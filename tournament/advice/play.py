"""``meeple play``: play a game in the terminal against AI seats.

Seats are agent specs, one per player, with ``human`` for a person at the keyboard
(several humans share the keyboard in seat order). A human sees only their own view (the
game's ``render_view(player)`` where it has one, built only from what that player knows;
otherwise ``observation_string``; the full board text only for perfect-information games)
and, in games with hidden information, only their own moves in the log. At a human decision the legal moves are listed numbered and
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

Chance outcomes come from the seed: the outcome at ply k is drawn from a stream derived
from (seed, k), and AI seat p decides at ply k from streams restarted from (its seat seed
``tournament.match.seed_streams(seed, n)[1][p]``, k), so undoing and loading replay the
same cards and the same AI moves that an unbroken game would.

Table mode (``--chance manual``, or any seat ``table``) mirrors a physical game: the
one ``human`` (or ``me``) seat is the user; the user types the chance outcomes they see
(a number or a name) and the moves of the ``table`` seats. What the user cannot see (a
card dealt to another player, another player's secret choice) is entered as ``?``
automatically; a ``?`` typed where the user can see the value is refused. A move that no
world consistent with what the user saw allows is refused with the legal choices listed;
nothing is lost. ``undo`` steps back one entry; ``hint`` works at every prompt. A ``?``
entry that a later event shows to the table is asked for then (tournament/advice/reveal.py).

Input is read line by line from a stream, so tests drive a whole game through
``io.StringIO``. Invalid input (a line that is not UTF-8 too) prints a one-line reason
and asks again; nothing already played is lost. End of input ends the session like
``quit``; Ctrl-C, a hang-up and any error save (with ``--save``, else to a recovery file
when moves are unsaved) and stop (tournament/advice/session_io.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pyspiel

import spiel_games
from solvers.registry import AgentSpec, resolve
from spiel_games.common.errors import one_line
from tournament.advice.advise_text import count
from tournament.advice.commands import SessionCommands
from tournament.advice.positions import (
    CHANCE,
    GameRecord,
    record_items,
    record_of,
)
from tournament.advice.saving import RecordKeeper
from tournament.advice.session_io import SessionIO, lenient
from tournament.advice.table import TableEntries, check_resumable
from tournament.advice.terminal import (
    HUMAN,
    ME,
    TABLE,
    PlayError,
    checked_hint_agent,
    choose,
    decision_seed,
    draw_chance,
    entry_name,
    entry_text,
    fmt_num,
    loaded_world,
    menu_name,
    observable,
    rank_order,
    readable_observation,
    setup_conventions,
    split_seats,
    view_header,
)
from tournament.advice.unknown import World, prefix, scores_determined
from tournament.match import final_scores, seed_streams
from tournament.records import carry_notes

__all__ = [
    "PlayError",
    "PlayResult",
    "PlaySession",
    "choose",
    "rank_order",
    "readable_observation",
    "split_seats",
]

CHANCE_MODES = ("seed", "manual")


@dataclass
class PlayResult:
    finished: bool
    actions: list[int]
    scores: list[float] | None = None
    returns: list[float] | None = None
    saved: list[str] = field(default_factory=list)
    error: str = ""  # why an AI seat stopped the game, if one did
    interrupted: bool = False  # stopped by Ctrl-C, or a hang-up or termination signal
    signal: int = 0  # the signal that stopped it (0: Ctrl-C or none)
    lost: bool = False  # unsaved moves could not be written anywhere
    kept: str = ""  # at the stop: saved, recovered (--save failed or none), clean, lost
    items: list = field(default_factory=list)  # table mode: the entries ("?" where unseen)


class PlaySession(SessionIO, SessionCommands, TableEntries):
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
        err: IO[str] | None = None,
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
        self.inp, self.out, self.err = lenient(inp), out, err
        self.hint_agent = checked_hint_agent(hint_agent, self.game)
        _, self.seat_seeds = seed_streams(seed, n)  # each AI decision reseeds from (seat, ply)
        self.agents = {}
        for p, spec in enumerate(seats):
            if p not in self.humans and p not in self.table:
                self.agents[p] = resolve(spec).make(self.game, self.seat_seeds[p])
                self.agents[p].reset()
        self.world = World(states=[self.game.new_initial_state()])
        self.items: list = []  # history items: action ids, or "?" (table mode)
        self.typed: list[bool] = []  # per item: entered at a prompt (undo steps back to these)
        self.answers = []  # table mode: (entry, entries then) of each reveal answered
        self.loaded = record  # its notes are written back (records.carry_notes)
        if record is not None:
            check_resumable(record, chance, self.table_mode, self.me)
            self.world = loaded_world(self.game, record, self.me if self.table_mode else None)
            self.items = record.items()
            self.typed = [
                not self._automatic(prefix(self.world, i)) for i in range(len(self.items))
            ]
        self.files = RecordKeeper(
            lambda: (self.record(), self.items, self.typed),
            self.say,
            save_path=save_path,
            load_path=load_path,
            force=force,
            recovery=recovery,
            warn=self.warn,
        )

    @property
    def state(self):
        return self.world.state

    @property
    def actions(self) -> list[int]:
        return list(self.world.actions)

    # ----- output helpers -------------------------------------------------------------
    def _perfect(self) -> bool:
        return self.game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION

    def _log(self, mover: int, action: int, before) -> None:
        """Announce a move in the words the watching humans may read."""
        watchers = [h for h in self.humans if h != mover]
        visible = self._perfect() or observable(before, mover, action, watchers)
        who = entry_name(before)
        if visible:
            self.say(f"  {who}: {entry_text(before, action)}")
        elif mover != CHANCE:
            self.say(f"  {who} moved (hidden from you)")
        self._round_end(before, action)

    # ----- the game loop --------------------------------------------------------------
    def _apply(self, action: int, typed: bool = False) -> None:
        nxt = self.state.clone()
        nxt.apply_action(action)
        self.world.states.append(nxt)
        self.world.actions.append(int(action))
        self.items.append(int(action))
        self.typed.append(typed)

    def run(self) -> PlayResult:
        """Play until the end, a quit or end of input; Ctrl-C saves (with --save) and stops;
        on any other way out the game is kept before the error goes on."""
        try:
            return self._run()
        except KeyboardInterrupt as stop:  # Ctrl-C, or a hang-up (tournament.signals)
            kept = self._stopped(stop)
            return self._result(
                False, interrupted=True, kept=kept, signal=getattr(stop, "signum", 0)
            )
        except BaseException:  # an error, stdout's reader gone (BrokenPipeError): kept first
            self._keep(redeliver=False)
            raise

    def _result(self, finished: bool, kept: str | None = None, **kw) -> PlayResult:
        if kept is None:
            kept = self._keep()
        return PlayResult(
            finished,
            self.actions,
            saved=self.files.saved,
            items=list(self.items),
            lost=kept == "lost",
            kept=kept,
            **kw,
        )

    def _run(self) -> PlayResult:
        names = ", ".join(
            f"P{p + 1}={s}" + (" (you)" if p in self.humans else "")
            for p, s in enumerate(self.seats)
        )
        mode = "  chance: entered by you" if self.chance == "manual" else f"  seed {self.seed}"
        self.say(f"{self.game_string}{mode}  seats: {names}")
        if self.table_mode and not self.items and setup_conventions(self.state):
            self.say(setup_conventions(self.state))
        if self.items:
            self.say(f"loaded {count(len(self.items), 'action')}")
            if self.table_mode and not self._settle_reveals():  # before any board shows
                return self._result(False)
            self._show_loaded()
        while True:
            if self.table_mode and not self._settle_reveals():
                return self._result(False)
            s = self.state
            if s.is_terminal():
                break
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
                self.agents[p].reseed(decision_seed(self.seat_seeds[p], len(self.actions)))
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

    def _show_loaded(self) -> None:
        """The watching human's view of a loaded game, unless their decision is next."""
        viewers = [self.me] if self.table_mode else sorted(self.humans)
        s = self.state
        mover = -2 if s.is_terminal() or s.is_chance_node() else s.current_player()
        if len(viewers) == 1 and mover != viewers[0]:  # several humans: each at their turn
            self.say("\n" + view_header(s, viewers[0]))
            self.say(readable_observation(s, viewers[0]))

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
        self.say(
            "final scores: " + ", ".join(f"P{p + 1} {fmt_num(x)}" for p, x in enumerate(scores))
        )
        self.say("ranking:")
        for p in sorted(range(len(scores)), key=lambda q: (ranks[q], q)):
            you = " (you)" if p in self.humans else ""
            self.say(f"  {ranks[p]}. P{p + 1} {self.seats[p]}{you}: {fmt_num(scores[p])}")
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
        return carry_notes(rec, self.loaded)

    def _show(self, p: int) -> list[tuple[int, str]]:
        s = self.state
        legal = [(int(a), s.action_to_string(p, a)) for a in s.legal_actions()]
        self.say("")
        self.say(f"--- P{p + 1} to move (you) ---")
        self.say(readable_observation(s, p))
        self.say("legal moves:")
        for i, (a, name) in enumerate(legal, start=1):
            self.say(f"  {i:>2}. {menu_name(s, p, a, name)}")
        return legal

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
            before = self.state
            self._apply(a, typed=True)
            self._round_end(before, a)
            return True
