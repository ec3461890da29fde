"""Who played: the code version of an agent's behaviour, and agent ids built on it.

``code_version(game)`` hashes the installed package version and the source an agent's
behaviour depends on: ``solvers/``, ``spiel_games/common/`` and the package of ``game``
(its rules, heuristic, abstraction, shipped value model and blueprints). It is part of every agent id, so an agent whose
code changed never inherits an old rating, while edits to other games leave it alone.
Policy files record the same code version for the game they were trained on.

The packages are found by path (``solvers/`` and ``spiel_games/`` sit side by side), so
this module imports no other solver and no game module. It lives in ``solvers`` because
policy files (solvers) and agent ids (tournament) both need it.
"""

from __future__ import annotations

import functools
import hashlib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import spiel_games

_ROOT = Path(__file__).resolve().parent.parent
_SOLVERS = _ROOT / "solvers"
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


def code_version(game=None) -> str:
    """16 hex digits; ``game`` (a game or game string) narrows the hash to its package,
    None hashes every game."""
    if game is None:
        return _hash((_SOLVERS, _GAMES))
    package = game_package(game)
    roots = (_SOLVERS, _GAMES / "common") + ((package,) if package is not None else ())
    return _hash(roots)


@functools.cache
def _hash(roots: tuple[Path, ...]) -> str:
    h = hashlib.sha256(package_version().encode())
    for root in roots:
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
