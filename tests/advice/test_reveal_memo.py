"""Table mode's reveal checks go on from the last check's worlds (``reveal.ChangeMemo``):
the same answer as a check from scratch, at every entry of whole games, after an undo and
after a '?' choice the world changed.

Why: a check replays every one-change world of the '?' entries to the end of the history,
after every entry: the history's length squared over a game (a 3-player Die Staufer game
in table mode took 71 s, 64 of them here; 6 s with the memo).
"""

from __future__ import annotations

import random

import pytest

import spiel_games
from tournament.advice.reveal import ChangeMemo, revealed
from tournament.advice.unknown import (
    UNKNOWN,
    adopt_world,
    build_world,
    extend_world,
    hidden_from,
    options,
    world_choices,
)

# (game, compared from scratch at every how many entries): the memo checks every entry
GAMES = [
    ("python_staufer(players=2)", 3),
    ("python_staufer(players=3)", 60),
    ("python_rococo(players=3)", 60),
    ("python_bruxelles(players=3,private_works=true)", 40),
]


def _items(game, seed: int, me: int = 0) -> list:
    """What a user at seat ``me`` types for a random game: '?' for what is hidden."""
    rng = random.Random(seed)
    state, items = game.new_initial_state(), []
    while not state.is_terminal():
        a = rng.choice(options(state))
        items.append(UNKNOWN if hidden_from(state, me) else a)
        state.apply_action(a)
    return items


def _same(a, b) -> bool:
    return [(r.item, r.seen) for r in a] == [(r.item, r.seen) for r in b]


def _checks(game, items: list, lengths, memo: ChangeMemo, every: int = 1, me: int = 0) -> int:
    """At each history length (the world extended entry by entry where it grows by one, as
    the session does), the memo's answer; compared with a check from scratch at every
    ``every``-th length and the last three. Returns the comparisons with a '?' in play,
    and those with an entry revealed."""
    compared = shown = 0
    world, at = None, -1
    for k, n in enumerate(lengths):
        if world is not None and n == at + 1:
            world = extend_world(game, world, items[:at], items[at])
        else:
            world = build_world(game, items[:n], me)
        at = n
        got = revealed(game, items[:n], world, me, memo)
        if k % every == 0 or k >= len(lengths) - 3:
            assert _same(got, revealed(game, items[:n], world, me)), (n, got)
            compared += bool(world.unknown)
            shown += bool(got)
    return compared, shown


@pytest.mark.parametrize(("config", "every"), GAMES, ids=[g for g, _ in GAMES])
def test_the_memo_answers_as_a_check_from_scratch(config, every):
    game = spiel_games.load_game(config)
    items = _items(game, seed=3)
    n = len(items)
    memo = ChangeMemo()
    compared, shown = _checks(game, items, range(1, n + 1), memo, every)
    assert compared >= 5
    assert shown >= 1 or "staufer" not in config  # Die Staufer shows every job at the end
    # an undo (a shorter history) and the same entries again, then a jump ahead
    assert _checks(game, items, [n - 5, n - 6, n - 4, n - 4, n], memo)[0] >= 1


def test_a_changed_choice_starts_the_changes_again():
    game = spiel_games.load_game(GAMES[0][0])
    items = _items(game, seed=5)
    unknown = [i for i, item in enumerate(items) if item == UNKNOWN]
    assert unknown
    memo = ChangeMemo()
    n = len(items)
    world = build_world(game, items[: n - 1], 0)
    revealed(game, items[: n - 1], world, 0, memo)
    j = unknown[0]
    other = [a for a in options(world.states[j]) if a != world.actions[j]]
    assert other
    named = list(items)
    named[j] = other[0]  # the entry given: the memo's prefix no longer holds
    world = build_world(game, named, 0)
    assert _same(revealed(game, named, world, 0, memo), revealed(game, named, world, 0))


def test_a_world_whose_choices_changed_under_the_same_entries_starts_again():
    """The session's world may change an earlier '?' choice when a new entry is impossible
    in it (a repair): the entries then only grew, but the memo's worlds are of the old
    choices."""
    game = spiel_games.load_game(GAMES[0][0])
    items = _items(game, seed=3)
    n = len(items)
    memo = ChangeMemo()
    world = build_world(game, items[: n - 1], 0)
    revealed(game, items[: n - 1], world, 0, memo)
    for j in world.unknown:
        for alt in options(world.states[j]):
            if alt == world.actions[j]:
                continue
            try:
                other = adopt_world(game, items, {**world_choices(world), j: alt}, 0)
            except Exception:  # the entries impossible with that choice
                continue
            if other.actions[j] == alt:
                fresh = revealed(game, items, other, 0)
                assert _same(revealed(game, items, other, 0, memo), fresh)
                return
    raise AssertionError("no other choice allows the entries")
