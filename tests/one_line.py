"""What every bad input must give on a command line: one line ``error: ...`` and the exit
code asked, never a traceback (the standard in the developers' guide)."""

from __future__ import annotations


def one_line_error(r, code: int) -> str:
    """The one error line of a CliRunner result ``r`` that exited with ``code``."""
    assert r.exit_code == code, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    return lines[0]
