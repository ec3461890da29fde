"""pimc stops between two simulations when halted (no further world is drawn) and keeps
its ``time`` budget as a deadline for the whole move (fewer worlds when it runs out)."""

from __future__ import annotations

import threading
import time

import spiel_games
from solvers.registry import make_agent

GAME = "python_coloretto(players=3)"
HIDDEN = "python_staufer(players=3)"


def _decision(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_a_halt_stops_pimc_before_its_next_world():
    game = spiel_games.load_game(GAME)
    agent = make_agent("pimc(worlds=1000,sims=5)", game, 0)
    eng = agent.engine
    real = eng.search
    calls = []

    def search(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            agent.halt()  # as the engine's terminate does, from another thread
        return real(*args, **kwargs)

    eng.search = search
    analysis = agent.analyse(_decision(game))
    assert len(calls) == 3  # was: every one of the 1000 worlds searched (0 simulations each)
    assert analysis.budget["worlds_done"] == 3 and analysis.budget["sims_done"] == 10


def test_a_halt_ends_a_pimc_of_a_billion_worlds_at_once():
    game = spiel_games.load_game(HIDDEN)
    agent = make_agent("pimc(worlds=1000000000,sims=1)", game, 0)
    state = _decision(game)
    out = []
    # a daemon thread: a regression fails here instead of hanging the test run
    worker = threading.Thread(target=lambda: out.append(agent.analyse(state)), daemon=True)
    worker.start()
    time.sleep(0.3)
    agent.halt()
    worker.join(10.0)
    assert out, "still searching 10 s after the halt"  # was: drawing every world, for hours
    assert 0 < out[0].budget["worlds_done"] < 1000000000


def test_pimc_time_is_a_deadline_for_the_whole_move():
    game = spiel_games.load_game(GAME)
    agent = make_agent("pimc(worlds=20000,time=0.2)", game, 0)
    state = _decision(game)
    start = time.perf_counter()
    analysis = agent.analyse(state)
    took = time.perf_counter() - start
    assert took < 1.5, took  # was: one simulation in each of the 20000 worlds, 6 s
    assert 0 < analysis.budget["worlds_done"] < 20000
    assert analysis.budget["sims_done"] >= analysis.budget["worlds_done"]


def test_pimc_with_a_sims_budget_searches_every_world():
    game = spiel_games.load_game(HIDDEN)
    agent = make_agent("pimc(worlds=3,sims=4)", game, 0)
    analysis = agent.analyse(_decision(game))
    assert analysis.budget["worlds_done"] == 3 and analysis.budget["sims_done"] == 12
