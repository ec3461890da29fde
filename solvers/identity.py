"""Who played: the code version of an agent's behaviour, and agent ids built on it.

``code_version(game)`` hashes the installed package version and the source an agent's
behaviour depends on: ``solvers/``, ``spiel_games/common/`` and the package of ``game``
(its rules, heuristic, abstraction, shipped value model and blueprints). Policy files
record it for the game they were trained on, and a ledger for the code that played it.

``code_version(game, module)`` narrows ``solvers/`` to the modules that ``module`` (an agent
kind's factory) reaches by its imports, read from the source (imports inside functions
count), plus ``solvers/registry.py`` itself (every agent is resolved and built there), so
an edit to ``cfr_search.py`` leaves the ids of ``ismcts`` agents, and the SPRT and
tournament ledgers that hold them, resumable, while an edit to anything the search imports
does not. Only source files count in a kind's version: ``solvers/`` holds no data files
(the games' packages hold the value models and blueprints, hashed whole). ``kind_version(game, kind)`` is that version for an agent kind; it is
part of every agent id, so an agent whose code changed never inherits an old rating.

The packages are found by path (``solvers/`` and ``spiel_games/`` sit side by side), so
this module imports no other solver and no game module. It lives in ``solvers`` because
policy files (solvers) and agent ids (tournament) both need it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import spiel_games

_ROOT = Path(__file__).resolve().parent.parent
_SOLVERS = _ROOT / "solvers"
_REGISTRY = _SOLVERS / "registry.py"
_GAMES = Path(str(spiel_games.__file__)).resolve().parent


def package_version() -> str:
    """The installed meeple-arena version ("0+unknown" when not installed)."""
    try:
        return version("meeple-arena")
    except PackageNotFoundError:
        return "0+unknown"


def game_package(game) -> Path | None:
    """The directory of the meeple game package that implements ``game`` (a game or a game
    string); None for OpenSpiel's own games."""
    if isinstance(game, str):
        game = spiel_games.load_game(game, any_openspiel=True)
    parts = type(game).__module__.split(".")
    if parts[0] != "spiel_games" or len(parts) < 2:
        return None
    return _GAMES / parts[1]


def kind_version(game, kind) -> str:
    """The code version of one agent kind's behaviour on ``game``: see the module doc.
    A kind defined outside ``solvers/`` (e.g. by a test) hashes the whole package."""
    return code_version(game, getattr(kind.factory, "__module__", None))


def code_version(game=None, module: str | None = None) -> str:
    """16 hex digits; ``game`` (a game or game string) narrows the hash to its package,
    None hashes every game; ``module`` (a dotted ``solvers`` module) narrows ``solvers/`` to
    the files it imports, directly or not."""
    solvers = solvers_closure(module) if module else None
    if not solvers:
        solvers = (_SOLVERS,)
    elif _REGISTRY not in solvers:  # every agent is resolved and built there (the file only)
        solvers = tuple(sorted((*solvers, _REGISTRY)))
    if game is None:
        return _hash((*solvers, _GAMES))
    package = game_package(game)
    return _hash((*solvers, _GAMES / "common") + ((package,) if package is not None else ()))


@functools.cache
def solvers_closure(module: str) -> tuple[Path, ...]:
    """The ``solvers`` source files ``module`` reaches by imports (itself, the packages'
    ``__init__`` files on the way, and what they import), sorted; () outside ``solvers``."""
    seen: set[Path] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        for path in _files_of(name):
            if path in seen:
                continue
            seen.add(path)
            todo.extend(_imports(path, _package_of(path)))
    return tuple(sorted(seen))


def _files_of(name: str) -> list[Path]:
    """The files importing ``name`` runs inside solvers/: each package's __init__ on the
    way and the module itself; [] for anything outside solvers/."""
    parts = name.split(".")
    if parts[0] != "solvers":
        return []
    files, here = [], _ROOT
    for i, part in enumerate(parts):
        here = here / part
        if (here / "__init__.py").is_file():
            files.append(here / "__init__.py")
        elif i == len(parts) - 1 and here.with_suffix(".py").is_file():
            files.append(here.with_suffix(".py"))
        elif not here.is_dir():  # a folder without __init__.py is a namespace package
            break
    return files


def _package_of(path: Path) -> str:
    rel = path.relative_to(_ROOT).with_suffix("").parts
    return ".".join(rel[:-1])


def _imports(path: Path, package: str) -> list[str]:
    """Every module an import statement in ``path`` names, including ``from pkg import
    module`` (both ``pkg`` and ``pkg.module`` are listed; the one that is no file drops)."""
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.append(base)
            out.extend(f"{base}.{alias.name}" for alias in node.names)
    return out


@functools.cache
def _hash(roots: tuple[Path, ...]) -> str:
    h = hashlib.sha256(package_version().encode())
    for root in roots:
        if root.is_file():
            h.update(f"{root.relative_to(_ROOT)}".encode())
            h.update(root.read_bytes())
            continue
        files = [
            *root.rglob("*.py"),
            *root.rglob("*.toml"),
            *root.rglob("value_model.json"),
            *root.rglob("blueprint_*p.npz"),
        ]
        for path in sorted(files):
            h.update(f"{root.name}/{path.relative_to(root)}".encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def agent_id(canonical: str, code: str) -> str:
    """12 hex digits naming an agent: its canonical spec under one code version."""
    return hashlib.sha256(f"{canonical}|{code}".encode()).hexdigest()[:12]
