"""Outputs of solve, tune and train are refused inside a tournament ledger's folder (a
file or folder there makes every read of the ledger refuse it), and the luck caches and
train's resume check read a pipe named like their files without waiting on it."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from tests.pipes import pipes, unblocked
from tournament import luck_cache
from tournament.cli import app
from tournament.config import build_config
from tournament.runner import run_tournament

cli = CliRunner()
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


@pytest.fixture
def ledger(tmp_path, make_raw):
    out = tmp_path / "t"
    run_tournament(build_config(make_raw(seeds_per_lineup=1)), out, executor="serial")
    return out


def _listing(d):
    return sorted((p.name, p.stat().st_mtime_ns) for p in d.iterdir())


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", TINY, "--solver", "mccfr-es", "--iterations", "4", "--quiet", "--out", "{L}/p.parquet"],
        ["solve", "kuhn_poker", "--solver", "cfr", "--iterations", "2", "--out", "{L}/e.parquet"],
        ["tune", "python_coloretto(players=2)", "--agent", "mcts(sims=10)", "--params", "uct_c",
         "--opponent", "random", "-q", "--budget", "2", "--out", "{L}/tu"],
        ["train", "python_coloretto(players=2)", "--games", "5", "--work", "{L}/w", "-q"],
        ["train", "python_coloretto(players=2)", "--games", "5", "--work", "{T}/w",
         "--out", "{L}/m.json", "-q"],
    ],
)  # fmt: skip
def test_an_output_inside_a_ledger_is_refused_before_anything_runs(ledger, argv):
    """Was: written there, after which `ratings LEDGER` refused the ledger ('foreign file
    in the ledger')."""
    before = _listing(ledger)
    args = [a.format(L=ledger, T=ledger.parent) for a in argv]
    r = cli.invoke(app, args)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert f"is inside the tournament ledger {ledger}," in r.stderr, r.stderr
    assert _listing(ledger) == before
    assert cli.invoke(app, ["ratings", str(ledger)]).exit_code == 0


@pipes
@pytest.mark.parametrize("name", [luck_cache.CACHE, luck_cache.MOVES])
def test_a_luck_cache_that_is_a_pipe_reads_as_no_cache(tmp_path, name):
    """Was: read_text on the pipe waited for a writer (ratings --luck-adjusted hung)."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    if name == luck_cache.CACHE:
        assert unblocked(fifo, lambda: luck_cache.load(fifo)) == {}
    else:
        assert unblocked(fifo, lambda: luck_cache.load_moves(tmp_path)) == {}
    assert fifo.is_fifo()


@pipes
def test_a_luck_lock_that_is_a_pipe_does_not_wait_for_a_reader(tmp_path):
    """Was: open(..., 'a') on the pipe waited for a reader; now the block runs unlocked,
    as on a read-only ledger."""
    fifo = tmp_path / luck_cache.LOCK
    os.mkfifo(fifo)

    def locked():
        with luck_cache._locked(tmp_path):
            return "ran"

    assert unblocked(fifo, locked) == "ran"


@pipes
def test_a_train_work_ledger_manifest_that_is_a_pipe_is_refused_unread(tmp_path):
    """Was: the resume check read WORK/games/manifest.json with read_text and waited for a
    writer; now the pipe is refused in one line."""
    fifo = tmp_path / "w" / "games" / "manifest.json"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    argv = ["train", "python_coloretto(players=2)", "--games", "5", "--work", str(tmp_path / "w")]
    r = unblocked(fifo, lambda: cli.invoke(app, [*argv, "-q"]))
    assert r.exit_code != 0 and r.stderr.count("\n") == 1, r.output
    assert "is a pipe (FIFO), not a file" in r.stderr, r.stderr
