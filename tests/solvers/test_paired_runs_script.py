"""scripts/paired_runs.py: paired games on shared deals, resumable results, the report."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GAME = "python_coloretto(players=3)"


@pytest.fixture
def module(load_script):
    return load_script("paired_runs")


def test_a_match_seed_fixes_the_game_whatever_else_runs(module):
    task = (GAME, ("heuristic", "random", "random"), 3, 1)
    assert module.play(task)["scores"] == module.play(task)["scores"]
    other = module.play((GAME, ("heuristic", "random", "random"), 4, 1))
    assert other["scores"] != module.play(task)["scores"]


def test_games_are_appended_and_a_rerun_plays_only_the_missing_ones(tmp_path, module):
    out = tmp_path / "runs.jsonl"
    argv = [GAME, "heuristic;random;random", "--seeds", "0-1", "--workers", "1", "--out"]
    assert module.main([*argv, str(out)]) == 0
    first = out.read_text().splitlines()
    assert len(first) == 3  # one seed, every rotation
    assert {tuple(json.loads(x)["seats"]).index("heuristic") for x in first} == {0, 1, 2}
    assert module.main([*argv, str(out)]) == 0
    assert out.read_text().splitlines() == first
    wider = [GAME, "heuristic;random;random", "--seeds", "0-2", "--workers", "1", "--out"]
    assert module.main([*wider, str(out)]) == 0
    assert len(out.read_text().splitlines()) == 6


def test_the_report_pairs_every_two_different_agents_with_intervals(tmp_path, capsys, module):
    out = tmp_path / "runs.jsonl"
    argv = [GAME, "heuristic;random;random", "--seeds", "0-3", "--workers", "1"]
    assert module.main([*argv, "--out", str(out)]) == 0
    capsys.readouterr()
    assert module.main(["--report", str(out)]) == 0
    rows = {
        tuple(cell.strip() for cell in line.split("|")[1:3]): line
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("| heuristic") or line.startswith("| random")
    }
    assert set(rows) == {("heuristic", "random"), ("random", "heuristic")}
    cells = [c.strip() for c in rows[("heuristic", "random")].split("|")[1:-1]]
    share, interval, games = float(cells[2]), cells[3].split(" .. "), int(cells[6])
    assert games == 18  # 3 seeds x 3 rotations x the two random seats
    assert float(interval[0]) <= share <= float(interval[1])


@pytest.mark.parametrize(
    "argv,message",
    [
        ([GAME, "heuristic;random", "--out", "x.jsonl"], "2 agents for 3 seats"),
        ([GAME, "heuristic;random;random", "--seeds", "5-2", "--out", "x"], "0 <= A < B"),
        ([GAME, "heuristic;ismcts(root=best);random", "--out", "x"], "ucb or halving"),
        ([GAME, "heuristic;random;random"], "give GAME, LINEUP and --out"),
    ],
)
def test_bad_input_is_a_one_line_error(argv, message, tmp_path, monkeypatch, capsys, module):
    monkeypatch.chdir(tmp_path)
    assert module.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "x.jsonl").exists()


GOOD_ROW = (
    '{"game": "g", "seed": 0, "rotation": 0, "seats": ["a", "b"], "ranks": [0, 1], '
    '"scores": [3, 1], "seconds": 1.0}'
)


@pytest.mark.parametrize(
    "line,message",
    [
        ("not json", "runs.jsonl:2: not a JSON line"),
        ('[1000, 1, ["a", "b"], [0, 1], [3, 1], 1.0, ""]', "runs.jsonl:2: not a result row"),
        ('{"seed": 0}', "runs.jsonl:2: field 'game' missing"),
        (GOOD_ROW.replace('"ranks": [0, 1]', '"ranks": "0 1"'), "field 'ranks' missing or not"),
        (GOOD_ROW.replace('"scores": [3, 1]', '"scores": [3]'), "differ in length"),
    ],
)
def test_a_damaged_or_foreign_results_file_is_refused_by_line(
    line, message, tmp_path, capsys, module
):
    """A file of another format (an older script's rows were lists) gets a one-line error
    naming the line, not a traceback; the file is left as it was."""
    bad = tmp_path / "runs.jsonl"
    text = GOOD_ROW + "\n" + line + "\n"
    bad.write_text(text)
    assert module.main(["--report", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert bad.read_text() == text


def test_a_good_row_is_read(tmp_path, module):
    good = tmp_path / "runs.jsonl"
    good.write_text(GOOD_ROW + "\n")
    assert module.load(good)[0]["scores"] == [3, 1]


def _children(pid: int) -> set[int]:
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_sigterm_stops_the_pool_workers_and_keeps_finished_games(tmp_path, module):
    """A run killed with SIGTERM (as a scheduler kills a job) takes its worker processes
    with it; before, they ran on as orphans."""
    out = tmp_path / "runs.jsonl"
    script = Path(__file__).resolve().parents[2] / "scripts" / "paired_runs.py"
    lineup = "heuristic;ismcts(sims=3000);ismcts(sims=3000)"
    proc = subprocess.Popen(
        [sys.executable, str(script), GAME, lineup, "--seeds", "0-5", "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _children(proc.pid)
            workers |= {c for w in workers for c in _children(w)}
        assert workers, "the pool never started"
        time.sleep(1.0)  # let the workers take a game
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) != 0
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
            time.sleep(0.2)
        alive = [w for w in workers if Path(f"/proc/{w}").exists()]
        for w in alive:
            os.kill(w, signal.SIGKILL)
        assert not alive
    finally:
        if proc.poll() is None:
            proc.kill()
    if out.exists():  # whatever finished is whole rows
        module.load(out)


def test_the_same_agents_in_another_order_of_play_are_new_games(tmp_path, capsys, module):
    """Resuming keys on the seats in order: `h;x;y` and `x;h;y` share their rotations'
    agents but not who plays after whom, so the second is played, not skipped."""
    out = tmp_path / "runs.jsonl"
    base = ["--seeds", "0-1", "--workers", "1", "--out", str(out)]
    assert module.main([GAME, "heuristic;random;ismcts(sims=4)", *base]) == 0
    assert module.main([GAME, "random;heuristic;ismcts(sims=4)", *base]) == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 6 and len({tuple(r["seats"]) for r in rows}) == 6
    assert module.main([GAME, "random;heuristic;ismcts(sims=4)", *base]) == 0
    assert len(out.read_text().splitlines()) == 6  # now everything is there
    capsys.readouterr()
    assert module.main(["--report", str(out)]) == 0
    report = capsys.readouterr().out
    assert "| heuristic | random |" in report and report.count("| 6 |") == 6


def test_the_report_keeps_games_and_line_ups_apart(tmp_path, capsys, module):
    row = json.loads(GOOD_ROW)
    other_game = {**row, "game": "h", "scores": [1, 3], "ranks": [1, 0]}
    other_agents = {**row, "seats": ["a", "c"]}
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in (row, other_game, other_agents)) + "\n")
    assert module.main(["--report", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("| a | b |") == 2  # game g and game h, each its own table
    assert "| a | b | 1.00 |" in out and "| a | b | 0.00 |" in out
    assert "g, agents a; b:" in out and "h, agents a; b:" in out and "g, agents a; c:" in out
