"""The house rules that keep the code walkable (issue 12).

* No import cycle between the project's own modules, counting imports inside functions.
* No function-local import of the project's own modules, except the CLI's deferrals of heavy
  modules for a fast ``--help`` (each marked on its line with a ``# deferred:`` comment).
* Every registered game package has the same shape: the same module names, so that legal moves
  are always in ``phases``, the end of a round in ``rounds``, final scoring in ``scoring`` and
  every string in ``text``; and its imports run one way through the layers.

Only the standard library's ``ast`` is used: the graph is read from source, nothing is imported.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pyspiel
import pytest

import spiel_games
from spiel_games.common.registry import all_specs

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("spiel_games", "solvers", "tournament")

# The game-package layers, bottom first. A module may import only from its own layer or below
# (modules listed together may import each other, acyclically). `phases` may be a package.
GAME_LAYERS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("actions",),
    ("state",),
    ("scoring",),
    ("rounds",),
    ("phases",),
    ("text", "observer"),
    ("view", "resample"),
    ("game",),
    ("heuristic", "evaluation", "abstraction", "scenario"),
    ("spec",),
)
REQUIRED = {
    "rules",
    "actions",
    "state",
    "scoring",
    "rounds",
    "phases",
    "game",
    "observer",
    "text",
    "heuristic",
    "abstraction",
    "spec",
    "scenario",
}
HIDDEN_INFO_REQUIRED = {"view", "resample"}
OPTIONAL = {"evaluation", "view", "resample"}


@dataclass(frozen=True)
class Import:
    source: str  # importing module, dotted
    target: str  # imported project module, dotted
    line: int
    local: bool  # inside a function
    deferred: bool  # marked "# deferred:" on its line


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    mods = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            mods[_module_name(path)] = path
    return mods


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module that `name` (a module or a name inside one) refers to."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(mod: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source, filename=str(path))
    is_pkg = path.name == "__init__.py"
    package = mod if is_pkg else mod.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import | ast.ImportFrom):
                names: list[str] = []
                if isinstance(child, ast.Import):
                    names = [alias.name for alias in child.names]
                else:
                    base = child.module or ""
                    if child.level:
                        anchor = package.split(".")
                        anchor = anchor[: len(anchor) - (child.level - 1)]
                        base = ".".join([*anchor, base] if base else anchor)
                    names = [f"{base}.{alias.name}" for alias in child.names] or [base]
                deferred = "# deferred:" in lines[child.lineno - 1]
                for name in names:
                    target = _resolve(name, modules)
                    if target and target != mod:
                        found.append(Import(mod, target, child.lineno, local, deferred))
            # `if TYPE_CHECKING:` blocks never run: they are not edges
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.dump(child.test):
                continue
            visit(child, inner)

    visit(tree, False)
    return found


@pytest.fixture(scope="module")
def graph() -> list[Import]:
    modules = _project_modules()
    edges: list[Import] = []
    for mod, path in modules.items():
        edges.extend(_imports(mod, path, modules))
    return edges


def _cycles(edges: list[Import]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    succ: dict[str, set[str]] = {}
    for e in edges:
        succ.setdefault(e.source, set()).add(e.target)
        succ.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(succ):
        if root in index:
            continue
        work = [(root, iter(sorted(succ[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
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


def test_cycle_finder_finds_a_cycle_through_a_local_import():
    edges = [
        Import("a", "b", 1, False, False),
        Import("b", "c", 1, False, False),
        Import("c", "a", 9, True, False),
        Import("c", "d", 1, False, False),
    ]
    assert _cycles(edges) == [["a", "b", "c"]]


def test_no_import_cycles_between_project_modules(graph):
    cycles = _cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_function_local_imports_only_as_marked_cli_deferrals(graph):
    bad = [
        f"{e.source}:{e.line} imports {e.target}"
        for e in graph
        if e.local and not (e.deferred and e.source.startswith("tournament.cli"))
    ]
    assert not bad, "function-local imports of the project's own modules:\n" + "\n".join(bad)


def _game_packages() -> list[str]:
    names = sorted(spec.short_name.removeprefix("python_") for spec in all_specs())
    assert names, "no registered games"
    return names


def _hidden_information(game: str) -> bool:
    spec = next(s for s in all_specs() if s.short_name == f"python_{game}")
    info = pyspiel.load_game(spec.typical_config).get_type().information
    return info != pyspiel.GameType.Information.PERFECT_INFORMATION


GAMES = ["bruxelles", "coloretto", "rococo", "staufer"]


def test_every_registered_game_is_checked():
    assert _game_packages() == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_game_package_has_the_house_shape(game):
    pkg = Path(spiel_games.__file__).parent / game
    present = {p.stem for p in pkg.glob("*.py") if p.stem != "__init__"}
    present |= {p.name for p in pkg.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    required = set(REQUIRED)
    if _hidden_information(game):
        required |= HIDDEN_INFO_REQUIRED
    assert (pkg / "rules.toml").exists()
    assert not required - present, f"{game} lacks {sorted(required - present)}"
    extra = present - REQUIRED - OPTIONAL
    assert not extra, f"{game} has modules outside the house shape: {sorted(extra)}"


def _layer(module: str) -> int | None:
    for i, names in enumerate(GAME_LAYERS):
        if module in names:
            return i
    return None


@pytest.mark.parametrize("game", GAMES)
def test_game_imports_run_one_way_through_the_layers(graph, game):
    prefix = f"spiel_games.{game}."
    wrong = []
    for e in graph:
        if not e.source.startswith(prefix):
            continue
        if e.target == prefix[:-1]:
            continue  # the package itself: importing it registers the game
        if e.target.startswith("spiel_games.") and not e.target.startswith(
            (prefix, "spiel_games.common")
        ):
            wrong.append(f"{e.source}:{e.line} imports another game, {e.target}")
            continue
        if not e.target.startswith(prefix):
            continue
        src = _layer(e.source[len(prefix) :].split(".")[0])
        dst = _layer(e.target[len(prefix) :].split(".")[0])
        if src is not None and dst is not None and dst > src:
            wrong.append(f"{e.source}:{e.line} imports {e.target} (a higher layer)")
    assert not wrong, "\n".join(wrong)


def test_common_never_imports_a_game_or_the_upper_packages(graph):
    wrong = [
        f"{e.source}:{e.line} imports {e.target}"
        for e in graph
        if e.source.startswith("spiel_games.common")
        and not e.target.startswith("spiel_games.common")
    ]
    assert not wrong, "\n".join(wrong)
