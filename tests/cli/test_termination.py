"""SIGTERM (and SIGHUP) stop `meeple tournament run` and `meeple solve` as Ctrl-C does:
one `error:` line saying what stopped the run and where its work is, exit 128 + the
signal; finished batches and the checkpoint kept, a rerun resumes. Was: exit 143 with
nothing on stderr (tournament.signals)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.stop_signals import delivered_stops
from tournament import runner as runner_module
from tournament.cli import app
from tournament.ledger import read_ledger
from tournament.signals import Stopped, stop_signals, stop_words

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """[tournament]
game = "python_coloretto(players=2)"
seeds_per_lineup = {seeds}
seed = 3
batch_size = 2

[agents]
random = "random"
greedy = "heuristic"
"""


class _Killed(Exception):
    """What SIGTERM raises in this test process while no command handles it (the old
    code: the default action would end pytest itself)."""


@pytest.fixture
def sigterm_guard():
    old = signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(_Killed()))
    yield
    signal.signal(signal.SIGTERM, old)


def _term_self() -> None:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(1)  # the handler runs before this ends


def test_stop_signals_raise_stopped_and_say_which():
    before = signal.getsignal(signal.SIGTERM)
    for sig, words in ((signal.SIGTERM, ("terminated", 143)), (signal.SIGHUP, ("hung up", 129))):
        with delivered_stops(), pytest.raises(Stopped) as e, stop_signals():
            os.kill(os.getpid(), sig)
            time.sleep(1)
        assert stop_words(e.value) == words
    assert stop_words(KeyboardInterrupt()) == ("interrupted", 130)
    assert signal.getsignal(signal.SIGTERM) is before


def test_sigterm_stops_a_tournament_in_one_line_and_the_rerun_resumes(
    tmp_path, monkeypatch, sigterm_guard
):
    (tmp_path / "t.toml").write_text(CONFIG.format(seeds=6))
    out = tmp_path / "L"
    written = []
    real = runner_module.write_batch

    def write_then_term(directory, rows):
        path = real(directory, rows)
        written.append(path)
        if len(written) == 2:
            _term_self()
        return path

    monkeypatch.setattr(runner_module, "write_batch", write_then_term)
    argv = ["tournament", "run", str(tmp_path / "t.toml"), "--out", str(out)]
    r = CliRunner().invoke(app, [*argv, "--executor", "serial", "--quiet"])
    assert r.exit_code == 143, r.output
    assert r.stderr == (
        f"error: terminated; finished batches are in {out}: rerun the same command to resume\n"
    )
    assert read_ledger(out).table.num_rows == 4  # the two finished batches
    monkeypatch.setattr(runner_module, "write_batch", real)
    r = CliRunner().invoke(app, [*argv, "--executor", "serial", "--quiet"])
    assert r.exit_code == 0 and "8 game(s) played, 4 already in the ledger" in r.stdout


def test_sigterm_stops_solve_in_one_line_and_keeps_the_checkpoint(
    tmp_path, monkeypatch, sigterm_guard
):
    from solvers import efg_cfr

    real = efg_cfr.ExactCFR.iterate

    def iterate_then_term(self):
        real(self)
        if self.iteration == 5:
            _term_self()

    monkeypatch.setattr(efg_cfr.ExactCFR, "iterate", iterate_then_term)
    out = tmp_path / "k.parquet"
    argv = ["solve", "kuhn_poker", "--solver", "cfr", "--iterations", "20", "--out", str(out)]
    r = CliRunner().invoke(app, [*argv, "--quiet"])
    ckpt = tmp_path / "k.parquet.ckpt.parquet"
    assert r.exit_code == 143, r.output
    assert r.stderr == (
        f"error: terminated: checkpoint saved to {ckpt}; rerun the same command to resume\n"
    )
    monkeypatch.setattr(efg_cfr.ExactCFR, "iterate", real)
    r = CliRunner().invoke(app, [*argv, "--quiet"])
    assert r.exit_code == 0 and "20 iterations (15 this run)" in r.stdout, r.output


def test_a_real_sigterm_from_outside_stops_a_tournament_run_in_one_line(tmp_path):
    (tmp_path / "t.toml").write_text(CONFIG.format(seeds=500))
    out = tmp_path / "L"
    cmd = [sys.executable, "-m", "tournament.cli", "tournament", "run", str(tmp_path / "t.toml")]
    cmd += ["--out", str(out), "--executor", "serial", "--quiet"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline and len(list(out.glob("part-*"))) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert err.decode() == (
        f"error: terminated; finished batches are in {out}: rerun the same command to resume\n"
    )
    assert 0 < read_ledger(out).table.num_rows < 1000


def test_sigterm_stops_sprt_tune_and_train_in_one_line(tmp_path, monkeypatch, sigterm_guard):
    """Was: `meeple sprt`, `tune` and `train` ended with exit 143 and nothing on stderr."""
    from tournament import training, tune
    from tournament.cli import sprt as sprt_cli

    real_step = sprt_cli.SprtProgress.on_step

    def step_then_term(self, v):
        real_step(self, v)
        if v.sets == 2:
            _term_self()

    monkeypatch.setattr(sprt_cli.SprtProgress, "on_step", step_then_term)
    out = tmp_path / "sprt"
    game = "python_coloretto(players=2)"
    argv = ["sprt", game, "heuristic", "noisy(eps=0.5)", "--elo1", "60", "--max-games", "400"]
    r = CliRunner().invoke(app, [*argv, "--out", str(out), "--executor", "serial", "-q"])
    assert r.exit_code == 143, r.output
    assert r.stderr == f"error: terminated; finished sets are in {out}: rerun to resume\n"
    assert "not finished: rerun the same command to resume" in r.stdout  # where it stands
    from tournament import ledger

    real_read = ledger.read_ledger

    def read_after_a_second_term(*args, **kwargs):
        _term_self()  # a second SIGTERM while the stopped test reads its ledger: ignored
        return real_read(*args, **kwargs)

    monkeypatch.setattr(ledger, "read_ledger", read_after_a_second_term)
    out = tmp_path / "sprt2"
    r = CliRunner().invoke(app, [*argv, "--out", str(out), "--executor", "serial", "-q"])
    assert r.exit_code == 143, r.output
    assert "not finished: rerun the same command to resume" in r.stdout
    monkeypatch.setattr(ledger, "read_ledger", real_read)

    def term(*_args, **_kwargs):
        _term_self()

    monkeypatch.setattr(tune, "tune", term)
    out = tmp_path / "tune"
    argv = ["tune", "python_coloretto(players=3)", "--budget", "4", "--confirm", "0"]
    r = CliRunner().invoke(app, [*argv, "--out", str(out), "-q"])
    assert r.exit_code == 143, r.output
    assert r.stderr == f"error: terminated; finished games are in {out}: rerun to resume\n"

    monkeypatch.setattr(training, "train", term)
    work = tmp_path / "work"
    argv = ["train", "python_coloretto(players=3)", "--games", "5", "--agent", "heuristic"]
    argv += ["--work", str(work), "--out", str(tmp_path / "m.json"), "--quiet"]
    r = CliRunner().invoke(app, argv)
    assert r.exit_code == 143, r.output
    assert r.stderr.startswith("error: terminated; rerun the same command to resume from ")
    assert r.stderr.count("\n") == 1


def test_ctrl_c_or_sigterm_stops_review_in_one_line(tmp_path, monkeypatch, sigterm_guard):
    """Was: exit 130 or 143 with nothing on stderr; a review keeps nothing, and says so."""
    from tournament.advice import review as rv

    def stop(*_args, **_kwargs):
        _term_self()

    monkeypatch.setattr(rv, "review", stop)
    record = str(ROOT / "docs" / "examples" / "review_game.json")
    html = tmp_path / "new" / "r.html"
    r = CliRunner().invoke(app, ["review", record, "-q", "--html", str(html)])
    assert r.exit_code == 143, r.output
    assert r.stderr == "error: terminated: the review did not finish; nothing was written\n"
    assert not (tmp_path / "new").exists()  # the folder made for the report is removed

    def ctrl_c(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(rv, "review", ctrl_c)
    r = CliRunner().invoke(app, ["review", record, "-q"])
    assert r.exit_code == 130
    assert r.stderr == "error: interrupted: the review did not finish; nothing was written\n"


def test_a_library_that_takes_sigterm_over_gives_it_back():
    """ray.init installs its own SIGTERM handler (sys.exit(15)): a run on Ray died with
    exit 15 and no line. kept_handlers puts the command's handler back after it."""
    from spiel_games.common.signals import kept_handlers

    with stop_signals():
        ours = signal.getsignal(signal.SIGTERM)
        with kept_handlers():
            signal.signal(signal.SIGTERM, lambda *_: None)  # as ray.init does
        assert signal.getsignal(signal.SIGTERM) is ours


@pytest.mark.ray
def test_the_ray_session_keeps_the_commands_sigterm_handler():
    from tournament import runner as r

    with stop_signals():
        ours = signal.getsignal(signal.SIGTERM)
        with r._ray_session(1, None):
            assert signal.getsignal(signal.SIGTERM) is ours


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
def test_a_hang_up_ignored_from_the_start_stays_ignored():
    """Was: stop_signals replaced an ignored SIGHUP, so `nohup meeple tournament run ...`
    stopped when the terminal closed, against what nohup asked for."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stop_signals():
            try:
                os.kill(os.getpid(), signal.SIGHUP)  # ignored: no Stopped raised
                time.sleep(0.01)
            except Stopped:
                pytest.fail("the hang-up nohup ignores stopped the command")
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        with stop_signals(), pytest.raises(Stopped):  # SIGTERM is still handled
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
    finally:
        signal.signal(signal.SIGHUP, before)
