"""State files nested too deeply for Python's JSON parser (``[[[...]]]``, 100,000 levels)
or holding a number of 5,000 digits: each reader refuses the file in its usual one line,
the file kept (spiel_games.common.json_read). Was, for the nesting, a RecursionError
traceback in every state file reader (they caught ValueError, and RecursionError is not
one): a ledger's manifest.json (ratings), meeple tune's tune.json and evaluations.jsonl, an
MCCFR checkpoint's manifest.json (solve), an SPRT's .sprt.json, meeple train's positions
manifest (--work, --pool) and an existing --out; and for the number, a ValueError
traceback where a reader caught only JSONDecodeError (a ledger's manifest)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.one_line import one_line_error
from tests.solvers.test_solver_cli import _solve
from tournament import training, training_request
from tournament.cli import app
from tournament.config import build_config
from tournament.positions import TrainError
from tournament.runner import run_tournament
from tournament.sprt.gsprt import Bounds
from tournament.sprt.run import SIDECAR, SprtRequest, play_sprt

runner = CliRunner()
DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a": ' * 100_000 + "1" + "}" * 100_000
HUGE = '{"n": ' + "9" * 5000 + "}"
GAME2 = "python_coloretto(players=2)"
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


def _invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT, HUGE])
def test_ratings_refuses_such_a_ledger_manifest(tmp_path, make_raw, text):
    out = tmp_path / "t"
    run_tournament(build_config(make_raw(seeds_per_lineup=1)), out, executor="serial")
    (out / "manifest.json").write_text(text)
    line = one_line_error(_invoke("ratings", out), 1)
    assert f"{out / 'manifest.json'}: unreadable manifest (" in line
    assert ("digits" if text == HUGE else "nested too deeply") in line
    assert (out / "manifest.json").read_text() == text


def _tune(out):
    argv = ["tune", TINY, "--agent", "ismcts(sims=2)", "--params", "uct_c", "--levels", "3"]
    return _invoke(*argv, "--budget", "2", "--opponent", "heuristic", "-q", "--out", out)


def test_tune_refuses_such_a_request_or_log(tmp_path):
    out = tmp_path / "t"
    assert _tune(out).exit_code == 0
    request, log = (out / "tune.json").read_text(), (out / "evaluations.jsonl").read_text()
    (out / "tune.json").write_text(DEEP)
    line = one_line_error(_tune(out), 1)
    assert "tune.json: unreadable (nested too deeply)" in line
    assert (out / "tune.json").read_text() == DEEP
    (out / "tune.json").write_text(request)
    (out / "evaluations.jsonl").write_text(DEEP + "\n" + log)
    line = one_line_error(_tune(out), 1)
    assert "evaluations.jsonl: line 1 is not JSON (nested too deeply)" in line
    assert (out / "evaluations.jsonl").read_text() == DEEP + "\n" + log


def test_solve_refuses_such_a_checkpoint_manifest(tmp_path):
    out = tmp_path / "p.parquet"
    assert _solve("--out", str(out)).exit_code == 0
    path = tmp_path / "p.parquet.ckpt" / "manifest.json"
    path.write_text(DEEP)
    before = out.read_bytes()
    line = one_line_error(_solve("--out", str(out), "--iterations", "8"), 1)
    assert f"checkpoint {path} is unreadable (nested too deeply)" in line
    assert out.read_bytes() == before and path.read_text() == DEEP


def test_sprt_refuses_such_bounds(tmp_path):
    out = tmp_path / "s"
    play_sprt(SprtRequest(GAME2, "heuristic", "random", Bounds(0.0, 100.0), max_games=4), out)
    (out / SIDECAR).write_text(DEEP)
    argv = ["sprt", GAME2, "heuristic", "random", "--elo1", "100", "--max-games", "4"]
    r = _invoke(*argv, "--out", out, "--executor", "serial", "-q")
    assert f"{out / SIDECAR}: unreadable (nested too deeply)" in one_line_error(r, 1)
    assert (out / SIDECAR).read_text() == DEEP


def test_train_refuses_such_an_out_or_pool(tmp_path):
    out = tmp_path / "m.json"
    out.write_text(DEEP)
    r = _invoke("train", GAME2, "--work", tmp_path / "w", "--out", out)
    assert "exists and is not a value model" in one_line_error(r, 2)
    pool = tmp_path / "p"
    (pool / "positions").mkdir(parents=True)
    (pool / "positions" / "manifest.json").write_text(DEEP)
    r = _invoke("train", GAME2, "--work", tmp_path / "w", "--pool", pool)
    assert f"--pool {pool}: unreadable manifest (nested too deeply)" in one_line_error(r, 2)
    assert out.read_text() == DEEP and not (tmp_path / "w").exists()


def test_train_refuses_such_a_positions_manifest_in_its_work(tmp_path):
    """The rerun of a request whose --work holds it: the request's check reads the
    positions' --every (unknown now, not a traceback), the run refuses the file."""
    cfg = training.TrainConfig(GAME2, games=5, every=3, work=str(tmp_path / "w"))
    path = tmp_path / "w" / "positions" / "manifest.json"
    path.parent.mkdir(parents=True)
    path.write_text(DEEP)
    assert training_request._positions_every(tmp_path / "w") is None
    with pytest.raises(TrainError, match=r"manifest.json: unreadable \(nested too deeply\)"):
        training._check_or_write_manifest(path.parent, {"every": cfg.every})
    assert path.read_text() == DEEP
