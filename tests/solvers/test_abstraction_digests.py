"""The abstractions' keys and labels, and the MCCFR-OS tables, replay to their digests.

The shipped blueprints are valid only while every decision gets the key and labels they
were trained with and the traversals sample the same strategies. Fixed-seed random
trajectories of every conformance configuration (keys and labels at every real decision)
and a few MCCFR-OS iterations (their tables) hash to the digests in
tests/data/abstraction_digests.json, recorded with the abstractions the blueprints were
trained with. A deliberate change of an abstraction bumps its version, retrains the
blueprints and rewrites the file with ``python scripts/abstraction_digests.py``.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "abstraction_digests", ROOT / "scripts" / "abstraction_digests.py"
)
assert _spec is not None and _spec.loader is not None
ad = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ad)

RECORDED = json.loads(ad.OUT.read_text())


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(ad.case_key(*c) for c in ad.cases())


@pytest.mark.parametrize("case", ad.cases(), ids=lambda c: ad.case_key(*c))
def test_abstraction_replays_to_its_recorded_digest(case):
    assert ad.digest(*case) == RECORDED[ad.case_key(*case)]
