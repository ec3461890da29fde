"""Each house-rule check (scripts/house_rules.py) reports a violation planted in a temporary
source tree, and stays quiet on the same tree without it."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("house_rules", ROOT / "scripts" / "house_rules.py")
assert _spec is not None and _spec.loader is not None
H = importlib.util.module_from_spec(_spec)
sys.modules["house_rules"] = H
_spec.loader.exec_module(H)

_PHASES = """\
from spiel_games.common.engine import phase_table

TABLE = phase_table(Phase, [hooks], chance=(), end=END, actor=cur)
"""
_GAME = """\
from spiel_games.common.engine import EngineState
from spiel_games.toy.phases import TABLE


class ToyState(EngineState):
    table = TABLE
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def _tree(tmp_path: Path, **extra: str) -> Path:
    """A clean tree: three packages importing one way, one game on the engine."""
    files = {
        "spiel_games/__init__.py": "",
        "spiel_games/common/__init__.py": "",
        "spiel_games/common/engine.py": "def phase_table(*a, **k): ...\nclass EngineState: ...\n",
        "spiel_games/toy/__init__.py": "",
        "spiel_games/toy/phases.py": _PHASES,
        "spiel_games/toy/game.py": _GAME,
        "solvers/__init__.py": "",
        "solvers/agent.py": "import spiel_games.common.engine\n",
        "tournament/__init__.py": "",
        "tournament/match.py": "from solvers import agent\n",
        "tournament/advice/__init__.py": "",
        "tournament/advice/positions.py": "from tournament import match\n",
        "scripts/__init__.py": "",
        "tests/__init__.py": "",
    }
    files.update({k.replace("__", "/").replace("_py", ".py"): v for k, v in extra.items()})
    return _write(tmp_path, files)


def test_the_clean_tree_has_no_findings(tmp_path):
    root = _tree(tmp_path)
    edges = H.import_graph(root)
    assert edges and not H.upward_imports(edges) and not H.unit_cycles(edges)
    assert not H.file_lengths(root) and not H.function_lengths(root)
    assert H.game_packages(root) == ["toy"] and not H.phase_table_problems("toy", root)


def test_an_upward_import_is_reported(tmp_path):
    root = _tree(tmp_path, solvers__policy_py="from tournament import match\n")
    assert H.upward_imports(H.import_graph(root)) == {("solvers.policy", "tournament.match")}


def test_subpackages_importing_each_other_are_reported(tmp_path):
    # no two modules import each other, but tournament.replay and tournament.advice do
    root = _tree(
        tmp_path,
        tournament__replay_py="from tournament.advice import positions\n",
        tournament__advice__record_py="import tournament.replay\n",
    )
    edges = H.import_graph(root)
    assert not H.cycles(edges)
    assert H.unit_cycles(edges) == [("tournament.advice", "tournament.replay")]


def test_a_file_over_the_budget_is_reported(tmp_path):
    root = _tree(tmp_path, tournament__big_py="x = 1\n" * (H.FILE_BUDGET + 1))
    assert H.file_lengths(root) == {"tournament/big.py": H.FILE_BUDGET + 1}


def test_a_function_over_the_budget_is_reported(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(H.FUNCTION_BUDGET))
    root = _tree(tmp_path, tests__test_long_py=f"def test_long():\n{body}")
    assert H.function_lengths(root) == {"tests/test_long.py:test_long": H.FUNCTION_BUDGET + 1}


@pytest.mark.parametrize(
    "planted, problem",
    [
        ({"spiel_games__toy__phases_py": "TABLE = {}\n"}, "does not build TABLE"),
        (
            {"spiel_games__toy__phases_py": _PHASES.replace("spiel_games.common.engine", "x")},
            "does not build TABLE",
        ),
        ({"spiel_games__toy__game_py": "class ToyState:\n    table = None\n"}, "no EngineState"),
        (
            {"spiel_games__toy__game_py": _GAME.replace("table = TABLE", "table = {}")},
            "no EngineState",
        ),
    ],
)
def test_a_game_not_exporting_its_phase_table_through_the_engine_is_reported(
    tmp_path, planted, problem
):
    root = _tree(tmp_path, **planted)
    problems = H.phase_table_problems("toy", root)
    assert len(problems) == 1 and problem in problems[0]


def test_an_allow_list_entry_no_longer_needed_is_reported():
    allowed = {"a.py": "reason", "b.py": "reason"}
    assert H.stale(allowed, {"b.py": 420}) == ["a.py"]
    assert H.stale(allowed, {"a.py": 401, "b.py": 420, "c.py": 500}) == []
