"""scripts/bench.py still runs against the current code: every section at a token size
(MEEPLE_BENCH_SMOKE=1), in a child process, since the tournament section starts its own
Ray session. The figures mean nothing; a section that fails is reported by bench.py as
"Failed to run", which this catches (two API drifts once went unseen until a full run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.ray
@pytest.mark.slow
def test_every_benchmark_section_runs_at_a_token_size(tmp_path):
    out = tmp_path / "BENCHMARKS.md"
    env = {**os.environ, "MEEPLE_BENCH_SMOKE": "1", "PYTHONPATH": str(ROOT)}
    env["RAY_ADDRESS"] = "local"  # its own session, not the cluster the Ray tests share
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--out", str(out)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = out.read_text()
    assert "Failed to run" not in text, text
    for header in (
        "## Solvers: IS-MCTS simulations per second",
        "## Solvers: MCCFR iterations per second",
        "## Solvers: exact CFR through OpenSpiel (EFG export)",
        "## Solvers: MCCFR memory and policy file size",
        "## Tournament throughput (Ray)",
        "## Rating time",
    ):
        assert header in text
    assert "| error:" not in text  # the memory section's child process failed
