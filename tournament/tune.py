"""`meeple tune`: NTBEA (solvers.search.ntbea) over an agent's tunable parameters, each
evaluation one game against the pool.

An evaluation seats the candidate with ``players - 1`` opponents drawn from the tuning pool
(``TUNE_POOL``: the heuristic, a noisy heuristic and both fixed search references of
docs/STRENGTH.md), the candidate's seat turning with the evaluation index, on a deal of the
tuning's own master seed (never the benchmark's: ``BENCH_SEEDS``). Its fitness is the share of
the opponents the candidate finished ahead of, ties half. Every evaluation is appended to
``evaluations.jsonl`` in the run's directory; rerunning the same request replays them (NTBEA
is deterministic given its seed and the fitness values) and plays only the rest.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import spiel_games
from solvers.registry import all_kinds, resolve
from solvers.search import ntbea
from solvers.search.kinds import KINDS as SEARCH_KINDS
from solvers.search.params import resolve_auto
from solvers.spec import AgentSpecError, format_spec, parse_spec
from spiel_games.common import json_read
from spiel_games.common.errors import one_line
from spiel_games.common.files import LOCK
from tournament.batch import ranks_from
from tournament.match import play_match, seed_streams
from tournament.pool import POOL
from tournament.tune_log import (
    LOG,
    REQUEST,
    CorruptLogError,
    TuneError,
    append_row,
    cut_log,
    read_log,
    write_request,
)

TUNE_POOL = ("heuristic", "noisy", "H", "S")
DEFAULT_PARAMS = ("uct_c", "prior_w", "unprune", "rollout_depth", "opp_share", "opp_prior")
BENCH_SEEDS = (11, 33)  # scripts/bench_strength.py's tables and SPRTs: never tuned on
DEFAULT_SEED = 2033
# the confirming SPRTs' run directories: CONFIRM-<hash of the SPRT> (tournament.tune_report), one
# per recommendation, filler and cap: a larger budget that changes it confirms the new one too
CONFIRM = "confirm"


@dataclass(frozen=True)
class TuneRequest:
    game: str
    agent: str = "ismcts(sims=400)"
    params: tuple[str, ...] = DEFAULT_PARAMS
    budget: int = 200  # games
    opponents: tuple[str, ...] = tuple(POOL[m] for m in TUNE_POOL)
    levels: int = 5
    repeats: int = 2  # games per NTBEA iteration (played in parallel)
    k: float = 1.0
    neighbours: int = 50
    seed: int = DEFAULT_SEED


@dataclass
class Space:
    """The request resolved for its game: the dimensions, the start (the agent as given,
    its ``auto`` values resolved) and how a point becomes a spec."""

    kind: str
    base: dict  # the parameters the agent spec names
    dims: list[ntbea.Dimension]
    start: ntbea.Point
    game: Any = field(repr=False, default=None)
    _valid: dict = field(default_factory=dict, repr=False)

    def values(self, point: ntbea.Point) -> dict[str, object]:
        return {d.name: d.values[i] for d, i in zip(self.dims, point, strict=True)}

    def spec(self, point: ntbea.Point) -> str:
        return format_spec(self.kind, {**self.base, **self.values(point)})

    def valid(self, point: ntbea.Point) -> bool:
        """Whether the agent accepts the point on this game (some values need others)."""
        if point not in self._valid:
            try:
                resolve(self.spec(point)).check(self.game)
                self._valid[point] = True
            except AgentSpecError:
                self._valid[point] = False
        return self._valid[point]


def space(req: TuneRequest) -> Space:
    """Check the request and build its space (TuneError: one line)."""
    if req.budget < 1 or req.repeats < 1 or req.neighbours < 1 or req.levels < 2:
        raise TuneError("--budget, --repeats and --neighbours must be >= 1, --levels >= 2")
    if not (math.isfinite(req.k) and req.k >= 0):
        raise TuneError(f"--k must be a finite number >= 0, got {req.k}")
    if {req.seed, req.seed + 1} & set(BENCH_SEEDS):
        raise TuneError(
            f"--seed {req.seed} or its confirmation seed {req.seed + 1} is a benchmark seed "
            f"({', '.join(map(str, BENCH_SEEDS))}): tune on others"
        )
    if not req.params:
        raise TuneError("--params names no parameter")
    if len(set(req.params)) != len(req.params):
        raise TuneError(f"--params names a parameter twice: {','.join(req.params)}")
    game = spiel_games.load_game(req.game)
    agent = resolve(req.agent)
    agent.check(game)
    for spec in req.opponents:
        resolve(spec).check(game)
    kind = agent.kind
    tunable = {p.name: p for p in kind.tunable()}
    values = dict(agent.params)
    if kind in SEARCH_KINDS:
        values = resolve_auto(game, values)
    dims, start = [], []
    if not tunable:
        raise TuneError(f"agent {kind.name!r} has no tunable parameters: {tunable_kinds()}")
    for name in req.params:
        if name not in tunable:
            raise TuneError(
                f"agent {kind.name!r} cannot tune {name!r}; tunable: {', '.join(tunable)}"
            )
        d = ntbea.dimension(tunable[name], req.levels, include=values[name])
        if values[name] not in d.values:
            raise TuneError(f"{name}={values[name]!r} of {req.agent} is outside its domain")
        dims.append(d)
        start.append(d.values.index(values[name]))
    _, base = parse_spec(req.agent)
    return Space(kind.name, base, dims, tuple(start), game)


def tunable_kinds() -> str:
    """The agent kinds that have tunable parameters, as one phrase."""
    names = [k.name for k in all_kinds() if k.tunable()]
    return f"tune one of {', '.join(names)}" if names else "no agent kind has any"


def lineup(req: TuneRequest, index: int, players: int) -> tuple[int, int, list[str]]:
    """(match seed, the candidate's seat, the opponents' specs in seat order) of
    evaluation ``index``: all drawn from the tuning's master seed alone."""
    rng = random.Random(f"tune-{req.seed}-{index}")
    pool = list(req.opponents)
    if len(pool) >= players - 1:
        opponents = rng.sample(pool, players - 1)
    else:
        opponents = [rng.choice(pool) for _ in range(players - 1)]
    seed = int(np.random.SeedSequence([req.seed, index]).generate_state(1)[0])
    return seed, index % players, opponents


def play_one(game_string: str, candidate: str, seat: int, opponents: list[str], seed: int):
    """One game; (fitness of the candidate, ranks by seat)."""
    game = spiel_games.load_game(game_string)
    specs = list(opponents)
    specs.insert(seat, candidate)
    _, seat_seeds = seed_streams(seed, len(specs))
    agents = [resolve(s).make(game, x) for s, x in zip(specs, seat_seeds, strict=True)]
    res = play_match(game, agents, seed)
    if res.failure:
        ranks = [len(specs) if p == res.failed_seat else 1 for p in range(len(specs))]
    else:
        ranks = ranks_from(res.returns, res.scores)
    mine = ranks[seat]
    ahead = [
        1.0 if mine < r else 0.5 if mine == r else 0.0 for p, r in enumerate(ranks) if p != seat
    ]
    return sum(ahead) / len(ahead), ranks


class Evaluator:
    """NTBEA's ``evaluate``: evaluations found in the log are replayed, the rest played
    (in parallel over ``workers`` processes) and appended to the log."""

    def __init__(self, req: TuneRequest, sp: Space, out: Path, workers: int, on_game=None):
        self.req, self.sp, self.out, self.workers = req, sp, out, workers
        self.players = sp.game.num_players()
        self.on_game = on_game
        self.log: dict[int, dict] = read_log(out / LOG)[0]
        self.played = 0
        self.rows: list[dict] = []
        self.pool = ProcessPoolExecutor(workers) if workers > 1 else None

    def __call__(self, batch: list[tuple[ntbea.Point, int]]) -> list[float]:
        todo: list = []
        jobs: list[Any] = []
        for point, index in batch:
            seed, seat, opponents = lineup(self.req, index, self.players)
            row = self.log.get(index)
            # check_log refused a log of another setting before the run
            assert row is None or row["point"] == self.sp.values(point), index
            if row is None:
                args = (self.req.game, self.sp.spec(point), seat, opponents, seed)
                todo.append((index, point, seed, seat, opponents))
                jobs.append(self.pool.submit(play_one, *args) if self.pool else args)
        for (index, point, seed, seat, opponents), job in zip(todo, jobs, strict=True):
            fitness, ranks = job.result() if self.pool else play_one(*job)
            row = {
                "index": index,
                "point": self.sp.values(point),
                "seed": seed,
                "seat": seat,
                "opponents": opponents,
                "ranks": ranks,
                "fitness": fitness,
            }
            append_row(self.out / LOG, row)  # synced: a full disk is one line, the log kept
            self.log[index] = row
            self.played += 1
            if self.on_game is not None:
                self.on_game(row)
        got = [self.log[index] for _, index in batch]
        self.rows += got
        return [r["fitness"] for r in got]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def check_log(req: TuneRequest, sp: Space, out: Path) -> int | None:
    """Read the run's log (TuneError: one line, nothing written): every evaluation must be
    one of this request's (its deal, seat and opponents) and of the setting that replaying
    the log proposes at its index. The length to cut it to, or None."""
    log, cut = read_log(out / LOG)
    players = sp.game.num_players()
    for index, row in sorted(log.items()):
        seed, seat, opponents = lineup(req, index, players)
        if [row.get("seed"), row.get("seat"), row.get("opponents")] != [seed, seat, opponents]:
            raise TuneError(f"{out / LOG}: evaluation {index} is not one of this run's games")
    missing = next(i for i in range(len(log) + 1) if i not in log)
    if missing < len(log):  # the run appends its games in order: a gap is another file's
        later = min(i for i in log if i > missing)
        raise TuneError(
            f"{out / LOG}: evaluation {later} is logged but evaluation {missing} before it "
            "is not; it is not this run's log"
        )
    _check_replay(req, sp, log, out / LOG)
    return cut


class _EndOfLog(Exception):
    """The replay reached the first evaluation the log does not hold."""


def _check_replay(req: TuneRequest, sp: Space, log: dict[int, dict], path: Path) -> None:
    """Replay the log through NTBEA before any game is played, as the run will: each
    logged evaluation (``log`` holds 0..n-1) must be of the setting the replay proposes
    at its index."""

    def replay(batch: list[tuple[ntbea.Point, int]]) -> list[float]:
        for point, index in batch:
            row = log.get(index)
            if row is None:
                raise _EndOfLog
            if row["point"] != sp.values(point):
                raise TuneError(
                    f"{path}: evaluation {index} played {_setting(row['point'])}, but "
                    f"replaying the log gives {_setting(sp.values(point))} there; "
                    "it is not this run's log"
                )
        return [log[index]["fitness"] for _, index in batch]

    if not log:
        return
    # with a larger budget than the log's, the replay goes on to the log's end; with a
    # smaller one, the games past its end are not the run's (and are not read either)
    big = dataclasses.replace(req, budget=max(req.budget, len(log)))
    with contextlib.suppress(_EndOfLog):
        ntbea.run(sp.dims, sp.start, replay, settings(big), valid=sp.valid)


def _setting(values: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in values.items())


def strays(out: Path) -> list[str]:
    """The names in the run directory that ``meeple tune`` did not write (ignored)."""
    names = [p.name for p in out.iterdir()] if out.is_dir() else []
    return sorted(n for n in names if not n.startswith((REQUEST, LOG, CONFIRM, LOCK)))


def games(req: TuneRequest) -> int:
    """The games the tuning plays: whole NTBEA iterations of ``repeats`` games, at least
    one, so a ``budget`` that is not a multiple of ``repeats`` is rounded (down; up to
    ``repeats`` when below it)."""
    return settings(req).iterations * req.repeats


def settings(req: TuneRequest) -> ntbea.Settings:
    """NTBEA's settings for the request (its budget in iterations of ``repeats`` games)."""
    iterations = max(1, req.budget // req.repeats)
    return ntbea.Settings(iterations, req.repeats, req.k, req.neighbours, req.seed)


def prepare(req: TuneRequest, out: Path, sp: Space | None = None) -> Space:
    """Check the request (``sp``: its space, when already built) and its run directory
    (TuneError: one line, nothing written); write the request there. ``out`` is new, or
    holds this very request (then the run resumes: its log is checked first, and an
    unfinished last line cut off)."""
    sp = sp or space(req)
    if not sp.valid(sp.start):
        raise TuneError(f"{req.agent} is refused on {req.game}")
    path = out / REQUEST
    mine = json.loads(json.dumps(asdict(req)))
    if out.exists() and not out.is_dir():
        raise TuneError(f"--out {out} exists and is not a directory")
    if path.exists():  # the same run, perhaps with another budget: it goes on from the log
        try:
            theirs = json_read.loads(path.read_text())
            if not isinstance(theirs, dict):
                raise ValueError("not a tuning request")
        except (OSError, ValueError) as e:  # a damaged file, not a wrong command line: 1
            why = f"unreadable ({one_line(e)}); delete the run or choose another --out"
            raise CorruptLogError(f"{path}: {why}") from None
        if {**theirs, "budget": 0} != {**mine, "budget": 0}:
            raise TuneError(f"{out} holds a different tuning run; choose another --out")
        cut = check_log(req, sp, out)
        if cut is not None:
            cut_log(out / LOG, cut)
        write_request(path, mine)  # atomic: a full disk keeps the old request
        return sp
    if out.exists() and any(p.name != LOCK for p in out.iterdir()):  # the run's own lock
        raise TuneError(f"{out} is not empty and holds no tuning run; choose another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TuneError(f"--out {out}: cannot create the directory ({e.strerror or e})") from None
    write_request(path, mine)
    return sp


@dataclass
class Tuned:
    req: TuneRequest
    space: Space
    result: ntbea.NtbeaResult
    played: int  # games played now (the rest replayed from the log)


def tune(
    req: TuneRequest, out: Path, workers: int = 1, on_game=None, sp: Space | None = None
) -> Tuned:
    """Run (or resume) the tuning into ``out``; ``sp``: what ``prepare`` returned for this
    request and directory, when the caller has already called it (the log is then not
    checked a second time)."""
    sp = sp or prepare(req, out)
    ev = Evaluator(req, sp, out, workers, on_game)
    try:
        result = ntbea.run(sp.dims, sp.start, ev, settings(req), valid=sp.valid)
    finally:
        ev.close()
    return Tuned(req, sp, result, ev.played)
