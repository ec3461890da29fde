"""What `meeple play` prints and reads: seat lists, views, move names, ranks.

Pure helpers with no session state, shared by normal play and table mode.
"""

from __future__ import annotations

import re

import numpy as np
import pyspiel

import spiel_games
from solvers.registry import KINDS, AgentSpec, resolve
from spiel_games.common.chance import chance_description, outcome_after, sample_chance
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.naming import NoMatch, match
from tournament.advice.positions import (
    CHANCE,
    GameRecord,
    HistoryError,
    replay_record_world,
    same_game,
)
from tournament.advice.unknown import World

HUMAN = "human"
ME = "me"  # the human seat at a physical table (same as human)
TABLE = "table"  # a person at the physical table whose moves the user types


class PlayError(MeepleError):
    """A setup problem (bad seats, unreadable record): one line for the user."""


class DamagedRecordError(PlayError):
    """A ``--load`` record that does not replay (an illegal move, an id and its action
    string that disagree): the request ran and failed (exit 1, as ``meeple advise``)."""


def loaded_world(game, record: GameRecord, viewer: int | None) -> World:
    """A ``--load`` record replayed (its ``?`` items as seen by ``viewer``), or a
    ``DamagedRecordError`` saying why it does not replay."""
    try:
        return replay_record_world(game, record, viewer=viewer)
    except HistoryError as e:
        raise DamagedRecordError(str(e)) from None


def check_loadable(record: GameRecord, path: str, game_string: str | None, seats: bool) -> None:
    """A ``--load`` record's own faults, found before the session: a game that does not
    load or is not the command line's, and, unless ``--seats`` replaces them (``seats``
    False), seats that do not fit its game. A ``DamagedRecordError`` naming the record
    (exit 1, as advise and review; was exit 2, in words that blamed the command line:
    "... has 2 players but 1 seats were given")."""
    where = f"game record {path!r}"
    try:
        game = spiel_games.load_game(record.game)
    except MeepleError as e:
        raise DamagedRecordError(f"{where}: {one_line(e)}") from None
    if game_string and not same_game(game_string, record.game):
        raise DamagedRecordError(f"the game record is for {record.game!r}, not {game_string!r}")
    if not seats or not record.seats:  # none recorded: the command line must give them
        return
    n, k = game.num_players(), len(record.seats)
    if k != n:
        raise DamagedRecordError(
            f"{where} names {k} seat{'' if k == 1 else 's'} for a {n}-player game: give --seats"
        )
    for p, spec in enumerate(record.seats):
        if spec.strip().lower() in (HUMAN, ME, TABLE):
            continue
        try:
            resolve(spec).check(game)
        except MeepleError as e:
            raise DamagedRecordError(
                f"{where}, seat P{p + 1}: {one_line(e)}; give --seats to seat another agent"
            ) from None


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


def decision_seed(seat_seed: int, ply: int) -> int:
    """The seed an AI seat's decision at ``ply`` restarts its streams from (Agent.reseed):
    an undo or a ``--load`` replays the same decisions as an unbroken game."""
    state = np.random.SeedSequence([seat_seed, ply, 0x6169]).generate_state(2, np.uint32)
    return int(state[0]) << 31 | int(state[1]) >> 1


def entry_name(state) -> str:
    """Whom or what the next entry at ``state`` is for, as the prompts and the move lines
    name it: ``P2`` at a player's decision, what a chance node decides at one (``P2's
    start card``; "chance outcome" where the game does not say)."""
    if state.is_chance_node():
        return chance_description(state)
    return f"P{state.current_player() + 1}"


def entry_text(state, action: int) -> str:
    """An entry as its line in the log names it after ``entry_name(state)``: the move, or
    the chance outcome without the words its description already says ("the start player:
    P1", not "the start player: start player: P1")."""
    if state.is_chance_node():
        return outcome_after(chance_description(state), state.action_to_string(CHANCE, action))
    return state.action_to_string(state.current_player(), action)


def menu_name(state, player: int, action: int, name: str) -> str:
    """An option as a menu lists it: its name, then what tells it apart from the others
    where the game's data says more than the name (a meeple game's ``option_details``:
    "stock card 3 (4 BF) [shields 2-3 and 3-4]"). The name alone is what one types."""
    details = getattr(state, "option_details", None)
    extra = "" if details is None else str(details(player, action))
    return f"{name} [{extra}]" if extra else name


def round_summary(before, action: int, after) -> str:
    """What the move ``action`` from ``before`` to ``after`` ended that no move shows (a
    meeple game's ``round_summary``: a round's scoring), as log lines; "" for none."""
    summary = getattr(after, "round_summary", None)
    return "" if summary is None else str(summary(before, action))


def view_header(state, viewer: int, what: str = "") -> str:
    """The line above ``viewer``'s view when it is shown between decisions: what comes next
    (``what``, else who moves or what a chance entry decides) and whose view it is."""
    if not what:
        if state.is_terminal():
            what = "game over"
        elif state.is_chance_node():
            what = f"to enter: {entry_name(state)}"
        else:
            what = f"P{state.current_player() + 1} to move"
    return f"--- {what}; your view (P{viewer + 1}) ---"


def setup_conventions(state) -> str:
    """The game's set-up conventions for a player at a real table (a meeple game's
    ``setup_conventions()``, from its text module); "" for other games."""
    conventions = getattr(state, "setup_conventions", None)
    return "" if conventions is None else str(conventions())


def default_hint_agent() -> str:
    # Two seconds of search: a hint must come quickly in every game (full IS-MCTS rollouts
    # run at ~30 sims/s in 4-player Rococo but ~500 in Coloretto).
    for kind, spec in (("ismcts", "ismcts(time=2)"), ("mcts", "mcts(time=2)")):
        if kind in KINDS:
            return spec
    return "heuristic"


def checked_hint_agent(spec: str | AgentSpec | None, game) -> AgentSpec:
    """The hint agent (``spec``, default ``default_hint_agent()``), built once on ``game``:
    a file it needs (a policy, a blueprint, a value model) that is missing or not for this
    game is refused before play starts, as an AI seat's is, not at the first ``hint``."""
    spec = spec or default_hint_agent()
    try:
        resolved = resolve(spec)
        resolved.make(game, 0)
    except MeepleError as e:
        raise PlayError(f"the hint agent {spec}: {one_line(e)}") from None
    return resolved


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


def choose(legal: list[tuple[int, str]], text: str) -> int:
    """The action a human typed: a 1-based number, or a name by the one matching rule of
    every game (spiel_games.common.naming.match: exact, then up to case and spacing, then
    the one it uniquely begins, then the one it uniquely ends as whole words); the details
    a menu line adds in brackets (``menu_name``) may be copied along."""
    t = text.strip()
    t = re.sub(r"\s+\[[^\[\]]*\]$", "", t) or t  # a menu line's "[details]" copied along
    if re.fullmatch(r"[0-9]+", t):  # ASCII digits: int() also reads "١" and "１"
        k = int(t) if len(t) <= 18 else 0  # int() refuses over 4300 digits
        if 1 <= k <= len(legal):
            return legal[k - 1][0]
        shown = t if len(t) <= 18 else t[:18] + "..."
        raise ValueError(f"no move number {shown}: choose 1-{len(legal)}, a move name, or 'help'")
    try:  # NoMatch (a ValueError): with candidates when ambiguous, else none named
        return match(legal, t)
    except NoMatch as e:
        if e.candidates:
            raise NoMatch(f"{t!r} is ambiguous: " + ", ".join(e.candidates), e.candidates) from None
    raise NoMatch(
        f"{t!r} is not a legal move or command: type a number 1-{len(legal)}, a move name, or 'help'"
    )


def fmt_num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"
