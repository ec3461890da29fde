"""Move advice: ask one or more agents what to play at a position, with statistics.

The position is rebuilt from a history or a game record (``tournament.advice.positions``).
The agent never sees the true state: it gets a state re-dealt from the
information state of the advised player (``state.resample_from_infostate``,
seeded from the advice seed), so hidden cards of other players cannot influence
the answer. For perfect-information games the resampler would be the identity,
so the state is simply cloned.

Reproducibility: one advice ``seed`` is split (numpy SeedSequence) into a stream
for the root resampling and a seed for the agents; every agent gets the same
agent seed, so an agent's answer does not depend on which other agents are
asked with it. With a simulation budget the same seed gives the same answer;
a time budget (``time=...``) is anytime search and varies with machine load. A time budget
is a deadline for the whole analysis: a search's selection gets ``SELECTION_SHARE`` of it
and its comparison phase stops when the time is up (``search_agent``).

Comparison: a search agent compares its ``COMPARED`` most searched moves (``top`` when
larger; and any move the caller names, e.g. the move played in a review) on the same
paired passes (``solvers.search.compare``); the moves are shown best first by that paired
mean value, so no listed move shows a better value than the recommendation. ``top`` only
cuts the list shown: up to ``COMPARED`` it changes neither the best move, nor a value, nor
the significance. When the agent's own pick (most visited in its root selection) is not
the best after the comparison, ``choice`` names it and the text says so.

Significance: the best move is "significantly better" than the second when the 95%
interval of their *paired* difference (``gap``) excludes 0; ``z`` is that difference over
its standard error. Without a comparison (``passes`` 0: an agent without that phase, or a
search stopped before it, whose root intervals are search noise only) there is no test:
``z`` and ``significant`` are None.

Units (docs/advice.md): ``value`` is the game's utility for the player to move (a rank
score in [-1, 1] by default: 1 = first of all, -1 = last of all); ``margin`` the
expected final score minus the best other player's, in points; ``first`` the chance to
finish first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyspiel

from solvers.assumptions import assumed_opponents, searches
from solvers.base import Z95, Agent, ChoiceTie, Compare
from solvers.registry import AgentSpec, all_kinds, resolve
from solvers.spec import AgentSpecError
from spiel_games.common.chance import UniformSampler
from tournament.advice.answer_units import units_of, value_unit
from tournament.advice.items import CHANCE, HistoryError, check_player, legal_strings
from tournament.advice.moves import (
    MoveAdvice,
    in_range,
    moves_of,
    own_pick,
    paired_z,
)

COMPARED = 5  # moves a search compares (the most searched), whatever `top` shows
# of a `time` budget, the share a search's selection gets: its comparison phase runs in the
# rest, up to the deadline (it costs about half the selection again: most passes fit)
SELECTION_SHARE = 0.6


@dataclass
class Advice:
    game: str
    agent: str
    seed: int
    player: int  # whose information state the advice uses
    to_move: int
    ply: int  # actions applied from the start (chance included)
    moves: list[MoveAdvice]  # best first, at most `top`
    num_legal: int
    significant: bool | None  # None when it does not apply (one move, or no statistics)
    z: float | None
    budget: dict = field(default_factory=dict)
    seconds: float = 0.0
    analysed: bool = True  # False: the agent only named a move (no search statistics)
    runner_up: str | None = None  # the second move, which significance compares against
    choice: str | None = None  # the agent's own pick, when not the best after comparison
    choice_tie: ChoiceTie | None = None  # the pick was tied on visits while selecting
    tied: list[str] = field(default_factory=list)  # compared moves with the best's mean value
    passes: int = 0  # paired passes of the comparison (0: none)
    terminated: bool = False  # the engine's terminate stopped this search early
    utility: str = "rank"  # the game's utility mode: value's unit, and whether ci is calibrated
    # the agent's own field meanings (solvers.units; None: the field does not apply)
    agent_units: dict = field(default_factory=dict)

    @property
    def units(self) -> dict:
        stopped = not self.passes and any(m.ci_low is not None for m in self.moves)
        return units_of(self.utility, stopped, self.agent_units)

    @property
    def best(self) -> str:
        return self.moves[0].action

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "agent": self.agent,
            "seed": self.seed,
            "player": self.player,
            "to_move": self.to_move,
            "ply": self.ply,
            "best": self.best,
            "significant": self.significant,
            "runner_up": self.runner_up,
            # null also when every pass gave the same gap (z infinite: JSON has no Infinity)
            "z": None if self.z is None or not math.isfinite(self.z) else round(self.z, 4),
            "moves": [m.to_json() for m in self.moves],
            "num_legal": self.num_legal,
            "analysed": self.analysed,
            "choice": self.choice,
            "passes": self.passes,
            "units": self.units,
            "budget": self.budget,
            "seconds": round(self.seconds, 4),
        } | ({"terminated": True} if self.terminated else {})


@dataclass
class AdviceSet:
    """Advice from several agents on one position; ``skipped``: the agents asked for but
    not run (a terminate came first), after those in ``items``."""

    items: list[Advice]
    skipped: list[str] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return len({a.best for a in self.items}) == 1

    def to_json(self) -> dict:
        """One agent's object; for several agents asked (whatever ran), the set's."""
        if len(self.items) + len(self.skipped) == 1:
            return self.items[0].to_json()
        first = self.items[0]
        not_run = [{"agent": a, "skipped": True} for a in self.skipped]
        return {
            "game": first.game,
            "seed": first.seed,
            "player": first.player,
            "to_move": first.to_move,
            "ply": first.ply,
            # null when fewer than two agents gave advice (the others stopped by terminate)
            "agree": self.agree if len(self.items) > 1 else None,
            "best": {a.agent: a.best for a in self.items} | {a: None for a in self.skipped},
            "agents": [a.to_json() for a in self.items] + not_run,
        }


def with_budget(spec: str | AgentSpec, overrides: dict | None) -> AgentSpec:
    """``spec`` with parameters replaced by ``overrides`` (e.g. {"time": 0.5}), validated
    (an unknown parameter raises AgentSpecError naming the valid ones)."""
    return resolve(spec).with_params(overrides)


def seeds_for(seed: int) -> tuple[np.random.Generator, int]:
    """(RNG for the root resampling, seed for every agent) from one advice seed."""
    root_ss, agent_ss = np.random.SeedSequence(seed).spawn(2)
    return np.random.default_rng(root_ss), int(agent_ss.generate_state(1)[0])


def check_position(state) -> None:
    if state.is_terminal():
        raise HistoryError(
            f"the position is terminal (the game ended after {len(state.history())} actions): "
            'there is no move to advise; give an earlier ply (--ply N, "ply" in a JSON '
            "query), or review the whole game with meeple review"
        )
    if state.is_chance_node():
        raise HistoryError("the position is a chance node: give the chance outcome in the history")


def viewpoint_state(state, player: int, rng: np.random.Generator):
    """A state consistent with ``player``'s information state, drawn with ``rng``."""
    info = state.get_game().get_type().information
    if info == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return state.clone()
    try:
        resampled = state.resample_from_infostate(player, UniformSampler(rng))
    except (AttributeError, NotImplementedError, pyspiel.SpielError) as e:
        raise HistoryError(
            f"{state.get_game().get_type().short_name} has no resampler: cannot advise "
            f"from an information state ({str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__})"
        ) from None
    if resampled.current_player() != state.current_player():
        raise HistoryError("the game's resampler changed the player to move")
    return resampled


def advise_state(
    game_string: str,
    state,
    agent_spec: str | AgentSpec,
    *,
    player: int | None = None,
    top: int = 5,
    seed: int = 0,
    ply: int | None = None,
    budget: dict | None = None,
    include: Sequence[int] = (),
    passes: int | None = None,
    compared: int | None = None,
    on_agent: Callable | None = None,
) -> Advice:
    """Advice from one agent for the decision at ``state``: the ``top`` best moves of
    the ``compared`` most searched (None: ``COMPARED``, or ``top`` when larger), and the
    moves in ``include`` (e.g. the move played), compared on ``passes`` paired passes
    (None: from the budget); ``on_agent(agent, root)`` is called before the search (the
    engine protocol watches and stops searches through it)."""
    check_position(state)
    game = state.get_game()
    mover = state.current_player()
    view = mover if player is None else int(player)
    check_player(game, view)
    if top < 1:
        raise HistoryError("top must be at least 1")
    spec = with_budget(agent_spec, budget)
    root_rng, agent_seed = seeds_for(seed)
    root = viewpoint_state(state, view, root_rng)
    agent, asked_seconds = search_agent(spec, game, agent_seed)
    agent.reset()
    # The legal moves as the advised player sees them: when that player is not the mover,
    # the mover's options depend on cards the player cannot see, so they come from the
    # re-dealt state too (the true state's moves would leak them).
    legal = dict(legal_strings(root))
    if on_agent is not None:
        on_agent(agent, root)
    t0 = time.perf_counter()
    if getattr(agent, "compares", False):
        listed = max(top, COMPARED) if compared is None else compared
        deadline = t0 + asked_seconds if asked_seconds else None
        ask = Compare(listed, tuple(int(a) for a in include), passes, deadline)
        analysis = agent.analyse(root.clone(), compare=ask)  # type: ignore[call-arg]
    else:
        analysis = agent.analyse(root.clone())
    moves, budget_used, choice, done = moves_of(analysis, agent, root, legal, mover)
    seconds = time.perf_counter() - t0
    if asked_seconds:  # the agent was given the selection's share: report the whole
        budget_used["seconds"] = asked_seconds
    for m in moves:
        if m.action_id not in legal:
            raise RuntimeError(f"agent {str(spec)!r} advised an illegal action {m.action_id}")
    if not moves:
        raise RuntimeError(f"agent {str(spec)!r} returned no moves")
    z = paired_z(moves)  # from the paired gap as measured; the intervals shown stay in range:
    significant = None if z is None else bool(z > Z95)
    moves = in_range(moves, root.get_game())
    shown = moves[:top] + [m for m in moves[top:] if m.action_id in include]
    return Advice(
        game=game_string,
        agent=str(spec),
        seed=seed,
        player=view,
        to_move=mover,
        ply=len(state.history()) if ply is None else ply,
        moves=shown,
        num_legal=len(legal),
        significant=significant,
        z=z,
        budget=budget_used,
        seconds=seconds,
        analysed=analysis is not None,
        runner_up=moves[1].action if len(moves) > 1 else None,
        **own_pick(analysis, choice, moves, legal),
        passes=done,
        utility=str(game.get_parameters().get("utility", "rank")),
        agent_units=dict(getattr(analysis, "units", None) or {}),
    )


def only_move(state, player: int, seed: int) -> str | None:
    """The one legal move at ``state`` as ``player`` sees it (on the re-dealt state advice
    with ``seed`` would search), or None when there are more: a hint answers it at once."""
    legal = legal_strings(viewpoint_state(state, player, seeds_for(seed)[0]))
    return legal[0][1] if len(legal) == 1 else None


def search_agent(spec: AgentSpec, game, seed: int) -> tuple[Agent, float]:
    """(the agent, the seconds its whole analysis may take: 0 for no deadline). A search
    with a ``time`` budget compares its moves within that time too: its selection gets
    ``SELECTION_SHARE`` of it, and the comparison stops at the deadline."""
    agent = spec.make(game, seed)
    seconds = float(spec.params.get("time", 0.0) or 0.0)  # type: ignore[arg-type]
    if not getattr(agent, "compares", False) or seconds <= 0:
        return agent, 0.0
    return spec.with_params({"time": seconds * SELECTION_SHARE}).make(game, seed), seconds


def advise(
    game_string: str, state, agents: Sequence[str | AgentSpec], budget: dict | None = None, **kw
) -> AdviceSet:
    """Advice from every agent in ``agents`` on the same position, with the same seed.

    ``budget`` overrides (e.g. ``{"time": 0.5}``) apply to each agent that has that
    parameter; an override that no agent accepts is an error.
    """
    if not agents:
        raise HistoryError("give at least one --agent")
    specs = [resolve(a) for a in agents]
    check_distinct(specs)
    per_agent = budgets_for(specs, budget)
    return AdviceSet(
        [
            advise_state(game_string, state, spec, budget=b, **kw)
            for spec, b in zip(specs, per_agent, strict=True)
        ]
    )


def opponent_models(game, specs: Sequence[AgentSpec]) -> list[str]:
    """The lines naming the opponent model each searching agent's values assume: what
    `meeple advise` prints first, and ``opponent_models`` in its JSON and the engine's."""
    return [f"Opponent model ({s}): " + assumed_opponents(game, s) for s in specs if searches(s)]


def check_distinct(specs: Sequence[AgentSpec], how: str = "") -> None:
    """One agent given twice is refused (its advice would be listed under one key)."""
    names = [str(s) for s in specs]
    twice = next((x for x in names if names.count(x) > 1), None)
    if twice is not None:
        raise HistoryError(f"agent {twice!r} is given twice{how}; give each agent once")


def budgets_for(
    specs: Sequence[AgentSpec], budget: dict | None, flag: str = "budget {!r}"
) -> list[dict]:
    """The overrides each agent takes (those of its parameters; ``{"time": 0.5}`` leaves
    ``heuristic`` as it is), each checked on its agent (values in range); an override that
    no agent takes is an error naming the kinds that have it (``flag``: how the override
    was given, "--{}" on the command line). The one check of `advise --time` and the JSON
    engine's ``budget``."""
    if not budget:
        return [{} for _ in specs]
    out = [{k: v for k, v in budget.items() if k in {p.name for p in s.kind.params}} for s in specs]
    unused = sorted(set(budget) - set().union(*(set(b) for b in out)))
    if unused:
        k = unused[0]
        have = [x.name for x in all_kinds() if k in {p.name for p in x.params}]
        names = list(dict.fromkeys(s.kind.name for s in specs))
        raise AgentSpecError(
            f"{flag.format(k)} needs an agent with a {k} parameter"
            + (f" ({', '.join(have)})" if have else "")
            + (f"; {names[0]} has none" if len(names) == 1 else f"; none of {', '.join(names)} has")
        )
    made = [with_budget(spec, b) for spec, b in zip(specs, out, strict=True)]
    # two agents the overrides make one (was: both answered under one key in "best")
    check_distinct(
        made, " once the overrides " + ", ".join(f"{k}={v!r}" for k, v in budget.items()) + " apply"
    )
    return out


__all__ = [
    "CHANCE",
    "Advice",
    "AdviceSet",
    "MoveAdvice",
    "advise",
    "budgets_for",
    "check_distinct",
    "only_move",
    "opponent_models",
    "advise_state",
    "value_unit",
    "with_budget",
]
