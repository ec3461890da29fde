"""The one error base class of meeple-arena.

Every domain error (a bad game string, config, agent spec, policy file, history, ledger,
query...) derives from :class:`MeepleError`, and its message is one line written for the
user. The command line turns any MeepleError into ``error: <message>`` and a non-zero exit
in one place (``tournament.cli.common``); anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class MeepleError(ValueError):
    """A problem with the user's input; ``str(error)`` is one line for the user."""


class ConfigError(MeepleError):
    """A bad configuration: a game parameter outside what the rules allow (every game's
    rules.py, through ``common.utility``), or a bad tournament config (tournament.config)."""


class GameStringError(MeepleError):
    """A game string that does not load (``spiel_games.load_game``)."""


MAX_LINE = 2000  # an error echoing a 3 MB input stays a readable line
_HEAD = 1000  # kept from the start of a longer line; the rest from its end (the reason)


def one_line(error: BaseException) -> str:
    """The first line of an error's message (its type name when the message is empty); a
    line over ``MAX_LINE`` characters keeps its start and its end (where the reason
    usually follows an echoed input) and says how many characters were cut between."""
    text = str(error.args[0] if isinstance(error, KeyError) and error.args else error).strip()
    line = text.splitlines()[0] if text else type(error).__name__
    if len(line) > MAX_LINE:
        tail = MAX_LINE - _HEAD
        line = f"{line[:_HEAD]} ... ({len(line) - MAX_LINE} characters cut) ... {line[-tail:]}"
    return line
