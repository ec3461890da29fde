"""Measure each game's ``LEVEL`` table: the players' mean remaining gain by segment.

    python scripts/measure_score_level.py [--games 300] [--seed 0] [--eps 0.1]
                                          [--game python_coloretto ...] [--players 2 3 4 5]

Under ``utility=score`` a search cut short returns each player's estimated final score:
the evaluation's estimated difference from the other players plus a level, the players'
mean final score expected from the position (``spiel_games.common.level``, whose
``measure`` this runs). Per game and player count it plays ``--games`` games between the
game's heuristic players that play a random move with probability ``--eps`` (the
self-play the evaluations were fitted on), fits per segment a least-squares line of the
players' mean remaining gain on the share of the segment left, and prints the table to
paste into the game's evaluation module (``LEVEL``, default rules) with, per third of
the game, the mean and standard deviation of (mean final score - level) on those games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import spiel_games  # noqa: E402
from spiel_games.common.level import measure, remaining_gain  # noqa: E402

GAMES = ("python_coloretto", "python_staufer", "python_rococo", "python_bruxelles")
THIRDS = (("early", 2 / 3, 9.0), ("middle", 1 / 3, 2 / 3), ("late", -1.0, 1 / 3))


def check(rows, data: np.ndarray) -> str:
    """Mean and standard deviation of (mean final - level) per third of the game."""
    gain = np.array([remaining_gain(rows, int(k), s) for _, k, _, s, *_ in data])
    err = data[:, 5] - (data[:, 4] + gain)
    parts = []
    for label, lo, hi in THIRDS:
        m = (data[:, 0] > lo) & (data[:, 0] <= hi)
        if m.any():
            parts.append(f"{label} {err[m].mean():+.2f} (sd {err[m].std():.1f}, n {m.sum()})")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eps", type=float, default=0.1)
    ap.add_argument("--game", nargs="*", default=list(GAMES))
    ap.add_argument("--players", nargs="*", type=int, default=[2, 3, 4, 5])
    args = ap.parse_args(argv)
    for name in args.game:
        print(f"# {name}: {args.games} games per player count, seed {args.seed}, eps {args.eps}")
        print("LEVEL = {")
        notes = []
        for n in args.players:
            game = spiel_games.load_game(f"{name}(players={n})")
            rows, data = measure(game, args.games, args.seed, args.eps)
            print(f"    {n}: ({', '.join(f'({a}, {b})' for a, b in rows)}),")
            notes.append(
                f"# {n} players, {len(data)} positions, final - level: {check(rows, data)}"
            )
        print("}")
        print("\n".join(notes), flush=True)


if __name__ == "__main__":
    main()
