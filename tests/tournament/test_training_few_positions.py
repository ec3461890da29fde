"""`meeple train` whose positions cannot determine a fit: one line naming the option to
change, exit 1 after the self-play, the games kept (was a numpy LinAlgError traceback,
also on every rerun)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.ledger import read_ledger

GAME = "python_coloretto(players=3)"


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_too_few_positions_for_a_fit_is_one_line_and_the_games_are_kept(tmp_path, kind):
    # --every beyond a game's length: each game gives its first position only, where no
    # player's features differ from another's
    work, out = tmp_path / "w", tmp_path / "m.json"
    argv = ["train", GAME, "--games", "5", "--every", "100000", "--agent", "heuristic"]
    argv += ["--executor", "serial", "--out", str(out), "--work", str(work), "--quiet"]
    argv += ["--kind", kind]
    for _ in range(2):  # a rerun says the same
        r = CliRunner().invoke(app, argv)
        assert r.exit_code == 1 and r.output.count("\n") == 1, r.output
        assert r.output.startswith(
            "error: too few positions to fit a value model: 5 position(s) from 5 game(s)"
        )
        assert "lower --every (now 100000)" in r.output and str(work) in r.output
        assert read_ledger(work / "games").table.num_rows == 5 and not out.exists()
    # the advice given works: a lower --every with a new --work (the old one resumes only
    # its own request; was: 'the games played are kept in W', whose rerun was refused)
    assert "with a new --work" in r.output
    argv[argv.index("100000")] = "2"
    argv[argv.index(str(work))] = str(tmp_path / "w2")
    r = CliRunner().invoke(app, argv)
    assert r.exit_code == 0 and out.exists(), r.output
