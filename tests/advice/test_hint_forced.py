"""A hint on a forced move answers at once. Was: `hint` at a decision with one legal move
ran the hint agent's whole search (`ismcts(time=2)` by default: 2 s) to advise it."""

from __future__ import annotations

import io
import time

from tests.advice.test_play import TINY
from tournament.advice.play import PlaySession


def test_a_hint_on_a_forced_move_names_it_without_searching():
    out = io.StringIO()
    session = PlaySession(  # seed 3: the human's first decision is the only legal "draw"
        TINY, ["human", "heuristic"], 3, inp=io.StringIO("hint\n" + "1\n" * 60), out=out,
        hint_agent="ismcts(time=5)",
    )  # fmt: skip
    t0 = time.perf_counter()
    session.run()
    assert time.perf_counter() - t0 < 2.5  # the search alone would take 5 s
    text = out.getvalue()
    assert "only one legal move: draw" in text
    assert "agent ismcts(time=5)" not in text  # no search, no table
