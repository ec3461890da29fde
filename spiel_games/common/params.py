"""Game parameters, written once per game: ``rules.PARAMS`` lists each parameter's name,
default and meaning. The defaults OpenSpiel sees, the registry's documentation (``meeple
games show``), the parameter table in the game module's docstring and the one in
docs/games/<game>.md all come from that table.
"""

from __future__ import annotations

from collections.abc import Iterable

from spiel_games.common.errors import ConfigError
from spiel_games.common.registry import ParamDoc

__all__ = [
    "ParamDoc",
    "defaults",
    "flag",
    "int_param",
    "int_param_in",
    "int_param_or",
    "markdown_table",
]


def defaults(params: Iterable[ParamDoc]) -> dict[str, object]:
    """Every parameter with its default, in table order (OpenSpiel's parameter spec)."""
    return {p.name: p.default for p in params}


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def markdown_table(params: Iterable[ParamDoc]) -> str:
    """The parameters as a Markdown table (name, default, meaning)."""
    rows = ["| name | default | meaning |", "|---|---|---|"]
    rows += [f"| {p.name} | {_text(p.default)} | {p.meaning} |" for p in params]
    return "\n".join(rows) + "\n"


def int_param(p: dict, key: str) -> int:
    """Parameter ``key`` of ``p`` as an int; a ConfigError names it otherwise."""
    try:
        return int(p[key])
    except (TypeError, ValueError):
        raise ConfigError(f"parameter {key} must be an integer, got {p[key]!r}") from None


def int_param_in(p: dict, key: str, lo: int, hi: int, what: str = "") -> int:
    """Parameter ``key`` as an int in [lo, hi] (``what`` names it in the error)."""
    v = int_param(p, key)
    if not lo <= v <= hi:
        raise ConfigError(f"{what or key} must be {lo}-{hi}, got {v}")
    return v


def int_param_or(p: dict, key: str, sentinel: int, means: str, lo: int, hi: int) -> int:
    """Parameter ``key`` as an int that is either ``sentinel`` (which ``means`` a default,
    e.g. "by the rules") or in [lo, hi]; anything else is a ConfigError naming both."""
    v = int_param(p, key)
    if v != sentinel and not lo <= v <= hi:
        raise ConfigError(f"{key} must be {sentinel} ({means}) or {lo}-{hi}, got {v}")
    return v


def flag(value: object, name: str) -> bool:
    """A true/false parameter given as a bool, 0/1 or the strings true/false/1/0."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    raise ConfigError(f"{name} must be true or false, got {value!r}")
