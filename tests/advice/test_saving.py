"""Table mode and `meeple play` keep the player's work (issue 29, item 6).

Each test names the way a game used to be lost: a --save path that overwrote an existing
record at the first save, quit or end of input (even with no move played); quit and end
of input without --save that dropped the moves silently; a bare `save` after --load that
asked for a name instead of writing back; a save that could leave a torn file.
"""

from __future__ import annotations

import io
import os

import pytest
from typer.testing import CliRunner

from tests.stop_signals import default_stops
from tournament.advice.play import PlaySession
from tournament.advice.positions import read_record
from tournament.advice.saving import RecordKeeper, SaveRefused, check_save_path
from tournament.cli import app

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
SEATS = ["human", "heuristic"]
OTHER = '{"precious": "a record of another game"}\n'


def session(lines: str, **kw) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    return PlaySession(TINY, SEATS, 3, inp=io.StringIO(lines), out=out, **kw), out


def test_save_path_that_exists_is_refused_before_the_game_starts(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(OTHER)
    with pytest.raises(SaveRefused, match="exists; continue it with --load"):
        session("quit\n", save_path=str(path))
    assert path.read_text() == OTHER


def test_cli_save_over_an_existing_record_with_no_move_leaves_it_intact(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(OTHER)
    r = CliRunner().invoke(app, ["play", TINY, "--seats", "human,heuristic", "--save", str(path)])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        f"error: --save {str(path)!r} exists; continue it with --load {str(path)!r},"
        " or pass --force to overwrite it"
    ]
    assert path.read_text() == OTHER


def test_force_lets_save_overwrite_an_existing_file(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(OTHER)
    s, _ = session("1\nquit\n", save_path=str(path), force=True)
    result = s.run()
    assert read_record(path).action_ids() == result.actions


def test_save_command_refuses_a_file_the_session_does_not_own(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(OTHER)
    s, out = session(f"1\nsave {path}\nsave {path} --force\n1\nsave {path}\nquit\n")
    result = s.run()
    text = out.getvalue()
    assert f"'{path}' exists and is not this game's record: 'save {path} --force'" in text
    # Once written by this session the file is its own: the later plain save updates it.
    assert text.count("exists and is not this game's record") == 1
    assert read_record(path).action_ids() == result.actions


def test_quit_without_save_keeps_the_moves_in_a_recovery_file(recovery_dir):
    s, out = session("1\n1\nquit\n")
    result = s.run()
    files = list(recovery_dir.glob("coloretto-*.json"))
    assert len(files) == 1 and result.saved == [str(files[0])]
    assert read_record(files[0]).action_ids() == result.actions and result.actions
    assert "warning: the game was not saved (2 of your entries no saved file holds)" in (
        out.getvalue()
    )
    assert f"meeple play --load {files[0]}" in out.getvalue()


def test_end_of_input_without_save_keeps_the_moves_in_a_recovery_file(recovery_dir):
    s, _ = session("1\n")  # Ctrl-D after one move
    result = s.run()
    (path,) = recovery_dir.glob("*.json")
    assert read_record(path).action_ids() == result.actions


def test_a_second_recovery_never_overwrites_the_first(recovery_dir):
    session("1\nquit\n")[0].run()
    session("1\n1\nquit\n")[0].run()
    files = sorted(recovery_dir.glob("*.json"))
    assert len(files) == 2
    assert sorted(len(read_record(f).actions) for f in files) != [0, 0]


def test_quit_with_nothing_unsaved_writes_no_recovery_file(recovery_dir, tmp_path):
    s, out = session("quit\n")
    s.run()
    assert not recovery_dir.exists() or not list(recovery_dir.iterdir())
    assert "warning" not in out.getvalue()
    # Saved, then quit: nothing new, no recovery file either.
    path = tmp_path / "g.json"
    s, _ = session(f"1\nsave {path}\nquit\n")
    s.run()
    assert not recovery_dir.exists() or not list(recovery_dir.iterdir())


def test_bare_save_after_load_writes_back_to_the_loaded_record(tmp_path):
    path = tmp_path / "g.json"
    first, _ = session(f"1\nsave {path}\nquit\n")
    first.run()
    record = read_record(path)
    out = io.StringIO()
    second = PlaySession(
        TINY,
        SEATS,
        3,
        inp=io.StringIO("1\nsave\nquit\n"),
        out=out,
        record=record,
        load_path=str(path),
    )
    result = second.run()
    assert f"saved {len(result.actions)} actions to {path}" in out.getvalue()
    assert read_record(path).action_ids() == result.actions
    assert len(result.actions) > len(record.actions)


def test_load_and_save_to_the_same_record_is_allowed(tmp_path):
    path = tmp_path / "g.json"
    session(f"1\nsave {path}\nquit\n")[0].run()
    check_save_path(str(path), load_path=str(path))  # no error
    r = CliRunner().invoke(app, ["play", "--load", str(path), "--save", str(path)], input="1\n")
    assert r.exit_code == 0, r.output
    assert len(read_record(path).actions) > 0


def test_a_failed_save_leaves_the_old_record_intact(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    session(f"1\nsave {path}\nquit\n")[0].run()
    before = path.read_text()

    def full_disk(*args, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    s, out = session("1\n1\nquit\n", save_path=str(path), load_path=str(path), force=True)
    s.run()
    assert path.read_text() == before
    assert "cannot save to" in out.getvalue() and "No space left on device" in out.getvalue()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_a_recovery_folder_that_cannot_be_written_is_refused_before_any_move(tmp_path, monkeypatch):
    """Was: found only at the stop, when the moves typed were lost ('warning: 3 unsaved
    actions could NOT be kept', exit 1)."""
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    for folder in (blocked / "recovery", blocked, "/proc/meeple-recovery"):
        monkeypatch.setenv("MEEPLE_RECOVERY_DIR", str(folder))
        r = CliRunner().invoke(app, ["play", TINY, "--seats", "human,heuristic"], input="1\nquit\n")
        assert r.exit_code == 2, r.output
        assert r.stderr.startswith(f"error: the recovery folder {folder}: cannot write in")
        assert r.stderr.count("\n") == 1 and "MEEPLE_RECOVERY_DIR" in r.stderr
        assert r.stdout == ""


def test_unsaved_moves_that_cannot_be_kept_exit_non_zero(tmp_path, monkeypatch):
    """The folder was writable at the start and is not at the stop."""
    folder = tmp_path / "recovery"
    monkeypatch.setenv("MEEPLE_RECOVERY_DIR", str(folder))
    from tournament.advice import saving

    real = saving.RecordKeeper._recovery_file

    def gone(self, record):
        folder.rmdir() if folder.exists() else None
        folder.write_text("")  # a file where the folder was
        return real(self, record)

    monkeypatch.setattr(saving.RecordKeeper, "_recovery_file", gone)
    r = CliRunner().invoke(app, ["play", TINY, "--seats", "human,heuristic"], input="1\nquit\n")
    assert r.exit_code == 1
    assert "1 unsaved action could NOT be kept" in r.output  # was "1 unsaved actions"


def test_save_takes_one_file_name_quoted_when_it_has_spaces(tmp_path, recovery_dir, monkeypatch):
    """Was: `save a b c` wrote a file literally named 'a b c' (the words joined) and
    `save ""` one named '""' (quotes kept)."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    spaced = here / "my game.json"
    s, out = session("1\nsave a b c\nsave \"\"\nsave 'my game.json'\nsave 'open\nquit\n")
    result = s.run()
    text = out.getvalue()
    assert "save takes one file name" in text and "save needs a file name" in text
    assert "No closing quotation" in text
    assert sorted(p.name for p in here.iterdir()) == ["my game.json"]
    assert read_record(spaced).action_ids() == result.actions


def test_a_save_name_the_system_refuses_is_a_message_not_a_crash(tmp_path, recovery_dir):
    """Was: `save a<NUL>b` (ValueError) and a 300-character name (OSError from the
    exists() check) ended the session with a traceback, losing the moves; a directory
    was called 'not this game's record', to be overwritten with --force."""
    long_name = tmp_path / ("x" * 300 + ".json")
    s, out = session(f"1\nsave a\0b.json\nsave {long_name}\nsave {tmp_path}\n1\nquit\n")
    result = s.run()
    text = out.getvalue()
    assert "cannot save to 'a\\x00b.json': embedded null byte" in text
    assert "File name too long" in text
    assert f"cannot save to {str(tmp_path)!r}: it is a directory" in text
    (path,) = recovery_dir.glob("*.json")  # the moves were kept
    assert read_record(path).action_ids() == result.actions and len(result.items) > 2
    with pytest.raises(SaveRefused, match="File name too long"):  # was: a traceback
        check_save_path(str(long_name))


@pytest.mark.parametrize("signame", ["SIGHUP", "SIGTERM"])
def test_a_hang_up_or_termination_keeps_the_moves(tmp_path, signame):
    """Was: closing the terminal (SIGHUP) or a kill (SIGTERM) ended `meeple play` at once,
    the moves typed since the last save written nowhere, even with --save."""
    import signal
    import subprocess
    import sys
    import threading
    import time

    sig = getattr(signal, signame)
    env = {**os.environ, "MEEPLE_RECOVERY_DIR": str(tmp_path / "recovery")}
    path = tmp_path / "game.json"
    cmd = [sys.executable, "-m", "tournament.cli", "play", TINY, "--seats", "human,heuristic"]
    proc = subprocess.Popen(
        [*cmd, "--save", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=default_stops,  # as from a terminal, also under `nohup make test`
    )
    assert proc.stdin is not None and proc.stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    proc.stdin.write("1\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 120
    while not any(line.startswith("P1") for line in lines) and time.monotonic() < deadline:
        time.sleep(0.1)  # the typed move is logged: the session runs, the move unsaved
    assert not path.exists()
    proc.send_signal(sig)
    proc.wait(timeout=60)
    reader.join(timeout=10)
    assert proc.returncode == 128 + sig, "".join(lines)
    word = "hung up" if signame == "SIGHUP" else "terminated"  # was "interrupted" for both
    assert f"{word}: the game is saved" in "".join(lines)
    assert len(read_record(path).action_ids()) >= 2  # the opening draw and the move typed


def test_a_save_that_fails_warns_on_stderr_and_exits_non_zero(tmp_path, recovery_dir, monkeypatch):
    """Was: a --save that could not be written printed its warning among the moves on
    stdout and exited 0, the moves in a recovery file a script would never look for."""
    path = tmp_path / "game.json"
    replace = os.replace

    def full_disk(src, dst):  # the --save file's disk is full, the recovery folder's not
        if os.fspath(dst) == str(path):
            raise OSError(28, "No space left on device")
        replace(src, dst)

    monkeypatch.setattr(os, "replace", full_disk)
    r = CliRunner().invoke(
        app, ["play", TINY, "--seats", "human,heuristic", "--save", str(path)], input="1\nquit\n"
    )
    assert r.exit_code == 1
    assert "No space left on device" in r.stderr and "kept in" in r.stderr
    assert "No space left on device" not in r.stdout
    monkeypatch.undo()
    (kept,) = recovery_dir.glob("*.json")
    assert len(read_record(kept).action_ids()) >= 2 and not path.exists()


def test_an_empty_save_name_says_so():
    """Was: `--save ''` was called a directory (Path('') is the working directory)."""
    for name in ("", "  "):
        with pytest.raises(SaveRefused, match="--save needs a file name"):
            check_save_path(name)


def test_one_action_is_singular_in_the_session_messages(tmp_path):
    """Was: 'saved 1 actions', 'loaded 1 actions'."""
    path = tmp_path / "one.json"
    said: list[str] = []
    record = PlaySession(TINY, SEATS, 3, inp=io.StringIO(""), out=io.StringIO()).record()
    keeper = RecordKeeper(lambda: (record, [5], [True]), said.append)
    assert keeper.save(str(path)) and said == [f"saved 1 action to {path}"]


def test_two_sessions_on_one_save_path_never_overwrite_each_other(tmp_path, recovery_dir):
    """Was: two `meeple play --save same.json` sessions (the file new to both) each saved
    over the other's game and both said "saved"; the second one's game is now kept in a
    recovery file and the first one's record stays."""
    path = tmp_path / "same.json"
    first, _ = session("1\nsave\n", save_path=str(path))
    out = io.StringIO()  # another seed: another game
    second = PlaySession(TINY, SEATS, 4, inp=io.StringIO("1\nquit\n"), out=out, save_path=str(path))
    mine = first.run()
    assert read_record(path).action_ids() == mine.actions
    theirs = second.run()
    assert read_record(path).action_ids() == mine.actions  # not overwritten
    assert theirs.kept == "recovered" and "changed by another program or session" in out.getvalue()
    recovered = [read_record(p) for p in recovery_dir.iterdir()]
    assert [r.action_ids() for r in recovered] == [theirs.actions]


def test_a_record_deleted_during_the_session_is_written_again(tmp_path):
    path = tmp_path / "mine.json"
    s, _ = session("1\nsave\n2\nquit\n", save_path=str(path))
    s.files.save(str(path))
    path.unlink()
    result = s.run()
    assert result.kept == "saved" and read_record(path).action_ids() == result.actions


def test_a_record_loads_under_any_spelling_of_its_game_string(tmp_path, recovery_dir):
    """Was: `replay --save` writes the game string spelled out, `play --save` as typed, and
    `play --load` / `advise --game-file` compared the strings: the same game was refused
    ("the record is for 'python_coloretto(cards_per_color=9,...)', not '...'")."""
    import pyspiel

    spelled = str(pyspiel.load_game(TINY))
    assert spelled != TINY
    path = tmp_path / "mine.json"
    s = PlaySession(
        spelled, SEATS, 3, inp=io.StringIO("1\nquit\n"), out=io.StringIO(), save_path=str(path)
    )
    s.run()
    r = CliRunner().invoke(app, ["play", TINY, "--load", str(path)], input="quit\n")
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["advise", TINY, "--game-file", str(path), "-a", "heuristic"])
    assert r.exit_code == 0, r.output
    other = TINY.replace("row_capacity=1", "row_capacity=2")
    r = CliRunner().invoke(app, ["play", other, "--load", str(path)], input="quit\n")
    assert r.exit_code == 1 and "the game record is for" in r.stderr  # was 2, as a usage error
    r = CliRunner().invoke(app, ["advise", other, "--game-file", str(path), "-a", "heuristic"])
    assert r.exit_code == 1 and "the game record is for" in r.stderr


def test_a_pipe_as_the_save_path_is_not_read_before_the_game(tmp_path):
    """Was (for a moment): `--save FIFO --force` blocked before the game, the session
    reading what the file held (a pipe waits for a writer). Now it is refused at once, even
    with --force (a save would replace the pipe with a file)."""
    import threading

    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    made: list = []

    def start() -> None:
        try:
            made.append(session("quit\n", save_path=str(fifo), force=True))
        except SaveRefused as e:
            made.append(e)

    worker = threading.Thread(target=start, daemon=True)
    worker.start()
    worker.join(10)
    assert made, "the session blocked on the pipe"
    assert isinstance(made[0], SaveRefused) and "is a pipe (FIFO), not a file" in str(made[0])


def test_save_reads_a_home_folder_and_refuses_an_empty_name(tmp_path, recovery_dir, monkeypatch):
    """Found in review: `save ~/x.json` was refused ("cannot make a file in ~"), and
    `save ''` wrote the --save file as a bare `save` would."""
    home, default = tmp_path / "home", tmp_path / "default.json"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    s, out = session("1\nsave ''\nsave ~/x.json\nquit\n", save_path=str(default))
    s.run()
    assert "save needs a file name: '' names none" in out.getvalue()
    assert read_record(home / "x.json").action_ids()  # the game so far, under the home folder
    assert not (tmp_path / "~").exists()
