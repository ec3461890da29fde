"""`meeple advise` and `meeple play` through typer's CliRunner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spiel_games
from tournament.cli import app

runner = CliRunner()
THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


def test_advise_json_is_one_reproducible_object():
    args = [
        "advise",
        THREE,
        "--history",
        OPENING,
        "--agent",
        "ismcts(sims=40)",
        "--top",
        "2",
        "--seed",
        "5",
        "--json",
    ]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    obj = json.loads(first.stdout)
    assert obj["seed"] == 5 and obj["agent"] == "ismcts(sims=40)" and len(obj["moves"]) == 2
    again = json.loads(runner.invoke(app, args).stdout)
    obj.pop("seconds"), again.pop("seconds")
    assert obj == again


def test_advise_text_shows_the_table_and_the_verdict():
    r = runner.invoke(
        app, ["advise", THREE, "-H", OPENING, "-a", "ismcts(sims=40)", "-a", "heuristic"]
    )
    assert r.exit_code == 0, r.output
    assert "value [95%]" in r.stdout and "points [95%]" in r.stdout and "visits" in r.stdout
    assert "units: value = P1's rank score in [-1, 1]" in r.stdout
    assert "best: place yellow in row" in r.stdout
    assert "agents agree" in r.stdout or "agents disagree" in r.stdout


def test_advise_player_and_time_options():
    r = runner.invoke(
        app,
        [
            "advise",
            THREE,
            "-H",
            OPENING,
            "-a",
            "ismcts",
            "--time",
            "0.05",
            "--player",
            "P3",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["player"] == 2 and obj["agent"] == "ismcts(time=0.05)"


def test_advise_errors_are_one_line_with_exit_code_1():
    r = runner.invoke(app, ["advise", THREE, "-H", OPENING + "; take row 7", "-a", "random"])
    assert r.exit_code == 1
    assert r.stderr.startswith("error: history item 7 ('take row 7')") and r.stderr.count("\n") == 1
    r = runner.invoke(app, ["advise", THREE, "-H", "start: pink", "-a", "random"])
    assert r.exit_code == 1 and "chance node" in r.stderr
    r = runner.invoke(app, ["advise", THREE, "-H", OPENING])
    assert r.exit_code == 2 and "--agent" in r.stderr


@pytest.mark.parametrize("agent", ["ismcts(uct_c=inf)", "ismcts(time=nan)", "ismcts(epsilon=2)"])
def test_an_agent_parameter_out_of_range_is_a_wrong_command_line(agent):
    """Old: inf/nan were accepted (the search never ended); a range error came only once
    the position was built, with exit 1 (or after a chance-node error)."""
    r = runner.invoke(app, ["advise", THREE, "-H", "start: pink", "-a", agent])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert r.stderr.startswith("error: parameter ") and "of agent 'ismcts' must be" in r.stderr


def test_advise_serve_reads_stdin():
    lines = (
        "garbage\n"
        + json.dumps({"id": 1, "game": THREE, "history": OPENING, "agent": "random"})
        + "\n"
    )
    r = runner.invoke(app, ["advise", "--serve"], input=lines)
    assert r.exit_code == 0, r.output
    answers = [json.loads(x) for x in r.stdout.splitlines()]
    assert answers[0]["id"] is None and "error" in answers[0]
    assert answers[1]["id"] == 1 and answers[1]["agent"] == "random"


def test_play_save_then_advise_and_load(tmp_path):
    path = tmp_path / "g.json"
    r = runner.invoke(
        app,
        [
            "play",
            TINY,
            "--seats",
            "human,heuristic",
            "--seed",
            "3",
            "--save",
            str(path),
            "--hint-agent",
            "ismcts(sims=10)",
        ],
        input="1\nhint\n1\nquit\n",
    )
    assert r.exit_code == 0, r.output
    assert "legal moves:" in r.stdout and "best: " in r.stdout
    rec = json.loads(path.read_text())
    assert rec["seats"] == ["human", "heuristic"] and rec["seed"] == 3
    # The record is a position for advice ...
    r = runner.invoke(app, ["advise", "--game-file", str(path), "-a", "ismcts(sims=10)", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["ply"] == len(rec["actions"])
    # ... and a game to continue: seats and seed come from the record.
    r = runner.invoke(app, ["play", "--load", str(path)], input="1\n" * 60)
    assert r.exit_code == 0, r.output
    assert f"loaded {len(rec['actions'])} actions" in r.stdout and "ranking:" in r.stdout


def test_advise_time_out_of_range_is_a_usage_error_before_the_position():
    """Was: `--time inf` reached the search (exit 1, after the position was built) while
    `-a 'ismcts(time=inf)'` was exit 2."""
    for bad in ("inf", "100000"):
        r = runner.invoke(
            app, ["advise", THREE, "-H", "start: pink", "-a", "ismcts(sims=5)", "-t", bad]
        )
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
        assert "parameter 'time'" in r.stderr


def test_play_setup_errors(tmp_path):
    r = runner.invoke(app, ["play", TINY, "--seats", "human"])
    assert r.exit_code == 2 and "has 2 players but 1 seats" in r.stderr
    r = runner.invoke(app, ["play", TINY])
    assert r.exit_code == 2 and "--seats" in r.stderr
    # a path that names no file is a wrong command line (2; was 1), the same in all three
    for argv in (
        ["play", "--load", "/nonexistent/file.json"],
        ["advise", "--game-file", "/nonexistent/file.json", "-a", "random"],
        ["review", str(tmp_path)],  # a folder that is neither a record nor a ledger
        ["advise", "--game-file", str(tmp_path), "-a", "random"],  # was 1: a folder
        ["play", "--load", str(tmp_path)],
        ["review", "/nonexistent/file.json"],
    ):
        r = runner.invoke(app, argv)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, (argv, r.output)
    bad = tmp_path / "torn.json"  # was: exit 2 here, 1 from advise and review
    bad.write_text('{"format": "meeple-game-record", "version": 1, "game": ')
    for argv in (["play", "--load", bad], ["advise", "--game-file", bad, "-a", "random"]):
        r = runner.invoke(app, [str(x) for x in argv])
        assert r.exit_code == 1 and "is not valid JSON" in r.stderr, r.stderr


def test_review_html_never_replaces_the_record_it_reviews(tmp_path):
    """Was: `review GAME.json --html GAME.json` wrote the report over the saved game."""
    path = tmp_path / "g.json"
    r = runner.invoke(
        app, ["play", TINY, "--seats", "human,random", "--save", str(path)], input="1\nquit\n"
    )
    before = path.read_text()
    r = runner.invoke(app, ["review", str(path), "--html", str(path), "-a", "random", "-q"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert "not a meeple HTML report" in r.stderr
    assert path.read_text() == before
    page = tmp_path / "page.html"  # was replaced: any file starting like HTML passed
    page.write_text("<!DOCTYPE html>\n<html><body>mine</body></html>")
    r = runner.invoke(app, ["review", str(path), "--html", str(page), "-a", "random", "-q"])
    assert r.exit_code == 2 and "not a meeple HTML report" in r.stderr
    assert page.read_text() == "<!DOCTYPE html>\n<html><body>mine</body></html>"
    cheap = "mcts(sims=5)"  # a searcher: `random` values no move, and review refuses it
    r = runner.invoke(
        app, ["review", str(path), "--html", str(tmp_path / "r.html"), "-a", cheap, "-q"]
    )
    assert r.exit_code == 0, r.stderr
    r = runner.invoke(
        app, ["review", str(path), "--html", str(tmp_path / "r.html"), "-a", cheap, "-q"]
    )
    assert r.exit_code == 0, r.stderr  # an earlier review is replaced


def test_a_binary_file_given_as_a_record_is_one_line(tmp_path):
    """Old: `play --load` of a non-UTF-8 file ended in a UnicodeDecodeError traceback."""
    path = tmp_path / "photo.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    for argv in (["play", "--load", str(path)], ["review", str(path)]):
        r = runner.invoke(app, argv)
        assert r.exit_code in (1, 2) and r.stderr.count("\n") == 1, r.stderr
        assert "not UTF-8" in r.stderr and "Traceback" not in r.output


def test_advise_with_a_trained_policy_and_a_search(tmp_path):
    policy = tmp_path / "tiny.parquet"
    r = runner.invoke(
        app,
        [
            "solve",
            TINY,
            "--solver",
            "mccfr-os",
            "--iterations",
            "200",
            "--report-every",
            "200",
            "--out",
            str(policy),
            "--quiet",
        ],
    )
    assert r.exit_code == 0, r.output
    history = "start: yellow; start: blue; start player: P1; draw; deck: green"
    spec = f"policy(path={policy})"
    r = runner.invoke(
        app, ["advise", TINY, "-H", history, "-a", spec, "-a", "ismcts(sims=50)", "--json"]
    )
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    pol, search = obj["agents"]
    assert pol["agent"] == spec and pol["significant"] is None
    assert sum(m["prob"] for m in pol["moves"]) == pytest.approx(1.0)
    assert all(m["value"] is None and m["visits"] == 200 for m in pol["moves"])
    assert all("prob" not in m for m in search["moves"])
    assert obj["agree"] == (pol["best"] == search["best"])


def test_a_damaged_blueprint_is_one_line_in_advise_serve_and_play(tmp_path, damaged_npz):
    """Was: a traceback (zipfile.BadZipFile, zlib.error) from advise and play, and
    "BadZipFile: File is not a zip file" (no file named) from the engine. Exit 2 from
    advise and from play's seat setup: an agent its files cannot build is a wrong command
    line (advise said 1 until its specs were checked against the game before advising)."""
    shipped = Path(spiel_games.__file__).parent / "coloretto" / "blueprint_3p.npz"
    copy = tmp_path / "bp.npz"
    shutil.copyfile(shipped, copy)
    for bad in damaged_npz(copy):
        for agent in (f"blueprint(path={bad})", f"ismcts(sims=5,prior=blueprint,blueprint={bad})"):
            r = runner.invoke(app, ["advise", THREE, "-H", OPENING, "-a", agent])
            assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
            assert f"blueprint {bad} is truncated, corrupt or not an .npz file" in r.stderr
        query = {"id": 7, "game": THREE, "history": OPENING, "agent": f"blueprint(path={bad})"}
        r = runner.invoke(app, ["advise", "--serve"], input=json.dumps(query) + "\n")
        answer = json.loads(r.stdout)
        assert r.exit_code == 0 and answer["id"] == 7, r.output
        assert answer["error"].startswith(f"blueprint {bad} is truncated, corrupt")
        r = runner.invoke(app, ["play", THREE, "--seats", f"human,heuristic,blueprint(path={bad})"])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
        assert "truncated, corrupt" in r.stderr


def test_a_device_as_the_game_record_is_refused_by_advise_review_and_play():
    """Was: read to its end (`--game-file /dev/zero` until memory ran out; /dev/null, read
    here, came out as 'not valid JSON'). A record that cannot be read is exit 1 from every
    command, as a missing one."""
    for args, code in (
        (["advise", "--game-file", "/dev/null", "-a", "random"], 1),
        (["review", "/dev/null", "-a", "random", "-q"], 1),
        (["play", "--load", "/dev/null"], 1),
    ):
        r = runner.invoke(app, args)
        assert r.exit_code == code and r.stderr.count("\n") == 1, (args, r.output)
        assert r.stderr == "error: game record '/dev/null' is a character device, not a file\n"


def test_a_count_of_one_is_singular_in_the_advice_header():
    """'1 legal moves' at a forced move."""
    forced = "start: pink; start: blue; start: green; start player: P1"  # P1 must draw
    r = runner.invoke(app, ["advise", THREE, "-H", forced, "-a", "ismcts(sims=10)"])
    assert r.exit_code == 0, r.output
    assert "after 4 actions; P1 to move;" in r.stdout
    assert "; 1 legal move\n" in r.stdout, r.stdout


def test_a_principal_variation_pasted_back_into_the_history_replays():
    """Was: 'history item 9 ('chance: deck: blue') is not a legal action for chance'. An
    advice line writes a chance outcome as 'chance: <outcome>'; a history takes it as is."""
    args = ["advise", THREE, "-H", OPENING, "-a", "ismcts(sims=200)", "--seed", "3", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    pv = max((m["pv"] for m in json.loads(first.stdout)["moves"]), key=len)
    assert any(item.startswith("chance: ") for item in pv), pv
    last = max(k for k, item in enumerate(pv) if item.startswith("chance: "))
    pv = pv[: last + 1]  # up to a decision after the outcome
    pasted = "; ".join([OPENING, *pv])
    bare = "; ".join([OPENING, *(item.removeprefix("chance: ") for item in pv)])
    after = [runner.invoke(app, [*args[:3], h, "-a", "random", "--json"]) for h in (pasted, bare)]
    assert [r.exit_code for r in after] == [0, 0], after[0].output
    assert json.loads(after[0].stdout)["ply"] == json.loads(after[1].stdout)["ply"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--hint-agent", "policy(path=/nope.parquet)"], "policy file not found"),
        (["--hint-agent", "blueprint"], "no shipped blueprint"),
        (["--hint-agent", "ismcts(eval=learned)"], "ships no trained value model"),
        (
            ["--hint-agent", "ismcts(eval=learned,model=/nope.json)"],
            "value model not found: /nope.json",
        ),
        (["--opponents", "blueprint"], "no shipped blueprint"),
    ],
)
def test_a_hint_agent_that_cannot_be_built_is_refused_before_play(tmp_path, extra, said):
    """Was: the game started and `hint` answered "no hint: policy file not found" (the same
    spec in --seats is refused at the start)."""
    seats = "human,heuristic,heuristic,heuristic"
    save = tmp_path / "g.json"
    argv = ["play", "python_coloretto(players=4)", "--seats", seats, "--save", str(save)]
    r = runner.invoke(app, [*argv, *extra], input="hint\nquit\n")
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith("error: the hint agent ") and said in r.output
    assert not save.exists()


def _saved_tiny_game(tmp_path) -> Path:
    path = tmp_path / "g.json"
    argv = ["play", TINY, "--seats", "human,heuristic", "--seed", "3", "--save", str(path)]
    r = runner.invoke(app, argv, input="1\n1\nquit\n")
    assert r.exit_code == 0, r.output
    return path


def _edited_record(tmp_path, pick, field: str):
    """A saved tiny game with the first action ``pick`` accepts edited: its ``field``
    "action" becomes 'place green in row 9', its "id" the next id. Returns (path, index)."""
    path = _saved_tiny_game(tmp_path)
    rec = json.loads(path.read_text())
    i = next(i for i, a in enumerate(rec["actions"]) if pick(a))
    if field == "action":
        rec["actions"][i]["action"] = "place green in row 9"
    else:
        rec["actions"][i]["id"] += 1
    path.write_text(json.dumps(rec))
    return path, i


def _load_and_advise(path) -> list[str]:
    """The one-line output of `play --load` and `advise --game-file` of ``path``, each
    checked to exit 1 (a damaged record)."""
    outputs = []
    for argv in (
        ["play", "--load", str(path)],
        ["advise", "--game-file", str(path), "-a", "heuristic"],
    ):
        r = runner.invoke(app, argv, input="quit\n")
        assert r.exit_code == 1 and r.output.count("\n") == 1, (argv, r.output)
        outputs.append(r.output)
    return outputs


def test_play_load_of_a_damaged_record_exits_1_as_advise_does(tmp_path):
    """Was: `meeple play --load` of a record whose action string was edited exited 2 (a
    wrong command line) while `meeple advise --game-file` exited 1 (a damaged record)."""
    path, i = _edited_record(tmp_path, lambda a: a["action"].startswith("place "), "action")
    for output in _load_and_advise(path):
        assert f"game record action {i + 1}: id " in output


def test_a_record_id_that_disagrees_with_its_string_is_the_error_named(tmp_path):
    """Was: the world was built from the ids first, so a legal id of another move ('place
    green in row 2' for 'place green in row 1') was reported at the later item it made
    illegal ("history item 9 (id 4): not legal here"), not where the record is wrong."""
    # the same card, placed in row 2: legal here
    path, i = _edited_record(tmp_path, lambda a: a["action"].endswith(" in row 1"), "id")
    for output in _load_and_advise(path):
        assert f"error: game record action {i + 1}: id " in output and "in row 2' here" in output
