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


def _ignore_sighup():
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_the_hang_up_tests_pass_when_the_run_starts_with_sighup_ignored():
    """Was (`nohup make test`): 2 failures, the in-process stop-signal test ("DID NOT
    RAISE Stopped") and `meeple play`'s hang-up test (the child outlived its SIGHUP, the
    test's 60 s wait ran out): the ignore was inherited, and `meeple` rightly keeps it."""
    tests = [
        "tests/cli/test_termination.py::test_stop_signals_raise_stopped_and_say_which",
        "tests/advice/test_saving.py::test_a_hang_up_or_termination_keeps_the_moves",
    ]
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
        cwd=ROOT,
        capture_output=True,
        preexec_fn=_ignore_sighup,
        timeout=240,
    )
    assert r.returncode == 0, r.stdout.decode()[-2000:]
