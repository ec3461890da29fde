"""A refused exact solve frees OpenSpiel's solver before it returns (found in review).

Was: a resume refused for a checkpoint of another solver (`meeple solve T --solver cfr+
-o P` over a cfr checkpoint) printed its one-line error and then, in about one run of
eight, aborted at exit ("terminate called without an active exception", exit 134): the
exception's traceback kept the C++ solver alive until the interpreter's teardown. 0
aborts in 40 runs with the fix, measured; this test checks its mechanism.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from solvers import efg_cfr
from solvers.train import SolveConfig, SolveError, solve


def test_the_solver_is_gone_when_a_refused_resume_raises(tmp_path, monkeypatch):
    out = str(tmp_path / "p.parquet")
    solve(SolveConfig("kuhn_poker", "cfr", 5, out, report_every=5))
    made: list[weakref.ref] = []
    real = efg_cfr.ExactCFR

    class Watched(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            made.append(weakref.ref(self))

    monkeypatch.setattr(efg_cfr, "ExactCFR", Watched)
    gc.disable()  # only what the traceback holds: no collection may free it by chance
    try:
        with pytest.raises(SolveError, match="for --solver cfr") as caught:
            solve(SolveConfig("kuhn_poker", "cfr+", 5, out, report_every=5))
        assert caught.value.__traceback__ is not None  # the traceback is still held here
        assert len(made) == 1 and made[0]() is None
    finally:
        gc.enable()
