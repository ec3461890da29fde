"""An SPRT on a two-player game with a --filler (found in review).

Was: the filler was added to the test's agents though A and B take every seat of a
two-player game, so the tournament refused it ("agents.filler sits at none of
tournament.tables"); `meeple tune --confirm N` on a two-player game played its whole
budget and then failed there (its confirming SPRT passes `--filler heuristic`).
"""

from __future__ import annotations

from typer.testing import CliRunner

from tournament.cli import app
from tournament.sprt.gsprt import Bounds
from tournament.sprt.run import SprtRequest, play_sprt

G2 = "python_coloretto(players=2)"


def test_a_filler_at_two_players_sits_nowhere_and_the_test_runs(tmp_path):
    req = SprtRequest(G2, "heuristic", "random", Bounds(0.0, 100.0), "noisy(eps=0.3)", 4)
    verdict, summary, _ = play_sprt(req, tmp_path / "s", executor="serial")
    assert verdict.games == 4 and summary.played == 4


def test_the_sprt_command_says_a_two_player_game_has_no_other_seats(tmp_path):
    argv = ["sprt", G2, "heuristic", "random", "--filler", "noisy(eps=0.3)"]
    argv += ["--max-games", "4", "--executor", "serial", "-o", str(tmp_path / "s")]
    r = CliRunner().invoke(app, argv)
    assert r.exit_code == 0, r.output
    assert "other seats: none (two players)" in r.output
