"""How close search agents' moves come to a stronger reference search (a quick strength proxy).

Positions come from heuristic self-play (10% random moves). At each one a reference agent
(by default `ismcts(sims=12800)`) analyses every legal move; each agent under test then
plays its move, and the script reports how often that move is the reference's choice
(`agree`) and the reference's value lost by it (`regret`, in the game's utility units).
It measures the search within its own model (the evaluation and opponent model the
reference shares); whether that wins games is what scripts/bench_strength.py measures.

    python scripts/search_regret.py 'python_rococo(players=3)' \\
        'ismcts(sims=400,root=ucb)' 'ismcts(sims=1600,root=ucb)' \\
        'ismcts(sims=400)' 'ismcts(sims=1600)' --positions 30
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import pyspiel

import spiel_games  # noqa: F401  (registers the games)
from solvers.registry import make_agent
from solvers.spec import AgentSpecError


def positions(game, count: int, seed: int) -> list:
    """Up to four decision points (more than one legal move) from each self-play game."""
    rng = random.Random(seed)
    mover = make_agent("heuristic", game, seed=seed)
    out: list = []
    while len(out) < count:
        state = game.new_initial_state()
        seen = []
        while not state.is_terminal():
            if state.is_chance_node():
                acts, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(acts, probs)[0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                seen.append(state.clone())
            state.apply_action(mover.step(state) if rng.random() > 0.1 else rng.choice(legal))
        out += rng.sample(seen, min(len(seen), 4))
    return out[:count]


def measure(game, specs: list[str], reference: str, count: int, seed: int) -> dict:
    """{spec: (agreement, mean regret)} over `count` positions."""
    found = {spec: [] for spec in specs}
    for i, state in enumerate(positions(game, count, seed)):
        analysis = make_agent(reference, game, seed=1000 + i).analyse(state)
        value = {m.action: m.value for m in analysis.moves if m.visits}
        best, worst = max(value.values()), min(value.values())
        for spec in specs:
            move = make_agent(spec, game, seed=i).step(state)
            found[spec].append((move == analysis.moves[0].action, best - value.get(move, worst)))
    return {
        spec: (sum(a for a, _ in r) / len(r), sum(x for _, x in r) / len(r))
        for spec, r in found.items()
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="game string, e.g. 'python_rococo(players=3)'")
    ap.add_argument("specs", nargs="+", help="agent specs to measure")
    ap.add_argument("--reference", default="ismcts(sims=12800)")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    if args.positions < 1:
        print("error: --positions must be >= 1", file=sys.stderr)
        return 1
    try:
        game = pyspiel.load_game(args.game)
        for spec in [args.reference, *args.specs]:
            make_agent(spec, game, seed=0)
    except (AgentSpecError, pyspiel.SpielError, RuntimeError, ValueError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    t = time.perf_counter()
    result = measure(game, args.specs, args.reference, args.positions, args.seed)
    print(
        f"{args.game}: {args.positions} positions, reference {args.reference} "
        f"({time.perf_counter() - t:.0f} s)"
    )
    width = max(len(s) for s in args.specs)
    for spec, (agree, regret) in result.items():
        print(f"  {spec:<{width}}  agree {agree:.2f}  regret {regret:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
