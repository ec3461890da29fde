"""What an output path may be (``spiel_games.common.files``): a symlink is written
through, the file it names keeping its permissions."""

from __future__ import annotations

import os
import stat

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


def test_play_saves_through_a_symlink_and_keeps_the_records_mode(tmp_path):
    """Was: `play --load link.json` then `save` replaced link.json by a regular file (the
    record it named unchanged) and wrote it 0644 whatever the record's mode."""
    real = tmp_path / "real"
    real.mkdir()
    game = real / "game.json"
    r = runner.invoke(
        app, ["play", TINY, "--seats", "human,random", "--save", str(game)], input="1\nquit\n"
    )
    assert r.exit_code == 0, r.output
    game.chmod(0o600)
    before = game.read_text()
    link = tmp_path / "link.json"
    link.symlink_to("real/game.json")
    r = runner.invoke(app, ["play", "--load", str(link)], input="1\nsave\nquit\n")
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == "real/game.json"
    assert game.read_text() != before  # the move went into the record the link names
    assert stat.S_IMODE(game.stat().st_mode) == 0o600
    assert sorted(p.name for p in real.iterdir()) == ["game.json"]
