"""What an output path may be (``spiel_games.common.files``, ``check_output_path``): a
symlink is written through, the file it names keeping its permissions; a device, a pipe or
a symlink to one is refused in one line (exit 2) before anything is read or written."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.cli.test_closed_stdout import CONFIG
from tests.pipes import pipes, release_later
from tests.solvers.test_solver_cli import _solve
from tournament.cli import app
from tournament.html_report import MARK

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


@pytest.fixture(scope="module")
def ledger(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("targets")
    (tmp / "t.toml").write_text(CONFIG)
    out = tmp / "ledger"
    args = ["tournament", "run", str(tmp / "t.toml"), "--out", str(out), "--executor", "serial"]
    r = runner.invoke(app, [*args, "--quiet"])
    assert r.exit_code == 0, r.output
    return out


def test_play_saves_through_a_symlink_and_keeps_the_records_mode(tmp_path):
    """Was: `play --load link.json` then `save` replaced link.json by a regular file (the
    record it named unchanged) and wrote it 0644 whatever the record's mode."""
    real = tmp_path / "real"
    real.mkdir()
    game = real / "game.json"
    r = runner.invoke(
        app, ["play", TINY, "--seats", "human,random", "--save", str(game)], input="1\nquit\n"
    )
    assert r.exit_code == 0, r.output
    game.chmod(0o600)
    before = game.read_text()
    link = tmp_path / "link.json"
    link.symlink_to("real/game.json")
    r = runner.invoke(app, ["play", "--load", str(link)], input="1\nsave\nquit\n")
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == "real/game.json"
    assert game.read_text() != before  # the move went into the record the link names
    assert stat.S_IMODE(game.stat().st_mode) == 0o600
    assert sorted(p.name for p in real.iterdir()) == ["game.json"]


def _special(tmp_path: Path) -> list[tuple[Path, str]]:
    """Paths that are no regular file. A symlink to /dev/null stands in for a device (the
    device itself only as root, and the old code replaced it)."""
    fifo = tmp_path / "fifo.html"
    os.mkfifo(fifo)
    release_later(fifo)  # the old code's read waits for a writer: released, it fails
    to_null = tmp_path / "to-null.html"
    to_null.symlink_to("/dev/null")
    to_fifo = tmp_path / "to-fifo.html"
    to_fifo.symlink_to(fifo)
    return [(fifo, "a pipe (FIFO)"), (to_null, "a character device"), (to_fifo, "a pipe (FIFO)")]


@pipes
def test_an_html_report_is_never_written_over_a_device_or_a_pipe(ledger, tmp_path):
    """Was: a device (or a symlink to one) read as an empty file and replaced by the
    report; a pipe hung the check's read forever."""
    for path, kind in _special(tmp_path):
        r = runner.invoke(app, ["ratings", str(ledger), "--bootstrap", "0", "--html", str(path)])
        assert r.exit_code == 2 and r.stderr == (
            f"error: --html {str(path)!r} is {kind}, not a file\n"
        ), r.output
    assert stat.S_ISFIFO((tmp_path / "fifo.html").lstat().st_mode)
    assert (tmp_path / "to-null.html").is_symlink() and (tmp_path / "to-fifo.html").is_symlink()


def test_an_html_report_is_never_written_over_the_commands_own_output(ledger, tmp_path):
    """Was: `ln -s /proc/self/fd/1 mystdout; meeple ratings DIR --html mystdout > out.html`
    replaced the symlink by the report (then, written through, the report replaced
    out.html and the table printed to it was lost)."""
    link = tmp_path / "mystdout"
    link.symlink_to("/proc/self/fd/1")
    printed = tmp_path / "out.html"
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    with printed.open("w") as stdout:
        r = subprocess.run(
            [sys.executable, "-m", "tournament.cli", "ratings", str(ledger), "--html", str(link)],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": path},
            timeout=300,
        )
    assert r.returncode == 2 and r.stderr == (
        f"error: --html {str(link)!r} is this command's standard output; choose another file\n"
    )
    assert link.is_symlink() and printed.read_text() == ""


def test_a_symlink_to_an_earlier_report_is_written_through(ledger, tmp_path):
    (tmp_path / "reports").mkdir()
    report = tmp_path / "reports" / "r.html"
    report.write_text(f"<html><head>{MARK}</head></html>")
    link = tmp_path / "latest.html"
    link.symlink_to(report)
    r = runner.invoke(app, ["ratings", str(ledger), "--bootstrap", "0", "--html", str(link)])
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and len(report.read_text()) > 1000
    assert [p.name for p in (tmp_path / "reports").iterdir()] == ["r.html"]


@pipes
def test_replay_save_never_replaces_a_device_or_a_pipe_even_with_force(ledger, tmp_path):
    """Was: `replay --save /dev/null --force` replaced the device by a file (as root);
    a pipe, or a symlink to a device, was replaced the same way."""
    gid = pq.read_table(sorted(ledger.glob("part-*"))[0]).column("game_id")[0].as_py()
    for path, kind in _special(tmp_path):
        r = runner.invoke(app, ["replay", str(ledger), gid, "--save", str(path), "--force"])
        assert r.exit_code == 2 and r.stderr == (
            f"error: --save {str(path)!r} is {kind}, not a file\n"
        ), r.output
    assert stat.S_ISFIFO((tmp_path / "fifo.html").lstat().st_mode)
    assert (tmp_path / "to-null.html").is_symlink()


@pipes
def test_a_solve_out_that_became_a_pipe_is_refused_before_the_run(tmp_path):
    """Was: with its checkpoint beside it, the run resumed and at the end replaced the
    pipe by the policy; now refused first (exit 2), the checkpoint kept."""
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    out.unlink()
    os.mkfifo(out)
    manifest = (tmp_path / "p.parquet.ckpt" / "manifest.json").read_bytes()
    r = _solve("--out", str(out), "--iterations", "8")
    assert r.exit_code == 2 and r.stderr == (
        f"error: --out {out} is a pipe (FIFO), not a file; give a file path\n"
    ), r.output
    assert stat.S_ISFIFO(out.lstat().st_mode)
    assert (tmp_path / "p.parquet.ckpt" / "manifest.json").read_bytes() == manifest
