"""`meeple play` keeps the game on every way out of a session (docs/advice.md, "Your work
is never dropped"). Each test names how a game used to be lost: an input line that is not
UTF-8, or stdout's reader gone, ended the session with nothing written (neither --save nor a
recovery file); a second Ctrl-C a few milliseconds after the first broke off the write and
left an empty recovery file; a full disk under the recovery folder left an empty file and
the moves printed nowhere."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from tournament.advice.play import PlaySession
from tournament.advice.positions import read_record
from tournament.cli import app

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
SEATS = ["human", "heuristic"]
CLI = [sys.executable, "-m", "tournament.cli", "play", TINY, "--seats", "human,heuristic"]


def strict(data: bytes) -> io.TextIOWrapper:
    """Standard input as a UTF-8 terminal gives it: a strict decoder."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict")


def test_a_line_that_is_not_utf8_is_asked_again(tmp_path):
    """Was: UnicodeDecodeError, a traceback, exit 1, no --save file, no recovery file."""
    path = tmp_path / "g.json"
    out = io.StringIO()
    session = PlaySession(
        TINY, SEATS, 3, inp=strict(b"1\ncaf\xe9\n1\nquit\n"), out=out, save_path=str(path)
    )
    result = session.run()
    text = out.getvalue()
    assert text.count("could not read that line (not UTF-8?): type it again") == 1
    typed = [a for a, t in zip(result.items, session.typed, strict=True) if t]
    assert len(typed) == 2  # the lines before and after the bad one were both played
    assert read_record(path).action_ids() == result.actions


def test_the_cli_reads_on_after_a_line_that_is_not_utf8(tmp_path):
    path = tmp_path / "us.json"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    r = subprocess.run(
        [*CLI, "--save", str(path)], input=b"1\ncaf\xe9\nquit\n", capture_output=True, env=env
    )
    assert r.returncode == 0, r.stderr.decode()
    assert b"could not read that line (not UTF-8?)" in r.stdout and b"Traceback" not in r.stderr
    assert len(read_record(path).actions) > 3


class Closing(io.StringIO):
    """A stdout whose reader goes away after ``lines`` newlines."""

    def __init__(self, lines: int):
        super().__init__()
        self.left = lines

    def write(self, text: str) -> int:
        self.left -= text.count("\n")
        if self.left < 0:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


@pytest.mark.parametrize("save", [True, False])
def test_an_error_out_of_the_session_keeps_the_game_first(tmp_path, recovery_dir, save):
    """Was: only Ctrl-C and the stop signals kept the game; any other exception (here
    stdout's reader gone at a prompt) left the session with nothing written."""
    path = tmp_path / "g.json"
    kw = {"save_path": str(path)} if save else {}
    session = PlaySession(TINY, SEATS, 3, inp=io.StringIO("1\n" * 9), out=Closing(40), **kw)
    with pytest.raises(BrokenPipeError):
        session.run()
    assert any(session.typed)
    kept = path if save else next(iter(recovery_dir.glob("*.json")))
    assert read_record(kept).items() == session.items


def test_a_bug_in_the_session_keeps_the_game_then_raises(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    session = PlaySession(
        TINY, SEATS, 3, inp=io.StringIO("1\n1\n1\n"), out=io.StringIO(), save_path=str(path)
    )
    calls = []

    def broken(p):
        calls.append(p)
        if len(calls) == 2:
            raise RuntimeError("a bug")
        return real(p)

    real = session._show
    monkeypatch.setattr(session, "_show", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        session.run()
    assert read_record(path).items() == session.items and any(session.typed)


def test_stdout_gone_exits_141_after_the_save(tmp_path):
    """Was: exit 141 with nothing kept (README: files are written before the quiet 141)."""
    path = tmp_path / "bp.json"
    proc = subprocess.Popen(
        [*CLI, "--save", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(b"1\n")
    proc.stdin.flush()
    proc.stdout.read(200)  # the session runs
    proc.stdout.close()  # the reader goes away (| head)
    proc.stdin.write(b"1\n1\n1\n")
    proc.stdin.close()
    assert proc.wait(timeout=120) == 141
    assert len(read_record(path).actions) > 3


def test_a_stop_signal_while_the_game_is_kept_waits_or_is_dropped():
    from tournament.signals import deferred_stops

    with pytest.raises(KeyboardInterrupt), deferred_stops():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # held: not raised here
        done = True
    assert done
    with deferred_stops(redeliver=False):  # the session stops already: dropped
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)


def test_an_interrupted_recovery_write_leaves_no_empty_file(recovery_dir, monkeypatch):
    """Was: the name was taken with an empty file first, and a Ctrl-C or a full disk in
    the write left it there (a 0-byte record --load refuses)."""
    from tournament.advice import saving

    def interrupted(path, text):
        raise KeyboardInterrupt

    monkeypatch.setattr(saving, "atomic_write_text", interrupted)
    session = PlaySession(TINY, SEATS, 3, inp=io.StringIO("1\nquit\n"), out=io.StringIO())
    with pytest.raises(KeyboardInterrupt):
        session.files._recovery_file(session.record())
    assert list(recovery_dir.iterdir()) == []


@pytest.mark.parametrize("gap", [0.001, 0.02, 0.05])
def test_two_ctrl_c_a_moment_apart_keep_the_game_and_exit_130(tmp_path, gap):
    """Was (4 times in 4, 1 ms apart): the second Ctrl-C broke off the recovery write; an
    empty coloretto-1.json was left, and the command ended silently with 130. Then (3
    times in 3 at 20 and at 50 ms): the game kept, but the second Ctrl-C landed while
    Python shut down and the process died of SIGINT (status -2) instead of exiting 130."""
    recovery = tmp_path / "recovery"
    env = {**os.environ, "MEEPLE_RECOVERY_DIR": str(recovery)}
    proc = subprocess.Popen(
        CLI, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(b"1\n")
    proc.stdin.flush()
    seen = b""
    while seen.count(b"P1> ") < 2:  # the move is played and the next prompt waits
        chunk = proc.stdout.read1(4096)
        assert chunk, seen.decode()
        seen += chunk
    proc.send_signal(signal.SIGINT)
    time.sleep(gap)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"interrupted: the game is kept in a recovery file" in out
    (kept,) = recovery.iterdir()
    assert len(read_record(kept).actions) > 3


def test_unsaved_moves_that_no_file_takes_are_printed_to_type_again(recovery_dir, monkeypatch):
    """Was: "error: 1 unsaved actions could NOT be kept", an empty recovery file, and the
    moves nowhere."""
    replace = os.replace

    def full_disk(src, dst):
        if str(recovery_dir) in os.fspath(dst):
            raise OSError(28, "No space left on device")
        replace(src, dst)

    monkeypatch.setattr(os, "replace", full_disk)
    r = CliRunner().invoke(app, ["play", TINY, "--seats", "human,heuristic"], input="1\nquit\n")
    assert r.exit_code == 1
    assert list(recovery_dir.iterdir()) == []
    first, history = r.stderr.splitlines()[-2:]
    assert first.startswith("error: 1 unsaved action could NOT be kept: No space left on device")
    assert "seed 0, seats human,heuristic" in first and "meeple advise --history" in first
    assert history.startswith("start: ") and "; draw; " in history
