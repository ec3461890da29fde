"""`table` seats with chance drawn from the seed are warned about (found in review). Was: a
player who forgot --chance manual at a real table got a game whose cards the engine made
up, without a word."""

from __future__ import annotations

from typer.testing import CliRunner

from tournament.cli import app
from tournament.cli.advice import MADE_UP

GAME = "python_coloretto(players=3)"


def test_table_seats_with_seeded_chance_are_warned_about(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_RECOVERY_DIR", str(tmp_path))
    seeded = CliRunner().invoke(app, ["play", GAME, "--seats", "me,table,table"], input="quit\n")
    assert MADE_UP in seeded.stderr and "--chance manual" in MADE_UP
    manual = ["--seats", "me,table,table", "--chance", "manual"]
    typed = CliRunner().invoke(app, ["play", GAME, *manual], input="quit\n")
    ai = CliRunner().invoke(
        app, ["play", GAME, "--seats", "me,heuristic,heuristic"], input="quit\n"
    )
    assert MADE_UP not in typed.stderr and MADE_UP not in ai.stderr
