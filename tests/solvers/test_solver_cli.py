"""`meeple agents` and `meeple solve` through typer's CliRunner."""

from __future__ import annotations

from typer.testing import CliRunner

from solvers.policy_file import read_meta
from solvers.registry import all_kinds
from tournament.cli import app

runner = CliRunner()


def test_agents_lists_every_kind_with_parameters():
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0
    for kind in all_kinds():
        assert f"{kind.name}:" in result.output
        for p in kind.params:
            assert f"    {p.name} ({p.type.__name__}, default {p.default!r})" in result.output


def test_solve_writes_a_policy_and_resumes(tmp_path):
    out = str(tmp_path / "kuhn.parquet")
    args = [
        "solve",
        "kuhn_poker",
        "--solver",
        "cfr+",
        "--iterations",
        "20",
        "--out",
        out,
        "--report-every",
        "10",
        "--quiet",
    ]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "iteration 10: nash_conv" in first.output
    more = runner.invoke(app, args[:4] + ["--iterations", "40"] + args[6:])
    assert more.exit_code == 0, more.output
    assert "resuming from checkpoint" in more.output
    assert "(20 this run" in more.output
    assert read_meta(out)["iterations"] == 40


def test_solve_reports_average_regret_on_full_games(tmp_path):
    out = str(tmp_path / "c.parquet")
    result = runner.invoke(
        app,
        [
            "solve",
            "python_coloretto(players=3)",
            "--solver",
            "mccfr-os",
            "--iterations",
            "2",
            "--report-every",
            "1",
            "--out",
            out,
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "average_regret" in result.output
    assert read_meta(out)["abstraction"] == "coloretto-rows"


def test_solve_rejects_unknown_solver_and_game(tmp_path):
    bad = runner.invoke(
        app, ["solve", "kuhn_poker", "--solver", "nope", "--out", str(tmp_path / "x.parquet")]
    )
    assert bad.exit_code == 2
    unknown = runner.invoke(app, ["solve", "nosuchgame", "--out", str(tmp_path / "y.parquet")])
    assert unknown.exit_code == 2
