"""``?`` in histories, records and serve queries: what the advised player did not see."""

from __future__ import annotations

import io
import json
import random

import pytest
from typer.testing import CliRunner

import spiel_games
from tournament.advice.positions import HistoryError, position_from
from tournament.advice.serve import Engine
from tournament.advice.unknown import build_world, hidden_from, options
from tournament.cli import app

SPECS = spiel_games.all_specs()
AGENT = "ismcts(sims=30,rollout_depth=8)"
runner = CliRunner()


def _playout(game_string: str, seed: int, length: int):
    """(items, states before each item, final state) of a random playout that ends at a
    decision; states[i] is the position before items[i]."""
    game = spiel_games.load_game(game_string)
    rng = random.Random(seed)
    state = game.new_initial_state()
    items, states = [], []
    while not state.is_terminal() and (len(items) < length or state.is_chance_node()):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            a, mover = rng.choices(outcomes, probs)[0], -1
        else:
            a, mover = rng.choice(state.legal_actions()), state.current_player()
        items.append(state.action_to_string(mover, a))
        states.append(state.clone())
        state.apply_action(a)
    assert not state.is_terminal()
    return items, states, state


def _hidden_items(items, states, viewer):
    """The items with every one the viewer could not see (among several options) as '?'."""
    return [
        "?" if hidden_from(s, viewer) and len(options(s)) > 1 else item
        for s, item in zip(states, items, strict=True)
    ]


def _advise_json(game_string: str, history: list[str], *extra: str) -> dict:
    result = runner.invoke(
        app,
        ["advise", game_string, "--history", "; ".join(history), "-a", AGENT, "--seed", "4"]
        + ["--json", *extra],
    )
    assert result.exit_code == 0, result.output
    obj = json.loads(result.output)
    obj.pop("seconds")
    return obj


@pytest.mark.parametrize("spec", SPECS, ids=[s.short_name for s in SPECS])
def test_unknown_items_give_byte_identical_advice(spec):
    """The same position with the opponents' hidden outcomes named and given as '?': the
    --json advice is identical (apart from wall time) for the same seed. Coloretto hides
    nothing, so there every item stays named and the check is that nothing is hidden."""
    game_string = spec.typical_config
    for seed in range(6):  # some secrets (works drawn and put back) are rare
        items, states, end = _playout(game_string, seed=seed, length=150)
        viewer = end.current_player()
        unknown = _hidden_items(items, states, viewer)
        count = sum(item == "?" for item in unknown)
        if count or spec.perturb_secret is None:
            break
    if spec.perturb_secret is None:
        assert count == 0
        return
    assert count >= 1, "no hidden items in six playouts"
    given = _advise_json(game_string, items)
    with_unknown = _advise_json(game_string, unknown)
    assert given == with_unknown
    # The world built for '?' shows the viewer exactly what the true game showed.
    world = build_world(spiel_games.load_game(game_string), unknown, viewer)
    assert world.state.information_state_string(viewer) == end.information_state_string(viewer)


@pytest.mark.parametrize("spec", SPECS, ids=[s.short_name for s in SPECS])
def test_unknown_where_the_player_sees_the_value_is_refused(spec):
    game_string = spec.typical_config
    items, states, end = _playout(game_string, seed=2, length=60)
    viewer = end.current_player()
    i = next(
        k
        for k, s in enumerate(states)
        if s.is_chance_node() and len(options(s)) > 1 and not hidden_from(s, viewer)
    )
    history = items[:i] + ["?"] + items[i + 1 :]
    args = ["advise", game_string, "-H", "; ".join(history), "-a", AGENT, "-p", str(viewer)]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    line = result.output.strip()
    assert line.startswith(f"error: history item {i + 1} ('?'): P{viewer + 1} can see this chance")
    assert items[i] in line and line.endswith(": give it") and "\n" not in line


def test_unknown_for_the_players_own_move_is_refused():
    items, states, end = _playout("python_coloretto(players=3)", seed=1, length=20)
    viewer = end.current_player()
    i = max(
        k for k, s in enumerate(states) if not s.is_chance_node() and s.current_player() == viewer
    )
    with pytest.raises(HistoryError, match=rf"item {i + 1} \('\?'\) is P{viewer + 1}'s own move"):
        position_from("python_coloretto(players=3)", history=items[:i] + ["?"] + items[i + 1 :])


STAUFER_SETUP = (
    "region 2: Augsburg; region 3: Palermo; region 4: Strasbourg; region 5: Nijmegen; "
    "region 6: Aachen; point tile (8, 4, 2); point tile (7, 4, 1); point tile (6, 3, 1); "
    "point tile (10, 5, 2); point tile (9, 5, 2); point tile (8, 4, 1)"
)


def test_a_later_own_card_repairs_the_placeholder_deal():
    """P3 is dealt the cards that the first-option rule would give P1 and P2 for their '?'
    deals: the world is repaired (the '?' take other cards), never refused."""
    game_string = "python_staufer(players=3)"
    game = spiel_games.load_game(game_string)
    first = STAUFER_SETUP.split("; ")
    state = position_from(game_string, history="; ".join(first)).state
    mine = []
    probe = state.clone()
    for _ in range(6):  # P1's and P2's jobs: the first option each time
        probe.apply_action(options(probe)[0])
    for _ in range(3):  # P3's jobs: the first option left, then ...
        a = options(probe)[0]
        mine.append(probe.action_to_string(-1, a))
        probe.apply_action(a)
    # ... P3 says it holds P1's first-option region card instead (free in the true deal).
    p1_first = state.action_to_string(-1, options(state)[0]).replace("P1", "P3")
    mine[0] = p1_first
    items = first + ["?"] * 6 + mine
    world = build_world(game, items, viewer=2)
    dealt = [world.states[i].action_to_string(-1, a) for i, a in enumerate(world.actions)]
    assert dealt[len(first) + 6] == p1_first
    assert not any(d == p1_first.replace("P3", "P1") for d in dealt)


def test_a_history_no_world_allows_is_refused_with_the_legal_items():
    game_string = "python_staufer(players=3)"
    items = STAUFER_SETUP.split("; ") + ["?", "job region 9 for P1"]
    with pytest.raises(HistoryError, match=r"history item 13 \('job region 9 for P1'\)"):
        build_world(spiel_games.load_game(game_string), items, viewer=1)


def test_serve_accepts_unknown_items_and_refuses_visible_ones():
    items, states, end = _playout("python_staufer(players=3)", seed=3, length=80)
    viewer = end.current_player()
    unknown = _hidden_items(items, states, viewer)
    assert "?" in unknown
    base = {"game": "python_staufer(players=3)", "agent": AGENT, "seed": 1}
    lines = [
        json.dumps({"id": "given", "history": items, **base}),
        json.dumps({"id": "unknown", "history": unknown, **base}),
        json.dumps({"id": "bad", "history": ["?"] + items[1:], **base}),
    ]
    out = io.StringIO()
    Engine().serve(io.StringIO("\n".join(lines) + "\n"), out)
    given, with_unknown, bad = (json.loads(line) for line in out.getvalue().splitlines())
    given.pop("seconds"), with_unknown.pop("seconds")
    assert {**given, "id": None} == {**with_unknown, "id": None}
    assert bad["id"] == "bad" and bad["error"].startswith("history item 1 ('?'): P")


def test_serve_survives_a_deeply_nested_line():
    """Issue 14 item 6: '['*1000 + ']'*1000 raised RecursionError and killed the engine."""
    lines = "[" * 1000 + "]" * 1000 + "\n" + json.dumps({"id": 1, "command": "ping"}) + "\n"
    out = io.StringIO()
    Engine().serve(io.StringIO(lines), out)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {"id": None, "error": "malformed JSON: nested too deeply"}
    assert second == {"id": 1, "pong": True}


def test_player_out_of_range_is_named_as_written():
    """Issue 14: `--player P9` said "player 8". A wrong command line: exit 2 (was 1)."""
    result = runner.invoke(
        app,
        ["advise", "python_coloretto(players=3)", "-H", "start: pink", "-a", "random", "-p", "P9"],
    )
    assert result.exit_code == 2
    assert "error: player P9 (id 8) is out of range: this game has P1-P3 (ids 0-2)" in result.output


def _table_record_at_an_opponents_turn(tmp_path):
    """A Die Staufer table record seen by P1 (the opponents' jobs are '?'), ending at a
    decision of P3."""
    from tournament.advice.positions import record_items, record_of

    game_string = "python_staufer(players=3)"
    game = spiel_games.load_game(game_string)
    items, states, state = _playout(game_string, seed=5, length=30)
    while state.current_player() != 2:
        items.append(state.action_to_string(state.current_player(), state.legal_actions()[0]))
        states.append(state.clone())
        state.apply_action(state.legal_actions()[0])
        while state.is_chance_node():
            a = state.chance_outcomes()[0][0]
            items.append(state.action_to_string(-1, a))
            states.append(state.clone())
            state.apply_action(a)
    hidden = _hidden_items(items, states, 0)
    assert "?" in hidden
    world = build_world(game, hidden, viewer=0)
    record = record_of(game_string, world.state, 0, ["me", "table", "table"], world.actions)
    record.actions = record_items(world)
    record.chance = "manual"
    path = tmp_path / "table.json"
    record.save(path)
    return path


def test_game_file_at_an_opponents_turn_advises_from_the_recorded_players_view(tmp_path):
    """Old: with no --player, advice came from P3's view with made-up values for P3's own
    unseen jobs ("advice from P3's information state")."""
    path = _table_record_at_an_opponents_turn(tmp_path)
    r = runner.invoke(app, ["advise", "--game-file", str(path), "-a", "heuristic"])
    assert r.exit_code == 0, r.output
    assert "advice from P1's information state" in r.output
    assert "P3's information state" not in r.output
    # Asking for P3's view is refused in one line naming the item P3 would have seen.
    r = runner.invoke(app, ["advise", "--game-file", str(path), "-a", "heuristic", "-p", "P3"])
    assert r.exit_code == 1
    assert r.output.startswith("error: history item ") and "P3 can see this" in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_serve_game_file_at_an_opponents_turn_advises_from_the_recorded_players_view(tmp_path):
    path = _table_record_at_an_opponents_turn(tmp_path)
    answer, _ = Engine().handle_line(
        json.dumps({"id": "t", "game_file": str(path), "agent": "heuristic"})
    )
    assert answer is not None and "error" not in answer, answer
    assert answer["player"] == 0
