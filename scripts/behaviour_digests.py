"""Record (or check) digests of fixed-seed games: the "no behaviour change" yardstick.

For every game configuration the conformance suite exercises, random and heuristic
playouts, and for every game and player count one game of ``ismcts(sims=100)`` in every
seat, are played from fixed seeds; each game's move list and final scores are hashed.
A restructuring that changes no behaviour leaves every digest as it was.

    python scripts/behaviour_digests.py          # rewrite tests/data/behaviour_digests.json
    python scripts/behaviour_digests.py --check  # compare, exit 1 on a difference

``tests/test_behaviour_digests.py`` checks the same cases one by one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import spiel_games
from solvers.registry import resolve
from spiel_games.common.registry import all_specs
from tournament.match import play_match, seed_streams

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "behaviour_digests.json"
PLAYOUTS = (("random", (0, 1)), ("heuristic", (0,)))
SEARCH = "ismcts(sims=100)"


def cases() -> list[tuple[str, str, int]]:
    """(game string, agent spec, seed): every configuration's playouts, then one search
    game per game and player count."""
    out = []
    for spec in all_specs():
        for config in spec.test_configs:
            for agent, seeds in PLAYOUTS:
                out += [(config, agent, seed) for seed in seeds]
        for n in range(spec.min_players, spec.max_players + 1):
            out.append((f"{spec.short_name}(players={n})", SEARCH, 0))
    return out


def case_key(game: str, agent: str, seed: int) -> str:
    return f"{game} | {agent} | {seed}"


def digest(game_string: str, agent: str, seed: int) -> str:
    """sha256 of the move list and final scores of one game, the agent in every seat."""
    game = spiel_games.load_game(game_string)
    n = game.num_players()
    chance_rng, seat_seeds = seed_streams(seed, n)
    spec = resolve(agent)
    agents = [spec.make(game, seat_seeds[p]) for p in range(n)]
    r = play_match(game, agents, seed, chance_rng=chance_rng)
    if r.failure:
        raise RuntimeError(f"{game_string} {agent} seed {seed}: {r.failure} {r.detail}")
    blob = json.dumps({"actions": r.actions, "scores": [float(x) for x in r.scores]})
    return hashlib.sha256(blob.encode()).hexdigest()


def digest_cli(module, argv: list[str] | None = None) -> int:
    """The command line of a digest script ``module`` (its ``cases``, ``case_key``,
    ``digest``, ``OUT`` and docstring): write every case's digest, or with ``--check``
    compare them with the recorded ones (exit 1 when one changed)."""
    ap = argparse.ArgumentParser(description=module.__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args(argv)
    found = {module.case_key(*c): module.digest(*c) for c in module.cases()}
    out = module.OUT
    if not args.check:
        out.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(found)} digests to {out}")
        return 0
    recorded = json.loads(out.read_text())
    bad = [k for k in found if recorded.get(k) != found[k]]
    for k in bad:
        print(f"changed: {k}")
    print(f"{len(found) - len(bad)} of {len(found)} digests unchanged")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    return digest_cli(sys.modules[__name__], argv)


if __name__ == "__main__":
    sys.exit(main())
