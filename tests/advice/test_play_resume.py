"""`meeple play`'s AI seats continue after `undo` and after `save` + `--load` exactly as an
unbroken game would (docs/advice.md, "Chance"). Was: a search seat kept one random stream
that advanced with every move it made, so after an undo that stepped back over its moves,
or in a fresh session loading the record, it drew other numbers and played other moves
(Coloretto, seed 11: the records parted at ply 39, the scores [38, 34, 28] against
[29, 38, 34] after a load and [29, 31, 33] after an undo)."""

from __future__ import annotations

import io

from tournament.advice.play import PlaySession
from tournament.advice.positions import read_record

GAME = "python_coloretto(players=3)"
SEATS = ["human", "ismcts(sims=30)", "noisy(eps=0.5)"]
SEED = 11
ONES = "1\n" * 200


def _run(lines: str, **kw):
    session = PlaySession(GAME, SEATS, SEED, inp=io.StringIO(lines), out=io.StringIO(), **kw)
    return session.run()


def test_an_undo_over_ai_moves_replays_the_same_ai_moves():
    unbroken = _run(ONES)
    assert unbroken.finished
    undone = _run("1\n" * 4 + "undo\n" + ONES)
    assert undone.finished and undone.actions == unbroken.actions


def test_a_loaded_game_plays_on_as_the_unbroken_one(tmp_path):
    unbroken = _run(ONES)
    path = tmp_path / "g.json"
    first = _run("1\n" * 5 + f"save {path}\nquit\n")
    assert not first.finished
    resumed = _run(ONES, record=read_record(path), load_path=str(path))
    assert resumed.finished and resumed.actions == unbroken.actions
