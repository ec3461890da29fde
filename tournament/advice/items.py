"""History items: matching one action string (or id) against the legal options at a state.

Each item is matched against the action strings of the legal actions (or the chance
outcomes) at its position, so every game's own ``action_to_string`` is the vocabulary.
An item that matches nothing is an error naming its position (1-based) and listing what
was legal there; nothing is ever guessed.
"""

from __future__ import annotations

from spiel_games.common.errors import MeepleError

CHANCE = -1


class HistoryError(MeepleError):
    """A history or game record that does not describe a legal position (one-line message)."""


def legal_strings(state) -> list[tuple[int, str]]:
    """(action id, action string) for every legal action or chance outcome at ``state``."""
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return [(int(a), state.action_to_string(CHANCE, a)) for a, _ in state.chance_outcomes()]
    p = state.current_player()
    return [(int(a), state.action_to_string(p, a)) for a in state.legal_actions()]


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def parse_action(state, item, position: int) -> int:
    """The action id that ``item`` (an action string, or an int id) names at ``state``.

    ``position`` (1-based) is only used in error messages.
    """
    if state.is_terminal():
        raise HistoryError(f"history item {position} ({item!r}): the game is already over")
    legal = legal_strings(state)
    if isinstance(item, bool) or not isinstance(item, (int, str)):
        raise HistoryError(f"history item {position}: expected an action string, got {item!r}")
    if isinstance(item, int):
        for a, _ in legal:
            if a == item:
                return a
        raise HistoryError(
            f"history item {position} (id {item}): not legal here; legal: {_list(legal)}"
        )
    text = item.strip()
    exact = [a for a, s in legal if s == text]
    if len(exact) == 1:
        return exact[0]
    loose = [a for a, s in legal if _norm(s) == _norm(text)]
    if len(loose) == 1:
        return loose[0]
    who = "chance" if state.is_chance_node() else f"P{state.current_player() + 1}"
    raise HistoryError(
        f"history item {position} ({text!r}) is not a legal action for {who}; legal: {_list(legal)}"
    )


def _list(legal: list[tuple[int, str]], limit: int = 40) -> str:
    names = [s for _, s in legal]
    if len(names) > limit:
        return ", ".join(names[:limit]) + f", ... ({len(names)} in all)"
    return ", ".join(names) or "none"


def split_history(history) -> list:
    """A history as a list of items: a ``;``-separated string, or a list of strings/ids."""
    if history is None:
        return []
    if isinstance(history, str):
        return [t.strip() for t in history.split(";") if t.strip()]
    if isinstance(history, (list, tuple)):
        return list(history)
    raise HistoryError(
        f"history must be a ';'-separated string or a list, got {type(history).__name__}"
    )


def check_player(game, player: int | None) -> None:
    """Refuse a player id outside the game, naming it as the user wrote it (P1 = id 0)."""
    n = game.num_players()
    if player is not None and not 0 <= player < n:
        raise HistoryError(
            f"player P{player + 1} (id {player}) is out of range: this game has P1-P{n} (ids 0-{n - 1})"
        )
