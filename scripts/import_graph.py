"""Check the import graph of spiel_games, solvers and tournament (stdlib ast only).

    python scripts/import_graph.py

Prints every import cycle between the project's modules (function-local imports count)
and every function-local import of a project module, except the CLI's deferrals for a fast
``--help`` (a line in tournament/cli/ carrying the comment ``# deferred: fast --help``).
Exits 1 when it finds either.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("spiel_games", "solvers", "tournament")
DEFERRED = "# deferred: fast --help"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def targets(node: ast.Import | ast.ImportFrom, package: str, mods: dict[str, Path]) -> set[str]:
    names = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(parts + ([base] if base else []))
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
    out = set()
    for name in names:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        if name:
            out.add(name)
    return out


def graph(mods: dict[str, Path]) -> tuple[dict[str, set[str]], list[str]]:
    edges: dict[str, set[str]] = {m: set() for m in mods}
    local: list[str] = []
    for mod, path in mods.items():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        in_function = {
            id(sub)
            for fn in ast.walk(tree)
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
            for sub in ast.walk(fn)
        }
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            found = targets(node, package, mods) - {mod}
            edges[mod] |= found
            if found and id(node) in in_function:
                line = lines[node.lineno - 1]
                if not (mod.startswith("tournament.cli") and DEFERRED in line):
                    local.append(f"{path.relative_to(ROOT)}:{node.lineno}: {line.strip()}")
    return edges, local


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main() -> int:
    edges, local = graph(project_modules())
    found = cycles(edges)
    for comp in found:
        print("cycle: " + " <-> ".join(comp))
    for line in local:
        print("function-local import: " + line)
    return 1 if found or local else 0


if __name__ == "__main__":
    sys.exit(main())
