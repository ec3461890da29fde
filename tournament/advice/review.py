"""``meeple review``: a move-by-move review of one player's game, in the manner of GNU
Backgammon's analysis.

For every unforced decision of the reviewed player, the agent analyses the position from
that player's information state (exactly as ``meeple advise --ply N --player P --seed S``
would) and compares advise's ``COMPARED`` most searched moves *and the move played* on the
same paired passes (``solvers.search.compare``): the values advise gives. The best move is
the best of those by value (advise's recommendation, or the move played), so a loss is
never negative. Each decision gets:

- the loss in three units, each against the best compared move in that unit: value (the
  game's utility, a rank score in [-1, 1] by default), points (final margin over the best
  other player) and chance to finish first;
- a mark by the loss in points: ``doubtful``, ``bad`` or ``very bad`` at the game's
  ``THRESHOLDS`` (docs/advice.md), given only to a move other than the recommendation (the
  best by value; one that ties it in value is marked by its points all the same) and
  read from the *lower end* of the loss's 95% range, ``loss - Z95 sqrt(se^2 + floor^2)``
  (``se`` from the paired comparison, ``floor`` the game's ``LOSS_FLOOR``: how much more a
  loss moves between reviews with different seeds). A move is marked bad only when the
  review is sure (97.5%, one-sided) that it loses at least the "bad" threshold; a loss the
  comparison cannot tell from noise is not marked, and a loss near a threshold gets the
  lower mark, so the mark does not turn on the review's seed;
- its accuracy, Lichess's formula on the loss in chance to finish first (percentage
  points): ``103.1668 exp(-0.04354 loss) - 3.1669``, clipped to [0, 100].

The summary: the error rate (mean loss per unforced decision, in points and in chance to finish
first), the mean accuracy, the marks, the three biggest mistakes with the position as seen, and
each seen chance event's luck, with a luck-adjusted result (``tournament.advice.review_luck``).

The game comes from a record (``meeple play``, table mode, ``meeple replay --save``) or a
ledger game (its recorded moves, or replayed exactly from its seed). Records with ``?`` are
reviewed from the world the record's ``me`` seat saw."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import spiel_games
from solvers.registry import AgentSpec, resolve
from tournament.advice.advise import COMPARED, advise_state
from tournament.advice.answer_units import REVIEW_UNITS
from tournament.advice.items import (
    CHANCE,
    HistoryError,
    NoValuesError,
    PlayerRangeError,
    check_player,
)
from tournament.advice.moves import MoveAdvice
from tournament.advice.play import readable_observation
from tournament.advice.positions import GameRecord, record_viewer, replay_record_world
from tournament.advice.review_luck import LuckReport, review_luck
from tournament.advice.review_marks import (
    DEFAULT_THRESHOLDS,
    LOSS_FLOOR,
    MARKS,
    accuracy,
    loss_low,
    mark_for,
    thresholds_for,
)
from tournament.ledger import read_ledger

MISTAKES = 3
DEFAULT_AGENT = "ismcts(sims=800)"


@dataclass
class Decision:
    ply: int  # actions before this decision (chance included); `advise --ply` takes it
    played: str
    best: str
    best_value: float | None
    ci_low: float | None
    ci_high: float | None
    played_value: float | None
    loss: float | None  # in value; None when the agent gives no value for the move played
    view: str = ""  # the position through the player's own view
    best_points: float | None = None  # margin of the best move, points
    played_points: float | None = None
    loss_points: float | None = None
    loss_points_low: float | None = None  # 95% lower bound of the loss in points (marks)
    best_first: float | None = None  # chance to finish first after the best move
    played_first: float | None = None
    loss_first: float | None = None
    mark: str | None = None
    accuracy: float | None = None

    def to_json(self, view: bool = False) -> dict:
        out = {
            k: _json_value(getattr(self, k))
            for k in (
                "ply",
                "played",
                "best",
                "best_value",
                "ci_low",
                "ci_high",
                "played_value",
                "loss",
                "best_points",
                "played_points",
                "loss_points",
                "loss_points_low",
                "best_first",
                "played_first",
                "loss_first",
                "mark",
                "accuracy",
            )
        }
        if view:
            out["view"] = self.view
        return out


def _finite(x: float | None) -> float | None:
    """A number as JSON holds it: NaN or an infinity (not measured, no interval) is None."""
    return x if x is None or math.isfinite(x) else None


def _json_value(x):
    """A decision's field for JSON: a float through ``_finite``, anything else as it is."""
    return _finite(x) if isinstance(x, float) else x


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


@dataclass
class Review:
    game: str
    player: int
    agent: str
    seed: int
    decisions: list[Decision] = field(default_factory=list)
    forced: int = 0  # forced moves of the player (one legal action), skipped
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS
    luck: LuckReport | None = None

    @property
    def scored(self) -> list[Decision]:
        return [d for d in self.decisions if d.loss is not None]

    @property
    def average_loss(self) -> float | None:
        return _mean([d.loss for d in self.scored])  # type: ignore[misc]

    @property
    def error_rate_points(self) -> float | None:
        return _mean([d.loss_points for d in self.decisions if d.loss_points is not None])

    @property
    def error_rate_first(self) -> float | None:
        return _mean([d.loss_first for d in self.decisions if d.loss_first is not None])

    @property
    def accuracy(self) -> float | None:
        return _mean([d.accuracy for d in self.decisions if d.accuracy is not None])

    def marks(self) -> dict[str, int]:
        return {m: sum(d.mark == m for d in self.decisions) for m in MARKS}

    def mistakes(self, k: int = MISTAKES) -> list[Decision]:
        """The ``k`` biggest mistakes: the marked moves, the worst mark first (one that ties
        the recommendation in value can still lose points), then the other losses in value
        > 0; within a mark by loss in value, ties the earlier decision first."""
        severity = {m: i + 1 for i, m in enumerate(MARKS)}
        ranked = sorted(
            (d for d in self.decisions if d.mark or (d.loss is not None and d.loss > 0)),
            key=lambda d: (-severity.get(d.mark or "", 0), -(d.loss or 0.0), d.ply),
        )
        return ranked[:k]

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "player": self.player,
            "agent": self.agent,
            "seed": self.seed,
            "units": REVIEW_UNITS,
            "thresholds": dict(zip(MARKS, self.thresholds, strict=True)),
            "decisions": [d.to_json() for d in self.decisions],
            "summary": {
                "decisions": len(self.decisions),
                "forced_skipped": self.forced,
                "average_loss": self.average_loss,
                "error_rate_points": self.error_rate_points,
                "error_rate_first": self.error_rate_first,
                "accuracy": self.accuracy,
                "marks": self.marks(),
                "mistakes": [d.to_json(view=True) for d in self.mistakes()],
                "luck": None if self.luck is None else self.luck.to_json(),
            },
        }


def review(
    record: GameRecord,
    agent: str | AgentSpec = DEFAULT_AGENT,
    *,
    player: int | None = None,
    seed: int = 0,
    game_string: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    luck: bool = True,
    workers: int = 1,
) -> Review:
    """Review every unforced decision of ``player`` (default: the record's ``me``/``human``
    seat). A forced move (one legal action) is skipped: no budget is spent on it and it
    does not count. ``on_progress(done, total)`` is called before the first decision and
    after each one. ``luck`` False leaves out the luck of the chance events. ``workers``
    processes analyse the decisions side by side; each decision is seeded on its own, so
    the review is the same for any number of workers."""
    if workers < 1:
        raise HistoryError("workers must be at least 1")
    game_string = game_string or record.game
    game = spiel_games.load_game(game_string)
    if player is None:
        player = record_viewer(record)
        if player is None:
            raise PlayerRangeError("give --player: the record has no single 'me' or 'human' seat")
    check_player(game, player)
    spec = resolve(agent)
    world = replay_record_world(game, record, viewer=player)
    result = Review(
        game=game_string,
        player=player,
        agent=str(spec),
        seed=seed,
        thresholds=thresholds_for(game_string),
    )
    todo = [
        i
        for i, s in enumerate(world.states[: len(world.actions)])
        if not s.is_chance_node() and s.current_player() == player
    ]
    result.forced = sum(1 for i in todo if len(world.states[i].legal_actions()) == 1)
    todo = [i for i in todo if len(world.states[i].legal_actions()) > 1]
    if on_progress is not None:
        on_progress(0, len(todo))
    tasks = [(game_string, world.actions[: i + 1], str(spec), player, seed) for i in todo]
    if not todo:
        raise HistoryError(f"P{player + 1} has no unforced decision in this game")
    for done, d in enumerate(_run(tasks, workers, world), start=1):
        if d.best_value is None:  # an agent with no values has none anywhere: stop at once
            raise NoValuesError(  # was: after every decision, and "no mistakes", loss 0
                f"agent {spec} gives no value for any move (it plays one, or weighs them by"
                " probability), so no loss can be measured; review with a search, e.g."
                " -a 'ismcts(sims=400)'"
            )
        result.decisions.append(d)
        if on_progress is not None:
            on_progress(done, len(todo))
    if luck:
        result.luck = review_luck(game_string, world.actions, player)
    return result


def _run(tasks: list, workers: int, world) -> Iterator[Decision]:
    """The decisions of ``tasks`` in order, analysed by ``workers`` processes (1: here, on
    the states already replayed)."""
    if workers == 1 or len(tasks) < 2:
        for t in tasks:
            yield _decision(*t, state=world.states[len(t[1]) - 1])
        return
    pool = ProcessPoolExecutor(min(workers, len(tasks)))
    try:
        yield from pool.map(_decision_task, tasks)
    finally:  # a refusal or Ctrl-C: the queued decisions are dropped, not analysed first
        pool.shutdown(wait=True, cancel_futures=True)


def _decision_task(task) -> Decision:
    """One decision in a worker process: the position replayed from the world's actions."""
    game_string, actions = task[0], task[1]
    state = spiel_games.load_game(game_string).new_initial_state()
    for a in actions[:-1]:
        state.apply_action(a)
    return _decision(*task, state=state)


def _decision(
    game_string: str, actions: list[int], spec: str, player: int, seed: int, *, state
) -> Decision:
    """The decision whose move played is ``actions[-1]``, at ``state`` (the position before
    it)."""
    i, played = len(actions) - 1, actions[-1]
    adv = advise_state(
        game_string,
        state,
        spec,
        player=player,
        top=COMPARED,  # the moves advise compares, and the one played besides
        compared=COMPARED,
        seed=seed,
        ply=i,
        include=[played],
    )
    best = adv.moves[0]
    mine = next((m for m in adv.moves if m.action_id == played), None)
    played_value = None if mine is None else mine.value
    if played == best.action_id:
        loss: float | None = 0.0
    elif played_value is None or best.value is None:
        loss = None
    else:
        loss = best.value - played_value
    d = Decision(
        ply=i,
        played=state.action_to_string(player, played),
        best=best.action,
        best_value=best.value,
        ci_low=best.ci_low,
        ci_high=best.ci_high,
        played_value=played_value,
        loss=loss,
        view=readable_observation(state, player),
    )
    if mine is not None and mine.margin_gap is not None and mine.first_gap is not None:
        _units(d, best, mine, game_string)
    return d


def _units(d: Decision, best: MoveAdvice, mine: MoveAdvice, game_string: str) -> None:
    """The decision's values and losses in points and chance to finish first, its mark
    and accuracy."""
    assert mine.margin_gap is not None and mine.first_gap is not None
    d.best_points = None if best.margin is None else best.margin[0]
    d.played_points = None if mine.margin is None else mine.margin[0]
    d.best_first = None if best.first is None else best.first[0]
    d.played_first = None if mine.first is None else mine.first[0]
    floor = LOSS_FLOOR.get(game_string.split("(")[0].strip(), 0.0)
    d.loss_points, d.loss_points_low = mine.margin_gap[0], loss_low(mine.margin_gap, floor)
    d.loss_first = mine.first_gap[0]
    if mine.action_id != best.action_id:  # not the recommendation: marked by its points lost
        d.mark = mark_for(d.loss_points, d.loss_points_low, thresholds_for(game_string))
    d.accuracy = accuracy(d.loss_first)


def ledger_games(directory: str | Path) -> list[dict]:
    """One row per game of a ledger: its id, seats (agent names in seat order), scores and
    ranks, in the ledger's order (for ``meeple review LEDGER --list``); a failed game's
    scores (NaN in the ledger) are None."""
    ledger = read_ledger(directory, ["game_id", "agents", "scores", "ranks", "failure"])
    names = {a["id"]: a["name"] for a in ledger.manifest["agents"]}
    rows = ledger.table.select(["game_id", "agents", "scores", "ranks", "failure"]).to_pylist()
    return [
        {
            "game_id": r["game_id"],
            "seats": [names.get(i, i) for i in r["agents"]],
            "scores": [_finite(x) for x in r["scores"]],
            "ranks": r["ranks"],
            "failure": r["failure"],
        }
        for r in rows
    ]


__all__ = [
    "CHANCE",
    "DEFAULT_AGENT",
    "Decision",
    "Review",
    "ledger_games",
    "review",
]
