"""Record (or check) digests of the MCCFR abstractions: keys, labels and OS tables.

The shipped blueprints (``spiel_games/<game>/blueprint_3p.npz``) stay valid only while
every game's abstraction gives the same key and labels to every decision, and the
outcome-sampling traversals sample the same strategies. For every game configuration the
conformance suite exercises, a few random trajectories are played from fixed seeds and,
at every decision with more than one legal action, the mover's key and the labels of its
legal actions are hashed; then a few MCCFR-OS iterations (the full-game settings:
sampled weighting, baselines) run from a fixed seed and their tables are hashed. A
speed-up that changes nothing leaves every digest as it was.

    python scripts/abstraction_digests.py          # rewrite tests/data/abstraction_digests.json
    python scripts/abstraction_digests.py --check  # compare, exit 1 on a difference

``tests/solvers/test_abstraction_digests.py`` checks the same cases one by one.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "scripts"):  # the packages, and behaviour_digests beside this
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import numpy as np  # noqa: E402
from behaviour_digests import digest_cli  # noqa: E402

import spiel_games  # noqa: E402
from solvers.mccfr_sequential import MCCFR  # noqa: E402
from spiel_games.common.registry import all_specs  # noqa: E402

OUT = ROOT / "tests" / "data" / "abstraction_digests.json"
TRAJECTORIES = 6
OS_ITERATIONS = 12


def cases() -> list[tuple[str, str]]:
    """(kind, game string): every configuration's keys and labels, then its OS tables."""
    out = []
    for spec in all_specs():
        if spec.abstraction is None:
            continue
        for config in spec.test_configs:
            out += [("labels", config), ("os", config)]
    return out


def case_key(kind: str, game: str) -> str:
    return f"{kind} | {game}"


def _labels(game_string: str) -> list:
    """(player, key, legal, labels) at every real decision of fixed-seed random games."""
    game = spiel_games.load_game(game_string)
    spec = spiel_games.get_spec(game.get_type().short_name)
    found: list = []
    for seed in range(TRAJECTORIES):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            p = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1:
                labels = spec.abstraction_labels(state, p, legal)
                found.append([p, spec.abstraction(state, p), legal, labels])
            state.apply_action(legal[rng.randrange(len(legal))])
    return found


def _os_tables(game_string: str) -> dict:
    game = spiel_games.load_game(game_string)
    spec = spiel_games.get_spec(game.get_type().short_name)
    solver = MCCFR(game, "os", spec.abstraction_name, 3, 0.3, weighting="sampled", baselines=True)
    for _ in range(OS_ITERATIONS):
        solver.iteration()
    arrays = solver.tables.to_arrays()
    return {k: np.asarray(v).tolist() for k, v in sorted(arrays.items())}


def digest(kind: str, game_string: str) -> str:
    found = _labels(game_string) if kind == "labels" else _os_tables(game_string)
    return hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    return digest_cli(sys.modules[__name__], argv)


if __name__ == "__main__":
    sys.exit(main())
