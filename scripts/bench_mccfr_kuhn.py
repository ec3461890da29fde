"""The project's MCCFR against OpenSpiel's own on Kuhn poker: NashConv of the average
policy after N iterations (default 10,000), seeds 0-4, external and outcome sampling.

    python scripts/bench_mccfr_kuhn.py [--iterations N] [--seeds K]

Ours: ``meeple solve kuhn_poker --solver mccfr-es|mccfr-os`` (classic MCCFR on a game where
exploitability is computable: counterfactual weighting, exploration 0.6, batch 1), its
figure ``pyspiel.nash_conv`` on the EFG copy. OpenSpiel's: ``ExternalSamplingSolver`` and
``OutcomeSamplingSolver`` (numpy seeded per run), ``exploitability.nash_conv``. The seeds
differ between the two, so compare ranges, not runs. Prints one line per solver.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402
from open_spiel.python.algorithms import external_sampling_mccfr as es  # noqa: E402
from open_spiel.python.algorithms import outcome_sampling_mccfr as os_  # noqa: E402

from solvers.train import SolveConfig, solve  # noqa: E402


def ours(solver: str, iterations: int, seed: int, tmp: Path) -> float:
    out = tmp / f"{solver}-{seed}.parquet"
    cfg = SolveConfig("kuhn_poker", solver, iterations, str(out), report_every=iterations)
    cfg.seed = seed
    return solve(cfg).reports[-1][2]


def openspiel(cls, iterations: int, seed: int) -> float:
    game = pyspiel.load_game("kuhn_poker")
    np.random.seed(seed)
    s = cls(game)
    for _ in range(iterations):
        s.iteration()
    return float(exploitability.nash_conv(game, s.average_policy()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=10_000)
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args(argv)
    n, seeds = args.iterations, range(args.seeds)
    pairs = (
        ("external", "mccfr-es", es.ExternalSamplingSolver),
        ("outcome", "mccfr-os", os_.OutcomeSamplingSolver),
    )
    with tempfile.TemporaryDirectory() as d:
        for name, solver, cls in pairs:
            a = [ours(solver, n, s, Path(d)) for s in seeds]
            b = [openspiel(cls, n, s) for s in seeds]
            print(
                f"{name} sampling, {n} iterations, seeds 0-{args.seeds - 1}: nash_conv "
                f"meeple {min(a):.4f}-{max(a):.4f}, OpenSpiel {min(b):.4f}-{max(b):.4f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
