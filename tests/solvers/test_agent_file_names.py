"""An agent's file (a policy, a blueprint, a value model) named over 255 bytes: the same
one line as every other file a command is given, the system's reason without Python's
"[Errno 36]" (found in review: policy gave "[Errno 36] File name too long: '...'",
blueprint said "not found", the value model "[Errno 36]" again)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.one_line import one_line_error
from tournament.cli import app

GAME = "python_coloretto(players=3)"


@pytest.mark.parametrize(
    ("spec", "what"),
    [
        ("policy(path={})", "cannot read policy file"),
        ("blueprint(path={})", "cannot read blueprint file"),
        ("ismcts(eval=learned,model={})", "cannot read value model"),
    ],
)
def test_an_agent_file_named_over_255_bytes_is_one_plain_line(tmp_path, spec, what):
    path = tmp_path / ("a" * 300)
    r = CliRunner().invoke(app, ["advise", GAME, "-H", "", "-a", spec.format(path)])
    line = one_line_error(r, 2)
    assert what in line and line.endswith(": File name too long"), line
    assert "Errno" not in line


@pytest.mark.parametrize(("spec", "what"), [("policy", "policy"), ("blueprint", "blueprint")])
def test_a_missing_agent_file_is_still_not_found(tmp_path, spec, what):
    r = CliRunner().invoke(app, ["advise", GAME, "-H", "", "-a", f"{spec}(path={tmp_path}/no)"])
    line = one_line_error(r, 2)
    assert f"{what} file not found: {tmp_path}/no" in line
