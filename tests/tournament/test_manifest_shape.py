"""A hand-edited ledger manifest.json with wrong types or missing fields: one line naming
the file and the field, exit 1, from every command that reads a ledger (was a TypeError,
KeyError or rich NotRenderableError traceback from ratings, review --list and replay)."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.runner import run_tournament


def _set(*keys, value=None, drop=False):
    """An edit of the manifest: the field at ``keys`` set to ``value`` (or removed)."""

    def edit(m):
        for k in keys[:-1]:
            m = m[k]
        if drop:
            del m[keys[-1]]
        else:
            m[keys[-1]] = value

    return edit


EDITS = {
    "agents is a number, not an array": _set("agents", value=5),
    "agents is null, not an array": _set("agents", value=None),
    "agents is a string, not an array": _set("agents", value="x"),
    "agents is missing": _set("agents", drop=True),
    "agents[0] is a string, not an object": _set("agents", 0, value="x"),
    "agents[0].name is missing": _set("agents", 0, "name", drop=True),
    "agents[0].name is a number, not a string": _set("agents", 0, "name", value=3),
    "agents[1].id is a boolean, not a string": _set("agents", 1, "id", value=True),
    "config is null, not an object": _set("config", value=None),
    "config is a number, not an object": _set("config", value=5),
    "config is a string, not an object": _set("config", value="x"),
    "config is an array, not an object": _set("config", value=[]),
    "config.tournament is missing": _set("config", value={}),
    "config is missing": _set("config", drop=True),
    "config.tournament is a string, not an object": _set("config", "tournament", value="x"),
    "config.tournament.time_limit is a string, not a number": _set(
        "config", "tournament", "time_limit", value="x"
    ),
    "run_id is a number, not a string": _set("run_id", value=5),
}


@pytest.fixture(scope="module")
def ledger(tmp_path_factory):
    """A finished 3-game ledger with recorded moves, and one of its game ids."""
    out = tmp_path_factory.mktemp("ledger") / "L1"
    raw = {
        "tournament": {
            "game": "python_coloretto(players=2)",
            "seeds_per_lineup": 1,
            "seed": 1,
            "record_moves": True,
        },
        "agents": {"r": "random", "h": "heuristic"},
    }
    run_tournament(build_config(raw), out, executor="serial")
    return out, read_ledger(out).table.column("game_id")[0].as_py()


@pytest.mark.parametrize("message", list(EDITS))
def test_a_manifest_with_a_wrong_field_is_one_line_from_every_reader(ledger, tmp_path, message):
    src, game_id = ledger
    d = tmp_path / "L"
    shutil.copytree(src, d)
    m = json.loads((d / "manifest.json").read_text())
    EDITS[message](m)
    (d / "manifest.json").write_text(json.dumps(m))
    html = tmp_path / "new" / "sub" / "r.html"
    for argv in (
        ["ratings", d],
        ["ratings", d, "--html", html],
        ["review", d, "--list"],
        ["replay", d, game_id],
    ):
        r = CliRunner().invoke(app, [str(a) for a in argv])
        assert r.exit_code == 1, (argv, r.output)
        assert r.output == f"error: {d / 'manifest.json'}: {message}\n", argv
    assert not (tmp_path / "new").exists()  # the report's directories were removed again
    assert json.loads((d / "manifest.json").read_text()) == m  # nothing rewritten
