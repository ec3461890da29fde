"""The game docs show each game's parameter table as rules.PARAMS writes it (the one place
parameter meanings are written: spiel_games.common.params)."""

from __future__ import annotations

from pathlib import Path

import pytest

import spiel_games
from spiel_games.common.params import markdown_table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_the_game_doc_shows_the_parameter_table(spec):
    text = (DOCS / f"{spec.short_name.removeprefix('python_')}.md").read_text(encoding="utf-8")
    table = markdown_table(spec.params)
    assert f"## Parameters\n\n{table}" in text, (
        f"docs/games: replace the table under '## Parameters' with:\n{table}"
    )


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_the_game_module_docstring_shows_the_parameter_table(spec):
    game = spiel_games.load_game(spec.typical_config)
    module = __import__(type(game).__module__, fromlist=["__doc__"])
    assert module.__doc__.endswith(markdown_table(spec.params))


def test_the_rule_sources_the_games_cite_are_in_the_repository():
    """Was: the game pages, rules.toml files and `meeple games show` cited
    shared/rules/RULES-FACTS.md, a file outside the repository."""
    import re
    import subprocess

    root = DOCS.parent.parent
    tracked = subprocess.run(
        ["git", "ls-files", "docs", "spiel_games", "README.md"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    cited: set[str] = set()
    for name in tracked:
        if not name.endswith((".md", ".py", ".toml")):
            continue
        text = (root / name).read_text(encoding="utf-8")
        assert "shared/rules/" not in text and "shared/seeds/" not in text, name
        cited.update(re.findall(r"docs/sources/[\w./-]+\.md", text))
    assert "docs/sources/RULES-FACTS.md" in cited
    for path in cited:
        assert (root / path).is_file(), path
