"""Every `meeple ...` command the README shows can be pasted into a shell: a parenthesis
in it is quoted (bash reads `ismcts(time=1)` as a syntax error), except the group of
alternatives a synopsis writes as `(--history H | --game-file F)`."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def commands(text: str) -> list[tuple[int, str]]:
    """(line number, command) of each `meeple` line in a code block or inline code span;
    a block's command runs on over its continuation lines (a trailing backslash)."""
    found, block, start, cmd = [], False, 0, ""
    for i, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            block, cmd = not block, ""
            continue
        if block:
            s = line.strip().removeprefix("$ ")
            if cmd or s.startswith("meeple "):
                start, cmd = (start if cmd else i), cmd + s.removesuffix("\\")
                if not s.endswith("\\"):
                    found.append((start, cmd))
                    cmd = ""
        else:
            found += [(i, m) for m in re.findall(r"`(meeple [^`]*)`", line)]
    return found


def unquoted_parentheses(command: str) -> list[int]:
    """Where an unquoted ( or ) stands, outside a comment and a synopsis's `(--a | --b)`."""
    at, quote, depth_group = [], "", 0
    for i, ch in enumerate(command):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or command[i - 1] == " "):
            break
        elif ch == "(" and command[i + 1 : i + 3] == "--":
            depth_group += 1
        elif ch == ")" and depth_group:
            depth_group -= 1
        elif ch in "()":
            at.append(i)
    return at


def test_the_readme_commands_quote_their_parentheses():
    """Was: the `play` synopsis showed `--seats human,ismcts(time=1),heuristic` unquoted."""
    bad = [
        f"README.md:{n}: {cmd}"
        for n, cmd in commands(README.read_text(encoding="utf-8"))
        if unquoted_parentheses(cmd)
    ]
    assert not bad, "quote the parentheses of:\n" + "\n".join(bad)


def test_the_check_finds_an_unquoted_spec_and_passes_a_quoted_one():
    assert unquoted_parentheses("meeple play G --seats human,ismcts(time=1),heuristic")
    assert not unquoted_parentheses("meeple play G --seats 'human,ismcts(time=1)'  # (a note)")
    assert not unquoted_parentheses("meeple advise G (--history H | --game-file F) -a SPEC")
    assert commands("```\nmeeple a \\\n  -a 'x(y)'\n```\nsee `meeple b(c)`") == [
        (2, "meeple a -a 'x(y)'"),
        (5, "meeple b(c)"),
    ]


def test_the_readme_tournament_config_is_valid_with_its_fixed_tables_uncommented():
    """Was: uncommenting the README's `tables = [["greedy", "greedy", "ismcts"]]` (with
    schedule fixed) was refused: 'agents.random sits at none of tournament.tables'."""
    import tomllib

    from tournament.config import build_config

    text = README.read_text()
    block = text[text.index("```toml\n[tournament]") + len("```toml\n") :]
    block = block[: block.index("```")]
    lines = []
    for line in block.splitlines():
        s = line.strip()
        if s.startswith("# tables = "):  # the option and its continued comment
            lines.append(s.removeprefix("# ").split("  #")[0])
        elif s.startswith("schedule = "):
            lines.append('schedule = "fixed"')
        else:
            lines.append(line)
    cfg = build_config(tomllib.loads("\n".join(lines)))
    assert cfg.schedule == "fixed" and len(cfg.tables) == 2
