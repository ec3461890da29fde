"""How a `meeple play` session talks and stops: the lines it prints, the lines it reads
(one that is not UTF-8 is asked again) and the game kept on every way out of it.

``SessionIO`` is the part of ``PlaySession`` that does this. The game is kept once
(``_keep``), with Ctrl-C, SIGHUP and SIGTERM held meanwhile, whether the session ends by
``quit``, end of input, a stop signal or an error (was: only ``quit``, end of input and
stop signals kept it; a line that was not UTF-8, or stdout's reader gone, ended the
session with nothing written, and a second Ctrl-C a few milliseconds after the first
broke off the write, leaving an empty recovery file).
"""

from __future__ import annotations

import contextlib
import re
from typing import IO

from tournament.advice.advise_text import count
from tournament.advice.saving import RecordKeeper
from tournament.signals import deferred_stops, stop_words

KEPT = {"saved": "the game is saved", "recovered": "the game is kept in a recovery file"}
KEPT["lost"] = "the game could NOT be saved"  # what a stopped session says it kept
NOT_UTF8 = "could not read that line (not UTF-8?): type it again"
_ESCAPED = re.compile("[\udc80-\udcff]")  # bytes that did not decode (surrogateescape)


def lenient(inp: IO[str]) -> IO[str]:
    """``inp``, its undecodable bytes read as such instead of raising: a strict decoder
    drops the rest of what it had buffered, so no later line could be read either."""
    if getattr(inp, "errors", None) == "strict" and hasattr(inp, "reconfigure"):
        with contextlib.suppress(ValueError, OSError):  # io.UnsupportedOperation is both
            inp.reconfigure(errors="surrogateescape")
    return inp


class SessionIO:
    """Output, input and keeping the game of a play session (a mixin of ``PlaySession``)."""

    # What the mixin uses of the session (set in PlaySession.__init__).
    inp: IO[str]
    out: IO[str]
    err: IO[str] | None
    files: RecordKeeper
    items: list
    _kept: str | None = None  # what the stop kept, once it has

    def say(self, text: str = "", stream: IO[str] | None = None) -> None:
        try:
            (stream or self.out).write(text + "\n")
            (stream or self.out).flush()
        except OSError:  # the terminal is gone (a hang-up): the game is still kept
            pass

    def warn(self, text: str) -> None:
        """A failure to save or keep the game: on ``err`` (stderr at a terminal)."""
        self.say(text, self.err)

    def _read(self, prompt: str) -> str | None:
        """The next non-empty input line, or None at end of input."""
        while True:
            self.out.write(prompt)  # a closed stdout raises here: ``run`` keeps the game
            self.out.flush()
            try:
                line = self.inp.readline()
            except UnicodeDecodeError:  # a strict stream ``lenient`` could not change
                self.say(NOT_UTF8)
                continue  # what it buffered is gone: most likely end of input next
            if line == "":
                self.say("")
                self.say("end of input: stopping")
                return None
            if _ESCAPED.search(line):
                self.say(NOT_UTF8)
                continue
            if line.strip():
                return line.strip()

    def _keep(self, redeliver: bool = True) -> str:
        """Keep the game (``RecordKeeper.keep``) once, whichever way the session ends; a
        stop signal meanwhile waits until it is written (``redeliver``) or is dropped."""
        if self._kept is None:
            with deferred_stops(redeliver):
                self._kept = self.files.keep()
        return self._kept

    def _stopped(self, stop: KeyboardInterrupt) -> str:
        """Ctrl-C or a hang-up or termination signal: the game kept and the stop said in
        one line; another such signal meanwhile is ignored (the session stops already)."""
        with deferred_stops(redeliver=False):
            self.say("")
            kept = self._keep()
            word = stop_words(stop)[0]  # interrupted, terminated, hung up
            clean = f"{word} after {count(len(self.items), 'action')} (nothing unsaved)"
            self.say(clean if kept == "clean" else f"{word}: {KEPT[kept]}")
        return kept
