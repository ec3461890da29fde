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


class ForeignOutputError(MeepleError):
    """A run's output (``--out``, the checkpoint beside it) holds something that is not
    this request's run: another request's ledger, checkpoint or log, or other files. Found
    before any work, and mended only by another command line (another ``--out``), so the
    command line turns it into exit status 2 (a wrong command line) whatever the command;
    a damaged run of this very request (a corrupt file) is exit 1."""


MAX_LINE = 2000  # an error echoing a 3 MB input stays a readable line
_HEAD = 1000  # kept from the start of a longer line; the rest from its end (the reason)
_MARK = 40  # room for the " ... (N characters cut) ... " between them


def one_line(error: BaseException | str) -> str:
    """The first line of an error's message, or of a message (its type name, or "error"
    for a message, when it is empty); a line over ``MAX_LINE`` characters keeps its start
    and its end (where the reason usually follows an echoed input) and says how many
    characters were cut between, in at most ``MAX_LINE`` characters (so a cut line is
    left as it is by a second cut)."""
    if isinstance(error, str):
        text, empty = error.strip(), "error"
    else:
        text = str(error.args[0] if isinstance(error, KeyError) and error.args else error).strip()
        empty = type(error).__name__
    line = text.splitlines()[0] if text else empty
    if len(line) > MAX_LINE:
        tail = MAX_LINE - _MARK - _HEAD
        cut = len(line) - _HEAD - tail
        line = f"{line[:_HEAD]} ... ({cut} characters cut) ... {line[-tail:]}"
    return line
