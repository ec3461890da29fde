"""Names over 255 bytes given to the commands that run games or solve: a one-line usage
error (exit 2), nothing made, never a traceback. Was, each an OSError (ENAMETOOLONG)
traceback with exit 1, since Python 3.11's Path.exists, is_dir and is_file raise for such
a name: ``tournament run --out``, ``sprt --out``, ``ratings DIR``, ``tune --out``, ``train
--work`` and ``--out``, ``solve --out`` (and an --out whose checkpoint or lock name is the
one over 255 bytes), ``tournament run CONFIG``, ``train --pool``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()
LONG = "a" * 300
GAME2 = "python_coloretto(players=2)"
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


def _refused(tmp_path, *argv) -> str:
    before = sorted(p.name for p in tmp_path.iterdir())
    r = runner.invoke(app, [str(a) for a in argv])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing made
    return lines[0]


def test_tournament_run_out_and_config(tmp_path, make_raw, write_toml):
    toml = write_toml(make_raw(seeds_per_lineup=1))
    line = _refused(tmp_path, "tournament", "run", toml, "-o", tmp_path / LONG, "-q")
    assert line == f"error: --out '{tmp_path / LONG}': File name too long"
    line = _refused(tmp_path, "tournament", "run", tmp_path / f"{LONG}.toml")
    assert line == f"error: config file '{tmp_path / LONG}.toml': File name too long"


def test_sprt_out(tmp_path):
    argv = ["sprt", GAME2, "heuristic", "random", "--max-games", "4", "--executor", "serial"]
    line = _refused(tmp_path, *argv, "-o", tmp_path / LONG)
    assert line.endswith(": File name too long")


def test_ratings_of_such_a_directory(tmp_path):
    line = _refused(tmp_path, "ratings", tmp_path / LONG)
    assert line == f"error: {tmp_path / LONG}: File name too long"


def test_tune_out(tmp_path):
    argv = ["tune", TINY, "--agent", "ismcts(sims=2)", "--budget", "2", "--executor", "serial"]
    assert _refused(tmp_path, *argv, "-o", tmp_path / LONG).endswith(": File name too long")


@pytest.mark.parametrize("option", ["--work", "--out"])
def test_train_work_and_out(tmp_path, option):
    paths = {"--work": tmp_path / "w", "--out": tmp_path / "m.json"}
    paths[option] = tmp_path / (LONG if option == "--work" else f"{LONG}.json")
    argv = ["train", GAME2, "--games", "5", "--work", paths["--work"], "--out", paths["--out"]]
    line = _refused(tmp_path, *argv)
    assert line == f"error: {option} {paths[option]}: File name too long; choose another {option}"


def test_train_pool(tmp_path):
    argv = ["train", GAME2, "--games", "5", "--work", tmp_path / "w", "--pool", tmp_path / LONG]
    line = _refused(tmp_path, *argv)
    assert line == f"error: --pool {tmp_path / LONG}: File name too long"


@pytest.mark.parametrize(
    ("solver", "name", "says"),
    [
        ("mccfr-os", f"{LONG}.npz", ""),
        ("cfr", "b" * 245 + ".parquet", ".parquet.ckpt.parquet"),  # 253 bytes: its checkpoint
        ("cfr", "b" * 232 + ".parquet", ".ckpt.parquet.lock"),  # the checkpoint's lock
    ],
)
def test_solve_out(tmp_path, solver, name, says):
    argv = ["solve", TINY, "--solver", solver, "--iterations", "2", "-o", tmp_path / name]
    line = _refused(tmp_path, *argv)
    assert line.startswith(f"error: --out {tmp_path / name}: ") and says in line
    assert line.endswith(": File name too long")
