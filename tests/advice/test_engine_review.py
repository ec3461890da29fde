"""Found in a review of the JSON engine and the game strings; each was:

- `openspiel-ismcts(sims=1)` accepted by its range, then "max() arg is an empty sequence"
  (OpenSpiel's first simulation only evaluates the root); its `sims_done` one short;
- a game string with text after its closing ')' loaded without a word
  ('python_coloretto(players=3)players=4)' played 3 players);
- `reportDuringSearchEvery: 1e17` sent its first partial answer at once (the 0.05 s lost
  to rounding);
- a blank item skipped in a history string but refused in a history list;
- a record with '?' for a draw its player saw blamed the next entry for disagreeing with
  the placeholder, not the '?';
- a history whose '?' entries need two changes called a legal item "not a legal action"
  without saying that only one change was searched.
"""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

import spiel_games
from solvers.base import Analysis
from solvers.registry import make_agent, resolve
from solvers.spec import AgentSpecError
from spiel_games.common.errors import GameStringError
from tournament.advice import unknown
from tournament.advice.items import split_history
from tournament.advice.serve_partial import Running, watcher
from tournament.advice.serve_query import parse_query
from tournament.cli import app

THREE = "python_coloretto(players=3)"
OPENING = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"
TINY = (
    "python_coloretto(players=2,colors=3,cards_per_color=2,plus2=1,jokers=0,start_cards=1,"
    "last_round_depth=0,rows=2,row_capacity=1)"
)


def test_openspiel_ismcts_needs_two_simulations_and_counts_them_all():
    game = spiel_games.load_game(THREE)
    with pytest.raises(AgentSpecError, match=r"must be in \[2, "):
        resolve("openspiel-ismcts(sims=1)").check(game)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(
            state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0]
        )
    for sims in (2, 7):
        analysis = make_agent(f"openspiel-ismcts(sims={sims})", game, 1).analyse(state.clone())
        assert analysis.budget["sims_done"] == sims


@pytest.mark.parametrize("tail", ["players=4)", "garbage", " ", ")"])
def test_text_after_the_game_strings_closing_parenthesis_is_refused(tail):
    with pytest.raises(GameStringError, match="after the closing"):
        spiel_games.load_game(f"python_coloretto(players=3){tail}")
    r = CliRunner().invoke(app, ["games", "simulate", f"python_coloretto(players=3){tail}"])
    assert r.exit_code == 2 and "after the closing ')'" in r.output


def test_a_huge_report_interval_still_waits_for_the_first_report():
    sent: list[dict] = []
    query = parse_query(
        {
            "id": "p",
            "game": THREE,
            "history": OPENING,
            "agent": "x",
            "reportDuringSearchEvery": 1e17,
        }
    )
    agent = SimpleNamespace(
        engine=SimpleNamespace(on_tick=None),
        halt=lambda: True,
        partial=lambda root: Analysis(0, []),
    )
    watcher(query, None, Running("p"), sent.append, "x")(
        agent, spiel_games.load_game(THREE).new_initial_state()
    )
    agent.engine.on_tick()
    assert sent == []  # at once: not yet (was: sent)
    time.sleep(0.06)
    agent.engine.on_tick()
    assert len(sent) == 1
    agent.engine.on_tick()
    assert len(sent) == 1  # the next one in 1e17 s


def test_blank_history_items_are_skipped_in_both_forms():
    assert split_history("a;; b ;") == ["a", "b"]
    assert split_history(["a", "", "  ", "b", 3]) == ["a", "b", 3]


def test_a_record_with_a_seen_draw_as_a_question_mark_blames_that_entry(tmp_path):
    path = tmp_path / "g.json"
    argv = ["play", TINY, "--seats", "heuristic,heuristic", "--save", str(path)]
    assert CliRunner().invoke(app, argv).exit_code == 0
    record = json.loads(path.read_text())
    draws = [i for i, a in enumerate(record["actions"]) if a["action"].startswith("deck:")]
    k = draws[1]  # a draw every player sees
    record["actions"][k].update(action="?", id=None)
    path.write_text(json.dumps(record))
    argv = ["advise", "--game-file", str(path), "-a", "heuristic", "--player", "P1"]
    r = CliRunner().invoke(app, argv)
    assert r.exit_code == 1, r.output
    assert f"history item {k + 1} ('?'): P1 can see this chance outcome" in r.output


def test_an_item_no_one_change_allows_says_what_was_searched(monkeypatch):
    game = spiel_games.load_game("python_staufer(players=2)")
    state, items = game.new_initial_state(), []
    while unknown.UNKNOWN not in items or len(items) < 30:  # the other's secret job cards
        a = unknown.options(state)[-1]
        items.append(unknown.UNKNOWN if unknown.hidden_from(state, 0) else a)
        state.apply_action(a)
    real = unknown._Builder.step

    def last_impossible(self, state, i, choice):
        if i == len(items) - 1:
            raise unknown.HistoryError(f"history item {i + 1} is not a legal action")
        return real(self, state, i, choice)

    monkeypatch.setattr(unknown._Builder, "step", last_impossible)
    monkeypatch.setattr(unknown._Builder, "repair", lambda self, world, k: False)
    with pytest.raises(unknown.HistoryError, match="nor with one of them changed"):
        unknown.build_world(game, items, 0)
    monkeypatch.setattr(unknown, "REPAIR_BUDGET", 7)

    def spent(self, world, k):
        self.budget = 0
        return False

    monkeypatch.setattr(unknown._Builder, "repair", spent)
    with pytest.raises(unknown.HistoryError, match="stopped after 7 moves"):
        unknown.build_world(game, items, 0)
