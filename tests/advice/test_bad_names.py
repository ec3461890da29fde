"""Names and numbers the advice commands read: a one-line error, never a traceback
(found in review). Was, each with a traceback:

- ``--player '²'`` (``str.isdigit`` accepts it, ``int`` does not) and ``--player P`` with
  5,000 digits (over ``int``'s limit for text), in advise, review and play; the JSON
  engine answered Python's own message;
- a game record with a 5,000-digit number given to ``play --load``;
- a file name over 255 bytes given to ``review`` (a record, ``--list``, ``--html``);
- a recovery folder (MEEPLE_RECOVERY_DIR) whose name has a part over 255 bytes.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from spiel_games.common.files import is_folder, write_problem
from tests.one_line import one_line_error
from tournament.advice.items import parse_player
from tournament.advice.serve_query import QueryError, parse_query
from tournament.cli import app
from tournament.records import HistoryError, read_record

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
LONG = "b" * 300
HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("text", "player"),
    [("0", 0), ("2", 2), ("P1", 0), (" p3 ", 2), ("P0", -1), ("123456", 123456)],
)
def test_parse_player_reads_ids_and_seat_names(text, player):
    assert parse_player(text) == player


@pytest.mark.parametrize("text", ["²", "P²", "٣", "P" + HUGE, HUGE, "1234567", "", "P", "-1"])
def test_parse_player_refuses_what_int_cannot_read_or_no_game_has(text):
    assert parse_player(text) is None


@pytest.mark.parametrize("player", ["²", "P²", "P" + HUGE])
def test_advise_player_not_a_number_is_a_one_line_usage_error(player):
    argv = ["advise", TINY, "--history", "", "-a", "heuristic", "--player", player]
    r = CliRunner().invoke(app, argv)
    assert "--player must be a player id" in one_line_error(r, 2)


def test_engine_player_not_a_number_is_an_answer_not_python_text():
    with pytest.raises(QueryError, match='"player" must be a player id'):
        parse_query({"id": 1, "game": TINY, "agent": "heuristic", "player": "P²"})
    assert parse_query({"id": 1, "game": TINY, "agent": "heuristic", "player": "P2"}).player == 1


def test_record_with_a_5000_digit_number_is_not_valid_json(tmp_path):
    path = tmp_path / "big.json"
    path.write_text('{"game": "x", "seed": ' + HUGE + "}")
    with pytest.raises(HistoryError, match="a number of more than 4,300 digits"):
        read_record(path)


def test_play_load_of_a_record_with_a_5000_digit_number(tmp_path, recovery_dir):
    path = tmp_path / "big.json"
    path.write_text('{"game": "x", "seed": ' + HUGE + "}")
    r = CliRunner().invoke(app, ["play", "--load", str(path)], input="quit\n")
    assert "not valid JSON: a number of more than 4,300 digits" in one_line_error(r, 1)


def test_a_name_over_255_bytes_is_no_folder(tmp_path):
    assert not is_folder(tmp_path / LONG)
    assert is_folder(tmp_path)
    assert "File name too long" in write_problem(tmp_path / LONG / "probe")


def test_review_of_a_record_named_over_255_bytes(tmp_path):
    r = CliRunner().invoke(app, ["review", str(tmp_path / f"{LONG}.json")])
    assert "File name too long" in one_line_error(r, 2)


def test_review_list_of_a_folder_named_over_255_bytes(tmp_path):
    r = CliRunner().invoke(app, ["review", str(tmp_path / LONG), "--list"])
    assert "--list needs a ledger directory" in one_line_error(r, 2)


def test_review_html_under_a_folder_named_over_255_bytes(tmp_path):
    record = tmp_path / "game.json"
    r = CliRunner().invoke(
        app, ["play", TINY, "--seats", "heuristic,heuristic", "--save", str(record)]
    )
    assert r.exit_code == 0, r.output
    html = tmp_path / LONG / "r.html"
    r = CliRunner().invoke(app, ["review", str(record), "-a", "heuristic", "--html", str(html)])
    assert "File name too long" in one_line_error(r, 2)
    assert json.loads(record.read_text())["actions"]  # the record untouched


def test_play_with_a_recovery_folder_named_over_255_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_RECOVERY_DIR", str(tmp_path / LONG / "r"))
    r = CliRunner().invoke(app, ["play", TINY, "--seats", "human,heuristic"], input="quit\n")
    assert "the recovery folder" in one_line_error(r, 2)
