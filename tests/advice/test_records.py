"""Histories and game records: parsing, precise errors, round trips."""

from __future__ import annotations

import json

import pytest

import spiel_games
from spiel_games.common.errors import GameStringError
from tournament.advice import positions as R
from tournament.advice.positions import position_from

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"


def test_history_replays_to_the_position():
    game = spiel_games.load_game(THREE)
    state, actions = R.replay_history(game, OPENING)
    assert len(actions) == 6
    assert state.current_player() == 0
    assert R.history_string(game, actions) == OPENING


def test_history_accepts_a_list_of_strings_and_ids_and_loose_spacing():
    game = spiel_games.load_game(THREE)
    a, ids = R.replay_history(game, OPENING)
    items = [s.strip() for s in OPENING.split(";")]
    items[4] = ids[4]  # an action id instead of "draw"
    items[5] = "  DECK:   yellow "
    b, ids2 = R.replay_history(game, items)
    assert ids2 == ids
    assert b.information_state_string(0) == a.information_state_string(0)


def test_unknown_action_names_its_position_and_the_legal_actions():
    game = spiel_games.load_game(THREE)
    with pytest.raises(R.HistoryError) as e:
        R.replay_history(game, OPENING + "; place yellow in row 9")
    msg = str(e.value)
    assert "history item 7" in msg and "'place yellow in row 9'" in msg
    assert "legal: place yellow in row 1, place yellow in row 2, place yellow in row 3" in msg
    assert "\n" not in msg


def test_illegal_chance_outcome_is_an_error():
    game = spiel_games.load_game(THREE)
    with pytest.raises(
        R.HistoryError, match=r"history item 2 \('start: pink'\).*chance.*start: yellow"
    ):
        R.replay_history(game, "start: pink; start: pink")


def test_illegal_action_id_is_an_error():
    game = spiel_games.load_game(THREE)
    with pytest.raises(R.HistoryError, match=r"history item 1 \(id 99\): not legal here"):
        R.replay_history(game, [99])


def test_unknown_game_is_a_one_line_error():
    with pytest.raises(GameStringError, match="unknown game 'python_nope'"):
        spiel_games.load_game("python_nope(players=2)")


def test_record_round_trip_and_replay(tmp_path):
    game = spiel_games.load_game(THREE)
    state, actions = R.replay_history(game, OPENING)
    rec = R.record_of(THREE, state, 7, ["human", "heuristic", "random"], actions)
    path = tmp_path / "g.json"
    rec.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "meeple-game-record" and data["version"] == 1
    assert data["game"] == THREE and data["seed"] == 7
    assert data["seats"] == ["human", "heuristic", "random"]
    assert data["actions"][0] == {"player": -1, "id": actions[0], "action": "start: pink"}
    assert data["actions"][4]["player"] == 0 and data["actions"][4]["action"] == "draw"
    assert data["terminal"] is False and data["scores"] is None
    back = R.read_record(path)
    s2, a2 = R.replay_record(game, back)
    assert a2 == actions
    assert str(s2) == str(state)
    pos = position_from(None, record_path=str(path), ply=4)
    s3, n = pos.state, pos.ply
    assert n == 4 and s3.current_player() == 0


def test_record_whose_strings_disagree_with_ids_is_rejected(tmp_path):
    game = spiel_games.load_game(THREE)
    state, actions = R.replay_history(game, OPENING)
    data = R.record_of(THREE, state, 0, [], actions).to_json()
    data["actions"][5]["action"] = "deck: blue"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(R.HistoryError, match="game record action 6: id .* is 'deck: yellow' here"):
        R.replay_record(game, R.read_record(path))


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not valid JSON"),
        ('{"format": "other"}', "not a game record"),
        (
            '{"format": "meeple-game-record", "version": 9, "game": "x"}',
            "unsupported game record version",
        ),
        (
            '{"format": "meeple-game-record", "version": 1, "game": "x", "actions": [{"id": "a"}]}',
            "action 1 must be an object",
        ),
    ],
)
def test_malformed_records_are_rejected(tmp_path, text, message):
    path = tmp_path / "r.json"
    path.write_text(text)
    with pytest.raises(R.HistoryError, match=message):
        R.read_record(path)


def test_terminal_record_has_scores_and_returns():
    from solvers.baselines import RandomAgent
    from tournament.match import play_match

    game = spiel_games.load_game(TINY)
    result = play_match(game, [RandomAgent(1), RandomAgent(2)], seed=3)
    state, _ = R.replay_history(game, result.actions)
    rec = R.record_of(TINY, state, 3, ["random", "random"], result.actions)
    assert rec.terminal and rec.scores == result.scores and rec.returns == result.returns


@pytest.mark.parametrize("config", [s.typical_config for s in spiel_games.all_specs()])
def test_every_game_round_trips_through_the_history_format(config):
    """Action strings never contain ';' and a playout's history string replays exactly."""
    import random

    game = spiel_games.load_game(config)
    rng = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = R.history_string(game, state.history())
    assert len(text.split("; ")) == len(state.history())
    replayed, actions = R.replay_history(game, text)
    assert actions == state.history() and replayed.is_terminal()


def test_only_a_regular_file_of_at_most_the_cap_is_read(tmp_path, monkeypatch):
    """Was: read to the end whatever it was given: `--game-file /dev/zero` until memory
    ran out, a FIFO blocked until a writer came. /dev/null stands in for /dev/zero (was
    'not valid JSON'); the cap is lowered to test a file over it without writing 64 MiB."""
    import os
    import threading

    from tournament import records

    with pytest.raises(R.HistoryError, match=r"^game record '/dev/null' is a character device"):
        R.read_record("/dev/null")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    errors: list[Exception] = []

    def read() -> None:
        try:
            R.read_record(fifo)
        except R.HistoryError as e:
            errors.append(e)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "read_record waited for a writer on a FIFO"
    assert len(errors) == 1 and "is a pipe (FIFO), not a file" in str(errors[0])
    path = tmp_path / "r.json"
    path.write_text(" " * 101)
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 100)
    with pytest.raises(R.HistoryError, match="is over 100 bytes, the most a game record may be"):
        R.read_record(path)


def test_a_json_error_in_a_record_says_at_once(tmp_path):
    """Was: "is not valid JSON: Invalid control character at at line 1"."""
    path = tmp_path / "r.json"
    path.write_text('{"format": "x\x01"}')
    with pytest.raises(R.HistoryError) as e:
        R.read_record(path)
    assert str(e.value) == (
        f"game record {str(path)!r} is not valid JSON: Invalid control character at line 1"
    )


def _staufer_record(plies: int = 20):
    """A Die Staufer record of a random game's first ``plies`` actions (job cards dealt)."""
    from spiel_games.common import conformance as C
    from tournament.records import record_of

    gs = "python_staufer(players=3)"
    states = C.sampled_states(spiel_games.load_game(gs), 3, every=1)  # one per ply
    state = next(s for i, s in enumerate(states) if i == plies)
    return record_of(gs, state, 0, ["random"] * 3, state.history())


def test_a_record_with_the_older_staufer_job_strings_still_replays():
    """Was: a record saved before the job cards carried their printed names ('job region 1
    for P1', now 'job region 1 for P1: Augsburg') was refused by play --load, review and
    advise ('id 1 is ... here, but the record says ...'): only typed histories read them."""
    record = _staufer_record()
    jobs = [e for e in record.actions if e["action"].startswith("job ")]
    assert jobs and all(": " in e["action"] for e in jobs)
    for e in jobs:
        e["action"] = e["action"].split(": ")[0]  # the string as older versions wrote it
    game = spiel_games.load_game(record.game)
    state, actions = R.replay_record(game, record)
    assert actions == record.action_ids()


def test_a_record_string_that_names_another_move_is_still_refused():
    record = _staufer_record()
    job = next(e for e in record.actions if e["action"].startswith("job region"))
    other = 1 + int(job["action"].split()[2]) % 5  # another region's number
    job["action"] = f"job region {other} for P1"
    with pytest.raises(R.HistoryError, match="but the record says 'job region"):
        R.replay_record(spiel_games.load_game(record.game), record)
