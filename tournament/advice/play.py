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
    save [FILE]  write the game record (default: the --save path)
    board        show your view and the legal moves again
    help         list the commands
    quit         stop (the record is saved first when --save was given)

Chance outcomes come from the seed: the outcome at ply k is drawn from a stream
derived from (seed, k), so replaying, undoing and loading never re-roll the
cards that the same sequence of moves would reveal. AI seat p gets the seat seed
``tournament.match.seed_streams(seed, n)[1][p]``.

Input is read line by line from a stream, so tests drive a whole game through
``io.StringIO``. Invalid input prints a one-line reason and asks again; nothing
already played is lost. End of input ends the session like ``quit``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO

import numpy as np
import pyspiel

import spiel_games
from solvers.registry import KINDS, AgentSpec, resolve
from spiel_games.common.chance import sample_chance
from spiel_games.common.errors import MeepleError, one_line
from tournament.advice.advise import advise, render
from tournament.advice.positions import CHANCE, GameRecord, HistoryError, record_of, replay_record
from tournament.match import final_scores, seed_streams

HUMAN = "human"
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
    ):
        if seed < 0:
            raise PlayError("the seed must be non-negative")
        self.game_string = game_string
        self.game = spiel_games.load_game(game_string)
        n = self.game.num_players()
        if len(seats) != n:
            raise PlayError(f"{game_string} has {n} players but {len(seats)} seats were given")
        self.seats = list(seats)
        self.humans = {p for p, s in enumerate(seats) if s.strip().lower() == HUMAN}
        self.seed = seed
        self.inp, self.out = inp, out
        self.save_path = save_path
        self.hint_agent = resolve(hint_agent or default_hint_agent())
        _, seat_seeds = seed_streams(seed, n)
        self.agents = {}
        for p, spec in enumerate(seats):
            if p not in self.humans:
                self.agents[p] = resolve(spec).make(self.game, seat_seeds[p])
                self.agents[p].reset()
        self.actions: list[int] = []
        self.state = self.game.new_initial_state()
        self.saved: list[str] = []
        if record is not None:
            try:
                self.state, self.actions = replay_record(self.game, record)
            except HistoryError as e:
                raise PlayError(str(e)) from None

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
    def _apply(self, action: int) -> None:
        self.state.apply_action(action)
        self.actions.append(int(action))

    def run(self) -> PlayResult:
        names = ", ".join(
            f"P{p + 1}={s}" + (" (you)" if p in self.humans else "")
            for p, s in enumerate(self.seats)
        )
        self.say(f"{self.game_string}  seed {self.seed}  seats: {names}")
        if self.actions:
            self.say(f"loaded {len(self.actions)} actions")
        while not self.state.is_terminal():
            s = self.state
            if s.is_chance_node():
                a = draw_chance(s, self.seed, len(self.actions))
                before = s.clone()
                self._apply(a)
                self._log(CHANCE, a, before)
                continue
            p = s.current_player()
            if p in self.humans:
                if not self._human_turn(p):
                    self._autosave()
                    return PlayResult(False, list(self.actions), saved=self.saved)
                continue
            try:
                a = int(self.agents[p].step(s.clone()))
                if a not in s.legal_actions():
                    raise ValueError(f"it chose the illegal action {a}")
            except Exception as e:  # an AI failure stops the game; the moves so far are kept
                self.say(f"seat P{p + 1} ({self.seats[p]}) failed: {one_line(e)}; game stopped")
                self._autosave()
                return PlayResult(
                    False, list(self.actions), saved=self.saved, error=f"P{p + 1}: {one_line(e)}"
                )
            before = s.clone()
            self._apply(a)
            self._log(p, a, before)
        return self._finish()

    def _finish(self) -> PlayResult:
        scores = final_scores(self.state)
        returns = [float(x) for x in self.state.returns()]
        ranks = rank_order(scores)
        self.say("")
        self.say("game over")
        self.say("final scores: " + ", ".join(f"P{p + 1} {_num(x)}" for p, x in enumerate(scores)))
        self.say("ranking:")
        for p in sorted(range(len(scores)), key=lambda q: (ranks[q], q)):
            you = " (you)" if p in self.humans else ""
            self.say(f"  {ranks[p]}. P{p + 1} {self.seats[p]}{you}: {_num(scores[p])}")
        self._autosave()
        return PlayResult(True, list(self.actions), scores, returns, self.saved)

    def _autosave(self) -> None:
        if self.save_path:
            self._save(self.save_path)

    def _save(self, path: str) -> bool:
        rec = record_of(self.game_string, self.state, self.seed, self.seats, self.actions)
        try:
            rec.save(path)
        except OSError as e:
            self.say(f"cannot save to {path!r}: {e.strerror or e}")
            return False
        self.saved.append(path)
        self.say(f"saved {len(self.actions)} actions to {path}")
        return True

    def _show(self, p: int) -> list[tuple[int, str]]:
        s = self.state
        legal = [(int(a), s.action_to_string(p, a)) for a in s.legal_actions()]
        self.say("")
        self.say(f"--- P{p + 1} to move (you) ---")
        self.say(readable_observation(s, p))
        self.say("legal moves:")
        for i, (_, name) in enumerate(legal, start=1):
            self.say(f"  {i:>2}. {name}")
        return legal

    def _human_turn(self, p: int) -> bool:
        """Read commands until a move is made; False when the session should stop."""
        legal = self._show(p)
        while True:
            self.out.write(f"P{p + 1}> ")
            self.out.flush()
            line = self.inp.readline()
            if line == "":
                self.say("")
                self.say("end of input: stopping")
                return False
            text = line.strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            cmd = word.lower()
            if cmd == "quit":
                return False
            if cmd == "help":
                self.say("type a move number or name, or: " + ", ".join(COMMANDS))
                continue
            if cmd == "board":
                legal = self._show(p)
                continue
            if cmd == "hint":
                self._hint(p)
                continue
            if cmd == "save":
                path = rest.strip() or self.save_path
                if not path:
                    self.say("save needs a file name (or start with --save FILE)")
                else:
                    self._save(path)
                continue
            if cmd == "undo":
                if self._undo(p):
                    return True
                continue
            try:
                a = choose(legal, text)
            except ValueError as e:
                self.say(str(e))
                continue
            self.say(f"  P{p + 1} (you): {self.state.action_to_string(p, a)}")
            self._apply(a)
            return True

    def _hint(self, p: int) -> None:
        try:
            adv = advise(
                self.game_string,
                self.state,
                [self.hint_agent],
                player=p,
                top=3,
                seed=self.seed * 1_000_003 + len(self.actions),
                ply=len(self.actions),
            )
        except Exception as e:  # a failing hint never ends the game
            self.say(f"no hint: {one_line(e)}")
            return
        self.say(f"hint for P{p + 1}, from your information state only:")
        self.say(render(adv, header=False))

    def _undo(self, p: int) -> bool:
        """Return to player ``p``'s previous decision; False if there is none."""
        s = self.game.new_initial_state()
        target = None
        for i, a in enumerate(self.actions):
            if not s.is_chance_node() and s.current_player() == p:
                target = i
            s.apply_action(a)
        if target is None:
            self.say("nothing to undo: there is no earlier decision of yours")
            return False
        undone = len(self.actions) - target
        self.actions = self.actions[:target]
        st = self.game.new_initial_state()
        for a in self.actions:
            st.apply_action(a)
        self.state = st
        self.say(f"undone: back {undone} actions to your previous decision")
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
