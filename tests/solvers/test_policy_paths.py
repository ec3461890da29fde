"""A policy or blueprint path that names a pipe, a device or a directory is refused in one
line before it is read (was: a FIFO blocked the agent's construction for good, waiting for
a writer), as a value model's is (``spiel_games.common.files.open_regular``)."""

from __future__ import annotations

import os
import shutil
import threading

import pytest

import spiel_games
from solvers import blueprint, policy_file
from solvers.registry import make_agent
from spiel_games.common.errors import MeepleError

GAME = "python_coloretto(players=3)"
SHIPPED = os.path.join(os.path.dirname(spiel_games.__file__), "coloretto", "blueprint_3p.npz")


def _error_within(fn, seconds: float = 10.0) -> str:
    """The message of the MeepleError ``fn`` raises; a daemon thread, so that a read that
    blocks fails the test instead of hanging the run."""
    out: list = []

    def run():
        try:
            fn()
            out.append("no error")
        except MeepleError as e:
            out.append(str(e))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert out, f"still blocked after {seconds} s"
    return out[0]


@pytest.mark.parametrize(
    "spec",
    [
        "policy(path={})",
        "blueprint(path={})",
        "ismcts(sims=5,prior=blueprint,blueprint={})",
        "ismcts(sims=5,opponents=blueprint,blueprint={})",
    ],
)
def test_a_fifo_path_is_refused_unread(tmp_path, spec):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    game = spiel_games.load_game(GAME)
    message = _error_within(lambda: make_agent(spec.format(fifo), game, 0))
    assert "is a pipe (FIFO), not a file" in message and "\n" not in message


def test_a_device_or_a_directory_is_refused_and_a_missing_file_named(tmp_path):
    game = spiel_games.load_game(GAME)
    for path, what in (("/dev/zero", "a character device"), (tmp_path, "a directory")):
        for kind in ("policy", "blueprint"):
            message = _error_within(lambda k=kind, p=path: make_agent(f"{k}(path={p})", game, 0))
            assert f"is {what}, not a file" in message, message
    with pytest.raises(MeepleError, match="not found"):
        make_agent(f"blueprint(path={tmp_path / 'nothing.npz'})", game, 0)


def test_openspiel_policy_of_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    message = _error_within(lambda: policy_file.to_openspiel_policy(GAME, fifo))
    assert "is a pipe (FIFO), not a file" in message


def test_a_blueprint_over_the_cap_is_refused_and_one_under_it_loads(tmp_path, monkeypatch):
    copy = tmp_path / "bp.npz"
    shutil.copy(SHIPPED, copy)
    game = spiel_games.load_game(GAME)
    assert blueprint.load_blueprint(copy, game).rows > 0
    assert os.path.getsize(SHIPPED) * 1000 < blueprint.MAX_BLUEPRINT_BYTES
    monkeypatch.setattr(blueprint, "MAX_BLUEPRINT_BYTES", 1000)
    blueprint._read.cache_clear()
    with pytest.raises(policy_file.PolicyFileError, match="is over 1,000 bytes"):
        blueprint.load_blueprint(copy, game)
    blueprint._read.cache_clear()
