"""The suite passes when started with SIGINT ignored, as a shell without job control starts
a background ``make test &`` (tests/conftest.py restores Ctrl-C)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_the_ctrl_c_tests_pass_when_the_run_starts_with_sigint_ignored():
    """Was: 4 failures in tests/advice/test_play_kept.py (exit 0, not 130: the ignore was
    inherited by pytest and by every `meeple play` child)."""
    test = "tests/advice/test_play_kept.py::test_a_stop_signal_while_the_game_is_kept_waits_or_is_dropped"
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
        cwd=ROOT,
        capture_output=True,
        preexec_fn=_ignore_sigint,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout.decode()[-2000:]
