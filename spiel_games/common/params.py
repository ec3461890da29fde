"""Game parameters, written once per game: ``rules.PARAMS`` lists each parameter's name,
default and meaning. The defaults OpenSpiel sees, the registry's documentation (``meeple
games show``), the parameter table in the game module's docstring and the one in
docs/games/<game>.md all come from that table.
"""

from __future__ import annotations

from collections.abc import Iterable

from spiel_games.common.registry import ParamDoc

__all__ = ["ParamDoc", "defaults", "markdown_table"]


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
