"""scripts/bench_mccfr_kuhn.py still runs, and docs/solvers.md quotes lines of the format it
prints (the figures are a 7-minute measurement, quoted with its command, not rerun here)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(
    r"^(external|outcome) sampling, (\d+) iterations, seeds 0-(\d+): nash_conv "
    r"meeple (\d\.\d{4})-(\d\.\d{4}), OpenSpiel (\d\.\d{4})-(\d\.\d{4})$"
)


def test_the_script_prints_the_lines_the_docs_quote(capsys):
    spec = importlib.util.spec_from_file_location(
        "bench_mccfr_kuhn", ROOT / "scripts" / "bench_mccfr_kuhn.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--iterations", "50", "--seeds", "1"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [LINE.match(x).group(1) for x in printed] == ["external", "outcome"]
    doc = (ROOT / "docs" / "solvers.md").read_text().splitlines()
    quoted = [LINE.match(x) for x in doc if LINE.match(x)]
    assert [m.group(1) for m in quoted] == ["external", "outcome"]
    for m in quoted:  # each range reads low-high
        assert float(m.group(4)) <= float(m.group(5)) and float(m.group(6)) <= float(m.group(7))
