"""JSON read from files a user, another program or a crash may have damaged: every way
such a text fails to be read is a ``ValueError``, so a reader's ``except ValueError``
refuses the file in its usual one line.

``json.loads`` alone lets two through: arrays or objects nested deeper than Python's
recursion limit (``[[[...]]]``, 100,000 levels) raise ``RecursionError``, which is no
ValueError (was a traceback in every state file reader: a ledger's manifest, ``meeple
tune``'s request and log, an MCCFR checkpoint, an SPRT's bounds, the positions of ``meeple
train``); and an integer of over 4,300 digits raises a ValueError that is no
``JSONDecodeError`` (readers that caught only that one let it through).
"""

from __future__ import annotations

import json
from typing import Any


class NotJson(ValueError):
    """A text json cannot turn into Python values: nested too deeply, or a number of more
    than 4,300 digits; ``str``: the reason, one line."""


def loads(data: str | bytes | bytearray) -> Any:
    """``json.loads(data)``; ``NotJson`` for a text nested too deeply or holding a number
    of more than 4,300 digits, json's ``JSONDecodeError`` (and ``UnicodeDecodeError`` for
    bytes that are not UTF-8 text) as before: all ValueErrors."""
    try:
        return json.loads(data)
    except RecursionError:
        raise NotJson("nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:  # int's limit for text (sys.get_int_max_str_digits)
        raise NotJson("a number of more than 4,300 digits") from None
