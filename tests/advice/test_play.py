"""`meeple play` driven through its input stream."""

from __future__ import annotations

import io
import json
import random

import pyspiel
import pytest

import spiel_games
from tournament.advice.play import (
    PlayError,
    PlaySession,
    choose,
    rank_order,
    readable_observation,
    split_seats,
)
from tournament.advice.positions import read_record, replay_history

TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)
HINT = "ismcts(sims=20)"


def play(lines: str, seats=("human", "heuristic"), seed=3, game=TINY, **kw):
    out = io.StringIO()
    session = PlaySession(
        game, list(seats), seed, inp=io.StringIO(lines), out=out, hint_agent=HINT, **kw
    )
    result = session.run()
    return result, out.getvalue()


def test_full_game_against_an_ai_seat():
    result, text = play("1\n" * 60)
    assert result.finished
    assert "game over" in text and "ranking:" in text
    assert "legal moves:" in text and "   1. " in text
    # The actions replay to a terminal state with the reported scores.
    game = pyspiel.load_game(TINY)
    state, _ = replay_history(game, result.actions)
    assert state.is_terminal() and state.scores() == result.scores
    # Numbered choice 1 each time: the human's moves are the first legal move.
    s = game.new_initial_state()
    for a in result.actions:
        if not s.is_chance_node() and s.current_player() == 0:
            assert a == s.legal_actions()[0]
        s.apply_action(a)


def test_same_seed_same_game_and_names_are_accepted():
    by_number, _ = play("1\n" * 60, seed=5)
    again, _ = play("1\n" * 60, seed=5)
    assert by_number.actions == again.actions
    # Typing the move names instead of numbers plays the same game.
    game = pyspiel.load_game(TINY)
    s = game.new_initial_state()
    names = []
    for a in by_number.actions:
        if not s.is_chance_node() and s.current_player() == 0:
            names.append(s.action_to_string(0, a).upper())
        s.apply_action(a)
    by_name, _ = play("".join(n + "\n" for n in names), seed=5)
    assert by_name.actions == by_number.actions and by_name.finished


def test_invalid_input_reprompts_and_loses_nothing():
    clean, _ = play("1\n" * 60)
    noisy, text = play("bogus\n99\n\nplace\n" + "1\n" * 60)
    assert noisy.actions == clean.actions
    assert "'bogus' is not a legal move or command" in text
    assert "no move number 99" in text


def test_commands_with_arguments_and_huge_numbers_reprompt():
    """Was: `undo 3` undid one decision and `quit now` quit, the argument silently dropped;
    a move number of 5000 digits got Python's int() limit message."""
    clean, _ = play("1\n" * 60)
    noisy, text = play("1\nundo 3\nquit now\nhint me\n" + "9" * 5000 + "\n" + "1\n" * 60)
    assert noisy.actions == clean.actions and noisy.finished
    assert "undo takes no arguments: type just 'undo'" in text
    assert "quit takes no arguments" in text and "hint takes no arguments" in text
    assert "no move number 999999999999999999...: choose 1-" in text
    assert "undone" not in text and "4300" not in text


def test_only_ascii_digits_are_move_numbers():
    """Was: Arabic-Indic and full-width digits ("١", "１") were read as move 1."""
    clean, _ = play("1\n" * 60)
    noisy, text = play("\u0661\n\uff11\n" + "1\n" * 60)
    assert noisy.actions == clean.actions
    assert "'\u0661' is not a legal move" in text and "'\uff11' is not a legal move" in text


def test_ambiguous_prefix_lists_the_candidates():
    legal = [(3, "place red in row 1"), (4, "place red in row 2"), (0, "draw")]
    with pytest.raises(ValueError, match="ambiguous: place red in row 1, place red in row 2"):
        choose(legal, "place")
    assert choose(legal, "dr") == 0 and choose(legal, "2") == 4


def test_hint_shows_advice_and_changes_nothing():
    clean, _ = play("1\n" * 60)
    hinted, text = play("1\nhint\n" + "1\n" * 60)  # the first decision is forced (a draw)
    assert hinted.actions == clean.actions
    assert f"agent {HINT}" in text and "best: " in text
    assert "hint for P1, from your information state only:" in text


def test_undo_returns_to_the_previous_decision():
    # Make two decisions, undo, then play the second one differently.
    first, _ = play("1\n1\nquit\n")
    undone, text = play("1\n1\nundo\n2\nquit\n")
    assert "undone: back" in text
    game = pyspiel.load_game(TINY)

    def human_moves(actions):
        s, moves = game.new_initial_state(), []
        for a in actions:
            if not s.is_chance_node() and s.current_player() == 0:
                moves.append(s.legal_actions().index(a) + 1)
            s.apply_action(a)
        return moves

    assert human_moves(first.actions) == [1, 1]
    assert human_moves(undone.actions) == [1, 2]


def test_undo_before_any_decision_is_refused():
    result, text = play("undo\nquit\n")
    assert "nothing to undo: you have no previous decision" in text and not result.finished


def test_save_then_load_continues_the_game(tmp_path):
    path = tmp_path / "game.json"
    partial, text = play(f"1\n1\nsave {path}\nquit\n")
    assert not partial.finished and f"saved {len(partial.actions)} actions to {path}" in text
    data = json.loads(path.read_text())
    assert data["game"] == TINY and data["seed"] == 3 and data["seats"] == ["human", "heuristic"]
    assert [a["id"] for a in data["actions"]] == partial.actions
    record = read_record(path)
    resumed, text2 = play("1\n" * 60, record=record)
    assert f"loaded {len(partial.actions)} actions" in text2
    assert resumed.finished and resumed.actions[: len(partial.actions)] == partial.actions
    # Chance comes from (seed, ply): the loaded game plays on exactly as the unbroken one.
    unbroken, _ = play("1\n" * 60)
    assert resumed.actions == unbroken.actions


def test_end_of_input_stops_and_autosaves(tmp_path):
    path = tmp_path / "auto.json"
    result, text = play("1\n", save_path=str(path))
    assert not result.finished and "end of input" in text
    assert read_record(path).action_ids() == result.actions


def test_finished_game_record_has_scores(tmp_path):
    path = tmp_path / "done.json"
    result, _ = play("1\n" * 60, save_path=str(path))
    rec = read_record(path)
    assert rec.terminal and rec.scores == result.scores and rec.returns == result.returns


def test_all_ai_seats_need_no_input():
    result, text = play("", seats=("heuristic", "random"))
    assert result.finished and "P1>" not in text


def test_bad_setup_is_a_play_error():
    with pytest.raises(PlayError, match="has 2 players but 3 seats"):
        play("", seats=("human", "random", "random"))
    with pytest.raises(ValueError, match="unknown agent kind"):
        play("", seats=("human", "nobody"))
    assert split_seats("human,mcts(sims=10,uct_c=2),heuristic") == [
        "human",
        "mcts(sims=10,uct_c=2)",
        "heuristic",
    ]
    with pytest.raises(PlayError, match="empty seat"):
        split_seats("human,,random")


def test_ranking_shares_tied_ranks():
    assert rank_order([5, 9, 5, 1]) == [2, 1, 2, 4]


HIDDEN = [spec for spec in spiel_games.all_specs() if spec.perturb_secret is not None]


@pytest.mark.parametrize("spec", HIDDEN, ids=[s.short_name for s in HIDDEN])
def test_human_view_never_shows_opponents_secrets(spec):
    game = pyspiel.load_game(spec.typical_config)
    rng = random.Random(1)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 20:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        p = state.current_player()
        for q in range(game.num_players()):
            other = spec.perturb_secret(state, q, rng) if q != p else None
            if other is not None:
                assert readable_observation(other, p) == readable_observation(state, p)
                checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def test_a_failing_ai_seat_stops_the_game_and_keeps_the_moves(tmp_path):
    from solvers.base import Agent
    from solvers.registry import KINDS, AgentKind, register_kind

    class Broken(Agent):
        def step(self, state):
            raise RuntimeError("out of cheese")

    register_kind(AgentKind("test_broken", "always fails", (), lambda g, p, s: Broken()))
    try:
        path = tmp_path / "g.json"
        result, text = play("1\n" * 60, seats=("human", "test_broken"), save_path=str(path))
    finally:
        KINDS.pop("test_broken")
    assert not result.finished and result.error == "P2: out of cheese"
    assert "seat P2 (test_broken) failed: out of cheese; game stopped" in text
    assert read_record(path).action_ids() == result.actions and result.actions


def test_observable_hides_what_the_watcher_cannot_tell_apart():
    from tournament.advice.play import observable

    game = pyspiel.load_game("kuhn_poker")
    state = game.new_initial_state()
    assert observable(state, -1, 1, [0])  # P1's own card: P1 sees it
    assert not observable(state, -1, 1, [1])  # ... and P2 does not
    state.apply_action(1)
    assert not observable(state, -1, 2, [0])  # P2's card, watched by P1
    state.apply_action(2)
    assert observable(state, 0, 1, [1])  # a bet is public
    assert observable(state, 0, 1, [])  # nobody watching


@pytest.mark.parametrize("spec", HIDDEN, ids=[s.short_name for s in HIDDEN])
def test_play_runs_on_games_with_hidden_information(spec):
    seats = ["human"] + ["random"] * (pyspiel.load_game(spec.tiny_configs[0]).num_players() - 1)
    result, text = play("1\n" * 400, seats=seats, game=spec.tiny_configs[0])
    assert result.finished and "ranking:" in text


class _CtrlC(io.StringIO):
    """Input that types some lines, then the user presses Ctrl-C."""

    def readline(self, *args):
        line = super().readline(*args)
        if line == "":
            raise KeyboardInterrupt
        return line


def test_ctrl_c_saves_the_game_and_says_so(tmp_path):
    """Issue 14 item 4: Ctrl-C exited 130 without saving or saying so."""
    path = tmp_path / "g.json"
    out = io.StringIO()
    session = PlaySession(
        TINY, ["human", "heuristic"], 3, inp=_CtrlC("1\n1\n"), out=out, save_path=str(path)
    )
    result = session.run()
    assert result.interrupted and not result.finished
    assert f"saved {len(result.actions)} actions to {path}" in out.getvalue()
    assert "interrupted: the game is saved" in out.getvalue()
    assert read_record(path).action_ids() == result.actions and result.actions
    # Without --save the moves go to a recovery file, and it says so.
    out = io.StringIO()
    PlaySession(TINY, ["human", "heuristic"], 3, inp=_CtrlC("1\n"), out=out).run()
    assert "interrupted: the game is kept in a recovery file" in out.getvalue()


def test_ctrl_c_exits_130_and_a_save_path_in_a_missing_directory_fails_at_start(
    tmp_path, monkeypatch
):
    """Issue 14 item 4: a --save path in a missing directory failed only after the game."""
    from typer.testing import CliRunner

    from tournament.cli import app

    runner = CliRunner()
    missing = tmp_path / "nope" / "g.json"
    r = runner.invoke(app, ["play", TINY, "--seats", "human,heuristic", "--save", str(missing)])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        f"error: --save {str(missing)!r}: the directory {str(missing.parent)!r} does not exist"
    ]

    def interrupt(self, prompt):
        raise KeyboardInterrupt

    monkeypatch.setattr(PlaySession, "_read", interrupt)
    path = tmp_path / "g.json"
    r = runner.invoke(app, ["play", TINY, "--seats", "human,heuristic", "--save", str(path)])
    assert r.exit_code == 130
    assert "interrupted: the game is saved" in r.output and path.exists()


def test_a_hint_names_its_opponent_model_and_the_moves_it_leaves_out():
    """Was: a hint listed the 3 most searched moves with no word of the others (a Rococo
    player's 4th move, the one they played, was never shown) nor of the opponent model its
    values assume (`meeple advise` prints it)."""
    out = io.StringIO()
    session = PlaySession(
        "python_staufer(players=3)", ["human", "heuristic", "heuristic"], 1,
        inp=io.StringIO("hint\nquit\n"), out=out, hint_agent="ismcts(sims=40)",
    )  # fmt: skip
    session.run()
    text = out.getvalue()
    assert "Opponent model (ismcts(sims=40)): opponents=infer" in text
    assert "(the 5 most searched of 11 legal moves)" in text
