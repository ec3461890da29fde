"""Luck adjustment: exact on a game with known chance values, unbiased on a real game,
cached per ledger, and rated by `meeple ratings --luck-adjusted`."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.luck import Evaluator, game_luck, opening
from tournament.ratings.adjusted import fit_fractional
from tournament.ratings.fit import fit_elo

ROLLS = 3  # dice per player after the deal


class DiceState:
    """Two players: a deal gives each a card 1-6 (the opening), player 0 says "go", then
    the players roll a die in turn, ROLLS each; a score is the card plus the dice."""

    def __init__(self):
        self.cards: list[int] = []
        self.dice: list[list[int]] = [[], []]
        self.started = False

    def clone(self):
        s = DiceState()
        s.cards, s.dice, s.started = list(self.cards), [list(d) for d in self.dice], self.started
        return s

    def is_terminal(self):
        return all(len(d) == ROLLS for d in self.dice)

    def is_chance_node(self):
        return len(self.cards) < 2 or (self.started and not self.is_terminal())

    def chance_outcomes(self):
        return [(k, 1 / 6) for k in range(1, 7)]

    def current_player(self):
        return 0

    def apply_action(self, a):
        if len(self.cards) < 2:
            self.cards.append(a)
        elif not self.started:
            self.started = True
        else:
            p = 0 if len(self.dice[0]) == len(self.dice[1]) else 1
            self.dice[p].append(a)

    def scores(self):
        return [self.cards[p] + sum(self.dice[p]) for p in range(2)]

    def returns(self):
        a, b = self.scores()
        return [float(np.sign(a - b)), float(np.sign(b - a))]


class DiceGame:
    def new_initial_state(self):
        return DiceState()


def exact(state):
    """The exact expected final score: what is known plus 3.5 per die still to roll."""
    return [
        (state.cards[p] if p < len(state.cards) else 3.5)
        + sum(state.dice[p])
        + 3.5 * (ROLLS - len(state.dice[p]))
        for p in range(2)
    ]


def dice_evaluator() -> Evaluator:
    return Evaluator(DiceGame(), exact, lambda s: 3.0, None, "exact dice value")


def test_luck_of_each_roll_is_the_roll_minus_its_mean():
    ev = dice_evaluator()
    start = opening(ev, samples=4000)
    # at the first decision each player expects its card plus 3.5 per die: 3.5 + 10.5
    assert start.v == pytest.approx([14.0, 14.0], abs=4 * start.v_se.max())
    actions = [2, 6, 0, 1, 5, 6, 6, 3, 4]  # cards 2 and 6, go, dice 1,6,3 and 5,6,4
    g = game_luck(ev, actions, start)
    cards, dice = np.array([2, 6]), np.array([[1, 6, 3], [5, 6, 4]])
    expected = (cards + 3.5 * ROLLS - start.v) + (dice - 3.5).sum(axis=1)
    np.testing.assert_allclose(g.luck, expected, atol=1e-12)
    assert g.events == 1 + 6  # the opening, then six rolls
    # the adjusted score is the same for every game: skill-free, luck-free
    adjusted = np.array([2 + 10, 6 + 15]) - g.luck
    np.testing.assert_allclose(adjusted, start.v, atol=1e-12)


def test_the_adjustment_is_unbiased_on_a_real_game():
    """Random play of three-player Coloretto: the mean luck of each seat is zero within
    three standard errors, and adjusted score = score - luck."""
    from spiel_games.common.chance import sample_chance
    from tournament.luck import evaluator_for

    ev = evaluator_for("python_coloretto(players=3)")
    start = opening(ev, samples=300)
    rng = np.random.default_rng(1)
    lucks = []
    for _ in range(40):
        s = ev.game.new_initial_state()  # type: ignore[attr-defined]
        actions = []
        while not s.is_terminal():
            legal = None if s.is_chance_node() else s.legal_actions()
            a = sample_chance(s, rng) if legal is None else int(rng.choice(legal))
            actions.append(a)
            s.apply_action(a)
        lucks.append(game_luck(ev, actions, start).luck)
    lucks = np.array(lucks)
    se = lucks.std(axis=0) / math.sqrt(len(lucks)) + start.v_se
    assert (np.abs(lucks.mean(axis=0)) <= 3 * se).all()
    assert lucks.std() > 0  # the lookahead sees the cards: luck is not identically zero


def test_fractional_fit_equals_openspiel_on_whole_results():
    rng = np.random.default_rng(0)
    wins = rng.integers(0, 25, size=(5, 5))
    np.fill_diagonal(wins, 0)
    wins[0, 1], wins[1, 0] = 9, 0  # a one-sided pair: the prior decides its size
    a = fit_fractional(wins.astype(float))
    b = fit_elo(wins, np.zeros((5, 5), dtype=int))
    np.testing.assert_allclose(a - a.mean(), b - b.mean(), atol=0.05)


def _coloretto_ledger(tmp_path, make_raw, write_toml):
    raw = make_raw(game="python_coloretto(players=3)", seeds_per_lineup=2)
    raw["agents"] = {"random": "random", "greedy": "heuristic", "noisy": "noisy(eps=0.5)"}
    out = tmp_path / "led"
    args = ["tournament", "run", str(write_toml(raw)), "--out", str(out), "-q"]
    r = CliRunner().invoke(app, [*args, "--executor", "serial"])
    assert r.exit_code == 0, r.output
    return out


def test_ratings_luck_adjusted_replays_once_and_rates(tmp_path, make_raw, write_toml, monkeypatch):
    runner = CliRunner()
    out = _coloretto_ledger(tmp_path, make_raw, write_toml)
    args = ["ratings", str(out), "--luck-adjusted", "--bootstrap", "10"]
    first = runner.invoke(app, [*args, "--format", "json"])
    assert first.exit_code == 0, first.output
    obj = json.loads(first.stdout)
    recs = obj["ratings"]
    assert {x["agent"] for x in recs} == {"random", "greedy", "noisy"}
    assert "plackett_luce" not in recs[0]
    luck = obj["method"]["luck_adjusted"]  # was: the JSON did not say it was adjusted
    assert luck["value"] == "lookahead" and 0.0 <= luck["beta"] <= 1.0
    assert "less beta times their luck" in obj["method"]["pairwise"]  # was: the raw results'
    assert (out / ".luck.json").exists()
    # the second time every game comes from the cache: nothing is replayed
    import tournament.luck_ledger as ll

    monkeypatch.setattr(ll, "play_one", lambda *a, **k: pytest.fail("replayed again"))
    md = runner.invoke(app, [*args, "--format", "md"])
    assert md.exit_code == 0, md.output
    assert "luck-adjusted: Elo on pairwise results less" in md.stdout
    assert "ignored files" not in md.output


def test_the_share_of_luck_subtracted_is_the_control_variates_and_cross_fitted():
    """Luck that explains half of each result is subtracted at about its coefficient; pure
    noise is hardly subtracted; each half's share comes from the other half only."""
    from tournament.luck import cross_fitted_scale

    rng = np.random.default_rng(0)
    luck = rng.normal(size=4000)
    skill = rng.normal(size=4000)
    folds = np.arange(4000) % 2
    beta = cross_fitted_scale(skill + 0.5 * luck, luck, folds)
    assert beta == pytest.approx(np.full(4000, 0.5), abs=0.05)
    noise = cross_fitted_scale(skill, luck, folds)
    assert np.abs(noise).max() < 0.05
    # changing one half's data leaves that half's share alone
    moved = skill.copy()
    moved[folds == 0] += 3 * luck[folds == 0]
    again = cross_fitted_scale(moved + 0.5 * luck, luck, folds)
    assert np.array_equal(again[folds == 0], beta[folds == 0])


def test_a_new_opening_expectation_shifts_the_cached_luck_without_a_replay(
    tmp_path, make_raw, write_toml, monkeypatch
):
    import tournament.luck_ledger as ll
    from tournament.config import build_config
    from tournament.runner import run_tournament

    raw = make_raw(game="python_rococo(players=3)", seeds_per_lineup=1)
    raw["agents"] = {"random": "random", "greedy": "heuristic", "noisy": "noisy(eps=0.5)"}
    run_tournament(build_config(raw), tmp_path / "l", executor="serial")
    first = ll.ledger_luck(tmp_path / "l", progress=False, opening_samples=300)
    old = opening(ll.evaluator_for("python_rococo(players=3)"), 300)
    monkeypatch.setattr(ll, "play_one", lambda *a, **k: pytest.fail("replayed"))
    second = ll.ledger_luck(tmp_path / "l", progress=False, opening_samples=200)
    new = opening(ll.evaluator_for("python_rococo(players=3)"), 200)
    assert np.abs(old.v - new.v).max() > 1e-3  # the two expectations differ
    gid = next(iter(first))
    np.testing.assert_allclose(
        np.array(second[gid]["luck"]), np.array(first[gid]["luck"]) + old.v - new.v, atol=1e-5
    )


class PickState(DiceState):
    """The dice game, but player 0 first picks a bonus of 1, 2 or 3 points (a decision):
    a known strategy's pick is luck exactly as a roll is."""

    def __init__(self):
        super().__init__()
        self.bonus = 0

    def clone(self):
        s = PickState()
        s.cards, s.dice, s.started = list(self.cards), [list(d) for d in self.dice], self.started
        s.bonus = self.bonus
        return s

    def is_chance_node(self):
        return self.bonus > 0 and super().is_chance_node()

    def legal_actions(self):
        return [1, 2, 3] if self.bonus == 0 else [0]

    def apply_action(self, a):
        if self.bonus == 0:
            self.bonus = a
        else:
            super().apply_action(a)

    def scores(self):
        a, b = super().scores()
        return [a + self.bonus, b]


def test_a_known_strategys_decision_is_luck_like_a_roll():
    """AIVAT's decision terms: a uniformly random pick of the bonus is measured exactly as a
    roll is (value played minus its expectation), so the adjusted score stays the
    expectation; without the terms the pick's noise stays in the result."""
    from tournament.luck_policies import uniform

    def exact_pick(s):
        base = exact(s) if s.cards else [14.0, 14.0]
        return [base[0] + (s.bonus or 2.0), base[1]]

    class PickGame:
        def new_initial_state(self):
            return PickState()

    ev = Evaluator(PickGame(), exact_pick, lambda s: 3.0, None, "exact pick value")
    start = opening(ev, samples=10)
    start.v = np.array([16.0, 14.0])  # the exact expectation before the pick
    for pick in (1, 2, 3):
        actions = [pick, 2, 6, 0, 1, 5, 6, 6, 3, 4]
        with_terms = game_luck(ev, actions, start, [uniform, None])
        without = game_luck(ev, actions, start)
        score0 = pick + 2 + 10
        assert score0 - with_terms.luck[0] == pytest.approx(16.0)
        assert score0 - without.luck[0] == pytest.approx(16.0 + pick - 2)
        assert with_terms.decisions == 1 and without.decisions == 0


def test_baselines_of_known_strategies_only():
    from spiel_games.common.chance import sample_chance
    from tournament.luck_policies import SAMPLES, baseline_for

    game = "python_bruxelles(players=3)"
    import spiel_games
    from spiel_games.common.registry import get_spec

    s = spiel_games.load_game(game).new_initial_state()
    rng = np.random.default_rng(0)
    while s.is_chance_node() or len(s.legal_actions()) <= SAMPLES:
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else s.legal_actions()[0])
    for spec in ("ismcts(sims=8)", "mcts", "cfr-search"):
        assert baseline_for(spec, game) is None
    rand = baseline_for("random", game)(s, rng)  # type: ignore[misc]
    assert len(rand) == SAMPLES and sum(w for _, w in rand) == pytest.approx(1.0)
    assert all(a in s.legal_actions() for a, _ in rand)
    noisy = baseline_for("noisy(eps=0.3)", game)(s, np.random.default_rng(5))  # type: ignore[misc]
    assert noisy[0][1] == pytest.approx(0.7) and sum(w for _, w in noisy) == pytest.approx(1.0)
    h = get_spec(game).heuristic(s, np.random.default_rng(5))  # type: ignore[misc]
    assert noisy[0][0] == h
    assert baseline_for("heuristic", game)(s, rng)[0][1] == 1.0  # type: ignore[misc]


def test_known_strategy_terms_keep_the_luck_unbiased_and_cut_the_noise():
    """Three-player Coloretto, random against two noisy heuristics: with the decision terms
    every seat's mean luck is still zero within three standard errors, and the adjusted
    margin of the random seat varies less than with chance luck alone."""
    from spiel_games.common.chance import sample_chance
    from spiel_games.common.registry import get_spec
    from tournament.luck import evaluator_for
    from tournament.luck_policies import baseline_for

    game = "python_coloretto(players=3)"
    ev = evaluator_for(game)
    start = opening(ev, samples=300)
    heuristic = get_spec(game).heuristic
    specs = ["random", "noisy(eps=0.5)", "noisy(eps=0.5)"]
    seats = [baseline_for(x, game) for x in specs]
    rng = np.random.default_rng(3)
    with_terms, chance_only, margins = [], [], []
    for _ in range(30):
        s = ev.game.new_initial_state()  # type: ignore[attr-defined]
        actions = []
        while not s.is_terminal():
            if s.is_chance_node():
                a = sample_chance(s, rng)
            elif s.current_player() == 0 or rng.random() < 0.5:
                a = int(rng.choice(s.legal_actions()))
            else:
                a = int(heuristic(s, rng))  # type: ignore[misc]
            actions.append(a)
            s.apply_action(a)
        sc = np.array(s.scores(), dtype=float)
        margins.append(sc - sc.mean())
        with_terms.append(game_luck(ev, actions, start, seats).luck)
        chance_only.append(game_luck(ev, actions, start).luck)
    lucks, chance, m = np.array(with_terms), np.array(chance_only), np.array(margins)
    se = lucks.std(axis=0) / math.sqrt(len(lucks)) + start.v_se
    assert (np.abs(lucks.mean(axis=0)) <= 3 * se).all()

    def centred(x):
        return x - x.mean(axis=1, keepdims=True)

    assert np.std(m[:, 0] - centred(lucks)[:, 0]) < np.std(m[:, 0] - centred(chance)[:, 0])


def test_luck_measured_again_reads_the_cached_moves_and_checks_their_digest(
    tmp_path, make_raw, write_toml, monkeypatch
):
    """Luck measured another way (here: without the known-strategy terms) replays nothing:
    the moves kept in DIR/.moves.json serve, but only moves whose digest is the ledger's."""
    import tournament.luck_ledger as ll

    out = _coloretto_ledger(tmp_path, make_raw, write_toml)
    first = ll.ledger_luck(out, progress=False)
    assert any(g["decisions"] > 0 for g in first.values())  # random and noisy seats
    moves = json.loads((out / ".moves.json").read_text())["games"]
    assert set(moves) == set(first)
    monkeypatch.setattr(ll, "play_one", lambda *a, **k: pytest.fail("replayed"))
    chance_only = ll.ledger_luck(out, progress=False, known=False)
    assert all(g["decisions"] == 0 for g in chance_only.values())
    assert any(chance_only[k]["luck"] != first[k]["luck"] for k in first)
    # a move list that is not the game played is replayed, not trusted
    gid = sorted(moves)[0]
    played = moves[gid]["actions"]
    moves[gid]["actions"] = played[:-1] + [played[-1] + 1]
    (out / ".moves.json").write_text(json.dumps({"format": 2, "games": moves}))
    (out / ".luck.json").unlink()
    replayed = []
    monkeypatch.undo()
    real = ll.play_one
    monkeypatch.setattr(ll, "play_one", lambda *a, **k: replayed.append(1) or real(*a, **k))
    again = ll.ledger_luck(out, progress=False)
    assert replayed == [1]
    assert again == first


def test_an_interrupted_measurement_keeps_the_games_it_measured(
    tmp_path, make_raw, write_toml, monkeypatch
):
    import tournament.luck_ledger as ll

    out = _coloretto_ledger(tmp_path, make_raw, write_toml)
    monkeypatch.setattr(ll, "SAVE_EVERY", 2)
    real, calls = ll.game_luck, []

    def failing(*a, **k):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(ll, "game_luck", failing)
    with pytest.raises(KeyboardInterrupt):
        ll.ledger_luck(out, progress=False)
    kept = json.loads((out / ".luck.json").read_text())["entries"][0]["games"]
    assert len(kept) == 4  # the fifth game's moves were replayed, and are kept too
    assert len(json.loads((out / ".moves.json").read_text())["games"]) == 5
    monkeypatch.setattr(ll, "game_luck", real)
    measured = []
    monkeypatch.setattr(ll, "game_luck", lambda *a, **k: measured.append(1) or real(*a, **k))
    full = ll.ledger_luck(out, progress=False)
    assert len(measured) == len(full) - 4
