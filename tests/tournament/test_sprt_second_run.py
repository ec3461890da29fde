"""A second `meeple sprt` on the ledger of a running one (found in review).

Was: the second run looked for the test's sidecar (.sprt.json, which holds its bounds)
before taking the ledger's lock; when the first run had just written it, the second was
refused by the lock (right) but then removed that sidecar as its own, and every resume of
the first test failed ("holds games of this SPRT but not its bounds").
"""

from __future__ import annotations

import pytest

from tournament.sprt import run as sprt_run
from tournament.sprt.gsprt import Bounds
from tournament.sprt.run import SIDECAR, SprtRequest, play_sprt, read_sprt, write_sidecar

GAME2 = "python_coloretto(players=2)"
REQ = SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 100.0), max_games=4)


class Held(Exception):
    pass


def test_a_run_refused_by_the_lock_leaves_the_first_runs_sidecar(tmp_path, monkeypatch):
    out = tmp_path / "s"

    def first_run_holds_it(cfg, directory, **kw):
        directory.mkdir()
        write_sidecar(directory, REQ)  # the first run's, written just now
        raise Held(f"{directory} is being written by another run; wait for it or stop it")

    monkeypatch.setattr(sprt_run, "run_tournament", first_run_holds_it)
    with pytest.raises(Held):
        play_sprt(REQ, out, executor="serial")
    assert (out / SIDECAR).is_file()


def test_a_run_stopped_before_its_first_game_removes_its_own_sidecar(tmp_path, monkeypatch):
    out = tmp_path / "s"
    real = sprt_run.run_tournament

    def stopped(cfg, directory, *, source, **kw):
        directory.mkdir()
        source.on_start()  # what the run does once it holds the lock
        raise KeyboardInterrupt

    monkeypatch.setattr(sprt_run, "run_tournament", stopped)
    with pytest.raises(KeyboardInterrupt):
        play_sprt(REQ, out, executor="serial")
    assert not (out / SIDECAR).exists()
    monkeypatch.setattr(sprt_run, "run_tournament", real)
    play_sprt(REQ, out, executor="serial")  # and the rerun starts afresh
    assert read_sprt(out)[0] is not None
