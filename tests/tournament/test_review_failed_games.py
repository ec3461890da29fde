"""`meeple review --list`, `replay` and the review's JSON on games that did not finish."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.runner import run_tournament

runner = CliRunner()


def _strict(text: str):
    """JSON as a strict parser reads it: NaN and Infinity are refused."""

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def failed_ledger(tmp_path, make_raw, test_kinds):
    """A ledger whose every game ended by a crash (scores NaN in the ledger)."""
    agents = {"greedy": "heuristic", "crash": "test_crash(after=1)"}
    cfg = build_config(make_raw(agents=agents, seeds_per_lineup=1))
    run_tournament(cfg, tmp_path / "a", executor="serial")
    rows = read_ledger(tmp_path / "a").table.to_pylist()
    assert rows and all(r["failure"] == "crash" for r in rows)
    return tmp_path / "a", rows


def test_review_list_of_failed_games_is_strict_json_and_readable_text(failed_ledger):
    """Was: `--list --json` wrote `"scores": [NaN, NaN]` and the text `scores nan, nan`."""
    out, rows = failed_ledger
    r = runner.invoke(app, ["review", str(out), "--list", "--json"])
    assert r.exit_code == 0, r.output
    games = _strict(r.stdout)
    assert {g["game_id"] for g in games} == {row["game_id"] for row in rows}
    assert all(g["scores"] == [None, None] and g["failure"] == "crash" for g in games)
    r = runner.invoke(app, ["review", str(out), "--list"])
    assert r.exit_code == 0 and "nan" not in r.stdout.lower(), r.stdout
    assert all(" scores -  (crash)" in line for line in r.stdout.strip().splitlines())


def test_replay_of_a_failed_game_has_no_nan_scores(failed_ledger):
    out, rows = failed_ledger
    r = runner.invoke(app, ["replay", str(out), rows[0]["game_id"]])
    assert r.exit_code == 0, r.output
    assert "nan" not in r.stdout.lower(), r.stdout
    assert "scores: - (the game did not finish)" in r.stdout


def test_a_decision_without_an_interval_is_null_in_json():
    """Was: a loss without a paired interval has the lower end -inf (never marked), which
    the review's JSON wrote as -Infinity."""
    from tournament.advice.review import Decision, loss_low

    low = loss_low((2.0, None, None), 0.5)
    assert low == -math.inf
    d = Decision(3, "draw", "take row 1", 0.1, None, None, 0.0, 0.1, loss_points_low=low)
    d.best_points = math.nan
    obj = _strict(json.dumps(d.to_json(), allow_nan=False))
    assert obj["loss_points_low"] is None and obj["best_points"] is None and obj["ply"] == 3
