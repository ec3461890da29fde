"""A reader of stdout that goes away (`meeple ratings DIR --html P | head -1`): the files
the command writes are written, and it ends quietly with status 0, as `advise --serve`
does. A broken pipe that is not stdout's stays an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.cli.common import is_report

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """
[tournament]
game = "python_coloretto(players=2)"
seeds_per_lineup = 1
seed = 3

[agents]
random = "random"
greedy = "heuristic"
"""


@pytest.fixture(scope="module")
def ledger(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("closed")
    (tmp / "t.toml").write_text(CONFIG)
    out = tmp / "ledger"
    args = ["tournament", "run", str(tmp / "t.toml"), "--out", str(out), "--executor", "serial"]
    r = CliRunner().invoke(app, [*args, "--quiet"])
    assert r.exit_code == 0, r.output
    return out


def _meeple_closed_stdout(*args: str) -> subprocess.CompletedProcess:
    """`meeple ARGS` in a fresh interpreter whose stdout is a pipe nobody reads any more
    (its reading end closed before the command starts)."""
    read, write = os.pipe()
    os.close(read)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    try:
        return subprocess.run(
            [sys.executable, "-m", "tournament.cli", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": path, "COLUMNS": "80"},
            timeout=300,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_ratings_writes_its_report_when_stdout_is_closed(ledger, tmp_path, fmt):
    """Was: exit 1, nothing on stderr, and no report (the table was printed first)."""
    html = tmp_path / "report.html"
    r = _meeple_closed_stdout("ratings", str(ledger), "--html", str(html), "--format", fmt)
    assert (r.returncode, r.stderr) == (141, "")
    assert is_report(html) and "<html" in html.read_text()


def test_replay_saves_its_record_when_stdout_is_closed(ledger, tmp_path):
    """Was: the replay's lines were printed before --save wrote the record."""
    game = CliRunner().invoke(app, ["review", str(ledger), "--list", "--json"])
    game_id = game.stdout.split('"game_id": "')[1][:16]
    save = tmp_path / "game.json"
    r = _meeple_closed_stdout("replay", str(ledger), game_id, "--save", str(save))
    assert (r.returncode, r.stderr) == (141, "")
    assert save.stat().st_size > 0


def test_a_broken_pipe_that_is_not_stdout_s_is_an_error(ledger, monkeypatch):
    """Only stdout's reader going away is a quiet exit; another pipe's is one error line."""
    import tournament.cli.tournament as commands

    def broken(*args, **kwargs):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(commands, "rate", broken)
    r = CliRunner().invoke(app, ["ratings", str(ledger)])
    assert r.exit_code == 1
    assert r.output == "error: a pipe closed while writing (broken pipe)\n"


def test_a_run_whose_summary_reader_went_away_ends_quietly(tmp_path):
    """The summary line is written through ``own_stdout``'s copy of fd 1: was exit 1
    without a word (typer's own handling of any broken pipe)."""
    (tmp_path / "t.toml").write_text(CONFIG)
    out = tmp_path / "ledger"
    r = _meeple_closed_stdout(
        "tournament",
        "run",
        str(tmp_path / "t.toml"),
        "--out",
        str(out),
        "--executor",
        "serial",
        "-q",
    )
    assert r.returncode == 141, r.stderr  # 128 + SIGPIPE: the reader left
    assert "error" not in r.stderr and "Traceback" not in r.stderr
    assert (out / "manifest.json").exists()


def _meeple_head_1(*args: str) -> tuple[int, str]:
    """`meeple ARGS | head -1`: the reader takes the first line, then goes away."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournament.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": path, "COLUMNS": "80"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    return proc.wait(timeout=300), err


ON_RAY = ["--solver", "mccfr-os", "--workers", "2"]


@pytest.mark.parametrize(
    "flags",
    [
        ["--solver", "cfr"],
        ["--solver", "cfr", "--quiet"],
        pytest.param(ON_RAY, marks=pytest.mark.ray),
        pytest.param([*ON_RAY, "--quiet"], marks=pytest.mark.ray),
    ],
)
def test_solve_whose_reader_went_away_ends_quietly_with_141(tmp_path, flags):
    """Was exit 1 once the first line was read: rich's progress console ended it without a
    word, and with --quiet the broken pipe was reported as a failed write of the policy. On
    Ray (--workers 2, a local session) the lines go through ``own_stdout``'s copy of fd 1."""
    out = tmp_path / "p.parquet"
    args = ["solve", "kuhn_poker", "--iterations", "400", "--report-every", "1", *flags]
    assert _meeple_head_1(*args, "-o", str(out)) == (141, "")
