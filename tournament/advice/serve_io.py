"""The advice engine's lines (``meeple advise --serve``): reading a query, writing an answer.

The protocol is UTF-8 whatever the locale: the engine reads its input as bytes and decodes
each line as UTF-8 (a line that is not answers an error, ``id`` null, and the engine goes
on), and writes ASCII JSON (``json.dumps`` escapes every other character), one answer a
line, never ``NaN`` or ``Infinity``: advice writes what was not measured as ``null``, and a
non-finite number that still reaches the writer is answered as an error instead of a line
that strict JSON parsers refuse.
"""

from __future__ import annotations

import io
import json
import math
import sys
from typing import IO

from spiel_games.common.errors import one_line
from tournament.records import json_reason

JSON_SPACE = " \t\r\n"  # the whitespace JSON allows around a value (str.strip takes more)


class NotFinite(ValueError):
    """A number JSON cannot carry: NaN, Infinity, or one too large for a float (1e400)."""


BLANK = object()  # what a blank line holds: no query, and no answer (a JSON null is a value)


def parse_line(raw: str | bytes) -> tuple[object, dict | None]:
    """(the line's JSON value, None), or (None, the error answer); (BLANK, None) for a blank
    line (JSON whitespace only), which has no answer."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad = f"byte 0x{e.object[e.start]:02x} at byte {e.start + 1}"
            return None, {"id": None, "error": f"the line is not valid UTF-8 ({bad})"}
    line = raw
    if not line.strip(JSON_SPACE):
        return BLANK, None
    try:
        return json.loads(line, parse_constant=_not_finite, parse_float=_finite), None
    except json.JSONDecodeError as e:
        why = json_reason(e)
        return None, {"id": None, "error": f"malformed JSON: {why} at column {e.colno}"}
    except ValueError as e:  # NaN, Infinity, 1e400, an integer of over 4300 digits
        return None, {"id": None, "error": f"malformed JSON: {one_line(e)}"}
    except RecursionError:
        return None, {"id": None, "error": "malformed JSON: nested too deeply"}


def _not_finite(text: str) -> float:
    raise NotFinite(f"{text} is not a JSON number")


def _finite(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise NotFinite(f"the number {text[:20]} is out of range")
    return x


def key(qid) -> str:
    """A query id as a dict key: ids are any JSON value but null, lists and objects
    included (one nested too deeply to write back is keyed by its identity)."""
    try:
        return json.dumps(qid, sort_keys=True)
    except (RecursionError, ValueError, TypeError):
        return f"id {id(qid)}"


def dumps(answer: dict) -> str:
    """One answer as one line of ASCII JSON without NaN or Infinity (see the module's doc)."""
    try:
        return json.dumps(answer, allow_nan=False)
    except (RecursionError, ValueError, TypeError):
        pass
    qid = answer.get("id")
    try:
        json.dumps(qid, allow_nan=False)
    except (RecursionError, ValueError, TypeError):  # an id that cannot be written back
        return json.dumps({"id": None, "error": "the query id cannot be written back as JSON"})
    why = "internal error: the answer held a number JSON cannot carry (NaN or Infinity)"
    return json.dumps({"id": qid, "error": why})


class Lines:
    """Where answers go: a text stream, or a binary one written as UTF-8 (the standard
    output's buffer, so that the locale's encoding plays no part)."""

    def __init__(self, out: IO) -> None:
        self.out = out
        self.binary = not isinstance(out, io.TextIOBase)

    def write(self, line: str) -> None:
        self.out.write(line.encode("utf-8") if self.binary else line)
        self.out.flush()


def standard_streams() -> tuple[IO, IO | None]:
    """(input, output) as bytes: the standard input's buffer (no input when it is closed:
    end of input at once) and the standard output's (None when it is closed)."""
    inp = sys.stdin.buffer if sys.stdin is not None else io.BytesIO()
    out = sys.stdout.buffer if sys.stdout is not None else None
    return inp, out
