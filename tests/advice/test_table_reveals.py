"""Table mode asks for a '?' entry once the table shows it (tournament/advice/reveal.py).

A true game is played to the point where a later event shows a card the user entered as
'?' (Rococo: a face-down stack tile converted to yarn goes to the discard pile; Die
Staufer: every job card at the end). The session loads the entries up to there (hidden
ones as '?'), the revealing entry is typed, and the session must ask for what was shown
and then show the user exactly what the true game shows.
"""

from __future__ import annotations

import io
import random

import spiel_games
from tournament.advice.play import PlaySession
from tournament.advice.positions import record_of
from tournament.advice.unknown import hidden_from, options
from tournament.match import final_scores

HINT = "ismcts(sims=10,rollout_depth=4)"


def _pick(state, rng: random.Random) -> int:
    """A random move that prefers face-down stack tiles and converting them (Rococo), and
    the last face-down tile of the stack (never the placeholder world's first one)."""
    opts = options(state)
    if state.is_chance_node():
        if "face-down stack tile" in state.chance_description():
            return opts[-1]
        return rng.choice(opts)
    p = state.current_player()
    liked = [
        a
        for a in opts
        if any(w in state.action_to_string(p, a) for w in ("stack tile", "convert", "use bonus"))
    ]
    return rng.choice(liked) if liked and rng.random() < 0.9 else rng.choice(opts)


def _record(config: str, truth: list[int], me: int, seats: list[str]):
    """The record a user at seat ``me`` would have typed: unseen entries as '?'."""
    game = spiel_games.load_game(config)
    state = game.new_initial_state()
    rec = record_of(config, state, 0, seats, [])
    rec.chance = "manual"
    for a in truth:
        p = -1 if state.is_chance_node() else state.current_player()
        if hidden_from(state, me):
            rec.actions.append({"player": p, "id": None, "action": "?"})
        else:
            rec.actions.append({"player": p, "id": a, "action": state.action_to_string(p, a)})
        state.apply_action(a)
    return rec


def _name(state, a: int) -> str:
    return state.action_to_string(-1 if state.is_chance_node() else state.current_player(), a)


def _table(config: str, seats: list[str], entries: str, **kw):
    """A table-mode session (chance entered by hand) reading ``entries``, and its output."""
    out = io.StringIO()
    session = PlaySession(
        config, seats, 0, inp=io.StringIO(entries), out=out, chance="manual", **kw
    )
    return session, out


def _replay(game, actions):
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def _random_game(game, seed: int):
    """A whole game of uniformly random options (chance outcomes too): its end, its actions."""
    rng = random.Random(seed)
    state, truth = game.new_initial_state(), []
    while not state.is_terminal():
        a = rng.choice(options(state))
        state.apply_action(a)
        truth.append(a)
    return state, truth


def _rococo_conversion(me: int = 1):
    """A true Rococo game up to another player's decision on a face-down tile they drew,
    with 'convert to yarn' among the options: (truth, the conversion's id)."""
    game = spiel_games.load_game("python_rococo(players=3)")
    for seed in range(20):
        rng = random.Random(seed)
        state, truth = game.new_initial_state(), []
        while not state.is_terminal():
            if truth and not state.is_chance_node() and state.current_player() != me:
                before = _replay(game, truth[:-1])
                p = state.current_player()
                names = {state.action_to_string(p, a): a for a in options(state)}
                if (
                    before.is_chance_node()
                    and "convert to yarn" in names
                    and hidden_from(before, me)
                ):
                    return truth, names["convert to yarn"]
            a = _pick(state, rng)
            state.apply_action(a)
            truth.append(a)
    raise AssertionError("no face-down tile converted in 20 games")


def test_rococo_asks_for_a_face_down_tile_once_it_is_converted_and_discarded():
    config = "python_rococo(players=3)"
    game = spiel_games.load_game(config)
    seats = ["table", "me", "table"]
    truth, convert = _rococo_conversion(me=1)
    rec = _record(config, truth, 1, seats)
    assert rec.actions[-1]["action"] == "?"  # the face-down draw the user did not see
    drawn = _replay(game, truth[:-1])
    tile = drawn.action_to_string(-1, truth[-1])
    session, out = _table(
        config, seats, f"convert to yarn\n{tile}\nquit\n", record=rec, hint_agent=HINT
    )
    session.run()
    text = out.getvalue()
    who = drawn.chance_description()  # "P1's face-down stack tile"
    assert f"shown now: {who} (entry {len(truth)}, entered as '?'); which is it?" in text
    assert f"  {who}: {tile.removeprefix('stack tile ')}" in text  # "...: Y-y"
    true = _replay(game, truth + [convert])
    assert session.world.states[len(truth) + 1].information_state_string(
        1
    ) == true.information_state_string(1)
    assert session.items[len(truth) - 1] == truth[-1]  # no longer '?'


def test_a_question_mark_is_refused_at_a_reveal():
    config = "python_rococo(players=3)"
    game = spiel_games.load_game(config)
    seats = ["table", "me", "table"]
    truth, _ = _rococo_conversion(me=1)
    drawn = _replay(game, truth[:-1])
    session, out = _table(
        config,
        seats,
        "convert to yarn\n?\nquit\n",
        record=_record(config, truth, 1, seats),
        hint_agent=HINT,
    )
    session.run()
    assert f"{drawn.chance_description()} is shown at the table now: give it" in out.getvalue()


def test_staufer_asks_for_the_job_cards_shown_at_the_end_and_then_scores_the_game():
    config = "python_staufer(players=3)"
    game = spiel_games.load_game(config)
    seats = ["me", "table", "table"]
    state, truth = _random_game(game, 3)
    rec = _record(config, truth[:-1], 0, seats)
    hidden = [i for i, e in enumerate(rec.actions) if e["action"] == "?" and e["player"] == -1]
    assert len(hidden) == 6, "the other players' job cards are dealt face down"
    last = _replay(game, truth[:-1])
    lines = [_name(last, truth[-1])] + [_name(_replay(game, truth[:i]), truth[i]) for i in hidden]
    session, out = _table(config, seats, "\n".join(lines) + "\n", record=rec, hint_agent=HINT)
    result = session.run()
    text = out.getvalue()
    assert result.finished, text[-2000:]
    assert text.count("shown now: ") == len(hidden)
    assert "count them at the table" not in text
    assert result.scores == final_scores(state)


def test_a_value_the_table_only_hints_at_is_not_asked_for():
    """Was: a '?' entry counted as shown as soon as one other option alone changed the
    user's view, so a pass whose income counts P2's colours (Bruxelles 1893 with private
    works) asked "shown now: P2's Workshop draw; which is it?" with four colours the
    user cannot tell apart, and refused '?': the guess was stored as fact and true moves
    were later refused. Now an entry is asked for only when no two of its options with
    different names look alike. Input: a reviewer's table session (tests/data)."""
    from pathlib import Path

    entries = Path(__file__).parent.parent / "data" / "table_bruxelles_private_pass.txt"
    session, out = _table(
        "python_bruxelles(players=3,private_works=true)",
        ["me", "table", "table"],
        entries.read_text(),
    )
    session.run()
    text = out.getvalue()
    assert "shown now" not in text
    assert "P2: pass" in text  # the entry that used to ask


def test_a_loaded_game_asks_for_what_the_table_shows_before_showing_a_board():
    """Was: --load of a finished Die Staufer game whose job cards were '?' printed the
    'game over' board with the placeholder world's made-up jobs and scores as fact, and
    only then asked for them."""
    config = "python_staufer(players=3)"
    game = spiel_games.load_game(config)
    seats = ["me", "table", "table"]
    state, truth = _random_game(game, 3)
    rec = _record(config, truth, 0, seats)
    hidden = [i for i, e in enumerate(rec.actions) if e["action"] == "?" and e["player"] == -1]
    lines = [_name(_replay(game, truth[:i]), truth[i]) for i in hidden]
    session, out = _table(config, seats, "\n".join(lines) + "\n", record=rec)
    result = session.run()
    text = out.getvalue()
    assert result.finished and result.scores == final_scores(state), text[-2000:]
    first_board = min(i for i in (text.find("your view"), text.find("Final scores")) if i >= 0)
    assert text.count("shown now: ") == len(hidden)
    assert text.rfind("shown now: ") < first_board


def test_undo_takes_back_a_reveal_answer_and_asks_again():
    """Was: 'undo' after a wrong answer to "shown now" undid the move before it and kept
    the wrong tile, named as seen, in the discard pile and the record; retyping the move
    did not ask again."""
    config = "python_rococo(players=3)"
    game = spiel_games.load_game(config)
    seats = ["table", "me", "table"]
    truth, convert = _rococo_conversion(me=1)
    drawn = _replay(game, truth[:-1])
    tile = drawn.action_to_string(-1, truth[-1])
    suffix = tile.rsplit("-", 1)[-1]
    wrong = next(
        drawn.action_to_string(-1, a)
        for a, _ in drawn.chance_outcomes()
        if a != truth[-1] and drawn.action_to_string(-1, a).endswith("-" + suffix)
    )
    session, out = _table(
        config,
        seats,
        f"convert to yarn\n{wrong}\nundo\n{tile}\nquit\n",
        record=_record(config, truth, 1, seats),
    )
    session.run()
    text = out.getvalue()
    assert f"undone: entry {len(truth)} back to '?' (asked again)" in text
    assert text.count("shown now: ") == 2
    true = _replay(game, truth + [convert])
    assert session.world.states[len(truth) + 1].information_state_string(
        1
    ) == true.information_state_string(1)
    assert session.items[len(truth) - 1] == truth[-1]


def test_board_at_a_reveal_prompt_shows_the_table_before_the_revealing_entry():
    """Was: 'board' at "shown now ... which is it?" printed the view after the revealing
    entry, in which the placeholder world's made-up tile lay face up in the discard."""
    config = "python_rococo(players=3)"
    game = spiel_games.load_game(config)
    seats = ["table", "me", "table"]
    truth, _ = _rococo_conversion(me=1)
    tile = _replay(game, truth[:-1]).action_to_string(-1, truth[-1])
    session, out = _table(
        config,
        seats,
        f"convert to yarn\nboard\n{tile}\nquit\n",
        record=_record(config, truth, 1, seats),
    )
    session.run()
    text = out.getvalue()
    at = text.index("shown now: ")
    assert "before the last entry, which shows " in text[at:]


def test_a_reveal_lists_only_the_values_the_revealing_move_allows():
    """Was: after 'convert to yarn' the menu listed every tile of the stack (a tile that
    converts to nothing, or to lace only, was refused only once typed)."""
    config = "python_rococo(players=3)"
    game = spiel_games.load_game(config)
    seats = ["table", "me", "table"]
    truth, _ = _rococo_conversion(me=1)
    drawn = _replay(game, truth[:-1])
    tile = drawn.action_to_string(-1, truth[-1])
    session, out = _table(
        config, seats, f"convert to yarn\n{tile}\nquit\n", record=_record(config, truth, 1, seats)
    )
    session.run()
    line = next(ln for ln in out.getvalue().splitlines() if ln.startswith("shown now: "))
    listed = [x.split(". ", 1)[1] for x in line.split("which is it? ")[1].split("; ")]
    assert tile in listed
    assert listed and all("-y" in name for name in listed), listed
