"""No behaviour change: fixed-seed games replay to their recorded digests.

Random and heuristic playouts of every conformance configuration, and one game of
``ismcts(sims=100)`` in every seat per game and player count, hash to the digests in
tests/data/behaviour_digests.json. A restructuring must leave them all as they are; a
deliberate change of behaviour rewrites the file with ``python
scripts/behaviour_digests.py`` and says why in its commit.
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


@pytest.mark.parametrize("case", bd.cases(), ids=lambda c: bd.case_key(*c))
def test_game_replays_to_its_recorded_digest(case):
    assert bd.digest(*case) == RECORDED[bd.case_key(*case)]
