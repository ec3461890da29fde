"""`meeple play`'s refusals before the game starts. Was: a --save path in a folder that
cannot be written was accepted and failed at the first save; a pipe or /dev/null "exists;
continue it with --load" (it never could be), and with --force a save would have replaced
it with a file; 'fifo/x' was "in a directory that does not exist". A --load record's own
faults (an unknown game, seats that do not fit its game, an unknown agent in its seats, a
record of another game) exited 2, as a wrong command line, in words that blamed the
command line ("... has 2 players but 1 seats were given" with no --seats given), where
advise and review exit 1."""

from __future__ import annotations

import io
import json
import os

import pytest
from typer.testing import CliRunner

from tournament.advice.play import PlaySession
from tournament.advice.saving import SaveRefused, check_save_path
from tournament.cli import app

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
runner = CliRunner()


def test_a_save_folder_that_cannot_be_written_is_refused_at_the_start():
    with pytest.raises(SaveRefused, match=r"--save '/proc/g.json': cannot write in /proc"):
        check_save_path("/proc/g.json")
    r = runner.invoke(app, ["play", TINY, "--seats", "human,heuristic", "--save", "/proc/g.json"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and r.stdout == ""


def test_a_pipe_or_a_device_is_named_for_what_it_is(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, force, said in (
        (fifo, False, f"--save {str(fifo)!r} is a pipe (FIFO), not a file"),
        (fifo, True, f"--save {str(fifo)!r} is a pipe (FIFO), not a file"),  # --force too
        ("/dev/null", True, "--save '/dev/null' is a character device, not a file"),
        (fifo / "x", False, f"--save {str(fifo / 'x')!r}: {str(fifo)!r} is not a directory"),
    ):
        with pytest.raises(SaveRefused) as e:
            check_save_path(str(path), force=force)
        assert str(e.value) == said
    assert os.path.exists("/dev/null") and fifo.is_fifo()


def test_the_save_command_never_replaces_a_pipe(tmp_path):
    """Was: `save FIFO --force` replaced the pipe with a file (as root, `save /dev/null
    --force` would have replaced the device)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = io.StringIO()
    session = PlaySession(
        TINY, ["human", "heuristic"], 3, inp=io.StringIO(f"1\nsave {fifo} --force\nquit\n"),
        out=out, err=out,
    )  # fmt: skip
    session.run()
    assert fifo.is_fifo()
    assert f"cannot save to {str(fifo)!r}: it is a pipe (FIFO), not a file" in out.getvalue()


def _record(tmp_path, **change) -> str:
    path = tmp_path / "g.json"
    r = runner.invoke(
        app, ["play", TINY, "--seats", "human,heuristic", "--save", str(path)], input="1\nquit\n"
    )
    assert r.exit_code == 0, r.output
    data = json.loads(path.read_text())
    data.update(change)
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"game": "nonsense"}, "game record '{}': unknown game 'nonsense'"),
        ({"seats": ["human"]}, "game record '{}' names 1 seat for a 2-player game: give --seats"),
        ({"seats": ["human", "bogus"]}, "game record '{}', seat P2: unknown agent kind 'bogus'"),
    ],
)
def test_a_record_whose_own_fields_are_wrong_exits_1_naming_the_record(tmp_path, change, said):
    path = _record(tmp_path, **change)
    r = runner.invoke(app, ["play", "--load", path], input="quit\n")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert r.stderr.startswith("error: " + said.format(path)), r.stderr


def test_seats_given_replace_a_records_bad_seats_and_a_wrong_count_is_the_users(tmp_path):
    path = _record(tmp_path, seats=["human"])
    r = runner.invoke(app, ["play", "--load", path, "--seats", "human,random"], input="quit\n")
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["play", "--load", path, "--seats", "human"], input="quit\n")
    assert r.exit_code == 2 and "has 2 players but 1 seats were given" in r.stderr


def test_a_record_of_another_game_exits_1_as_in_advise(tmp_path):
    path = _record(tmp_path)
    other = "python_coloretto(players=3)"
    for argv in (
        ["play", other, "--load", path],
        ["advise", other, "--game-file", path, "-a", "random"],
    ):
        r = runner.invoke(app, argv, input="quit\n")
        assert r.exit_code == 1 and r.stderr.startswith("error: the game record is for "), r.output
    r = runner.invoke(app, ["play", "nonsense", "--load", path], input="quit\n")
    assert r.exit_code == 2 and "unknown game 'nonsense'" in r.stderr  # the command line's
