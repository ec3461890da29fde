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
a time budget (``time=...``) is anytime search and varies with machine load.

Significance: the best move is "significantly better" than the second when a
two-sided z test on the difference of their mean values rejects equality at 5%,
using the standard errors implied by each move's 95% interval
(se = (ci_high - ci_low) / (2 z), z = ``solvers.base.Z95`` = 1.96, the one constant the
search's intervals are built with). Search statistics of sibling moves are
not independent samples, so read it as a guide, not as an exact p-value.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pyspiel

from solvers.base import Z95
from solvers.registry import AgentSpec, resolve
from spiel_games.common.chance import UniformSampler
from tournament.advice.items import CHANCE, HistoryError, check_player, legal_strings


@dataclass
class MoveAdvice:
    action: str
    action_id: int
    value: float | None = None
    visits: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    prob: float | None = None

    def to_json(self) -> dict:
        out = {
            "action": self.action,
            "id": self.action_id,
            "value": self.value,
            "visits": self.visits,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
        }
        if self.prob is not None:
            out["prob"] = self.prob
        return out


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
            "z": None if self.z is None else round(self.z, 4),
            "moves": [m.to_json() for m in self.moves],
            "num_legal": self.num_legal,
            "analysed": self.analysed,
            "budget": self.budget,
            "seconds": round(self.seconds, 4),
        }


@dataclass
class AdviceSet:
    """Advice from several agents on one position."""

    items: list[Advice]

    @property
    def agree(self) -> bool:
        return len({a.best for a in self.items}) == 1

    def to_json(self) -> dict:
        if len(self.items) == 1:
            return self.items[0].to_json()
        first = self.items[0]
        return {
            "game": first.game,
            "seed": first.seed,
            "player": first.player,
            "to_move": first.to_move,
            "ply": first.ply,
            "agree": self.agree,
            "best": {a.agent: a.best for a in self.items},
            "agents": [a.to_json() for a in self.items],
        }


def with_budget(spec: str | AgentSpec, overrides: dict | None) -> AgentSpec:
    """``spec`` with parameters replaced by ``overrides`` (e.g. {"time": 0.5}), validated
    (an unknown parameter raises AgentSpecError naming the valid ones)."""
    return resolve(spec).with_params(overrides)


def z_score(a: MoveAdvice, b: MoveAdvice) -> float | None:
    """z statistic of value(a) - value(b) from the moves' 95% intervals; None without them."""
    if (
        a.value is None
        or b.value is None
        or a.ci_low is None
        or a.ci_high is None
        or b.ci_low is None
        or b.ci_high is None
    ):
        return None
    se_a = (a.ci_high - a.ci_low) / (2 * Z95)
    se_b = (b.ci_high - b.ci_low) / (2 * Z95)
    se = math.hypot(se_a, se_b)
    diff = a.value - b.value
    if se == 0.0:
        return math.inf if diff > 0 else (-math.inf if diff < 0 else 0.0)
    return diff / se


def seeds_for(seed: int) -> tuple[np.random.Generator, int]:
    """(RNG for the root resampling, seed for every agent) from one advice seed."""
    root_ss, agent_ss = np.random.SeedSequence(seed).spawn(2)
    return np.random.default_rng(root_ss), int(agent_ss.generate_state(1)[0])


def check_position(state) -> None:
    if state.is_terminal():
        raise HistoryError("the position is terminal: there is no move to advise")
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
) -> Advice:
    """Advice from one agent for the decision at ``state``."""
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
    agent = spec.make(game, agent_seed)
    agent.reset()
    # The legal moves as the advised player sees them: when that player is not the mover,
    # the mover's options depend on cards the player cannot see, so they come from the
    # re-dealt state too (the true state's moves would leak them).
    legal = dict(legal_strings(root))
    t0 = time.perf_counter()
    analysis = agent.analyse(root.clone())
    analysed = analysis is not None
    if analysis is not None:
        moves = _analysed_moves(analysis, legal)
        budget_used = dict(analysis.budget)
    else:
        a = int(agent.step(root.clone()))
        moves = [MoveAdvice(action=root.action_to_string(mover, a), action_id=a)]
        budget_used = {}
    seconds = time.perf_counter() - t0
    for m in moves:
        if m.action_id not in legal:
            raise RuntimeError(f"agent {str(spec)!r} advised an illegal action {m.action_id}")
    if not moves:
        raise RuntimeError(f"agent {str(spec)!r} returned no moves")
    z = z_score(moves[0], moves[1]) if len(moves) > 1 else None
    significant = None if z is None else bool(z > Z95)
    return Advice(
        game=game_string,
        agent=str(spec),
        seed=seed,
        player=view,
        to_move=mover,
        ply=len(state.history()) if ply is None else ply,
        moves=moves[:top],
        num_legal=len(legal),
        significant=significant,
        z=z,
        budget=budget_used,
        seconds=seconds,
        analysed=analysed,
        runner_up=moves[1].action if len(moves) > 1 else None,
    )


def _analysed_moves(analysis, legal: dict[int, str]) -> list[MoveAdvice]:
    """An analysis's moves; a policy's (moves with probabilities) lists the legal moves it
    never plays at probability 0 (an action abstraction plays one of alike moves)."""
    moves = [
        MoveAdvice(
            action=m.action_str or legal.get(int(m.action), str(m.action)),
            action_id=int(m.action),
            value=_num(m.value),
            visits=_count(m.visits),
            ci_low=_num(m.ci_low),
            ci_high=_num(m.ci_high),
            prob=_num(m.prob),
        )
        for m in analysis.moves
    ]
    if moves and moves[0].prob is not None:
        n, listed = moves[0].visits, {m.action_id for m in moves}
        unplayed = [(a, name) for a, name in legal.items() if a not in listed]
        moves += [MoveAdvice(name, a, visits=n, prob=0.0) for a, name in unplayed]
    return moves


def _count(x):
    x = _num(x)
    return int(x) if x is not None and x.is_integer() else x


def _num(x):
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


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
    per_agent = [_applicable(spec, budget) for spec in specs]
    if budget:
        used = set().union(*(set(b) for b in per_agent))
        unused = sorted(set(budget) - used)
        if unused:
            # Let the registry name the valid parameters of the (first) agent.
            with_budget(specs[0], {k: budget[k] for k in unused})
    return AdviceSet(
        [
            advise_state(game_string, state, spec, budget=b, **kw)
            for spec, b in zip(specs, per_agent, strict=True)
        ]
    )


def _applicable(spec: AgentSpec, budget: dict | None) -> dict:
    if not budget:
        return {}
    names = {p.name for p in spec.kind.params}
    return {k: v for k, v in budget.items() if k in names}


# ----- text rendering -----------------------------------------------------------------
def _fmt(x, width: int, digits: int = 3) -> str:
    if x is None:
        return "-".rjust(width)
    if isinstance(x, float) and x.is_integer() and digits == 0:
        return f"{int(x)}".rjust(width)
    return f"{x:.{digits}f}".rjust(width)


def render(advice_set: AdviceSet, header: bool = True, timing: bool = True) -> str:
    """The advice as text; ``timing`` False leaves out the wall time (in-game hints)."""
    lines = []
    first = advice_set.items[0]
    view = f"P{first.player + 1}"
    if header:
        lines.append(
            f"{first.game} after {first.ply} actions; P{first.to_move + 1} to move; "
            f"advice from {view}'s information state; {first.num_legal} legal moves"
        )
    for i, adv in enumerate(advice_set.items):
        if header or i:
            lines.append("")
        spent = ", ".join(f"{k}={v}" for k, v in adv.budget.items()) or "no search"
        took = f"  ({adv.seconds:.2f} s)" if timing else ""
        lines.append(f"agent {adv.agent}  seed {adv.seed}  budget: {spent}{took}")
        if not adv.analysed:
            lines.append(f"  plays: {adv.best}  (no statistics from this agent here)")
            continue
        w = max(8, *(len(m.action) for m in adv.moves))
        lines.append(
            f"  {'#':>2}  {'move':<{w}} {'visits':>8} {'mean':>7}  {'95% CI':<17} {'prob':>6}"
        )
        for i, m in enumerate(adv.moves, start=1):
            ci = "-" if m.ci_low is None else f"[{m.ci_low:.3f}, {m.ci_high:.3f}]"
            lines.append(
                f"  {i:>2}  {m.action:<{w}} {_fmt(m.visits, 8, 0)} {_fmt(m.value, 7)}  "
                f"{ci:<17} {_fmt(m.prob, 6)}"
            )
        lines.append("  " + _verdict(adv))
    if len(advice_set.items) > 1:
        lines.append("")
        if advice_set.agree:
            lines.append(f"agents agree: {first.best}")
        else:
            lines.append(
                "agents disagree: " + "; ".join(f"{a.agent} -> {a.best}" for a in advice_set.items)
            )
    return "\n".join(lines)


def _move(adv: Advice, action: str) -> MoveAdvice | None:
    return next((m for m in adv.moves if m.action == action), None)


def _verdict(adv: Advice) -> str:
    if adv.runner_up is None:
        return f"best: {adv.best} (the only legal move)"
    second = adv.runner_up
    if adv.z is None:
        first, runner = adv.moves[0].prob, _move(adv, second)
        if first is not None and runner is not None and runner.prob is not None:
            return (
                f"best: {adv.best} (policy probability {first:.3f}, {second} {runner.prob:.3f};"
                " a policy gives no interval to test)"
            )
        return f"best: {adv.best} (no interval to compare with {second})"
    z = f"z = {adv.z:.2f}" if math.isfinite(adv.z) else "z = inf"
    if adv.significant:
        return f"best: {adv.best}, significantly better than {second} ({z}, 5% level)"
    return f"best: {adv.best}, not significantly better than {second} ({z})"


__all__ = [
    "CHANCE",
    "Advice",
    "AdviceSet",
    "MoveAdvice",
    "advise",
    "advise_state",
    "render",
    "with_budget",
    "z_score",
]
