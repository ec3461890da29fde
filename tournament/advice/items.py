"""History items: matching one action string (or id) against the legal options at a state.

Each item is matched against the action strings of the legal actions (or the chance
outcomes) at its position, so every game's own ``action_to_string`` is the vocabulary.
An item that matches nothing is an error naming its position (1-based) and listing what
was legal there; nothing is ever guessed.
"""

from __future__ import annotations

import re

from spiel_games.common.engine import CHANCE
from spiel_games.common.naming import NoMatch, match, options
from spiel_games.common.naming import named_options as legal_strings
from tournament.records import HistoryError, NoRecordError

__all__ = [
    "CHANCE",
    "HistoryError",
    "NoRecordError",
    "NoValuesError",
    "PlayerRangeError",
    "check_player",
    "legal_strings",
    "parse_action",
    "split_history",
]


def parse_action(state, item, position: int) -> int:
    """The action id that ``item`` (an action string, or an int id) names at ``state``, by
    the one matching rule of every game (spiel_games.common.naming.match: the exact
    string, else the one equal up to case and spacing, else the one it uniquely begins, else
    the one it uniquely ends as whole words).

    ``position`` (1-based) is only used in error messages.
    """
    if state.is_terminal():
        raise HistoryError(f"history item {position} ({item!r}): the game is already over")
    if isinstance(item, bool) or not isinstance(item, (int, str)):
        raise HistoryError(f"history item {position}: expected an action string, got {item!r}")
    if isinstance(item, int):
        if item in options(state):  # an id needs no names (a long history of ids replays faster)
            return item
        legal = legal_strings(state)
        raise HistoryError(
            f"history item {position} (id {item}): not legal here; legal: {_list(legal)}"
        )
    legal = legal_strings(state)
    text = _unprefixed(state, legal, item.strip())
    try:
        return match(legal, text)
    except NoMatch as e:
        who = "chance" if state.is_chance_node() else f"P{state.current_player() + 1}"
        if e.candidates:
            raise HistoryError(
                f"history item {position} ({text!r}) is ambiguous for {who}: "
                + ", ".join(e.candidates)
            ) from None
        raise HistoryError(
            f"history item {position} ({text!r}) is not a legal action for {who}; "
            f"legal: {_list(legal)}"
        ) from None


PV_CHANCE = "chance:"  # how an advice line (pv) marks a chance outcome


def _unprefixed(state, legal: list[tuple[int, str]], text: str) -> str:
    """A chance outcome as an advice line writes it (``chance: deck: blue``) is the outcome
    itself, so a line pasted back into a history replays; no game's outcome reads so."""
    if not state.is_chance_node() or not text.lower().startswith(PV_CHANCE):
        return text
    if any(s.lower().startswith(PV_CHANCE) for _, s in legal):
        return text
    return text[len(PV_CHANCE) :].strip()


def _list(legal: list[tuple[int, str]], limit: int = 40) -> str:
    names = [s for _, s in legal]
    if len(names) > limit:
        return ", ".join(names[:limit]) + f", ... ({len(names)} in all)"
    return ", ".join(names) or "none"


def split_history(history) -> list:
    """A history as a list of items: a ``;``-separated string, or a list of strings/ids.
    Blank items are skipped in both (was: the string's, while the list's were refused as
    an illegal action, so one history read two ways)."""
    if history is None:
        return []
    if isinstance(history, str):
        return [t.strip() for t in history.split(";") if t.strip()]
    if isinstance(history, (list, tuple)):
        return [t for t in history if not (isinstance(t, str) and not t.strip())]
    raise HistoryError(
        f"history must be a ';'-separated string or a list, got {type(history).__name__}"
    )


_PLAYER = re.compile(r"([pP]?)([0-9]{1,6})")


def parse_player(text: str) -> int | None:
    """A player as a user names one: an id (0, 1, ...) or a seat name (P1 = id 0, P2, ...);
    None when the text is neither. ASCII digits only, at most six: "²" passes
    ``str.isdigit`` but not ``int`` (was a traceback), and a 5,000-digit id passes both
    but exceeds ``int``'s limit for text."""
    m = _PLAYER.fullmatch(text.strip())
    if m is None:
        return None
    n = int(m.group(2))
    return n - 1 if m.group(1) else n


class NoValuesError(HistoryError):
    """The review's agent values no move (a plain player, a trained table): no loss can
    be measured with it."""


class PlayerRangeError(HistoryError):
    """A player id outside the game, or none where one is needed (on a command line: a
    wrong command line, exit 2)."""


def check_player(game, player: int | None) -> None:
    """Refuse a player id outside the game, naming it as the user wrote it (P1 = id 0)."""
    n = game.num_players()
    if player is not None and not 0 <= player < n:
        who = f"P{player + 1} (id {player})" if player >= 0 else f"id {player}"  # no "P0"
        raise PlayerRangeError(
            f"player {who} is out of range: this game has P1-P{n} (ids 0-{n - 1})"
        )
