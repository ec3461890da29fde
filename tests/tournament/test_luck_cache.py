"""The luck caches beside a ledger: trusted only under the code that wrote them, and safe
when two processes write them; the rollout value function stays unbiased."""

from __future__ import annotations

import json
import math
import multiprocessing

import numpy as np
import pytest

import tournament.luck_ledger as ll
from tournament import luck_cache
from tournament.config import build_config
from tournament.runner import run_tournament

OPENINGS = 50  # the opening's expectation is not what these tests look at


@pytest.fixture
def ledger(tmp_path, make_raw):
    raw = make_raw(game="python_coloretto(players=3)", seeds_per_lineup=1)
    raw["agents"] = {"random": "random", "greedy": "heuristic", "noisy": "noisy(eps=0.5)"}
    run_tournament(build_config(raw), tmp_path / "l", executor="serial")
    return tmp_path / "l"


def _luck(d, **kw):
    return ll.ledger_luck(d, progress=False, opening_samples=OPENINGS, **kw)


def _counting(monkeypatch, name):
    calls, real = [], getattr(ll, name)
    monkeypatch.setattr(ll, name, lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_moves_and_luck_cached_under_other_code_are_measured_again(ledger, monkeypatch):
    first = _luck(ledger)
    replays, measured = _counting(monkeypatch, "play_one"), _counting(monkeypatch, "game_luck")
    assert _luck(ledger) == first and replays == [] and measured == []  # same code: cached
    monkeypatch.setattr(ll, "code_version", lambda game=None: "0123456789abcdef")
    again = _luck(ledger)
    assert len(replays) == len(first)  # every game replayed under the new code
    assert len(measured) == len(first)  # and its luck measured again
    assert again == first  # the code did not really change
    moves = json.loads((ledger / ".moves.json").read_text())["games"]
    assert {m["code"] for m in moves.values()} == {"0123456789abcdef"}


def test_a_changed_agent_keeps_cached_moves_that_still_play_to_the_ledger(ledger, monkeypatch):
    """Under new code a game may replay differently (an agent changed): its cached moves,
    proved the game played by their digest, serve when they still play legally to the
    ledger's scores; without them the game cannot be measured."""
    _luck(ledger)
    monkeypatch.setattr(ll, "code_version", lambda game=None: "0123456789abcdef")
    real = ll.play_one
    monkeypatch.setattr(
        ll, "play_one", lambda *a, **k: {**real(*a, **k), "actions_hash": 7, "actions": [0]}
    )
    assert _luck(ledger, known=False) != {}  # measured from the cached moves
    moves = json.loads((ledger / ".moves.json").read_text())["games"]
    legacy = {k: m["actions"] for k, m in moves.items()}  # the first format: no code
    (ledger / ".moves.json").write_text(json.dumps(legacy))
    (ledger / ".luck.json").unlink()
    assert len(_luck(ledger)) == len(legacy)
    (ledger / ".moves.json").unlink()
    (ledger / ".luck.json").unlink()
    with pytest.raises(ll.LuckError, match="replays differently"):
        _luck(ledger)


def test_cached_moves_that_break_the_current_rules_are_refused(ledger):
    from tournament.batch import plays_as_recorded
    from tournament.ledger import read_ledger

    row = read_ledger(ledger).table.to_pylist()[0]
    _luck(ledger)
    moves = json.loads((ledger / ".moves.json").read_text())["games"][row["game_id"]]["actions"]
    game = ll.spiel_games.load_game(row["game"])
    assert plays_as_recorded(game, moves, row)
    assert not plays_as_recorded(game, moves[:-1], row)  # not the end of the game
    assert not plays_as_recorded(game, moves, {**row, "scores": [0.0, 0.0, -1.0]})


def _writer(directory, tag: str, n: int) -> None:
    key, opening = {"evaluator": "e"}, {"samples": 1, "v": [0.0], "w": [[0.0]]}
    games: dict = {}
    for i in range(n):  # each writer passes all it measured so far, as ledger_luck does
        games[f"{tag}{i}"] = {"luck": [float(i)], "pairs": [[0.0]]}
        luck_cache.save_luck(directory, key, opening, dict(games))
        luck_cache.save_moves(directory, {f"{tag}{i}": {"code": "c", "actions": [i]}})


def test_two_processes_writing_one_cache_lose_nothing(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(tmp_path, t, 25)) for t in "ab"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    data = luck_cache.load(tmp_path / luck_cache.CACHE)
    assert len(data["entries"]) == 1
    assert len(data["entries"][0]["games"]) == 50
    assert len(luck_cache.load(tmp_path / luck_cache.MOVES)["games"]) == 50
    assert not list(tmp_path.glob("*.partial"))


def test_a_writer_that_read_before_another_wrote_keeps_both(tmp_path):
    key, opening = {"evaluator": "e"}, {"samples": 1, "v": [0.0], "w": [[0.0]]}
    luck_cache.save_luck(tmp_path, key, opening, {"a": {"luck": [1.0]}})
    luck_cache.save_luck(tmp_path, key, opening, {"b": {"luck": [2.0]}})  # never saw "a"
    luck_cache.save_luck(tmp_path, {"evaluator": "other"}, opening, {"c": {}})
    data = luck_cache.load(tmp_path / luck_cache.CACHE)
    assert set(luck_cache.entry(data, key)["games"]) == {"a", "b"}
    assert set(luck_cache.entry(data, {"evaluator": "other"})["games"]) == {"c"}
    # measured against another opening expectation: the newer entry replaces the older
    luck_cache.save_luck(tmp_path, key, {**opening, "samples": 2}, {"d": {}})
    data = luck_cache.load(tmp_path / luck_cache.CACHE)
    assert set(luck_cache.entry(data, key)["games"]) == {"d"}


def test_rollout_luck_is_unbiased_on_random_play():
    """Rollout values (one rollout per state, four outcomes drawn per event) on random
    play of Coloretto: each seat's mean luck after the opening is zero within three
    standard errors, and not identically zero."""
    from dataclasses import replace

    from spiel_games.common.chance import sample_chance
    from tournament.luck import game_luck, opening
    from tournament.luck_rollouts import rollout_evaluator

    ev = replace(rollout_evaluator("python_coloretto(players=3)", rollouts=1), opening_samples=60)
    ev = ev.for_seats(["random"] * 3)
    start = opening(ev)
    rng = np.random.default_rng(3)
    lucks = []
    for k in range(30):
        s, actions = ev.game.new_initial_state(), []
        while not s.is_terminal():
            legal = None if s.is_chance_node() else s.legal_actions()
            a = sample_chance(s, rng) if legal is None else int(rng.choice(legal))
            actions.append(a)
            s.apply_action(a)
        g = game_luck(ev, actions, start, seed=k)
        lucks.append(g.luck - g.opening_luck)
    lucks = np.array(lucks)
    se = lucks.std(axis=0) / math.sqrt(len(lucks))
    assert (np.abs(lucks.mean(axis=0)) <= 3 * se).all() and lucks.std() > 0


def test_ratings_rate_on_luck_valued_by_rollouts_when_asked(ledger, monkeypatch):
    from typer.testing import CliRunner

    import tournament.luck_rollouts as lr
    from tournament.cli import app

    monkeypatch.setattr(lr, "OPENING_SAMPLES", 20)
    monkeypatch.setattr(lr, "ROLLOUTS", 1)  # what is tested is the option, not the values
    args = ["ratings", str(ledger), "--luck-adjusted", "--bootstrap", "5", "--format", "md"]
    r = CliRunner().invoke(app, [*args, "--luck-value", "rollouts"])
    assert r.exit_code == 0, r.output
    assert "valued by rollouts" in r.stdout
    key = luck_cache.load(ledger / luck_cache.CACHE)["entries"][0]["key"]
    assert "rollouts" in key["evaluator"] and "1 per state" in key["evaluator"]
    bad = CliRunner().invoke(app, [*args, "--luck-value", "dice"])
    assert bad.exit_code == 2 and "--luck-value must be one of" in bad.output


def test_the_openings_luck_compares_values_of_one_function():
    """Rollouts by the seats' strategies value a game's events; the opening's luck is
    taken with the function its expectation was measured with. Mixing them (a random
    seat's rollouts against an expectation under the heuristic) is biased."""
    from dataclasses import replace

    from spiel_games.common.chance import sample_chance
    from tournament.luck import game_luck, opening
    from tournament.luck_rollouts import rollout_evaluator

    ev = replace(rollout_evaluator("python_coloretto(players=3)", rollouts=1), opening_samples=80)
    start = opening(ev)
    seated = ev.for_seats(["random", "heuristic", "heuristic"])
    rng = np.random.default_rng(5)
    right, mixed = [], []
    for k in range(60):
        s, deal = ev.game.new_initial_state(), []
        while s.is_chance_node():
            deal.append(sample_chance(s, rng))
            s.apply_action(deal[-1])
        right.append(game_luck(seated, deal, start, seed=k, opening_ev=ev).opening_luck)
        mixed.append(game_luck(seated, deal, start, seed=k).opening_luck)
    for lucks, unbiased in ((np.array(right), True), (np.array(mixed), False)):
        se = lucks.std(axis=0) / math.sqrt(len(lucks)) + start.v_se
        assert (np.abs(lucks.mean(axis=0)) <= 3 * se).all() == unbiased


def test_the_moves_file_lists_its_games_in_a_fixed_order(tmp_path, make_raw):
    """Was: in the order of a set of game ids, which follows the process's hash seed, so
    the same measurement wrote a different file in every process."""
    raw = make_raw(game="python_coloretto(players=3)", seeds_per_lineup=4)
    raw["agents"] = {"random": "random", "greedy": "heuristic", "noisy": "noisy(eps=0.5)"}
    run_tournament(build_config(raw), tmp_path / "l", executor="serial")
    _luck(tmp_path / "l")
    games = list(json.loads((tmp_path / "l" / luck_cache.MOVES).read_text())["games"])
    assert len(games) == 12 and games == sorted(games)


def test_saving_the_cache_removes_an_interrupted_writers_temporary_file(tmp_path, ended_pid):
    """Was: a `ratings --luck-adjusted` killed while it wrote left ``.tmp-.luck.json.PID``
    beside the ledger for ever; a live writer's file (this process's) is left alone."""
    import os

    dead = tmp_path / f".tmp-{luck_cache.CACHE}.{ended_pid}"
    other = tmp_path / f".tmp-{luck_cache.MOVES}.{ended_pid}"
    live = tmp_path / f".tmp-{luck_cache.CACHE}.{os.getppid()}"
    for p in (dead, other, live):
        p.write_text("{")
    luck_cache.save_luck(tmp_path, {"k": 1}, {}, {"g": {}})
    assert not dead.exists() and other.exists() and live.exists()
    assert luck_cache.entry(luck_cache.load(tmp_path / luck_cache.CACHE), {"k": 1}) is not None
    luck_cache.save_moves(tmp_path, {})
    assert not other.exists()
