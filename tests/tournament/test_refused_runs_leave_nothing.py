"""Outputs that would spoil another command's files are refused and leave nothing (found
in review). Was:

- `meeple tune -o W` on a folder of other files (a `meeple train` work folder) was refused
  but left its .lock there, and `meeple train --work W` then refused W;
- `meeple ratings L --html L/x.parquet` wrote the report into ledger L, whose every read
  then refused it as a foreign file (a report beside the batches, L/report.html, is
  still written: the ledger ignores it);
- `meeple train --out W/games/manifest.json --work W` replaced its own ledger's manifest
  with the model, and `--out W/model.json` made every rerun refuse W.
"""

from __future__ import annotations

from typer.testing import CliRunner

from tournament.cli import app
from tournament.ledger import read_ledger

G2 = "python_coloretto(players=2)"


def test_refused_tune_leaves_no_lock_file(tmp_path):
    work = tmp_path / "w"
    work.mkdir()
    (work / "note.txt").write_text("mine")
    argv = ["tune", G2, "--agent", "mcts(sims=5)", "--params", "uct_c", "--budget", "2"]
    r = CliRunner().invoke(app, [*argv, "--opponent", "random", "-o", str(work)])
    assert r.exit_code == 2, r.output
    assert "holds no tuning run" in r.output
    assert sorted(p.name for p in work.iterdir()) == ["note.txt"]


def test_ratings_html_that_would_spoil_the_ledger_is_refused(tmp_path, small_config):
    from tournament.runner import run_tournament

    ledger = tmp_path / "L"
    run_tournament(small_config, ledger, executor="serial")
    games = len(read_ledger(ledger).table)
    for inside in ("x.parquet", "sub/report.html"):
        html = ledger / inside
        r = CliRunner().invoke(app, ["ratings", str(ledger), "--html", str(html)])
        assert r.exit_code == 2, r.output
        assert "would be a foreign file in the ledger" in r.output
        assert not html.exists() and not (ledger / "sub").exists()
    r = CliRunner().invoke(app, ["ratings", str(ledger), "--html", str(ledger / "report.html")])
    assert r.exit_code == 0, r.output
    assert len(read_ledger(ledger).table) == games  # still read whole


def test_train_out_inside_its_work_folder_is_refused_before_anything_is_written(tmp_path):
    work = tmp_path / "W"
    for out in (work / "games" / "manifest.json", work / "model.json"):
        argv = ["train", G2, "-n", "5", "--executor", "serial", "--work", str(work)]
        r = CliRunner().invoke(app, [*argv, "-o", str(out)])
        assert r.exit_code == 2, r.output
        assert "is inside --work" in r.output
        assert not work.exists()
