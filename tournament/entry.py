"""The `meeple` console script. It loads the command's modules itself, so that a Ctrl-C
while they load (the first second or so) ends in one line and exit status 130, as a
command stopped later does (was: a KeyboardInterrupt traceback from an import)."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from tournament.cli import main as run  # deferred: a Ctrl-C while it loads
    except KeyboardInterrupt:
        print("error: interrupted before the command started; nothing was done", file=sys.stderr)
        raise SystemExit(130) from None
    run()
