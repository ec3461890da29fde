#!/usr/bin/env python
"""The house rules, read from source with the standard library's ``ast`` (nothing is
imported): the import graph of the three packages, their order, cycles, line budgets and
the engine contract of every game package. tests/test_architecture.py holds the project
to them; tests/test_architecture_planted.py plants a violation of each in a temporary
tree and expects it reported.

    .venv/bin/python scripts/house_rules.py     # print every finding in this checkout
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("spiel_games", "solvers", "tournament")  # each imports only the ones before it
BUDGET_DIRS = ("spiel_games", "solvers", "tournament", "scripts", "tests")
FILE_BUDGET = 400  # lines per file
FUNCTION_BUDGET = 80  # lines per function
ENGINE = "spiel_games.common.engine"


@dataclass(frozen=True)
class Import:
    source: str  # importing module, dotted
    target: str  # imported project module, dotted
    line: int
    local: bool  # inside a function
    deferred: bool  # marked "# deferred:" on its line


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    mods = {}
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            mods[_module_name(path, root)] = path
    return mods


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module that `name` (a module or a name inside one) refers to."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _import_names(child: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    if isinstance(child, ast.Import):
        return [alias.name for alias in child.names]
    base = child.module or ""
    if child.level:
        anchor = package.split(".")
        anchor = anchor[: len(anchor) - (child.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    return [f"{base}.{alias.name}" for alias in child.names] or [base]


def module_imports(mod: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source, filename=str(path))
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import | ast.ImportFrom):
                deferred = "# deferred:" in lines[child.lineno - 1]
                for name in _import_names(child, package):
                    target = _resolve(name, modules)
                    if target and target != mod:
                        found.append(Import(mod, target, child.lineno, local, deferred))
            # `if TYPE_CHECKING:` blocks never run: they are not edges
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.dump(child.test):
                continue
            visit(child, inner)

    visit(tree, False)
    return found


def import_graph(root: Path = ROOT) -> list[Import]:
    modules = project_modules(root)
    edges: list[Import] = []
    for mod, path in modules.items():
        edges.extend(module_imports(mod, path, modules))
    return edges


def cycles(edges: list[Import]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    succ: dict[str, set[str]] = {}
    for e in edges:
        succ.setdefault(e.source, set()).add(e.target)
        succ.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(succ):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(succ[root])))]
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(succ[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def upward_imports(edges: list[Import]) -> set[tuple[str, str]]:
    """(module, imported module) pairs against the package order spiel_games < solvers <
    tournament."""
    rank = {pkg: i for i, pkg in enumerate(PACKAGES)}
    return {
        (e.source, e.target)
        for e in edges
        if rank[e.target.split(".")[0]] > rank[e.source.split(".")[0]]
    }


def unit(module: str) -> str:
    """A module's unit: its top-level module or subpackage (``tournament.advice``)."""
    return ".".join(module.split(".")[:2])


def unit_cycles(edges: list[Import]) -> list[tuple[str, ...]]:
    """Cycles between units (two subpackages or top-level modules importing each other,
    even when no two single modules do)."""
    collapsed = [
        Import(unit(e.source), unit(e.target), e.line, e.local, e.deferred)
        for e in edges
        if unit(e.source) != unit(e.target)
    ]
    return [tuple(c) for c in cycles(collapsed)]


def _python_files(root: Path, dirs=BUDGET_DIRS):
    for d in dirs:
        yield from sorted((root / d).rglob("*.py"))


def file_lengths(root: Path = ROOT, budget: int = FILE_BUDGET) -> dict[str, int]:
    """Files over ``budget`` lines: relative path -> lines."""
    out = {}
    for path in _python_files(root):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > budget:
            out[path.relative_to(root).as_posix()] = n
    return out


def function_lengths(root: Path = ROOT, budget: int = FUNCTION_BUDGET) -> dict[str, int]:
    """Functions over ``budget`` lines: "path:name" -> lines."""
    out = {}
    for path in _python_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > budget:
                    out[f"{path.relative_to(root).as_posix()}:{node.name}"] = n
    return out


def game_packages(root: Path = ROOT) -> list[str]:
    base = root / "spiel_games"
    return sorted(
        p.name for p in base.iterdir() if p.name != "common" and (p / "__init__.py").exists()
    )


def _imported_from(tree: ast.Module, module: str) -> set[str]:
    return {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == module
        for alias in node.names
    }


def phase_table_problems(game: str, root: Path = ROOT) -> list[str]:
    """What keeps ``game`` from exporting its phase table through the engine: its phases
    (module or package) must build ``TABLE`` with the engine's ``phase_table``, and its
    game.py must declare an ``EngineState`` subclass whose ``table`` is that TABLE."""
    pkg = root / "spiel_games" / game
    phases = pkg / "phases.py" if (pkg / "phases.py").exists() else pkg / "phases" / "__init__.py"
    problems = []
    if not phases.exists():
        return [f"{game}: no phases module"]
    tree = ast.parse(phases.read_text(encoding="utf-8"))
    builders = _imported_from(tree, ENGINE) & {"phase_table"}
    built = any(
        isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "TABLE" for t in n.targets)
        and isinstance(n.value, ast.Call)
        and isinstance(n.value.func, ast.Name)
        and n.value.func.id in builders
        for n in tree.body
    )
    if not built:
        problems.append(f"{game}: phases does not build TABLE with {ENGINE}.phase_table")
    game_py = pkg / "game.py"
    tree = ast.parse(game_py.read_text(encoding="utf-8")) if game_py.exists() else ast.Module([])
    bases = _imported_from(tree, ENGINE) & {"EngineState"}
    tables = _imported_from(tree, f"spiel_games.{game}.phases") & {"TABLE"}
    declared = any(
        isinstance(n, ast.ClassDef)
        and any(isinstance(b, ast.Name) and b.id in bases for b in n.bases)
        and any(
            isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "table" for t in s.targets)
            and isinstance(s.value, ast.Name)
            and s.value.id in tables
            for s in n.body
        )
        for n in tree.body
    )
    if not declared:
        problems.append(f"{game}: game.py declares no EngineState subclass with table = TABLE")
    return problems


def stale(allowed, found) -> list:
    """Allow-list entries that no longer occur: the list can only shrink."""
    return sorted(set(allowed) - set(found))


def main() -> int:
    edges = import_graph()
    findings = [f"import cycle: {' <-> '.join(c)}" for c in cycles(edges)]
    findings += [f"upward import: {s} -> {t}" for s, t in sorted(upward_imports(edges))]
    findings += [f"package cycle: {' <-> '.join(c)}" for c in unit_cycles(edges)]
    findings += [f"{p}: {n} lines" for p, n in file_lengths().items()]
    findings += [f"{f}: {n} lines" for f, n in function_lengths().items()]
    for game in game_packages():
        findings += phase_table_problems(game)
    print("\n".join(findings) or "no findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
