"""Restricted Nash responses in MCCFR (``model_share``, ``meeple solve --rnr``): the other
seats play the game's heuristic in a share of the traversals, learn nothing there, and the
learned strategy exploits the heuristic more than self-play's."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

import spiel_games
from solvers.mccfr import Traversals
from solvers.mccfr_checkpoint import CheckpointError
from solvers.mccfr_sampling import model_seats
from solvers.mccfr_tables import Tables, load_npz
from solvers.mccfr_train import Journal, SerialExecutor, TrainSpec, train
from solvers.policy_file import choices
from tournament.cli import app

SPEC = spiel_games.get_spec("coloretto")
TINY = SPEC.tiny_configs[0]


def test_model_seats_never_seat_the_traverser_and_draw_nothing_at_share_zero():
    rng = random.Random(3)
    before = rng.getstate()
    assert model_seats(rng, 3, 1, 0.0) == [False, False, False]
    assert rng.getstate() == before  # plain self-play samples exactly as before
    seats = [model_seats(rng, 3, 1, 0.5) for _ in range(2000)]
    assert not any(s[1] for s in seats)
    share = sum(s[0] for s in seats) / len(seats)
    assert 0.45 < share < 0.55
    assert all(s == [True, False, True] for s in (model_seats(rng, 3, 1, 1.0) for _ in range(50)))


def _traversals(share: float, variant: str = "os") -> Traversals:
    game = spiel_games.load_game(TINY)
    return Traversals(game, variant, SPEC.abstraction_name, 0.3, "sampled", True, model_share=share)


@pytest.mark.parametrize("variant", ["os", "es"])
def test_model_seats_play_the_heuristic_and_add_nothing_to_the_average(variant):
    t = _traversals(1.0, variant)  # every other seat plays the model in every traversal
    calls = []
    heuristic = t.model

    def recording(state, rng):
        calls.append(state.current_player())
        return heuristic(state, rng)

    t.model = recording
    d = t.run(Tables().view(), random.Random(5), [0, 0, 0, 0])
    assert calls and set(calls) == {1}  # the traverser (0) never plays the model
    assert d.avg_slot == [] and d.regret_slot  # the traverser learned, the model did not
    plain = _traversals(0.0, variant).run(Tables().view(), random.Random(5), [0, 0, 0, 0])
    assert plain.avg_slot  # in self-play the other seat's strategy is averaged


def _spec(share: float) -> TrainSpec:
    return TrainSpec(
        game=TINY,
        variant="os",
        abstraction=SPEC.abstraction_name,
        abstraction_version=SPEC.abstraction_version,
        seed=11,
        epsilon=0.3,
        weighting="sampled",
        baselines=True,
        batch=8,
        model_share=share,
    )


def _train(spec: TrainSpec, iterations: int, journal=None) -> Tables:
    tables = Tables(spec.max_keys)
    train(spec, iterations, tables, 0, 0, journal, SerialExecutor(spec), 10**9, lambda t, p: {})
    return tables


def _value_against_heuristic(tables: Tables, game, learner: int) -> float:
    """The exact expected return of ``learner`` playing the tables' average strategy against
    the heuristic, over the whole (tiny) game tree."""
    avg = tables.average()

    def value(state) -> float:
        if state.is_terminal():
            return state.returns()[learner]
        if state.is_chance_node():
            total = 0.0
            for a, p in state.chance_outcomes():
                child = state.clone()
                child.apply_action(a)
                total += p * value(child)
            return total
        p = state.current_player()
        if p != learner:
            child = state.clone()
            child.apply_action(int(SPEC.heuristic(state, np.random.default_rng(0))))
            return value(child)
        legal, labels = choices(SPEC.abstraction_labels, state, p, state.legal_actions(p))
        if len(legal) == 1:
            child = state.clone()
            child.apply_action(legal[0])
            return value(child)
        r = tables.index.get(SPEC.abstraction(state, p), -1)
        slots = [tables.slot_maps[r].get(x, -1) for x in labels] if r >= 0 else []
        probs = [float(avg[s]) if s >= 0 else 0.0 for s in slots]
        if not probs or sum(probs) <= 0:
            probs = [1.0] * len(legal)
        total = 0.0
        for a, q in zip(legal, probs, strict=True):
            if q > 0:
                child = state.clone()
                child.apply_action(a)
                total += q / sum(probs) * value(child)
        return total

    return value(game.new_initial_state())


def test_a_restricted_response_exploits_the_heuristic_more_than_self_play():
    game = spiel_games.load_game(TINY)
    plain = _train(_spec(0.0), 400)
    restricted = _train(_spec(0.9), 400)
    for learner in range(game.num_players()):
        gain = _value_against_heuristic(restricted, game, learner)
        base = _value_against_heuristic(plain, game, learner)
        assert gain > base, (learner, gain, base)


def test_the_share_is_part_of_the_checkpoints_identity(tmp_path):
    _train(_spec(0.5), 16, Journal(tmp_path / "c", _spec(0.5)))
    # was "written for a different model_share": the solver's name, not the option's
    with pytest.raises(CheckpointError, match=r"for --rnr 0.5 \(this run: --rnr 0\)"):
        Journal(tmp_path / "c", _spec(0.0)).load()
    tables, done, _ = Journal(tmp_path / "c", _spec(0.5)).load()
    assert done == 16 and tables.rows > 0


def test_a_checkpoint_written_before_the_share_existed_resumes_as_self_play(tmp_path):
    _train(_spec(0.0), 16, Journal(tmp_path / "c", _spec(0.0)))
    manifest = tmp_path / "c" / "manifest.json"
    m = json.loads(manifest.read_text())
    del m["identity"]["model_share"]  # as older versions wrote it
    manifest.write_text(json.dumps(m))
    assert Journal(tmp_path / "c", _spec(0.0)).load()[1] == 16
    with pytest.raises(CheckpointError, match="--rnr"):
        Journal(tmp_path / "c", _spec(0.5)).load()


def test_solve_rnr_writes_its_share_into_the_blueprint_and_refuses_bad_requests(tmp_path):
    runner = CliRunner()
    out = str(tmp_path / "r.npz")
    game = "python_coloretto(players=3)"
    args = ["solve", game, "--iterations", "2", "--eval-deals", "0", "--quiet", "--out", out]
    ok = runner.invoke(app, [*args, "--rnr", "0.5"])
    assert ok.exit_code == 0, ok.output
    assert load_npz(out)[0]["rnr"] == 0.5
    for bad, extra in (("1", []), ("-0.1", []), ("abc", []), ("0.5", ["--solver", "cfr"])):
        target = tmp_path / "x.npz"
        res = runner.invoke(app, [*args[:-1], str(target), "--rnr", bad, *extra])
        assert res.exit_code == 2, (bad, res.output)
        assert "rnr" in res.output and len(res.output.strip().splitlines()) == 1, res.output
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.npz", "r.npz.ckpt"]  # nothing new
    kuhn = runner.invoke(app, ["solve", "kuhn_poker", "--rnr", "0.5", "--out", str(tmp_path / "k")])
    assert kuhn.exit_code == 2 and "heuristic" in kuhn.output
    assert not (tmp_path / "k").exists()


def test_solve_names_a_restricted_response_and_the_options_a_checkpoint_differs_in(tmp_path):
    """Was: the final line did not say the strategy is a restricted Nash response, and
    another --solver over a checkpoint was "a different variant, es_leaves"."""
    out = str(tmp_path / "r.parquet")
    args = ["solve", "python_coloretto(players=3)", "--iterations", "2", "--eval-deals", "0"]
    args += ["--quiet", "--out", out]
    ok = CliRunner().invoke(app, [*args, "--rnr", "0.5"])
    assert ok.exit_code == 0, ok.output
    assert "a restricted Nash response (--rnr 0.5)" in ok.stdout.splitlines()[-1]
    res = CliRunner().invoke(app, [*args, "--solver", "mccfr-es", "--rnr", "0.5"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.output
    assert "for --solver mccfr-os (this run: --solver mccfr-es);" in res.stderr
