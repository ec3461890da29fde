"""`meeple review`: per-decision loss against the agent's choice, and the biggest mistakes."""

from __future__ import annotations

import json
import math
import random

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import spiel_games
from tournament.advice.advise import advise_state
from tournament.advice.positions import read_record, record_of
from tournament.advice.review import review
from tournament.cli import app

# Scores in points, so that one bad move visibly costs points.
GAME = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1,utility=score)"
)
AGENT = "mcts(sims=120)"
runner = CliRunner()


def _play(bad_ply: int | None, seed: int = 4):
    """P1 plays the reviewing agent's choice everywhere (so its loss is 0), except at
    ``bad_ply`` where it plays the move the agent values lowest; P2 plays the heuristic.
    Returns (final state, actions, {ply: best - worst value at P1's decisions})."""
    game = spiel_games.load_game(GAME)
    heuristic = spiel_games.get_spec(GAME).heuristic
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions, gaps = [], {}
    while not state.is_terminal():
        ply = len(actions)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            a = rng.choices(outcomes, probs)[0]
        elif state.current_player() == 1:
            a = heuristic(state, rng)
        else:
            n = len(state.legal_actions())
            adv = advise_state(GAME, state, AGENT, player=0, top=n, seed=0, ply=ply)
            valued = [m for m in adv.moves if m.value is not None]
            worst = min(valued, key=lambda m: m.value)
            gaps[ply] = adv.moves[0].value - worst.value
            a = worst.action_id if ply == bad_ply else adv.moves[0].action_id
        state.apply_action(a)
        actions.append(int(a))
    return state, actions, gaps


@pytest.fixture(scope="module")
def blunder(tmp_path_factory):
    """A game where P1's one deliberate blunder is at the decision with the biggest gap."""
    _, _, gaps = _play(None)
    bad = max(gaps, key=lambda p: (gaps[p], -p))
    state, actions, _ = _play(bad)
    path = tmp_path_factory.mktemp("review") / "blunder.json"
    record_of(GAME, state, 4, ["human", "heuristic"], actions).save(path)
    return path, bad, gaps[bad]


def test_review_of_a_record_ranks_the_blunder_first(blunder):
    path, bad, gap = blunder
    assert gap >= 1.0, "the scenario needs a move that loses at least a point"
    result = runner.invoke(app, ["review", str(path), "-a", AGENT, "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.output)
    assert obj["player"] == 0 and obj["agent"] == AGENT
    by_ply = {d["ply"]: d for d in obj["decisions"]}
    assert by_ply[bad]["loss"] == pytest.approx(gap)
    for ply, d in by_ply.items():
        if ply != bad:  # the agent's own choice was played: no loss
            assert d["played"] == d["best"] and d["loss"] == 0.0
    mistakes = obj["summary"]["mistakes"]
    assert mistakes[0]["ply"] == bad and len(mistakes) == 1
    assert "P1" in mistakes[0]["view"]  # the position through P1's own view
    assert obj["summary"]["average_loss"] == pytest.approx(gap / len(by_ply))


def test_review_text_and_html(blunder, tmp_path):
    path, bad, _ = blunder
    html = tmp_path / "review.html"
    result = runner.invoke(app, ["review", str(path), "-a", AGENT, "--html", str(html)])
    assert result.exit_code == 0, result.output
    assert f"mistake 1: ply {bad}: played " in result.stdout
    assert "average loss " in result.stdout
    page = html.read_text()
    assert page.startswith("<!doctype html>") and "data:image/png;base64," in page


def test_review_of_a_ledger_game(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(
        "[tournament]\n"
        f'game = "{GAME}"\nseeds_per_lineup = 1\nseed = 3\nbatch_size = 2\n'
        '[agents]\ngreedy = "heuristic"\nrandom = "random"\n'
    )
    out = tmp_path / "ledger"
    r = runner.invoke(
        app, ["tournament", "run", str(config), "--out", str(out), "--executor", "serial", "-q"]
    )
    assert r.exit_code == 0, r.output
    gid = pq.read_table(sorted(out.glob("part-*"))[0]).column("game_id")[0].as_py()
    r = runner.invoke(app, ["review", str(out), gid, "-p", "P1", "-a", AGENT, "--format", "json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    same = [d for d in obj["decisions"] if d["played"] == d["best"]]
    assert same, "the agent never agreed with the move played"
    assert all(d["loss"] == 0.0 for d in same)
    r = runner.invoke(app, ["review", str(out), "-a", AGENT])
    assert r.exit_code == 2 and "give the GAME_ID" in r.output
    r = runner.invoke(app, ["review", str(out), "0" * 16, "-a", AGENT])  # no such game: was 1
    assert r.exit_code == 2 and "review" in r.stderr and r.stderr.count("\n") == 1, r.output


def test_review_needs_a_player_when_the_record_has_no_me_seat(blunder, tmp_path):
    record = read_record(blunder[0])
    record.seats = ["heuristic", "heuristic"]
    path = tmp_path / "g.json"
    record.save(path)
    r = runner.invoke(app, ["review", str(path), "-a", AGENT])
    assert r.exit_code == 2 and "give --player" in r.output  # was 1: the command line lacks it
    assert [d.ply for d in review(record, AGENT, player=0).mistakes()] == [blunder[1]]


def test_review_skips_forced_moves_and_spends_nothing_on_them(blunder, monkeypatch):
    """Old: forced moves counted as decisions (16 of 52 in one Coloretto review) and got a
    full search each."""
    from tournament.advice import review as rv
    from tournament.advice import review_text

    record = read_record(blunder[0])
    game = spiel_games.load_game(GAME)
    state = game.new_initial_state()
    forced = 0
    for a in record.action_ids():
        if not state.is_chance_node() and state.current_player() == 0:
            forced += len(state.legal_actions()) == 1
        state.apply_action(a)
    assert forced > 0, "the scenario needs a forced move"
    asked = []
    real = rv.advise_state

    def counting(game_string, state, *args, **kw):
        asked.append(len(state.legal_actions()))
        return real(game_string, state, *args, **kw)

    monkeypatch.setattr(rv, "advise_state", counting)
    progress = []
    result = review(record, AGENT, on_progress=lambda done, total: progress.append((done, total)))
    assert result.forced == forced and min(asked) > 1
    assert len(result.decisions) == len(asked)
    assert progress[0] == (0, len(asked)) and progress[-1] == (len(asked), len(asked))
    assert f"; {forced} forced moves skipped" in review_text.render(result)


def test_review_has_a_default_agent(blunder):
    result = runner.invoke(app, ["review", str(blunder[0]), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["agent"] == "ismcts(sims=800)"


def test_a_bad_html_path_is_refused_before_the_review_runs(blunder, tmp_path, monkeypatch):
    """Old: the --html path was checked only after the whole review ran."""
    from tournament.advice import review as rv

    def never(*args, **kw):
        raise AssertionError("the review ran before the --html path was checked")

    monkeypatch.setattr(rv, "review", never)
    (tmp_path / "file").write_text("")
    bad = tmp_path / "file" / "r.html"
    r = runner.invoke(app, ["review", str(blunder[0]), "-a", AGENT, "--html", str(bad)])
    assert r.exit_code == 2
    assert r.output.strip() == (
        f"error: --html {str(bad)!r}: {str(bad.parent)!r} is not a directory"
    )


def test_html_makes_its_missing_directories_as_ratings_does(blunder, tmp_path):
    """Was: refused (`the directory ... does not exist`) where `ratings --html` makes it;
    a review that fails leaves none of the directories it made."""
    page = tmp_path / "new" / "a" / "r.html"
    r = runner.invoke(app, ["review", str(blunder[0]), "-a", "nosuch", "--html", str(page)])
    assert r.exit_code == 2 and not (tmp_path / "new").exists()
    r = runner.invoke(app, ["review", str(blunder[0]), "-a", AGENT, "--html", str(page)])
    assert r.exit_code == 0, r.output
    assert page.read_text().lstrip().lower().startswith("<!doctype html")


def test_list_prints_the_game_ids_of_a_ledger(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(
        "[tournament]\n"
        f'game = "{GAME}"\nseeds_per_lineup = 2\nseed = 3\nbatch_size = 2\n'
        '[agents]\ngreedy = "heuristic"\nrandom = "random"\n'
    )
    out = tmp_path / "ledger"
    r = runner.invoke(
        app, ["tournament", "run", str(config), "--out", str(out), "--executor", "serial", "-q"]
    )
    assert r.exit_code == 0, r.output
    ids = {
        gid
        for part in out.glob("part-*")
        for gid in pq.read_table(part).column("game_id").to_pylist()
    }
    r = runner.invoke(app, ["review", str(out), "--list"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert {line.split()[0] for line in lines} == ids
    assert all("P1=" in line and "scores " in line for line in lines)
    r = runner.invoke(app, ["review", str(out), "--list", "--json"])
    assert {g["game_id"] for g in json.loads(r.output)} == ids
    r = runner.invoke(app, ["review", str(tmp_path / "t.toml"), "--list"])
    assert r.exit_code == 2 and "needs a ledger directory" in r.output


def test_workers_analyse_decisions_side_by_side_with_the_same_review(blunder):
    """Old: no --workers (a 3-player Bruxelles review took 91 s on one core)."""
    one = runner.invoke(app, ["review", str(blunder[0]), "-a", AGENT, "--json", "-q"])
    two = runner.invoke(app, ["review", str(blunder[0]), "-a", AGENT, "--json", "-q", "-w", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.output) == json.loads(two.output)
    bad = runner.invoke(app, ["review", str(blunder[0]), "-a", AGENT, "-w", "0"])
    assert bad.exit_code == 2


def test_a_mark_is_the_one_the_losss_lower_bound_reaches():
    """Old: marked by the loss itself once its interval excluded 0, so a loss of 5.1 [0.3,
    9.9] was "bad" under one seed and "doubtful" at 4.9 under another."""
    from tournament.advice.review import mark_for

    limits = (2.0, 5.0, 10.0)
    assert mark_for(5.1, 0.3, limits) is None  # sure it loses something, not 2 points
    assert mark_for(5.1, 2.5, limits) == "doubtful"
    assert mark_for(12.0, 5.0, limits) == "bad"
    assert mark_for(12.0, 10.0, limits) == "very bad"
    assert mark_for(3.0, -0.1, limits) is None and mark_for(None, None, limits) is None


def test_a_losss_lower_bound_includes_how_far_losses_move_between_seeds():
    """Old: the mark read the paired interval alone, which two reviews with different seeds
    overshoot (the searched trees differ), so marks flipped with the seed."""
    from solvers.base import Z95
    from tournament.advice.review import LOSS_FLOOR, loss_low, mark_for

    assert loss_low((5.0, 4.0, 6.0), 0.0) == pytest.approx(4.0)
    low = loss_low((5.0, 4.0, 6.0), 1.0)
    assert low == pytest.approx(5.0 - Z95 * math.hypot(1.0 / Z95, 1.0))
    assert mark_for(5.0, low, (2.0, 5.0, 10.0)) == "doubtful"
    assert all(f > 0 for f in LOSS_FLOOR.values())


def test_a_folder_that_is_no_ledger_is_called_that(tmp_path):
    """Was: an empty folder was called a ledger ("give the GAME_ID"), with or without one."""
    for argv in ([str(tmp_path)], [str(tmp_path), "some-game-id"]):
        r = runner.invoke(app, ["review", *argv, "-a", "random"])
        assert r.exit_code == 2 and "is a directory, not a meeple ledger" in r.stderr, r.stderr


def test_list_of_a_folder_that_is_no_ledger_is_a_wrong_command_line(tmp_path):
    """Was exit 1, where `review DIR GAME`, `replay` and `ratings` exit 2 for the same."""
    r = runner.invoke(app, ["review", str(tmp_path), "--list"])
    assert r.exit_code == 2 and "not a meeple ledger" in r.stderr, r.output
    assert r.stderr.count("\n") == 1


def test_a_count_of_one_is_singular_in_the_review_text():
    """'1 decisions', '1 unforced decisions', '1 forced moves', '1 chance events'."""
    from tournament.advice.review import Decision, Review
    from tournament.advice.review_luck import LuckEvent, LuckReport
    from tournament.advice.review_text import render

    d = Decision(7, "draw", "draw", 0.5, 0.4, 0.6, 0.5, 0.0, loss_points=0.0, loss_first=0.0)
    one = Review(GAME, 0, AGENT, 0, [d], forced=1, luck=LuckReport([LuckEvent(3, "x", 1, 0)]))
    text = render(one)
    assert f"review of P1's 1 decision by {AGENT}" in text and "; 1 forced move skipped" in text
    assert "(1 unforced decision);" in text and "over 1 chance event seen;" in text
    two = Review(
        GAME, 0, AGENT, 0, [d, d], forced=2, luck=LuckReport([LuckEvent(3, "x", 1, 0)] * 2)
    )
    text = render(two)
    assert "2 decisions by" in text and "2 forced moves skipped" in text
    assert "(2 unforced decisions)" in text and "over 2 chance events seen" in text


def test_a_player_the_game_does_not_have_is_a_wrong_command_line(blunder):
    """`review --player 5` on a smaller game exited 1; as a wrong command line it is one
    line naming the range, exit 2 (as advise --player now)."""
    for player in ("5", "P3"):  # a 2-player game
        r = runner.invoke(app, ["review", str(blunder[0]), "-p", player, "-a", AGENT])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
        assert "is out of range: this game has P1-P2 (ids 0-1)" in r.stderr


def test_the_luck_adjusted_chance_to_finish_first_stays_a_chance():
    """A player who won (1) despite bad luck (-4% first) had a luck-adjusted chance of
    104%, shown as such; the text, the page and the JSON's ``adjusted_first`` clip it to
    0-100%, and ``adjusted_first_unbiased`` keeps the raw estimate."""
    from tournament.advice.review import Decision, Review
    from tournament.advice.review_luck import LuckEvent, LuckReport
    from tournament.advice.review_text import render_html, summary_lines

    d = Decision(7, "draw", "draw", 0.5, 0.4, 0.6, 0.5, 0.0, loss_points=0.0, loss_first=0.0)
    for result, luck, shown, unbiased in ((1.0, -0.04, 1.0, 1.04), (0.0, 0.07, 0.0, -0.07)):
        report = LuckReport([LuckEvent(3, "x", 0.0, luck)], result_first=result)
        rv = Review(GAME, 0, AGENT, 0, [d], luck=report)
        line = summary_lines(rv)[-1]
        assert f"luck-adjusted +0.0 points ({100 * shown:.0f}% first)" in line, line
        assert "104%" not in line and "-7%" not in line
        assert line in render_html(rv)
        j = rv.to_json()["summary"]["luck"]
        assert j["adjusted_first"] == shown
        assert j["adjusted_first_unbiased"] == pytest.approx(unbiased)


def _decision_with(monkeypatch, best, played):
    """review's decision at a real position (its first two legal moves named by ``best``
    and ``played``, MoveAdvice; the same object when the move played is the best), the
    agent's comparison replaced by them."""
    from types import SimpleNamespace

    from tournament.advice import review as rv

    game = "python_coloretto(players=2)"
    state = spiel_games.load_game(game).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    moves = [best] if played is best else [best, played]
    for m, a in zip(moves, state.legal_actions(), strict=False):
        m.action_id, m.action = a, state.action_to_string(state.current_player(), a)
    monkeypatch.setattr(rv, "advise_state", lambda *a, **k: SimpleNamespace(moves=moves))
    actions = [*range(len(state.history())), played.action_id]
    return rv._decision(game, actions, "random", state.current_player(), 0, state=state)


def test_a_move_other_than_the_recommendation_is_marked_by_its_points_even_at_equal_value(
    monkeypatch,
):
    """Was: marked only when the loss in value was non-zero, so a move that tied the
    recommendation in value (a rank already settled) and lost 12 points for sure had no
    mark, against docs/advice.md (the mark reads the loss in points)."""
    from tournament.advice.moves import MoveAdvice

    zero = (0.0, 0.0, 0.0)
    best = MoveAdvice("take row 2", 3, value=0.5, margin=(10.0, 10.0, 10.0), margin_gap=zero)
    best.first, best.first_gap = (1.0, 1.0, 1.0), zero
    tied = MoveAdvice("take row 3", 4, value=0.5, margin=(-2.0, -2.0, -2.0))
    tied.margin_gap, tied.first, tied.first_gap = (12.0, 12.0, 12.0), (1.0, 1.0, 1.0), zero
    d = _decision_with(monkeypatch, best, tied)
    assert d.loss == 0.0 and d.loss_points == 12.0 and d.mark == "very bad"
    # the recommendation itself is never marked, even where another move keeps more points
    best.margin_gap = (12.0, 12.0, 12.0)
    d = _decision_with(monkeypatch, best, best)
    assert d.played == d.best and d.loss_points == 12.0 and d.mark is None


def test_a_marked_move_is_among_the_mistakes_even_at_equal_value():
    """Was: the mistakes were the biggest losses in value only, so a "very bad" move that
    tied the recommendation in value was left out (and a game with only that move read
    "marks: 1 very bad" beside "no mistakes")."""
    from tournament.advice.review import Decision, Review
    from tournament.advice.review_text import render

    tied = Decision(9, "take row 3", "take row 2", 0.5, 0.4, 0.6, 0.5, 0.0, mark="very bad")
    small = Decision(4, "draw", "take row 1", 0.6, 0.5, 0.7, 0.55, 0.05)
    fine = Decision(2, "draw", "draw", 0.5, 0.4, 0.6, 0.5, 0.0)
    rv = Review(GAME, 0, AGENT, 0, [fine, small, tied])
    assert [d.ply for d in rv.mistakes()] == [9, 4]  # the marked move first
    text = render(rv)
    assert "no mistakes" not in text and "mistake 1: ply 9: played take row 3" in text
    assert [d["ply"] for d in rv.to_json()["summary"]["mistakes"]] == [9, 4]


@pytest.mark.parametrize("agent", ["heuristic", "random"])
def test_an_agent_that_values_no_move_is_refused_not_called_perfect(blunder, agent):
    """Was (found in review): `review -a heuristic` showed no loss where the move played
    differed from the agent's, then "average loss 0.000 in value" and "no mistakes"."""
    r = runner.invoke(app, ["review", str(blunder[0]), "-a", agent, "-q"])
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert f"agent {agent} gives no value for any move" in r.stderr
    assert "no mistakes" not in r.stdout
