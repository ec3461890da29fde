"""A ``meeple solve`` request: its configuration, validation, result and file paths.

``validate(cfg)`` checks the whole request (solver, counts, game, abstraction, the output
path, workers) before anything runs and returns a ``Plan``; ``solvers.train`` runs it.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import spiel_games
from solvers import efg_cfr
from solvers.base import MAX_COUNT
from solvers.policy_file import NO_ABSTRACTION, canonical_game_string
from spiel_games.common.errors import ForeignOutputError, MeepleError
from spiel_games.common.files import LOCK, existing_parent, lookup_problem, special_kind

SOLVERS = ("cfr", "cfr+", "dcfr", "mccfr-es", "mccfr-os")


class SolveError(MeepleError):
    """A bad solve request (one-line message)."""


class CheckpointError(SolveError):
    """A checkpoint that cannot be resumed: unreadable, or written for another request."""


class ForeignCheckpointError(CheckpointError, ForeignOutputError):
    """A checkpoint written for another request (game, solver, seed...): not this run's
    (a wrong --out, exit 2), refused before any iteration."""


class NotTinyError(SolveError):
    """A request for the whole game tree (exact CFR, or nash_conv reports) on a game
    whose tree is over the export's bound: a wrong request, though found only by walking
    the tree when ``validate``'s quick estimate could not tell."""

    @classmethod
    def of(cls, cfg: SolveConfig, game, nodes: int = efg_cfr.DEFAULT_MAX_NODES) -> NotTinyError:
        if cfg.solver in efg_cfr.KINDS:
            return cls(
                f"{cfg.solver} is exact: it needs a game tree of at most {nodes:,} nodes and "
                f"{cfg.game} has more; use a tiny configuration (meeple games show "
                f"{game.get_type().short_name}) or --solver mccfr-os"
            )
        return cls(  # MCCFR on an OpenSpiel game outside the registry
            f"{cfg.solver} on {cfg.game} reports nash_conv over the whole game tree, which "
            f"must have at most {nodes:,} nodes; this one has more"
        )


@dataclass
class SolveConfig:
    game: str
    solver: str
    iterations: int
    out: str | None = None  # None: default_out(...) under runs/policies/
    abstraction: str | None = None  # None: the game's abstraction for MCCFR, `none` for exact
    report_every: int = 100
    seed: int = 0
    # MCCFR table bound (keys beyond it are played uniformly; None: DEFAULT_MAX_KEYS)
    max_keys: int | None = None
    workers: int = 1  # MCCFR batches per round, each on its own Ray worker when > 1
    address: str | None = None  # a Ray cluster (None: a local session when workers > 1)
    batch: int | None = None  # MCCFR iterations per batch (None: 1 where exact, else 64)
    eval_deals: int | None = None  # progress-figure deals (None: 4 on full games with a heuristic)
    min_visits: int | None = None  # a blueprint keeps the keys met this often (None: 1)
    weighting: str | None = None  # MCCFR-OS: None = counterfactual where exact, else sampled
    baselines: bool | None = None  # MCCFR-OS VR baselines: None = off where exact, else on
    epsilon: float | None = None  # MCCFR-OS exploration: None = 0.6 where exact, else FULL_EPSILON
    linear: bool | None = None  # Linear CFR discounting: None = off where exact, else on
    rnr: float = 0.0  # restricted Nash response: each other seat plays the heuristic w.p. rnr


@dataclass
class SolveResult:
    iterations: int
    resumed_from: int
    reports: list[tuple[int, str, float]] = field(default_factory=list)  # headline figure
    figures: list[dict[str, float]] = field(default_factory=list)  # every figure per report
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time training (MCCFR; Ray workers apart)
    policy_keys: int = 0
    untracked: int = 0  # MCCFR visits to keys beyond --max-keys
    file_bytes: int = 0
    out: str = ""
    kept: bool = False  # nothing was trained and --out was left as it was (MCCFR)


def writes_blueprint(out: str | Path) -> bool:
    """Whether ``--out`` names a blueprint: a ``.npz`` suffix in any case (``x.NPZ``
    too, which the ``blueprint`` agent reads as one), else a Parquet policy file."""
    return Path(out).suffix.lower() == ".npz"


def checkpoint_path(out: str | Path, solver: str = "cfr") -> Path:
    """Exact solvers: ``<out>.ckpt.parquet``; MCCFR: the directory ``<out>.ckpt``."""
    out = Path(out)
    if solver.startswith("mccfr"):
        return out.with_name(out.name + ".ckpt")
    return out.with_name(out.name + ".ckpt.parquet")


def default_out(
    game_string: str,
    solver: str,
    abstraction: str | None,
    seed: int,
    rnr: float = 0.0,
    sampling: tuple[int, int | None] = (1, None),
) -> Path:
    """``runs/policies/<game>-<solver>-<hash>.parquet``: one file per distinct request, so
    a rerun resumes its own checkpoint and never meets another request's. ``sampling``:
    (--workers, --batch), which shape the samples; named in the hash only when not the
    defaults (1, None), so the default request keeps its file."""
    short = game_string.split("(")[0].removeprefix("python_")
    request: list[object] = [game_string, solver, abstraction, seed] + ([rnr] if rnr else [])
    request += [list(sampling)] if sampling != (1, None) else []
    digest = hashlib.sha256(json.dumps(request).encode()).hexdigest()[:8]
    return Path("runs") / "policies" / f"{short}-{solver}-{digest}.parquet"


def _check_out(out: Path, solver: str) -> None:
    """Refuse an output path that cannot become a file, before the run starts."""
    ckpt = checkpoint_path(out, solver)
    if why := lookup_problem(out):  # a name over 255 bytes (Path.is_dir raises)
        raise SolveError(f"--out {out}: {why}")
    lock = ckpt.with_name(ckpt.name + LOCK)  # an exact run's lock beside its checkpoint
    for path in (ckpt, lock):  # their names are a few bytes longer
        if why := lookup_problem(path):
            raise SolveError(f"--out {out}: the run's {path.name}: {why}")
    if out.is_dir():
        raise SolveError(f"--out {out}: {out} is a directory; give a file path")
    kind = special_kind(out)  # a device, a pipe (or a symlink to one): never replaced
    if kind is not None:
        raise SolveError(f"--out {out} is {kind[0]}, not a file; give a file path")
    if ckpt.exists() and ckpt.is_dir() != solver.startswith("mccfr"):
        raise SolveError(f"--out {out}: {ckpt} is in the way of the checkpoint")
    if out.exists() and not ckpt.exists():  # not a run to resume: never overwritten
        raise SolveError(
            f"--out {out} exists and no checkpoint of a {solver} run ({ckpt.name}) is beside "
            "it; choose another --out, or delete the file"
        )
    parent = existing_parent(out)
    if not parent.is_dir():
        raise SolveError(f"--out {out}: {parent} is not a directory")


@dataclass
class Plan:
    """A validated request: the loaded game and everything derived from the config."""

    game: Any
    out: Path
    abstraction: str
    version: int
    is_exact: bool


def validate(cfg: SolveConfig) -> Plan:
    """Check the whole request before anything runs; SolveError names what is wrong."""
    if cfg.solver not in SOLVERS:
        raise SolveError(f"unknown solver {cfg.solver!r}; valid: {', '.join(SOLVERS)}")
    if cfg.iterations < 1:
        raise SolveError("--iterations must be >= 1")
    if cfg.iterations > MAX_COUNT:  # bounded as the agents' budgets: a typo, not a run
        raise SolveError(f"--iterations must be <= {MAX_COUNT:,}, got {cfg.iterations:,}")
    if cfg.report_every < 1:
        raise SolveError("--report-every must be >= 1")
    if cfg.seed < 0:
        raise SolveError("--seed must be >= 0")
    for name, value in (
        ("--workers", cfg.workers),
        ("--batch", cfg.batch),
        ("--max-keys", cfg.max_keys),
        ("--min-visits", cfg.min_visits),
    ):
        if value is not None and value < 1:
            raise SolveError(f"{name} must be >= 1")
    if cfg.eval_deals is not None and cfg.eval_deals < 0:
        raise SolveError("--eval-deals must be >= 0")
    if not 0.0 <= cfg.rnr < 1.0:  # at 1 no seat plays the learned strategy: no average
        raise SolveError(f"--rnr must be in [0, 1), got {cfg.rnr}")
    game = spiel_games.load_game(cfg.game, any_openspiel=True)
    abstraction, version = _resolve_abstraction(game, cfg)
    is_exact = cfg.solver in efg_cfr.KINDS
    if cfg.eval_deals and not has_heuristic(game):
        raise SolveError(
            f"--eval-deals plays against the game's heuristic; {game.get_type().short_name} "
            "has none (use --eval-deals 0)"
        )
    if cfg.rnr > 0 and (is_exact or not has_heuristic(game)):
        raise SolveError("--rnr needs MCCFR (mccfr-es, mccfr-os) on a game with a heuristic")
    if is_exact and game.num_players() != 2:
        raise SolveError(f"{cfg.solver} needs a 2-player game (use a tiny configuration)")
    if is_exact and (cfg.workers > 1 or cfg.address):
        raise SolveError(f"{cfg.solver} runs in one process (--workers and --address are MCCFR's)")
    _refuse_mccfr_options(cfg, is_exact)
    out = (
        Path(cfg.out)
        if cfg.out is not None
        else default_out(
            str(game), cfg.solver, cfg.abstraction, cfg.seed, cfg.rnr, (cfg.workers, cfg.batch)
        )
    )
    if writes_blueprint(out) and is_exact:
        raise SolveError(f"--out {out}: blueprints (.npz) come from MCCFR; use a .parquet file")
    if cfg.min_visits is not None and not writes_blueprint(out):
        raise SolveError(
            f"--min-visits selects the keys of a blueprint (--out FILE.npz); --out {out} "
            "is a Parquet policy file, which keeps every key"
        )
    _check_out(out, cfg.solver)
    if (is_exact or exploitability_computable(game)) and efg_cfr.surely_too_large(game):
        raise NotTinyError.of(cfg, game)
    return Plan(game, out, abstraction, version, is_exact)


def _refuse_mccfr_options(cfg: SolveConfig, is_exact: bool) -> None:
    """The exact solvers run the whole tree in one batch, with no table bound and no
    sampled figure: MCCFR's options given with one are refused, never ignored."""
    if not is_exact:
        return
    given = {
        "--batch": cfg.batch,
        "--eval-deals": cfg.eval_deals,
        "--max-keys": cfg.max_keys,
        "--min-visits": cfg.min_visits,
    }
    named = [name for name, value in given.items() if value is not None]
    if named:
        raise SolveError(
            f"{cfg.solver} is exact: {', '.join(named)} {'is' if len(named) == 1 else 'are'} "
            "MCCFR's (mccfr-es, mccfr-os)"
        )


def has_heuristic(game) -> bool:
    try:
        return spiel_games.get_spec(game.get_type().short_name).heuristic is not None
    except KeyError:
        return False


def is_registered(game) -> bool:
    """A meeple game (a registered spec), not one of OpenSpiel's own."""
    try:
        spiel_games.get_spec(game.get_type().short_name)
    except KeyError:
        return False
    return True


def _resolve_abstraction(game, cfg: SolveConfig) -> tuple[str, int]:
    name = cfg.abstraction
    try:
        spec = spiel_games.get_spec(game.get_type().short_name)
    except KeyError:
        spec = None
    if cfg.solver in efg_cfr.KINDS:
        if name not in (None, NO_ABSTRACTION):
            raise SolveError(
                f"{cfg.solver} is exact: it uses every information state (abstraction none)"
            )
        return NO_ABSTRACTION, 0
    if name is None:
        name = (
            spec.abstraction_name
            if spec is not None and spec.abstraction is not None
            else NO_ABSTRACTION
        )
    if name == NO_ABSTRACTION:
        return name, 0
    if spec is None or spec.abstraction is None or name != spec.abstraction_name:
        valid = [NO_ABSTRACTION] + (
            [spec.abstraction_name] if spec is not None and spec.abstraction else []
        )
        raise SolveError(f"unknown abstraction {name!r} for this game; valid: {', '.join(valid)}")
    return name, spec.abstraction_version


def exploitability_computable(game) -> bool:
    """True where MCCFR reports nash_conv over the whole tree (and runs classic MCCFR): a
    registered game's 2-player tiny configurations, or a non-meeple OpenSpiel game (e.g.
    kuhn_poker) of any number of players, whose tree must fit the export's bound."""
    short = game.get_type().short_name
    try:
        spec = spiel_games.get_spec(short)
    except KeyError:
        return True
    if game.num_players() != 2:
        return False
    here = str(game)
    return any(canonical_game_string(t) == here for t in spec.tiny_configs)


def finite(value: Any) -> Any:
    """JSON-safe metadata: a non-finite metric is stored as null, never as NaN."""
    return value if not isinstance(value, float) or math.isfinite(value) else None


def identity(cfg: SolveConfig, plan: Plan) -> dict:
    return {
        "game": str(plan.game),
        "solver": cfg.solver,
        "abstraction": plan.abstraction,
        "abstraction_version": plan.version,
        "seed": cfg.seed,
    }
