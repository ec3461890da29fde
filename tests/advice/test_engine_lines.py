"""The advice engine's lines: strict JSON out, UTF-8 in whatever the locale, and what it
does when it cannot write."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solvers.search.compare import mean_interval
from tournament.advice.advise import advise_state
from tournament.advice.positions import position_from
from tournament.advice.serve import Engine
from tournament.advice.serve_io import dumps

THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"
BASE = {"game": THREE, "history": OPENING}
ROOT = Path(__file__).resolve().parents[2]


def strict(line: str):
    """A JSON parser that refuses NaN, Infinity and lone surrogates, as many others do."""

    def refuse(text):
        raise ValueError(f"{text} is not JSON")

    value = json.loads(line, parse_constant=refuse)
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # a lone surrogate fails here
    return value


def run(*lines: str | bytes) -> list[dict]:
    out = io.StringIO()
    raw = [x.encode() if isinstance(x, str) else x for x in lines]
    Engine().serve(io.BytesIO(b"".join(x + b"\n" for x in raw)), out)
    return [strict(x) for x in out.getvalue().splitlines()]


def q(**kw) -> str:
    return json.dumps(kw)


def test_an_interval_of_one_sample_is_null_not_infinite():
    """Was: mean_interval gave one sample an infinite standard error, so a search stopped
    after one comparison pass answered "margin_low": -Infinity (and gap_*, first_gap_*),
    which strict JSON parsers refuse."""
    mean, low, high = mean_interval(np.array([0.5]), 1.96, 0.1)
    assert mean == 0.5 and math.isnan(low) and math.isnan(high)
    pos = position_from(THREE, history=OPENING)
    advice = advise_state(pos.game_string, pos.state, "ismcts(sims=50)", passes=1, top=3)
    answer = strict(json.dumps(advice.to_json(), allow_nan=False))
    assert answer["passes"] == 1 and answer["z"] is None and answer["significant"] is None
    best, other = answer["moves"][:2]
    for name in ("ci", "margin", "first"):
        low, high = ("ci_low", "ci_high") if name == "ci" else (f"{name}_low", f"{name}_high")
        assert best[low] is None and best[high] is None
    assert best["gap"] == best["gap_low"] == 0.0  # the best move's own gap is exact
    assert other["gap"] is not None and other["gap_low"] is None and other["gap_high"] is None


def test_the_writer_never_sends_nan_or_infinity():
    """Was: the engine's writer allowed NaN and Infinity; a number that still is not finite
    now answers an error on the query's id."""
    line = dumps({"id": "x", "moves": [{"value": math.inf}]})
    assert strict(line) == {
        "id": "x",
        "error": "internal error: the answer held a number JSON cannot carry (NaN or Infinity)",
    }


def test_lines_are_utf8_bytes_and_a_bad_one_is_answered():
    """Was: stdin decoded by the locale: an invalid byte killed the engine under a UTF-8
    locale, came back as a lone surrogate under C.UTF-8, and "é" was misread under Latin-1."""
    answers = run(b'{"id": "a\xffb", "action": "ping"}', q(id="é", action="ping"))
    assert answers == [
        {"id": None, "error": "the line is not valid UTF-8 (byte 0xff at byte 10)"},
        {"id": "é", "pong": True},
    ]


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "utf-8:strict"}, {"LC_ALL": "C"}])
def test_the_command_reads_utf8_whatever_the_locale(env):
    lines = b'{"id": "a\xffb", "action": "ping"}\n' + q(id="é", action="ping").encode() + b"\n"
    r = _meeple(["advise", "--serve"], lines, env)
    assert r.returncode == 0 and r.stderr == b"", r.stderr[-600:]
    answers = [strict(x) for x in r.stdout.decode("ascii").splitlines()]
    assert answers[0]["id"] is None and "not valid UTF-8" in answers[0]["error"]
    assert answers[1] == {"id": "é", "pong": True}
    latin = _meeple(["advise", "--serve"], q(id="é", action="ping").encode() + b"\n",
                    {"PYTHONIOENCODING": "latin-1"})  # fmt: skip
    assert strict(latin.stdout.decode("ascii")) == {"id": "é", "pong": True}


def test_a_failed_write_stops_the_engine_with_one_error_line(tmp_path):
    """Was: a full disk (ENOSPC) or a closed stdout killed the worker thread with a
    traceback and exit 0; a closed stdin was a TypeError traceback, exit 1."""
    ping = q(id=1, action="ping").encode() + b"\n"
    with open("/dev/full", "wb") as disk_full:
        full = _meeple(["advise", "--serve"], ping, stdout=disk_full)
    assert full.returncode == 1, full.stderr
    assert full.stderr.decode() == (
        "error: cannot write the answers: [Errno 28] No space left on device\n"
    )
    closed = _shell("meeple advise --serve >&-", ping)
    assert closed.returncode == 1
    assert (
        closed.stderr.decode() == "error: cannot write the answers: the standard output is closed\n"
    )
    no_input = _shell("meeple advise --serve <&-", b"")
    assert (no_input.returncode, no_input.stdout, no_input.stderr) == (0, b"", b"")


def test_an_error_writing_answers_is_kept_and_stops_the_searches():
    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(28, "No space left on device")

    engine = Engine()
    engine.serve(io.StringIO(q(id=1, **BASE, agent="ismcts(sims=30)") + "\n"), Full())
    assert engine.closed and engine.failed == (
        "cannot write the answers: [Errno 28] No space left on device"
    )


def test_serve_refuses_the_options_a_query_gives():
    """Was: `meeple advise --serve GAME --agent X` ignored them without a word."""
    r = _meeple(["advise", "--serve", THREE, "--agent", "random", "--top", "3"], b"")
    assert r.returncode == 2 and r.stdout == b""
    assert (
        r.stderr.decode()
        == "error: --serve reads its queries on stdin: drop GAME, --agent, --top\n"
    )


def _meeple(args, data: bytes, env=None, stdout=subprocess.PIPE):
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LANG", "PYTHONIOENCODING")}
    return subprocess.run(
        [sys.executable, "-m", "tournament.cli", *args],
        input=data,
        stdout=stdout,
        stderr=subprocess.PIPE,
        env={**base, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=120,
    )


def _shell(command: str, data: bytes):
    meeple = f"{sys.executable} -m tournament.cli"
    return subprocess.run(
        ["bash", "-c", command.replace("meeple", meeple, 1)],
        input=data,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
