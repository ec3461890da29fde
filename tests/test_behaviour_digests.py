"""No behaviour change: fixed-seed games replay to their recorded digests.

Random and heuristic playouts of every conformance configuration, and one game of
``ismcts(sims=100)`` in every seat per game and player count, hash to the digests in
tests/data/behaviour_digests.json (the 4- and 5-player searches marked slow). A
restructuring must leave them all as they are; a deliberate change of behaviour rewrites
the file with ``python scripts/behaviour_digests.py`` and says why in its commit.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "behaviour_digests", ROOT / "scripts" / "behaviour_digests.py"
)
assert _spec is not None and _spec.loader is not None
bd = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bd)

RECORDED = json.loads(bd.OUT.read_text())


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(bd.case_key(*c) for c in bd.cases())


def _marked(case: tuple[str, str, int]):
    """A search game at 4 or 5 players takes 4-30 s: marked slow (``make test`` and
    ``scripts/behaviour_digests.py --check`` still play it; the quick loop plays every
    game's 2- and 3-player searches and every playout)."""
    game, agent, _ = case
    big = agent == bd.SEARCH and any(f"players={n})" in game for n in (4, 5))
    return pytest.param(case, id=bd.case_key(*case), marks=[pytest.mark.slow] if big else [])


@pytest.mark.parametrize("case", [_marked(c) for c in bd.cases()])
def test_game_replays_to_its_recorded_digest(case):
    assert bd.digest(*case) == RECORDED[bd.case_key(*case)]
