"""Advice at the edges a review found: numbers JSON cannot carry, budgets for mixed agents,
`--top 1`, values named for the right player, intervals past their bounds, an unfinished
game's luck, a perfect move's accuracy."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tournament.advice.advise import Advice
from tournament.advice.advise_text import _verdict, value_unit
from tournament.advice.moves import MoveAdvice, in_range
from tournament.advice.review import accuracy
from tournament.cli import app

COLORETTO = "python_coloretto(players=3)"
HISTORY = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"
runner = CliRunner()


def _advice(z, runner_up="b", num_legal=2, passes=8) -> Advice:
    moves = [MoveAdvice("a", 0, value=0.2), MoveAdvice("b", 1, value=0.1)]
    return Advice(COLORETTO, "x", 0, 0, 0, 6, moves, num_legal, True, z, runner_up=runner_up,
                  passes=passes)  # fmt: skip


def test_a_gap_without_spread_is_null_in_json_and_said_in_words():
    """Was: `"z": Infinity` (not JSON) and 'z = inf' when every paired pass gave one gap."""
    adv = _advice(float("inf"))
    assert json.loads(json.dumps(adv.to_json(), allow_nan=False))["z"] is None
    assert "every pass gave the same gap" in _verdict(adv)


def test_top_one_does_not_call_the_move_the_only_legal_one():
    """Was: 'best: X (the only legal move)' at --top 1 with 2 legal moves."""
    assert "the only legal move" not in _verdict(_advice(None, runner_up=None, num_legal=2))
    assert "of 2 legal moves" in _verdict(_advice(None, runner_up=None, num_legal=2))
    assert "the only legal move" in _verdict(_advice(None, runner_up=None, num_legal=1))


def test_time_applies_to_the_agents_that_take_it():
    """Was: `--time` beside `heuristic` (no time parameter) was refused, exit 2."""
    base = ["advise", COLORETTO, "-H", HISTORY, "--time", "0.05"]
    r = runner.invoke(app, [*base, "-a", "ismcts(sims=20)", "-a", "heuristic"])
    assert r.exit_code == 0, r.stderr
    r = runner.invoke(app, [*base, "-a", "heuristic"])  # no agent takes it: still refused
    assert r.exit_code == 2 and "time" in r.stderr


def test_values_are_named_for_the_player_to_move_from_any_view():
    """Was: `--player P2` at P1's move labelled P1's values 'P2's rank score'."""
    r = runner.invoke(app, ["advise", COLORETTO, "-H", HISTORY, "-a", "ismcts(sims=40)",
                            "--player", "P2"])  # fmt: skip
    assert r.exit_code == 0, r.stderr
    assert "value = P1's rank score" in r.stdout and "P2's rank score" not in r.stdout
    assert value_unit("python_coloretto(players=3,utility=score)").startswith("own final score")


def test_intervals_stay_within_what_they_measure():
    """Was: a certain loss shown as -1.000 [-1.259, -0.741] and 100% [88%, 112%] first."""
    import pyspiel

    game = pyspiel.load_game(COLORETTO)
    m = MoveAdvice("a", 0, value=-1.0, ci_low=-1.26, ci_high=-0.74, first=(1.0, 0.88, 1.12))
    (cut,) = in_range([m], game)
    assert (cut.ci_low, cut.ci_high) == (game.min_utility(), -0.74)
    assert cut.first == (1.0, 0.88, 1.0)


def test_a_perfect_move_is_accurate_to_100():
    """Was: 99.9999 (the formula's constants) where the docs say 100%."""
    assert accuracy(0.0) == 100.0 and accuracy(None) is None and 0 < accuracy(0.1) < 100


def test_the_luck_of_an_unfinished_game_says_the_game_is_not_over():
    """Was: a record cut before the end reported its 'result' as if final."""
    import random

    import pyspiel

    from spiel_games.common.chance import sample_chance
    from tournament.advice.review_luck import review_luck

    state, rng, actions = pyspiel.load_game(COLORETTO).new_initial_state(), random.Random(1), []
    for _ in range(30):  # 30 actions of a random game: far from its end
        chance = state.is_chance_node()
        actions.append(sample_chance(state, rng) if chance else rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    report = review_luck(COLORETTO, actions, 0)
    assert report is not None and not report.finished and report.to_json()["finished"] is False
    # the result of a game not over is the evaluation's expectation, in the luck's units
    # (was, found in review: the points so far, 0 for all, less luck in expected points)
    from tournament.advice.review_luck import units
    from tournament.luck import evaluator_for

    replayed = pyspiel.load_game(COLORETTO).new_initial_state()
    for a in actions:
        replayed.apply_action(a)
    expected = units(evaluator_for(COLORETTO), replayed, 0)
    assert (report.result_points, report.result_first) == expected


def test_an_agent_given_twice_is_refused():
    """Was: both advised, and the JSON's `best` listed them under one key."""
    r = runner.invoke(app, ["advise", COLORETTO, "-H", HISTORY, "-a", "heuristic",
                            "-a", "heuristic"])  # fmt: skip
    assert r.exit_code == 2 and "agent 'heuristic' is given twice" in r.stderr


def test_agents_that_a_budget_makes_one_are_refused():
    """Was (found in review): the JSON engine's budget {"sims": 30} made ismcts(sims=10) and
    ismcts(sims=20) one agent, both answered, and `best` held one key for the two."""
    from solvers.registry import resolve
    from tournament.advice.advise import budgets_for
    from tournament.advice.items import HistoryError

    specs = [resolve("ismcts(sims=10)"), resolve("ismcts(sims=20)")]
    with pytest.raises(HistoryError, match="'ismcts.*sims=30.*' is given twice once the overrides"):
        budgets_for(specs, {"sims": 30})
    assert budgets_for(specs, {"time": 0.5}) == [{"time": 0.5}, {"time": 0.5}]


THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("ismcts(sims=10,model=MODEL)", "model is the value model of eval=learned"),
        ("ismcts(sims=10,eval=learned,model=MISSING)", "value model not found"),
    ],
)
def test_an_agent_this_game_refuses_is_a_wrong_command_line(tmp_path, agent, message):
    """Was exit 1: a spec refused when the agent is built for the game (a value model with
    eval=game, a missing model file) counted as a failure, not a wrong command line as it
    is in play's --seats."""
    model = tmp_path / "m.json"
    model.write_text("{}")
    agent = agent.replace("MODEL", str(model)).replace("MISSING", str(tmp_path / "none.json"))
    r = runner.invoke(app, ["advise", THREE, "-H", OPENING, "-a", agent])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert message in r.stderr


def test_wrong_command_lines_exit_2_and_a_damaged_record_1(tmp_path, monkeypatch):
    """Found in review: `advise -H x` without a game exited 1 (a failure while working); a
    record whose seed is -5 exited 2 (a wrong command line), where the docs say 2 and 1."""
    import json

    from tests.one_line import one_line_error

    no_game = runner.invoke(app, ["advise", "-a", "random", "-H", "x"])
    assert one_line_error(no_game, 2) == "error: give a game string"
    record = tmp_path / "g.json"
    monkeypatch.setenv("MEEPLE_RECOVERY_DIR", str(tmp_path))
    runner.invoke(app, ["play", COLORETTO, "--seats", "human,heuristic,heuristic", "--save", str(record)],
                  input="1\nquit\n")  # fmt: skip
    both = ["advise", COLORETTO, "-a", "random", "-H", "", "--game-file", str(record)]
    assert "give only one of" in one_line_error(runner.invoke(app, both), 2)
    data = json.loads(record.read_text())
    data["seed"] = -5
    record.write_text(json.dumps(data))
    r = runner.invoke(app, ["play", "--load", str(record)], input="quit\n")
    assert '"seed" must be an integer, 0 or more' in one_line_error(r, 1)
