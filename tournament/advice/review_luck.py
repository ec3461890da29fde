"""The luck of the chance events a reviewed player saw, and a luck-adjusted result.

For a chance event at state ``s`` with outcomes ``o`` (probabilities ``p_o``), the luck is
``f(s.o) - sum_o' p_o' f(s.o')``: what the outcome that happened is worth minus what the
event was worth on average (GNU Backgammon's luck; the same measurement as
``tournament.luck``, whose evaluator it reuses). ``f`` is read in the review's two units:

- points: the player's expected final score minus the best other player's expected final
  score (the game's evaluation, read after the heuristic has played to the next chance
  event, as ``tournament.luck`` does; the final scores at the end);
- chance to finish first: from the evaluation's pairwise chances of finishing ahead,
  ``prod_j W_ij`` normalised over the players (the result itself at the end).

Every chance event before the first decision (the deal, the setup) is one event, whose
expectation is the mean over ``OPENING_SAMPLES`` openings drawn with a fixed seed. An
event counts when the player saw it: its outcomes leave the player different information
states (a card dealt face down to someone else does not count). Each event's luck has
expectation 0, so the luck-adjusted result (the result minus the luck) keeps the result's
expectation. In chance to finish first that unbiased estimate can leave [0, 1] (a player
who won despite bad luck: 1 - (-0.04) = 1.04); what is shown as a chance
(``adjusted_first``, the text and the page) is it clipped to [0, 1], and the JSON keeps the
raw estimate as ``adjusted_first_unbiased``. Simplification: the evaluation reads the whole position, other players'
hidden cards included (it is applied after the game, as GNU Backgammon's is).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from spiel_games.common.registry import get_spec
from tournament.luck import Evaluator, LuckError, evaluator_for, first_decision

OPENING_SAMPLES = 300


@dataclass
class LuckEvent:
    ply: int  # actions before the event (-1: the opening)
    outcome: str
    points: float
    first: float

    def to_json(self) -> dict:
        return {
            "ply": self.ply,
            "outcome": self.outcome,
            "points": self.points,
            "first": self.first,
        }


@dataclass
class LuckReport:
    events: list[LuckEvent] = field(default_factory=list)
    # final score minus the best other player's; 1 when first alone, 1/k when k share first
    # place (a game not over: the evaluation's expectation of both at its last position)
    result_points: float = 0.0
    result_first: float = 0.0
    evaluator: str = ""
    finished: bool = True  # False: the record stops before the end, the result is so far

    @property
    def points(self) -> float:
        return sum(e.points for e in self.events)

    @property
    def first(self) -> float:
        return sum(e.first for e in self.events)

    @property
    def adjusted_points(self) -> float:
        return self.result_points - self.points

    @property
    def adjusted_first_unbiased(self) -> float:
        """The result minus the luck in chance to finish first: unbiased, and so not
        bounded: it can be below 0 or above 1."""
        return self.result_first - self.first

    @property
    def adjusted_first(self) -> float:
        """The luck-adjusted chance to finish first as a chance: the unbiased estimate
        clipped to [0, 1]."""
        return min(1.0, max(0.0, self.adjusted_first_unbiased))

    def to_json(self) -> dict:
        return {
            "events": [e.to_json() for e in self.events],
            "total_points": self.points,
            "total_first": self.first,
            "result_points": self.result_points,
            "result_first": self.result_first,
            "finished": self.finished,
            "adjusted_points": self.adjusted_points,
            "adjusted_first": self.adjusted_first,
            "adjusted_first_unbiased": self.adjusted_first_unbiased,
            "evaluator": self.evaluator,
        }


def units(ev: Evaluator, state, me: int) -> tuple[float, float]:
    """(points, first) of ``me`` at ``state``, from the evaluator."""
    v, w = ev.values(state)
    others = [x for i, x in enumerate(v) if i != me]
    wins = np.array([np.prod(np.delete(w[i], i)) for i in range(len(v))])
    total = wins.sum()
    return float(v[me] - max(others)), float(wins[me] / total) if total > 0 else 0.0


@lru_cache(maxsize=16)
def _opening(game_string: str, me: int, samples: int = OPENING_SAMPLES) -> tuple[float, float]:
    ev = evaluator_for(game_string)
    rng = np.random.default_rng(20)
    found = [
        units(ev, first_decision(ev.game.new_initial_state(), rng), me) for _ in range(samples)
    ]
    return float(np.mean([p for p, _ in found])), float(np.mean([f for _, f in found]))


def _info(state, player: int) -> str:
    try:
        return state.information_state_string(player)
    except Exception:  # a game without information states: its observation
        return state.observation_string(player)


def review_luck(game_string: str, actions: list[int], me: int) -> LuckReport | None:
    """The luck of every chance event ``me`` saw in the game ``actions`` (None when the
    game has no evaluation to measure it with)."""
    try:
        ev = evaluator_for(game_string)
    except LuckError:
        return None
    if get_spec(game_string).evaluation is None:
        return None
    state = ev.game.new_initial_state()
    i = 0
    while state.is_chance_node() and i < len(actions):
        state.apply_action(actions[i])
        i += 1
    report = LuckReport(evaluator=ev.name)
    mean_points, mean_first = _opening(game_string, me)
    points, first = units(ev, state, me)
    report.events.append(LuckEvent(-1, "the opening", points - mean_points, first - mean_first))
    for ply in range(i, len(actions)):
        a = actions[ply]
        if state.is_chance_node():
            event = _event(ev, state, a, me, ply)
            if event is not None:
                report.events.append(event)
        state.apply_action(a)
    report.finished = state.is_terminal()
    # at the end the result; before it, the evaluation's expectation at the last position,
    # in the luck's own units (was: the points scored so far, minus luck valued in expected
    # final points: -7.9 points where every score was still 0)
    report.result_points, report.result_first = units(ev, state, me)
    return report


def _event(ev: Evaluator, state, a: int, me: int, ply: int) -> LuckEvent | None:
    outcomes = state.chance_outcomes()
    found, infos = {}, set()
    for o, _ in outcomes:
        child = state.clone()
        child.apply_action(o)
        infos.add(_info(child, me))
        found[o] = units(ev, child, me)
    if len(infos) < 2 or a not in found:  # the player could not tell the outcomes apart
        return None
    probs = np.array([p for _, p in outcomes])
    expect = probs @ np.array([found[o] for o, _ in outcomes])
    now = found[a]
    return LuckEvent(
        ply, state.action_to_string(-1, a), now[0] - float(expect[0]), now[1] - float(expect[1])
    )
