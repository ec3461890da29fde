"""Agent failures are named with the agent that failed: in the run's summary line and in
the ratings' notes (the review: ismcts timed out in 28 of 54 games, the summary said only
`failures: timeout 28` and the ratings ranked it first with no sign)."""

from __future__ import annotations

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()
AGENTS = {"greedy": "heuristic", "random": "random", "crash": "test_crash(after=2)"}


def _run(tmp_path, make_raw, write_toml, policy: str):
    raw = make_raw(agents=AGENTS, seeds_per_lineup=2, failure_policy=policy)
    out = tmp_path / policy
    argv = ["tournament", "run", str(write_toml(raw, f"{policy}.toml")), "--out", str(out)]
    res = runner.invoke(app, [*argv, "--executor", "serial", "--quiet"])
    assert res.exit_code == 0, res.output
    return out, res.stdout


def test_the_run_summary_names_the_agent_that_failed(tmp_path, make_raw, write_toml, test_kinds):
    """Every game of `crash` ends in its crash: 8 of its 8 (2 seeds, 2 line-ups, 2 seats)."""
    _, summary = _run(tmp_path, make_raw, write_toml, "void")
    assert "failures: crash 8 (crash: crash 8 of its 8 games);" in summary


def test_ratings_notes_give_void_games_and_failures_per_agent(
    tmp_path, make_raw, write_toml, test_kinds
):
    out, _ = _run(tmp_path, make_raw, write_toml, "void")
    text = " ".join(runner.invoke(app, ["ratings", str(out), "--bootstrap", "0"]).stdout.split())
    assert "8 void game(s) left out: greedy 4 of its 8, random 4 of its 8;" in text
    out, _ = _run(tmp_path, make_raw, write_toml, "rank-last")  # rated, ranked last
    text = " ".join(runner.invoke(app, ["ratings", str(out), "--bootstrap", "0"]).stdout.split())
    assert "failure_policy says): crash crash 8 of its 8 games" in text
    assert "void game" not in text
