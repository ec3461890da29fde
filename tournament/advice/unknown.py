"""``?`` in a history: something the advised player did not see.

At a real table a player never learns the cards dealt to the others, nor another player's
secret selection. A history may give those items as ``?``. The position is then *any* world
consistent with what the player saw; advice re-deals everything hidden from that player
(``advise.viewpoint_state``), so which consistent world is built does not matter, only that
it is consistent.

The world is built by a deterministic rule:

1. Items are replayed in order; a ``?`` takes its previous choice when that is still legal,
   otherwise the first option (by action id).
2. A named item that is illegal in the world built so far (an opponent plays a card that the
   placeholder selection did not include, or the player is dealt a card that a ``?`` deal
   gave to someone else) triggers a repair: the latest ``?`` items are tried, one at a time,
   with each of their other options (the items between replayed by rule 1), and the first
   choice that makes the named item legal is kept. A bounded budget of moves caps the work;
   a history that no single change repairs is refused, naming the item and what is legal.

A ``?`` is accepted only where the advised player could not tell the options apart: every
option leads to the same information state for that player. Otherwise it is a one-line
error naming the item and what the player sees there (``check_hidden``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from spiel_games.common.chance import CHANCE_OUTCOME, chance_description
from spiel_games.common.naming import mover, options
from tournament.advice.items import (
    CHANCE,
    HistoryError,
    check_player,
    legal_strings,
    parse_action,
)
from tournament.match import final_scores
from tournament.records import UNKNOWN, is_unknown

__all__ = [
    "UNKNOWN",
    "World",
    "adopt_world",
    "build_world",
    "check_hidden",
    "extend_world",
    "hidden_from",
    "is_unknown",
    "options",
    "possible_options",
    "prefix",
    "scores_determined",
    "single_changes",
    "visibility_classes",
    "world_choices",
]

REPAIR_BUDGET = 50_000  # moves applied while repairing one history, at most


def visibility_classes(state, viewer: int) -> list[list[int]]:
    """The options at ``state`` grouped by the information state ``viewer`` has after each."""
    groups: dict[str, list[int]] = {}
    for a in options(state):
        child = state.clone()
        child.apply_action(a)
        groups.setdefault(child.information_state_string(viewer), []).append(a)
    return list(groups.values())


def hidden_from(state, viewer: int) -> bool:
    """Whether ``viewer`` cannot tell the several options at ``state`` apart."""
    if state.is_terminal() or mover(state) == viewer or len(options(state)) < 2:
        return False
    return len(visibility_classes(state, viewer)) == 1


def check_hidden(state, viewer: int, position: int, listed: list[str] | None = None) -> None:
    """Refuse a ``?`` at ``state`` (history item ``position``) that ``viewer`` could see;
    the refusal names ``listed`` as the options when given (table mode's menu)."""
    who = f"P{viewer + 1}"
    if state.is_terminal():
        raise HistoryError(f"history item {position} ('?'): the game is already over")
    who_moves = mover(state)
    if who_moves == viewer:
        raise HistoryError(
            f"history item {position} ('?') is {who}'s own move: {who} knows it, give it"
        )
    classes = visibility_classes(state, viewer)
    if len(classes) == 1:
        return
    kind = "chance outcome" if who_moves == CHANCE else f"move of P{who_moves + 1}"
    names = dict(legal_strings(state)) if listed is None else {}
    if listed is not None:  # the menu's options: not one world's, which may be a guess
        what = f"it is one of {_names(listed)}"
    elif all(len(c) == 1 for c in classes):
        seen = _names([names[c[0]] for c in classes])
        what = f"it is one of {seen}"
    else:
        groups = "; ".join(" / ".join(names[a] for a in c) for c in classes[:8])
        what = f"{who} can tell these groups apart: {groups}" + (" ..." if len(classes) > 8 else "")
    drawn = chance_description(state) if who_moves == CHANCE else CHANCE_OUTCOME
    if drawn != CHANCE_OUTCOME:  # what is drawn, as table mode's prompt says it
        what = f"{drawn}; {what}"
    raise HistoryError(
        f"history item {position} ('?'): {who} can see this {kind} ({what}): give it"
    )


def check_hidden_in_worlds(game, items: list, world, possible: dict, viewer: int) -> None:
    """``check_hidden`` for table mode's next entry in every world its menu comes from (the
    placeholder world and those ``possible_options`` found its other options in): a ``?``
    is taken only where ``viewer`` could see nothing in any of them (was: the placeholder
    alone, whose single option made a move everyone sees look hidden, and the world then
    made the move up). One option in the menu: nothing to hide. Refusals list the menu."""
    position = len(items) + 1
    listed = [name for name, _ in possible.values()]
    if len(possible) == 1 and mover(world.state) != viewer:
        raise HistoryError(
            f"history item {position} ('?'): there is one option, {listed[0]}: give it"
        )
    seen = {tuple(sorted(world_choices(world).items()))}
    check_hidden(world.state, viewer, position, listed)
    for _, choice in possible.values():
        key = tuple(sorted(choice.items()))
        if key not in seen:
            seen.add(key)
            check_hidden(adopt_world(game, items, choice, viewer).state, viewer, position, listed)


def _names(names: list[str], limit: int = 12) -> str:
    if len(names) > limit:
        return ", ".join(names[:limit]) + f", ... ({len(names)} in all)"
    return ", ".join(names)


@dataclass
class World:
    """One concrete world behind a history with ``?`` items."""

    states: list = field(default_factory=list)  # states[i]: the position before item i
    actions: list[int] = field(default_factory=list)  # the world's action ids, one per item
    unknown: list[int] = field(default_factory=list)  # 0-based indices of the ``?`` items
    viewer: int | None = None  # the player every ``?`` item is hidden from, when any

    @property
    def state(self):
        return self.states[-1]


class _Builder:
    def __init__(self, game, items: list, choice: dict[int, int] | None = None):
        self.game = game
        self.items = items
        self.choice: dict[int, int] = dict(choice or {})
        self.budget = REPAIR_BUDGET

    def step(self, state, i: int, choice: dict[int, int]) -> int:
        """The action id of item ``i`` at ``state`` (raises HistoryError when illegal)."""
        item = self.items[i]
        if is_unknown(item):
            if state.is_terminal():
                raise HistoryError(f"history item {i + 1} ('?'): the game is already over")
            opts = options(state)
            previous = choice.get(i)
            a = previous if previous in opts else opts[0]
            choice[i] = a
            return a
        return parse_action(state, item, i + 1)

    def replay(self, start_state, start: int, stop: int, choice: dict[int, int]):
        """States for items start..stop-1 from ``start_state``; None when an item is illegal."""
        states = [start_state]
        actions = []
        for i in range(start, stop):
            state = states[-1]
            try:
                a = self.step(state, i, choice)
            except HistoryError:
                return None
            nxt = state.clone()
            nxt.apply_action(a)
            self.budget -= 1
            states.append(nxt)
            actions.append(a)
            if self.budget <= 0:
                return None
        return states, actions

    def build(self) -> World:
        world = World(states=[self.game.new_initial_state()])
        world.unknown = [i for i, item in enumerate(self.items) if is_unknown(item)]
        i = 0
        while i < len(self.items):
            state = world.states[i]
            try:
                a = self.step(state, i, self.choice)
            except HistoryError as e:
                if not self.repair(world, i):
                    if any(u < i for u in world.unknown):  # not "illegal" in every world
                        raise HistoryError(f"{e} {self._unrepaired()}") from None
                    raise
                i = len(world.actions)  # the repair applied item i too
                continue
            nxt = state.clone()
            nxt.apply_action(a)
            world.states.append(nxt)
            world.actions.append(a)
            i += 1
        return world

    def _unrepaired(self) -> str:
        why = (
            f"the search for one that allows it stopped after {REPAIR_BUDGET:,} moves"
            if self.budget <= 0
            else "nor with one of them changed (two or more changes are not searched)"
        )
        return f"(in the world that fills the earlier '?' entries; {why}: name one)"

    def repair(self, world: World, k: int) -> bool:
        """Change one earlier ``?`` so that item ``k`` becomes legal; True when done."""
        for j in reversed([u for u in world.unknown if u < k]):
            current = self.choice[j]
            for alt in options(world.states[j]):
                if alt == current or self.budget <= 0:
                    continue
                choice = dict(self.choice)
                choice[j] = alt
                out = self.replay(world.states[j], j, k + 1, choice)
                if out is None:
                    continue
                states, actions = out
                self.choice = choice
                del world.states[j + 1 :]
                del world.actions[j:]
                world.states.extend(states[1:])
                world.actions.extend(actions)
                # Item k is applied now too; build() continues after it.
                return True
        return False


def build_world(game, items: list, viewer: int | None = None) -> World:
    """A world for ``items`` (``?`` allowed); each ``?`` is checked hidden from ``viewer``.

    With ``viewer`` None, the player to move at the end is the viewer (when the position ends
    at a decision); a ``?`` needs some viewer who could not see it.
    """
    check_player(game, viewer)
    builder = _Builder(game, items)
    world = builder.build()
    if world.unknown:
        if viewer is None:
            end = world.state
            if end.is_terminal() or end.is_chance_node():
                raise HistoryError(
                    "a history with '?' needs the player it is seen by (--player): the position"
                    " is not a decision"
                )
            viewer = end.current_player()
        for j in world.unknown:
            check_hidden(world.states[j], viewer, j + 1)
        world.viewer = viewer
    return world


def prefix(world: World, n: int) -> World:
    """``world`` up to its first ``n`` items (the position before item ``n``)."""
    return World(
        states=world.states[: n + 1],
        actions=world.actions[:n],
        unknown=[u for u in world.unknown if u < n],
        viewer=world.viewer,
    )


def world_choices(world: World) -> dict[int, int]:
    return {j: world.actions[j] for j in world.unknown}


def extend_world(game, world: World, items: list, item) -> World:
    """``world`` (built from ``items``) with one more item appended; rebuilt when needed.

    Raises HistoryError when no world consistent with the history allows the item.
    """
    state = world.state
    try:
        a = parse_action(state, item, len(items) + 1) if not is_unknown(item) else None
    except HistoryError:
        if not world.unknown:
            raise
        rebuilt = _Builder(game, items + [item], world_choices(world)).build()
        rebuilt.viewer = world.viewer
        return rebuilt
    if a is None:
        a = options(state)[0]
    nxt = state.clone()
    nxt.apply_action(a)
    unknown = world.unknown + ([len(items)] if is_unknown(item) else [])
    return World(
        states=world.states + [nxt],
        actions=world.actions + [a],
        unknown=unknown,
        viewer=world.viewer,
    )


POSSIBLE_SAMPLES = 64  # worlds re-dealt from the viewer's information state per menu


def possible_options(world: World, viewer: int, samples: int = POSSIBLE_SAMPLES):
    """The options at the end of ``world`` that some world consistent with what ``viewer``
    saw allows: {action id: (name, '?' choices of such a world)}.

    The world built for the ``?`` items is one of many; the real game may allow options it
    does not (an opponent's card that the placeholder deal gave to someone else). Those
    come from worlds re-dealt through the game's resampler (``resample_from_infostate``,
    whose ``history()`` is a consistent history), ``samples`` of them from a fixed seed.
    A re-dealt world is used only when its history keeps every named item.
    """
    state = world.state
    who = mover(state)
    found = {a: (state.action_to_string(who, a), world_choices(world)) for a in options(state)}
    if not world.unknown or state.is_terminal():
        return found
    unknown = set(world.unknown)
    rng = random.Random(len(world.actions))
    for _ in range(samples):
        other = state.resample_from_infostate(viewer, rng.random)
        history = list(other.history())
        if len(history) != len(world.actions) or any(
            history[i] != a for i, a in enumerate(world.actions) if i not in unknown
        ):
            continue
        choice = {j: history[j] for j in world.unknown}
        for a in options(other):
            if a not in found:
                found[a] = (other.action_to_string(who, a), choice)
    return dict(sorted(found.items()))


def adopt_world(game, items: list, choice: dict[int, int], viewer: int | None) -> World:
    """The world that plays ``items`` with the given ``?`` choices."""
    world = _Builder(game, items, choice).build()
    world.viewer = viewer
    return world


def single_changes(
    game, items: list, world: World, budget: int = REPAIR_BUDGET, tried=None, memo=None
):
    """Every world that changes one ``?`` choice of ``world`` (built from ``items``) and
    still allows every named item, the later ``?`` items replayed by the placeholder rule:
    yields (index of the changed item, its option, the world's last state). Stops once
    ``budget`` moves have been replayed; ``tried`` gets the index of every change tried
    (replayed or not), so a caller can tell the entries checked in full. ``memo``
    (``reveal.ChangeMemo``): where each change's replay stood at an earlier check of a
    shorter history, to go on from (``start``) and to keep for the next (``keep``)."""
    builder = _Builder(game, items, world_choices(world))
    builder.budget = budget
    for j in world.unknown:
        for alt in options(world.states[j]):
            if alt == world.actions[j]:
                continue
            if builder.budget <= 0:
                return
            if tried is not None:
                tried.append(j)
            choice = dict(builder.choice)
            choice[j] = alt
            state, at = (world.states[j], j) if memo is None else memo.start(j, alt, world)
            out = None if state is None else builder.replay(state, at, len(items), choice)
            end = None if out is None else out[0][-1]
            if memo is not None and (end is not None or builder.budget > 0):
                memo.keep(j, alt, end)  # not a replay the budget cut short
            if end is not None:
                yield j, alt, end


def scores_determined(game, items: list, world: World) -> bool:
    """Whether the final scores of a finished ``world`` hold in every world that changes one
    ``?`` choice and still allows every named item (False when the budget runs out)."""
    base = final_scores(world.state)
    builder = _Builder(game, items, world_choices(world))
    for j in world.unknown:
        for alt in options(world.states[j]):
            if alt == world.actions[j]:
                continue
            choice = dict(builder.choice)
            choice[j] = alt
            out = builder.replay(world.states[j], j, len(items), choice)
            if builder.budget <= 0:
                return False
            if out is not None and final_scores(out[0][-1]) != base:
                return False
    return True
