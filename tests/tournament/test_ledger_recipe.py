"""docs/tournaments.md's recipe for reading a ledger with pyarrow alone runs as printed and
names the agents of every seat."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.runner import run_tournament

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"


def test_the_docs_recipe_reads_a_ledger_and_names_its_agents(tmp_path, make_raw):
    d = tmp_path / "led"
    run_tournament(build_config(make_raw()), d, executor="serial")
    recipe = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert recipe and "manifest.json" in recipe.group(1)
    code = recipe.group(1).replace('Path("runs/demo-a574b674")', f"Path({str(d)!r})")
    assert str(d) in code  # the recipe still reads the directory it names
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    lines = out.getvalue().splitlines()
    led = read_ledger(d)
    names = {a["name"] for a in led.manifest["agents"]}
    assert len(lines) == min(3, led.table.num_rows)
    first = led.table.to_pylist()[0]
    assert lines[0].startswith(first["game_id"])
    assert all(any(n in line for n in names) for line in lines)
