"""An SPRT as a tournament: its line-ups, its observations read from the ledger, its verdict.

The test is an ordinary tournament ledger (``schedule = "fixed"``, ``seating =
"permutations"``): the line-ups hold A, B and the filler; seed index ``i`` of every
line-up, each played in every seat order, is observation ``i`` (one duplicate set per
line-up). ``meeple ratings``, ``meeple replay`` and resuming work on it as on any ledger.

Line-ups, N players:

- filler ``ab`` (default): copies of A and B, as evenly as the seats allow; with an odd
  number of seats both ways round, so A and B each hold the extra seat once: 2 players
  (A, B) (fishtest's game pair), 3 players (A, A, B) and (A, B, B), 4 players (A, A, B, B);
- a filler spec F: (A, B, F, ..., F).

The verdict is a function of the ledger alone: observations are taken in index order, the
test stops at the first whose LLR crosses a bound, and sets that finished after it (they
were running when it stopped) are played and kept but not counted.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace

import spiel_games
from solvers.registry import resolve
from solvers.spec import AgentSpecError
from spiel_games.common.errors import ForeignOutputError
from tournament.config import TournamentConfig, build_config
from tournament.ledger import read_ledger, read_manifest
from tournament.runner import RunSummary, run_tournament
from tournament.schedule import GameTask, schedule
from tournament.sprt.estimate import Estimate, Outcome, at_stop
from tournament.sprt.gsprt import Bounds, SprtError, Step, Tally, fewest_sets, hypotheses, step

SIDECAR = ".sprt.json"  # the test's bounds, beside the ledger's manifest
DEFAULT_MAX_GAMES = 20_000
A, B, FILLER = "A", "B", "filler"
LIVE_MIN_SETS = 10  # a running test shows its interval from this many sets on


class ForeignSprtError(SprtError, ForeignOutputError):
    """The ledger holds a test with other bounds or another --max-games (exit 2)."""


@dataclass(frozen=True)
class SprtRequest:
    game: str
    spec_a: str
    spec_b: str
    bounds: Bounds
    filler: str = "ab"  # "ab": copies of A and B; else an agent spec
    max_games: int = DEFAULT_MAX_GAMES
    seed: int = 0
    time_limit: float = 0.0

    def sidecar(self) -> dict:
        return {"bounds": asdict(self.bounds), "max_games": self.max_games}


def tables(players: int, filler: str) -> list[list[str]]:
    """The line-ups of one observation (agent names A, B and ``filler``)."""
    if players < 2:
        raise SprtError("an SPRT needs a game of two or more players")
    if filler != "ab":
        return [[A, B] + [FILLER] * (players - 2)]
    half = players // 2
    if players % 2 == 0:
        return [[A] * half + [B] * half]
    return [[A] * (half + 1) + [B] * half, [A] * half + [B] * (half + 1)]


def _canonical(spec: str, what: str) -> str:
    try:
        return resolve(spec).canonical
    except AgentSpecError as e:
        raise SprtError(f"{what}: {e}") from None


def sprt_config(req: SprtRequest, players: int) -> tuple[TournamentConfig, int]:
    """The tournament that plays the test, and the games of one observation."""
    ca, cb = _canonical(req.spec_a, "SPEC_A"), _canonical(req.spec_b, "SPEC_B")
    if ca == cb:
        raise SprtError(
            f"SPEC_A and SPEC_B are the same agent ({ca}): under duplicate play every set "
            "would score exactly 1/2"
        )
    agents = {A: req.spec_a, B: req.spec_b}
    filler = req.filler
    if filler != "ab":
        cf = _canonical(filler, "--filler")
        if cf in (ca, cb):
            raise SprtError("--filler is A or B itself; use --filler ab for copies of A and B")
        agents[FILLER] = filler
    lineups = tables(players, filler)
    probe = build_config(
        {
            "tournament": {"game": req.game, "schedule": "fixed", "tables": lineups},
            "agents": agents,
        }
    )
    games_per_set = sum(_orders(t) for t in lineups)
    sets = max(1, math.ceil(req.max_games / games_per_set))
    raw = {
        "tournament": {
            "game": probe.game,
            "seeds_per_lineup": sets,
            "seed": req.seed,
            "schedule": "fixed",
            "tables": lineups,
            "seating": "permutations",
            "time_limit": req.time_limit,
        },
        "agents": agents,
    }
    return build_config(raw), games_per_set


def _orders(table: list[str]) -> int:
    out = math.factorial(len(table))
    for name in set(table):
        out //= math.factorial(table.count(name))
    return out


def set_score(rows: list[dict], id_a: str, id_b: str) -> float | None:
    """The share of (A seat, B seat) pairs in which A finished ahead, ties half; None when
    no game of the set was rated (all void)."""
    points = pairs = 0.0
    for r in rows:
        ranks = r["ranks"]
        if ranks is None:
            continue
        seats = r["agents"]
        for i, x in enumerate(seats):
            if x != id_a:
                continue
            for j, y in enumerate(seats):
                if y == id_b:
                    pairs += 1
                    points += 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
    return points / pairs if pairs else None


@dataclass
class Verdict:
    """Where a test stands, from its ledger."""

    verdict: str  # "H1", "H0", "inconclusive" or "" (still running)
    sets: int  # observations counted
    games: int  # games counted
    llr: float
    lower: float
    upper: float
    elo: float  # estimate (median-unbiased once stopped)
    elo_low: float
    elo_high: float
    score: float  # mean set score (naive)
    sd: float  # per-set standard deviation of the score
    extra_sets: int = 0  # finished after the stop: played, not counted
    void_sets: int = 0
    history: list[tuple[int, float]] = field(default_factory=list)  # (sets, LLR)
    estimate: str = "mean so far"  # or "median-unbiased", "plain mean" (near fewest_sets)
    fewest_sets: int = 0  # the fewest sets that could have crossed the bound crossed


class SprtState:
    """The test's observations, filled from ledger rows as they arrive."""

    def __init__(self, cfg: TournamentConfig, bounds: Bounds, games_per_set: int):
        self.cfg, self.bounds, self.games_per_set = cfg, bounds, games_per_set
        self.max_sets = cfg.seeds_per_lineup
        self.id_a, self.id_b = cfg.agent(A).agent_id, cfg.agent(B).agent_id
        self.rows: dict[int, list[dict]] = {}
        self.tally = Tally()
        self.scores: list[float] = []
        self.counted = 0  # observations taken into the tally, in index order
        self.void = 0
        self.last: Step | None = None
        self.history: list[tuple[int, float]] = []

    def add(self, rows: list[dict]) -> None:
        for r in rows:
            self.rows.setdefault(int(r["seed_index"]), []).append(r)
        self._advance()

    def complete(self, index: int) -> bool:
        return len(self.rows.get(index, ())) >= self.games_per_set

    @property
    def stopped(self) -> bool:
        return self.last is not None and bool(self.last.verdict)

    def _advance(self) -> None:
        while not self.stopped and self.complete(self.counted):
            x = set_score(self.rows[self.counted], self.id_a, self.id_b)
            self.counted += 1
            if x is None:
                self.void += 1
                continue
            self.tally.add(x)
            self.scores.append(x)
            self.last = step(self.tally, self.bounds, self.games_per_set, self.max_sets)
            self.history.append((self.tally.n, self.last.llr))
        if not self.stopped and self.counted >= self.max_sets and self.last is not None:
            self.last = replace(self.last, verdict="inconclusive")

    def _at_stop(self, verdict: str, llr: float) -> Estimate:
        b, g, values, weights = self.bounds, self.games_per_set, *self.tally.arrays()
        fewest = fewest_sets(b, g, verdict, self.max_sets) if verdict != "inconclusive" else 0
        outcome, hyp = Outcome(verdict, self.tally.n, llr), hypotheses(self.tally, b, g)
        return at_stop(outcome, values, weights, hyp, (b.lower, b.upper), self.max_sets, fewest)

    def result(self) -> Verdict:
        b = self.bounds
        n = self.tally.n
        mean, var = self.tally.mean_var()
        sigma = self.tally.sigma_per_game(self.games_per_set)
        llr = self.last.llr if self.last else 0.0
        verdict = self.last.verdict if self.last else ""
        method, fewest = "mean so far", 0
        if verdict:
            est = self._at_stop(verdict, llr)
            score, low, high, method, fewest = est.score, est.low, est.high, est.method, est.fewest
        elif n >= LIVE_MIN_SETS:  # still running: the plain mean and its normal interval
            half = 1.96 * math.sqrt(var / n)
            score, low, high = mean, mean - half, mean + half
        else:  # on a handful of sets the spread itself is unknown: no interval
            score, low, high = mean, math.nan, math.nan
        extra = sum(1 for i in self.rows if i >= self.counted and self.complete(i))
        return Verdict(
            verdict=verdict,
            sets=n,
            games=self.counted * self.games_per_set,
            llr=llr,
            lower=b.lower,
            upper=b.upper,
            elo=b.to_elo(score, sigma),
            elo_low=b.to_elo(max(low, 1e-9), sigma) if low == low else math.nan,
            elo_high=b.to_elo(min(high, 1 - 1e-9), sigma) if high == high else math.nan,
            estimate=method,
            fewest_sets=fewest,
            score=mean,
            sd=math.sqrt(var),
            extra_sets=extra,
            void_sets=self.void,
            history=list(self.history),
        )


class SprtSource:
    """The runner's task source: observations in index order, a few ahead, until the test
    stops (``tournament.runner.TaskSource``)."""

    def __init__(self, state: SprtState, tasks: list[GameTask], on_step=None, on_start=None):
        self.state = state
        self.on_step = on_step
        self.on_start = on_start  # called first by start(), under the ledger's lock
        self.by_index: dict[int, list[GameTask]] = {}
        for t in tasks:
            self.by_index.setdefault(t.seed_index, []).append(t)
        self.next = 0
        self.running: set[int] = set()

    def start(self, rows: list[dict]) -> None:
        if self.on_start is not None:
            self.on_start()
        self.state.add(rows)

    def take(self, room: int) -> list[list[GameTask]]:
        out: list[list[GameTask]] = []
        while not self.state.stopped and len(out) < room and self.next < self.state.max_sets:
            i = self.next
            self.next += 1
            if not self.state.complete(i):
                self.running.add(i)
                out.append(self.by_index[i])
        return out

    def finished(self, rows: list[dict]) -> None:
        before = self.state.tally.n
        self.state.add(rows)
        for r in rows:
            if self.state.complete(int(r["seed_index"])):
                self.running.discard(int(r["seed_index"]))
        if self.on_step is not None and self.state.tally.n != before:
            self.on_step(self.state.result())

    def expected_games(self) -> int:
        st = self.state
        left = st.max_sets - st.counted
        if st.tally.n >= 2 and st.last is not None:
            drift = st.last.llr / st.tally.n
            target = st.bounds.upper if drift > 0 else st.bounds.lower
            if abs(drift) > 1e-9:
                left = min(left, math.ceil(abs(target - st.last.llr) / abs(drift)))
        return max(left, 0) * st.games_per_set


def check_sidecar(directory: Path, req: SprtRequest) -> bool:
    """Refuse a ledger that holds a test with other bounds; True when the file exists."""
    path = Path(directory) / SIDECAR
    if not path.exists():
        return False
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SprtError(f"{path}: unreadable ({e})") from None
    if not isinstance(old, dict):
        raise SprtError(f"{path}: not an SPRT's bounds (a JSON object); use another --out")
    new = req.sidecar()
    if old != new:
        for key in ("bounds", "max_games"):
            if old.get(key) != new[key]:
                raise ForeignSprtError(
                    f"{directory} holds an SPRT with {key} {old.get(key)}, now {new[key]}; "
                    "use another --out"
                )
    return True


def write_sidecar(directory: Path, req: SprtRequest) -> None:
    path = Path(directory) / SIDECAR
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(json.dumps(req.sidecar(), indent=2) + "\n")
    tmp.replace(path)


def play_sprt(
    req: SprtRequest,
    out: Path,
    workers: int = 2,
    address: str | None = None,
    executor: str = "auto",
    on_start=None,
    on_batch=None,
    on_step=None,
) -> tuple[Verdict, RunSummary, SprtState]:
    """Run (or resume) the test into the ledger ``out`` until it stops; a test that has
    already stopped plays nothing. ``on_step(verdict)`` after each counted observation."""
    players = spiel_games.load_game(req.game).num_players()
    cfg, games_per_set = sprt_config(req, players)
    out = Path(out)
    had_sidecar = out.is_dir() and check_sidecar(out, req)
    state = SprtState(cfg, req.bounds, games_per_set)
    tasks = schedule(cfg)
    source = SprtSource(state, tasks, on_step, on_start=lambda: write_sidecar(out, req))
    try:
        summary = run_tournament(
            cfg,
            out,
            workers=workers,
            address=address,
            executor=executor,
            on_start=on_start,
            on_batch=on_batch,
            tasks=tasks,
            source=source,
        )
    except BaseException:
        if out.is_dir() and not had_sidecar and not any(out.glob("part-*.parquet")):
            (out / SIDECAR).unlink(missing_ok=True)
            if not any(out.iterdir()):
                out.rmdir()
        raise
    return state.result(), summary, state


class _Recorded:
    """The parts of a tournament config an SprtState reads, as a ledger recorded them (the
    agents' ids of the code that played, which a config built today would not have)."""

    def __init__(self, manifest: dict):
        self.seeds_per_lineup = int(manifest["config"]["tournament"]["seeds_per_lineup"])
        self._ids = {a["name"]: a["id"] for a in manifest["agents"]}

    def agent(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(agent_id=self._ids[name])


def read_sprt(directory: Path) -> tuple[Verdict, dict]:
    """Where the test in ``directory`` stands, read from its ledger without playing (and
    under any code version: the ledger's own agent ids); also its manifest."""
    directory = Path(directory)
    try:
        manifest = read_manifest(directory)
        side = json.loads((directory / SIDECAR).read_text())["bounds"]
        if not isinstance(side, dict):
            raise ValueError("its bounds are not an object")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SprtError(f"{directory}: not a finished or running SPRT ledger ({e})") from None
    t = manifest["config"]["tournament"]
    games_per_set = sum(_orders(list(x)) for x in t["tables"])
    state = SprtState(_Recorded(manifest), Bounds(**side), games_per_set)  # type: ignore[arg-type]
    state.add(read_ledger(directory, ["agents", "ranks", "seed_index"]).table.to_pylist())
    return state.result(), manifest
