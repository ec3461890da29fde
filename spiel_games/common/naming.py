"""Moves by their names, for every game: scenario tests, docs, advice histories.

A move is named by its action string (a chance outcome by its chance string), so each
game's ``action_to_string`` is the vocabulary. One matching rule (``match``) everywhere:

1. the option whose string is exactly the name;
2. else the one option whose string equals the name up to case and spacing;
3. else the one option whose string begins with the name (up to case and spacing), so
   ``place r2c3`` names ``place r2c3 (Workshop)``;
4. else the one option whose string ends with the name as whole words (up to case and
   spacing), so ``blue`` names ``start: blue`` and ``P2`` names ``start player: P2``
   where no option begins with them (``row 2`` among ``take row 2`` and ``place yellow in
   row 2`` is refused as ambiguous).

Anything else (no option, or several) is refused with a ``NoMatch`` naming the name and
the options: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Sequence

from spiel_games.common.engine import CHANCE

__all__ = [
    "NoMatch",
    "find_action",
    "legal_strings",
    "match",
    "mover",
    "named_options",
    "options",
    "play",
]


class NoMatch(ValueError):
    """A name that names no option, or several (``candidates`` lists them, if several)."""

    def __init__(self, message: str, candidates: Sequence[str] = ()):
        super().__init__(message)
        self.candidates = tuple(candidates)


def mover(state) -> int:
    """Who moves at ``state``: CHANCE at a chance node, else ``current_player()`` (the
    player to decide, or TERMINAL at the end)."""
    return CHANCE if state.is_chance_node() else state.current_player()


def options(state) -> list[int]:
    """The chance outcomes or legal actions at ``state``, sorted (none at the end)."""
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return sorted(int(a) for a, _ in state.chance_outcomes())
    return sorted(int(a) for a in state.legal_actions())


def named_options(state) -> list[tuple[int, str]]:
    """(id, string) of every chance outcome or legal action at ``state``."""
    p = mover(state)
    return [(a, state.action_to_string(p, a)) for a in options(state)]


def legal_strings(state) -> list[str]:
    """The strings of every chance outcome or legal action at ``state``."""
    return [name for _, name in named_options(state)]


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def _ends_with_words(text: str, key: str) -> bool:
    """``text`` ends with ``key`` after a space or a colon (a whole word: ``king`` ends
    ``B tile: king``, not ``B tile: after_king``; ``y+l`` ends no tile ``Y-y+l``), and
    ``key`` holds a letter (a bare number is a menu's, never a move's ending)."""
    if not text.endswith(key) or len(text) == len(key) or not any(c.isalpha() for c in key):
        return False
    return text[-len(key) - 1] in " :"


def match(named: Sequence[tuple[int, str]], name: str) -> int:
    """The id of the one option that ``name`` names (the module's rule); NoMatch if
    none or several do."""
    exact = [a for a, s in named if s == name]
    if len(exact) == 1:
        return exact[0]
    key = _norm(name)
    same = [a for a, s in named if _norm(s) == key]
    if len(same) == 1:
        return same[0]
    starts = [(a, s) for a, s in named if _norm(s).startswith(key)] if key else []
    if len(starts) == 1:
        return starts[0][0]
    if not starts and key:
        starts = [(a, s) for a, s in named if _ends_with_words(_norm(s), key)]
        if len(starts) == 1:
            return starts[0][0]
    if starts:
        names = [s for _, s in starts]
        raise NoMatch(f"{name!r} is ambiguous: {', '.join(names)}", names)
    raise NoMatch(f"{name!r} names none of: {', '.join(s for _, s in named) or 'nothing'}")


def find_action(state, name: str) -> int:
    """The id of the chance outcome or legal action that ``name`` names at ``state``."""
    if state.is_terminal():
        raise NoMatch(f"{name!r}: the game is over")
    return match(named_options(state), name)


def play(state, *names: str):
    """Apply moves and chance outcomes by their names, in order; returns ``state``."""
    for name in names:
        state.apply_action(find_action(state, name))
    return state
