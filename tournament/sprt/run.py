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
import shlex
from dataclasses import asdict, dataclass
from pathlib import Path
from types import SimpleNamespace

import spiel_games
from solvers.registry import resolve
from solvers.spec import AgentSpecError
from spiel_games.common import json_read
from spiel_games.common.errors import ForeignOutputError
from spiel_games.common.files import atomic_write_text, read_regular
from tournament.config import TournamentConfig, build_config
from tournament.ledger import NoLedgerError, read_ledger, read_manifest
from tournament.ledger_open import batch_files
from tournament.runner import RunSummary, run_tournament
from tournament.schedule import GameTask, schedule
from tournament.sprt.gsprt import Bounds, SprtError
from tournament.sprt.state import LIVE_MIN_SETS, A, B, SprtState, Verdict, set_score

SIDECAR = ".sprt.json"  # the test's bounds, beside the ledger's manifest
MAX_SIDECAR_BYTES = 1 << 20  # a few hundred bytes: read no further
DEFAULT_MAX_GAMES = 20_000
FILLER = "filler"


__all__ = [
    "LIVE_MIN_SETS",
    "SIDECAR",
    "SprtRequest",
    "SprtState",
    "Verdict",
    "play_sprt",
    "read_sprt",
    "set_score",
    "sprt_config",
    "tables",
]


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
        """The test's bounds as its ledger keeps them; the default LLR goes unnamed, as in
        the files written before the normal LLR existed (they resume unchanged)."""
        bounds = asdict(self.bounds)
        if bounds["llr"] == "empirical":
            del bounds["llr"]
        return {"bounds": bounds, "max_games": self.max_games}


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
        if players > 2:  # at two players A and B take every seat: the filler sits nowhere
            agents[FILLER] = filler  # (was: refused as an agent at no table, after a tuning)
    lineups = tables(players, filler)
    probe = build_config(
        {
            "tournament": {"game": req.game, "schedule": "fixed", "tables": lineups},
            "agents": agents,
        }
    )
    per_set = games_per_set(players, filler)
    sets = sets_for(req.max_games, per_set)
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
    return build_config(raw), per_set


def sets_for(max_games: int, per_set: int) -> int:
    """The test's limit in whole sets: ``max_games`` rounded up to whole sets."""
    return max(1, math.ceil(max_games / per_set))


def games_per_set(players: int, filler: str) -> int:
    """The games of one observation: every seat order of each of its line-ups."""
    return sum(_orders(t) for t in tables(players, filler))


def _orders(table: list[str]) -> int:
    out = math.factorial(len(table))
    for name in set(table):
        out //= math.factorial(table.count(name))
    return out


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


def read_sidecar(directory: Path) -> dict | None:
    """The test's bounds file in ``directory`` (``write_sidecar``), None when there is
    none; SprtError naming it when it is not a file (a pipe is not waited on), cannot be
    read or holds no JSON object."""
    path = Path(directory) / SIDECAR
    try:
        old = json_read.loads(read_regular(path, MAX_SIDECAR_BYTES))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:  # a pipe, a device, a truncated file
        raise SprtError(f"{path}: unreadable ({e})") from None
    if not isinstance(old, dict):
        raise SprtError(f"{path}: not an SPRT's bounds (a JSON object)")
    return old


def check_sidecar(directory: Path, req: SprtRequest, cfg: TournamentConfig) -> bool:
    """Refuse a ledger that holds a test with other bounds, or games of this test (``cfg``)
    without its bounds (a missing or damaged ``SIDECAR``: resumed under the bounds given
    now, the test could change half-way); True when the file exists."""
    directory = Path(directory)
    try:
        old = read_sidecar(directory)
    except SprtError as e:
        fix = _restore(directory, req, _games(directory, cfg), damaged=True)
        raise SprtError(f"{e}; {fix}") from None
    if old is None:
        if games := _games(directory, cfg):
            raise SprtError(
                f"{directory} holds {games} games of this SPRT but not its bounds ({SIDECAR} "
                f"is missing): {_restore(directory, req, games)}"
            )
        return False
    if (why := _other_test(old, req)) is not None:
        raise ForeignSprtError(f"{directory} holds an SPRT with {why}; use another --out")
    return True


def _other_test(old: dict, req: SprtRequest) -> str | None:
    """How the test in a ledger's bounds file ``old`` differs from ``req``'s ("llr normal,
    now empirical"), None when it is the same test. Bounds compare as Bounds, so a file
    that names the default LLR (or omits it, as files before the normal LLR did) is the
    same test."""
    if old.get("max_games") != req.max_games:
        return f"max_games {old.get('max_games')}, now {req.max_games}"
    try:
        bounds = Bounds(**old["bounds"])
    except (KeyError, TypeError, SprtError):
        return f"bounds {old.get('bounds')}, now {req.sidecar()['bounds']}"
    for key, was in asdict(bounds).items():
        if was != (now := getattr(req.bounds, key)):
            return f"{key} {was}, now {now}"
    return None


def _games(directory: Path, cfg: TournamentConfig) -> int:
    """The games ``directory``'s batch files hold (by their names) when it is the ledger
    of this test (its manifest is ``cfg``'s), else 0."""
    try:
        if read_manifest(directory)["config_hash"] != cfg.config_hash:
            return 0  # another tournament: the run refuses it (exit 2)
    except NoLedgerError:
        return 0
    return sum(int(p.stem.rsplit("-", 1)[1]) for p in batch_files(directory))


def _restore(directory: Path, req: SprtRequest, games: int, damaged: bool = False) -> str:
    """What to do about a missing or ``damaged`` sidecar of a ledger holding ``games`` of
    the test: without games, nothing is lost by starting again; with games, only the
    bounds the test was started with may go on."""
    path = directory / SIDECAR
    if not games:
        return "the ledger holds no game yet: delete it and rerun"
    text = json.dumps(req.sidecar(), separators=(",", ":"))
    return (
        f"{'delete it and, ' if damaged else ''}if the test was started with the bounds and "
        f"--max-games given now, write them back: printf '%s\\n' {shlex.quote(text)} > "
        f"{shlex.quote(str(path))}; else use another --out"
    )


def write_sidecar(directory: Path, req: SprtRequest) -> None:
    atomic_write_text(Path(directory) / SIDECAR, json.dumps(req.sidecar(), indent=2) + "\n")


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
    had_sidecar = out.is_dir() and check_sidecar(out, req, cfg)
    state = SprtState(cfg, req.bounds, games_per_set)
    tasks = schedule(cfg)
    wrote: list[bool] = []  # this run wrote the sidecar (under the ledger's lock)

    def start() -> None:
        write_sidecar(out, req)
        wrote.append(True)

    source = SprtSource(state, tasks, on_step, on_start=start)
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
    except BaseException:  # a run refused by the lock wrote nothing and removes nothing
        # (was: a second run started beside a first removed the first one's sidecar)
        if wrote and out.is_dir() and not had_sidecar and not any(out.glob("part-*.parquet")):
            (out / SIDECAR).unlink(missing_ok=True)
            if not any(out.iterdir()):
                out.rmdir()
        raise
    return state.result(), summary, state


class _Recorded:
    """The parts of a tournament config an SprtState reads, as a ledger recorded them (the
    agents' ids of the code that played, which a config built today would not have)."""

    def __init__(self, manifest: dict):
        t = manifest["config"]["tournament"]
        self.seeds_per_lineup = int(t["seeds_per_lineup"])
        self.num_players = len(t["tables"][0])  # every line-up seats the whole table
        self._ids = {a["name"]: a["id"] for a in manifest["agents"]}

    def agent(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(agent_id=self._ids[name])


def read_sprt(directory: Path) -> tuple[Verdict, dict]:
    """Where the test in ``directory`` stands, read from its ledger without playing (and
    under any code version: the ledger's own agent ids); also its manifest."""
    directory = Path(directory)
    try:
        manifest = read_manifest(directory)
        side = read_sidecar(directory)
        if side is None:
            raise ValueError(f"no {SIDECAR}, which holds its bounds")
        side = side["bounds"]
        if not isinstance(side, dict):
            raise ValueError("its bounds are not an object")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SprtError(f"{directory}: not a finished or running SPRT ledger ({e})") from None
    t = manifest["config"]["tournament"]
    games_per_set = sum(_orders(list(x)) for x in t["tables"])
    state = SprtState(_Recorded(manifest), Bounds(**side), games_per_set)  # type: ignore[arg-type]
    state.add(read_ledger(directory, ["agents", "ranks", "seed_index"]).table.to_pylist())
    return state.result(), manifest
