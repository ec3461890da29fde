"""The CLI through typer's CliRunner: errors are one line and exit non-zero before anything
runs; a serial tournament, its ratings in every format, the HTML report and a replay."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.cli.tournament import DEMO_CONFIG

runner = CliRunner()


def _invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_bad_config_key_is_one_line_exit_2_and_nothing_runs(tmp_path, make_raw, write_toml):
    raw = make_raw()
    raw["tournament"]["sedes_per_lineup"] = 3
    out = tmp_path / "ledger"
    r = _invoke("tournament", "run", write_toml(raw), "--out", out, "--executor", "serial")
    assert r.exit_code == 2
    assert "tournament.sedes_per_lineup" in r.output
    assert len([line for line in r.output.splitlines() if line.startswith("error:")]) == 1
    assert not out.exists()


def test_bad_agent_spec_and_bad_override(tmp_path, make_raw, write_toml):
    path = write_toml(make_raw(agents={"random": "random", "x": "heuristic(depth=2)"}))
    r = _invoke("tournament", "run", path, "--executor", "serial", "--out", tmp_path / "o")
    assert r.exit_code == 2 and "agents.x" in r.output and "depth" in r.output
    good = write_toml(make_raw(), "good.toml")
    r = _invoke("tournament", "run", good, "--schedule", "swiss", "--out", tmp_path / "o")
    assert r.exit_code == 2 and "tournament.schedule" in r.output
    r = _invoke("tournament", "run", good, "--set", "agents.m=nosuch", "--out", tmp_path / "o")
    assert r.exit_code == 2 and "agents.m" in r.output
    r = _invoke(
        "tournament", "run", good, "--dry-run", "--seeds-per-lineup", "5", "--out", tmp_path / "o"
    )
    assert r.exit_code == 0 and r.stdout.startswith("10 games, 2 agents")
    r = _invoke("tournament", "run", tmp_path / "missing.toml")
    assert r.exit_code == 2 and "does not exist" in r.output
    assert not (tmp_path / "o").exists()


def test_a_config_path_that_is_not_a_file_says_what_it_is(tmp_path):
    """Was: `config file 'adir' does not exist` for a directory (and for /dev/null)."""
    for path, what in (
        (tmp_path, "is a directory, not a TOML file"),
        ("/dev/null", "is not a regular file"),
    ):
        r = _invoke("tournament", "run", path)
        assert r.exit_code == 2 and r.output == f"error: config file {str(path)!r} {what}\n"


@pytest.fixture
def ledger(tmp_path, make_raw, write_toml):
    out = tmp_path / "ledger"
    r = _invoke(
        "tournament", "run", write_toml(make_raw()), "--out", out, "--executor", "serial", "--quiet"
    )
    assert r.exit_code == 0, r.output
    assert "12 game(s) played" in r.output
    return out


def test_rerun_plays_nothing_and_other_config_is_refused(ledger, make_raw, write_toml):
    r = _invoke(
        "tournament",
        "run",
        write_toml(make_raw(), "same.toml"),
        "--out",
        ledger,
        "--executor",
        "serial",
        "--quiet",
    )
    assert r.exit_code == 0 and "0 game(s) played, 12 already" in r.output
    r = _invoke(
        "tournament",
        "run",
        write_toml(make_raw(seeds_per_lineup=7), "other.toml"),
        "--out",
        ledger,
        "--executor",
        "serial",
        "--quiet",
    )
    # Was exit 1: an --out holding another run is a wrong command line (2), as in solve,
    # sprt and tune; the fix is another --out.
    assert r.exit_code == 2 and "seeds_per_lineup was 6, now 7" in r.output
    assert r.stderr.count("\n") == 1 and r.stdout == ""


def test_ratings_json_csv_md_table(ledger):
    r = _invoke("ratings", ledger, "--format", "json", "--bootstrap", "30")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    recs = obj["ratings"]
    keys = {"agent", "elo", "ci_low", "ci_high", "games", "plackett_luce"}
    assert [set(x) - {"one_sided"} for x in recs] == [keys] * 2
    assert all(set(x["plackett_luce"]) == {"elo", "ci_low", "ci_high"} for x in recs)
    assert recs[0]["agent"] == "greedy" and recs[1]["agent"] == "random"
    assert recs[0]["elo"] + recs[1]["elo"] == pytest.approx(0, abs=0.2)  # mean = 0
    assert all(x["games"] == 12 for x in recs)
    hi = recs[0]["ci_high"]  # None when greedy won every game (one-sided interval)
    assert recs[0]["ci_low"] <= recs[0]["elo"] and (hi is None or recs[0]["elo"] <= hi)
    rows = list(csv.DictReader(io.StringIO(_invoke("ratings", ledger, "--format", "csv").stdout)))
    assert [row["agent"] for row in rows] == ["greedy", "random"]
    md = _invoke("ratings", ledger, "--format", "md").stdout
    assert "| 1 | greedy |" in md and "## Crosstable" in md and "## Seat advantage" in md
    assert "## Plackett-Luce" in md and "### Seat terms" in md
    table = _invoke("ratings", ledger, "--anchor", "greedy=1500")
    assert table.exit_code == 0 and "1500.0" in table.stdout


def test_ratings_errors(ledger, tmp_path):
    # Was exit 1 after reading the ledger: an agent it does not have is a wrong command
    # line, one line naming the agents it has.
    r = _invoke("ratings", ledger, "--anchor", "nobody=3")
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.output
    assert "--anchor: no agent named 'nobody'; agents: " in r.stderr
    assert "greedy" in r.stderr and "random" in r.stderr
    for bad in ("greedy=abc", "greedy=nan", "=5"):  # was exit 1: a wrong command line is 2
        r = _invoke("ratings", ledger, "--anchor", bad)
        assert r.exit_code == 2 and "--anchor must be AGENT or AGENT=ELO" in r.output
    r = _invoke("ratings", ledger, "--format", "xml")
    assert r.exit_code == 2 and "--format" in r.output
    # Was exit 1: a path that holds no ledger is a wrong command line (a damaged one is 1)
    (tmp_path / "empty").mkdir()
    (tmp_path / "t.toml").write_text("")
    for path, what in (("nothing", "no such ledger directory"), ("empty", "no manifest.json; not a meeple ledger"),
                       ("t.toml", "a file, not a ledger directory")):  # fmt: skip
        r = _invoke("ratings", tmp_path / path)
        assert r.exit_code == 2 and r.output == f"error: {tmp_path / path}: {what}\n", r.output
    r = _invoke("ratings", ledger, ledger)  # was exit 1: the same run named twice
    assert r.exit_code == 2 and "hold the same run" in r.stderr and r.output.count("\n") == 1
    # Was accepted: a hundred million resamples ran for hours before printing anything.
    r = _invoke("ratings", ledger, "--bootstrap", "100000000")
    assert r.exit_code == 2 and "--bootstrap" in r.output and r.output.count("\n") == 1


def test_html_report_is_self_contained(ledger, tmp_path):
    html_path = tmp_path / "r" / "report.html"
    r = _invoke("ratings", ledger, "--bootstrap", "20", "--html", html_path)
    assert r.exit_code == 0, r.output
    text = html_path.read_text()
    pngs = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", text)
    assert len(pngs) >= 2
    assert all(base64.b64decode(p)[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    assert "http://" not in text and "https://" not in text and "<script" not in text
    assert "greedy" in text and "Likelihood of superiority" in text


def test_two_ledgers_rate_jointly(ledger, tmp_path, make_raw, write_toml):
    out2 = tmp_path / "second"
    r = _invoke(
        "tournament",
        "run",
        write_toml(make_raw(seed=9), "b.toml"),
        "--out",
        out2,
        "--executor",
        "serial",
        "--quiet",
    )
    assert r.exit_code == 0
    recs = json.loads(
        _invoke("ratings", ledger, out2, "--format", "json", "--bootstrap", "0").stdout
    )["ratings"]
    assert {x["agent"]: x["games"] for x in recs} == {"greedy": 24, "random": 24}


def test_replay_command_prints_moves(ledger):
    import pyarrow.parquet as pq

    gid = pq.read_table(sorted(ledger.glob("part-*"))[0]).column("game_id")[0].as_py()
    r = _invoke("replay", ledger, gid)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0].startswith(f"game {gid}")
    assert "replay matches the ledger" in r.stdout
    # Was exit 1 and no way named to find an id: a game the ledger lacks, a path that holds
    # no ledger are a wrong command line
    r = _invoke("replay", ledger, "ffffffffffffffff")
    assert r.exit_code == 2 and r.output == (
        f"error: no game 'ffffffffffffffff' in {ledger}; list its game ids with: "
        f"meeple review {ledger} --list\n"
    )
    r = _invoke("replay", ledger / "nothing", gid)
    assert (
        r.exit_code == 2 and r.output == f"error: {ledger / 'nothing'}: no such ledger directory\n"
    )


def test_ladder_end_to_end_plots_elo_against_budget(tmp_path):
    from solvers.registry import all_kinds

    if "mcts" not in {k.name for k in all_kinds()}:
        pytest.skip("mcts not registered")
    path = tmp_path / "ladder.toml"
    path.write_text(
        '[tournament]\ngame = "python_coloretto(players=2)"\nseeds_per_lineup = 1\n'
        'schedule = "ladder"\nseed = 1\n[agents]\ngreedy = "heuristic"\n'
        '[ladder]\nagent = "mcts"\nparam = "sims"\nvalues = [1, 2]\n'
    )
    out = tmp_path / "ladder"
    r = _invoke("tournament", "run", path, "--out", out, "--executor", "serial", "--quiet")
    assert r.exit_code == 0, r.output
    assert "6 game(s) played" in r.output
    html_path = tmp_path / "ladder.html"
    r = _invoke("ratings", out, "--bootstrap", "10", "--html", html_path, "--format", "json")
    assert r.exit_code == 0, r.output
    assert {x["agent"] for x in json.loads(r.stdout)["ratings"]} == {"greedy", "mcts@1", "mcts@2"}
    text = html_path.read_text()
    assert "Elo against budget" in text and len(re.findall("data:image/png;base64", text)) == 3
    assert "<h2>Plackett-Luce" in text and "<h3>Seat terms</h3>" in text


def test_demo_runs_skips_unknown_kinds_and_writes_the_report(tmp_path):
    cfg = tmp_path / "demo.toml"
    cfg.write_text(
        '[tournament]\ngame = "python_coloretto(players=2)"\nseeds_per_lineup = 3\n'
        '[agents]\nrandom = "random"\ngreedy = "heuristic"\nfuture = "nosuchkind(sims=3)"\n'
    )
    out = tmp_path / "demo"
    r = _invoke("demo", "--config", cfg, "--out", out, "--executor", "serial", "--bootstrap", "10")
    assert r.exit_code == 0, r.output
    assert "not available" in r.output and "future" in r.output
    assert "6 game(s) played" in r.output and "Elo ratings" in r.output
    assert (tmp_path / "demo-report.html").exists()
    again = _invoke(
        "demo", "--config", cfg, "--out", out, "--executor", "serial", "--bootstrap", "0"
    )
    assert again.exit_code == 0 and "0 game(s) played, 6 already" in again.output


def test_html_inside_a_ledger_keeps_the_ledger_usable(ledger):
    """Was: a report written inside the ledger directory (`meeple demo --html DIR/report.html`)
    made `ratings` refuse the ledger as holding a foreign file; `ratings --html` refused the
    path instead. The report is now written and ignored when the ledger is read."""
    r = _invoke("ratings", ledger, "--html", ledger / "report.html", "--bootstrap", "5")
    assert r.exit_code == 0 and (ledger / "report.html").exists()
    again = _invoke("ratings", ledger, "--format", "json", "--bootstrap", "5")
    assert again.exit_code == 0, again.output
    assert "ignored files that are not ledger files: report.html" in again.stderr


def test_outputs_never_replace_a_saved_game_or_a_ledger_file(ledger, tmp_path):
    """Was: `ratings --html` wrote over any file (the ledger's own manifest.json, a saved
    game) and a directory or an unmakeable path was a traceback; `replay --save` silently
    replaced an existing game record."""
    import pyarrow.parquet as pq

    saved = tmp_path / "mine.json"
    saved.write_text('{"format": "meeple-game-record"}')
    page = tmp_path / "mine.html"  # was replaced: the check read only "<!doctype html"
    page.write_text("<!doctype html><html><body>my notes</body></html>")
    manifest = (ledger / "manifest.json").read_text()
    for target in (ledger / "manifest.json", saved, page, tmp_path, "/proc/no/such.html"):
        r = _invoke("ratings", ledger, "--html", target, "--bootstrap", "2")
        assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
        assert r.output.startswith("error: --html")
    assert (ledger / "manifest.json").read_text() == manifest
    assert page.read_text() == "<!doctype html><html><body>my notes</body></html>"
    report = tmp_path / "report.html"
    for _ in range(2):  # an earlier report is replaced
        assert _invoke("ratings", ledger, "--html", report, "--bootstrap", "2").exit_code == 0
    gid = pq.read_table(sorted(ledger.glob("part-*"))[0]).column("game_id")[0].as_py()
    r = _invoke("replay", ledger, gid, "--save", saved)
    assert r.exit_code == 2 and "--force" in r.output and r.output.count("\n") == 1
    assert saved.read_text() == '{"format": "meeple-game-record"}'
    assert _invoke("replay", ledger, gid, "--save", saved, "--force").exit_code == 0
    assert saved.read_text() != '{"format": "meeple-game-record"}'


def test_html_may_replace_an_empty_file_and_a_failed_command_leaves_no_directory(ledger, tmp_path):
    """Was: an empty file (``--html "$(mktemp --suffix .html)"``) was refused as not a
    report, and `ratings NOSUCH --html new/r.html` left `new/` behind."""
    empty = tmp_path / "empty.html"
    empty.write_text("")
    r = _invoke("ratings", ledger, "--html", empty, "--bootstrap", "2")
    assert r.exit_code == 0, r.output
    assert empty.read_text().lstrip().lower().startswith("<!doctype html")
    r = _invoke("ratings", tmp_path / "nosuch", "--html", tmp_path / "new" / "a" / "r.html")
    assert r.exit_code == 2 and "no such ledger" in r.output
    assert not (tmp_path / "new").exists()


def test_replay_save_writes_a_record_that_advise_reads(ledger, tmp_path):
    import pyarrow.parquet as pq

    from tournament.advice.positions import parse_record

    gid = pq.read_table(sorted(ledger.glob("part-*"))[0]).column("game_id")[0].as_py()
    path = tmp_path / "game.json"
    r = _invoke("replay", ledger, gid, "--save", path)
    assert r.exit_code == 0, r.output
    record = parse_record(json.loads(path.read_text()))
    assert record.terminal and len(record.actions) > 10
    # advise at the first player decision after ply 10 of the replayed game
    ply = next(i for i in range(10, len(record.actions)) if record.actions[i]["player"] >= 0)
    r = _invoke("advise", "--game-file", path, "--ply", ply, "--agent", "random", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["agent"] == "random"


def test_demo_default_config_is_the_checkouts():
    """Was: after the CLI moved into tournament/cli/, `meeple demo` (and so `make demo`)
    looked for tournament/configs/tournaments/demo.toml and stopped at once."""
    assert DEMO_CONFIG.is_file()
    assert DEMO_CONFIG.parent.parent.parent == Path(__file__).resolve().parents[2]


def test_an_html_report_into_a_directory_it_cannot_write_is_refused_first(
    ledger, tmp_path, monkeypatch
):
    """Was: `ratings --html ro/x.html` on a read-only disk failed only after the whole fit."""
    import os

    from tournament.cli import common

    real = os.access
    ro = tmp_path / "ro"
    ro.mkdir()
    monkeypatch.setattr(common.os, "access", lambda p, mode: real(p, mode) and Path(p) != ro)
    r = _invoke("ratings", ledger, "--html", ro / "x.html", "--bootstrap", "2")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "is not writable" in r.output
    assert not list(ro.iterdir())


def test_a_report_that_cannot_be_finished_leaves_the_earlier_one_whole(
    ledger, tmp_path, monkeypatch
):
    """Was: the page was written in place, so a full disk mid-write left a torn report."""
    import os

    report = tmp_path / "r.html"
    assert _invoke("ratings", ledger, "--html", report, "--bootstrap", "2").exit_code == 0
    before = report.read_text()

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    r = _invoke("ratings", ledger, "--html", report, "--bootstrap", "2", "--seed", "1")
    assert r.exit_code == 1 and "No space left on device" in r.output
    assert report.read_text() == before


def test_a_ledger_on_a_read_only_disk_cannot_be_written_not_created(
    ledger, make_raw, write_toml, monkeypatch
):
    """Was 'cannot create the ledger' for a ledger that exists: it cannot be written (the
    path and the OS's reason), exit 1, and it is left as it was."""
    import errno
    import os

    before = sorted((p.name, p.stat().st_mtime_ns) for p in ledger.iterdir())
    real = os.open

    def read_only(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real(path, flags, *args, **kwargs)

    config = write_toml(make_raw(), "same.toml")
    monkeypatch.setattr(os, "open", read_only)
    r = _invoke("tournament", "run", config, "--out", ledger, "--executor", "serial", "--quiet")
    monkeypatch.undo()
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert f"{ledger}: cannot write the ledger (Read-only file system: {ledger}/.lock)" in r.stderr
    assert "create" not in r.stderr
    assert sorted((p.name, p.stat().st_mtime_ns) for p in ledger.iterdir()) == before


def test_an_interrupt_before_any_batch_does_not_name_a_removed_ledger(
    tmp_path, make_raw, write_toml, monkeypatch
):
    """Was: 'finished batches are in OUT' after a Ctrl-C that had removed OUT (no batch
    had finished, so the run took back the ledger it created)."""
    from tournament import runner

    def stopped(cfg, out, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_tournament", stopped)
    out = tmp_path / "never"
    r = _invoke("tournament", "run", write_toml(make_raw()), "--out", out, "--quiet")
    assert r.exit_code == 130 and "no batch had finished" in r.output
    assert "finished batches are in" not in r.output
