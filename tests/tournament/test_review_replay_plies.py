"""`meeple replay` numbers its moves by ply as `meeple review` (and `advise --ply`) count."""

from __future__ import annotations

from tournament.advice.review import review
from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.replay import replay
from tournament.runner import run_tournament


def test_a_reviews_ply_is_the_replay_line_of_that_move(tmp_path, make_raw):
    """Was: replay numbered moves from 1, review's ply counts the actions before the move,
    so a user following "mistake 1: ply 197" to replay's line 197 found the move before."""
    cfg = build_config(make_raw(seeds_per_lineup=1, record_moves=True))
    run_tournament(cfg, tmp_path / "l", executor="serial")
    game_id = read_ledger(tmp_path / "l").table.column("game_id")[0].as_py()
    rep = replay(tmp_path / "l", game_id)
    rv = review(rep.record(), "mcts(sims=8)", player=0, luck=False)
    numbered = {}
    for line in rep.lines:
        head, rest = (line.split(None, 1) + [""])[:2]
        if head.isdigit():
            numbered[int(head)] = rest
    assert sorted(numbered) == list(range(len(rep.actions)))  # ply 0 is the first action
    assert any(line.split()[:2] == ["ply", "who"] for line in rep.lines)  # the column's name
    for d in rv.decisions:
        who, _, move = numbered[d.ply].split(None, 2)  # "P1 random    draw"
        assert (who, move) == ("P1", d.played), (d.ply, numbered[d.ply])
