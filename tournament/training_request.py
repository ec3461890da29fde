"""A ``meeple train`` request (``TrainConfig``) and the checks of its files before anything
runs: the model file (``--out``), the work directory (``--work``), that both can be written;
each refusal is a one-line ``TrainError``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from solvers import value_model
from spiel_games.common import json_read
from spiel_games.common.files import NotRegularFile, lookup_problem, read_regular, write_problem
from tournament.ledger import LedgerError, read_manifest
from tournament.positions import TrainError

DEFAULT_AGENT = "noisy(eps=0.1)"
DEFAULT_GAMES = 300
DEFAULT_EVERY = 2


@dataclass
class TrainConfig:
    game: str
    games: int = DEFAULT_GAMES
    agent: str = DEFAULT_AGENT
    seed: int = 0
    every: int = DEFAULT_EVERY
    holdout: float = 0.2
    work: str | None = None  # None: runs/train/<game>-<hash of the request>
    out: str | None = None  # None: runs/models/<game>-<hash of the model file>.json
    kind: str = "linear"  # the value model's kind (solvers.value_model.KINDS)
    pool: tuple[str, ...] = ()  # earlier work directories whose positions also train
    # filled by validate()
    game_string: str = field(default="", init=False)
    short_name: str = field(default="", init=False)
    agent_canonical: str = field(default="", init=False)


WORK_PARTS = ("games", "positions")  # what a work directory holds: the ledger, the positions


def check_writable(option: str, path: Path) -> None:
    """The nearest existing folder on ``path``'s way can be written to: a read-only disk is
    said before the self-play, not after it."""
    problem = write_problem(path)
    if problem:
        raise TrainError(f"{option} {path}: {problem}")


def train_command(cfg: TrainConfig) -> str:
    """The command that trains this model (stored in it: what made it, and whether a rerun
    may replace it)."""
    options = "".join(f" --pool {d}" for d in cfg.pool)
    if cfg.kind != "linear":
        options += f" --kind {cfg.kind}"
    return (
        f"meeple train '{cfg.game_string}' --games {cfg.games} --agent "
        f"'{cfg.agent_canonical}' --every {cfg.every} --seed {cfg.seed}{options}"
    )


def check_out(cfg: TrainConfig, path: Path) -> None:
    """An existing --out is replaced only by a rerun of the command that trained it (never
    another run's model, another game's, or a file that is no value model; a pipe or a
    device is refused unread)."""
    try:
        data = json_read.loads(read_regular(path, value_model.MAX_MODEL_BYTES))
    except NotRegularFile as e:
        raise TrainError(f"--out {path} {e}; choose another --out") from None
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or data.get("format") != value_model.FORMAT:
        raise TrainError(f"--out {path} exists and is not a value model; choose another --out")
    trained = data.get("trained")
    made_by = trained.get("command") if isinstance(trained, dict) else None
    if made_by != (this := train_command(cfg)):  # both named: the options that differ show
        raise TrainError(
            f"--out {path} holds the value model of another run ({made_by or 'command unknown'}),"
            f" not of this one ({this}); choose another --out, or remove that file"
        )


def check_work(path: Path, cfg: TrainConfig, tcfg) -> None:
    """The work directory is new, empty or an earlier run's: never a ledger or a folder of
    other files, into which self-play would mix its own; an earlier run's of this request
    (``tcfg``: its self-play tournament), or the options that differ are named. An --out
    inside it is refused: the model file would replace one of the run's own files (its
    ledger's manifest) or be a foreign file that stops every rerun."""
    if why := lookup_problem(path):  # a name over 255 bytes (Path.exists raises)
        raise TrainError(f"--work {path}: {why}; choose another --work")
    if cfg.out is not None and _within(Path(cfg.out), path):
        raise TrainError(
            f"--out {cfg.out} is inside --work {path}, which holds only the run's own files;"
            " choose an --out outside it"
        )
    if path.exists() and not path.is_dir():
        raise TrainError(f"--work {path} is a file, not a work directory; choose another --work")
    if path.is_dir():
        other = sorted(p.name for p in path.iterdir() if p.name not in WORK_PARTS)
        if other:
            raise TrainError(
                f"--work {path} holds files of its own ({', '.join(other[:3])}): not a meeple"
                " train work directory; choose another --work"
            )
    changed = _changed_options(path, cfg, tcfg)
    if changed:
        raise TrainError(
            f"--work {path} holds the games of another request ({changed}): give a new --work,"
            " or the same options to resume that run"
        )


def _within(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies under it (symlinks followed)."""
    return path.resolve().is_relative_to(folder.resolve())


def _changed_options(path: Path, cfg: TrainConfig, tcfg) -> str:
    """How this request differs from the one whose games (and positions) ``path`` holds,
    in the command's own options ('--games 10 -> 15'); '' when it is the same one, or
    ``path`` holds no ledger yet (a damaged one is said by the run)."""
    try:
        old = read_manifest(path / "games")  # a regular file only: a pipe is not waited on
        t, agents = old["config"]["tournament"], old["config"]["agents"]
    except (LedgerError, OSError, ValueError, TypeError, KeyError):
        return ""
    if old.get("config_hash") == tcfg.config_hash:
        every = _positions_every(path)
        return f"--every {every} -> {cfg.every}" if every not in (None, cfg.every) else ""
    pairs = [
        ("game string", t.get("game"), cfg.game_string),
        ("--games", t.get("seeds_per_lineup"), cfg.games),
        ("--seed", t.get("seed"), cfg.seed),
        ("--agent", agents.get("self"), cfg.agent_canonical),
        ("--every", _positions_every(path), cfg.every),
    ]
    changed = [f"{name} {a} -> {b}" for name, a, b in pairs if a is not None and a != b]
    return ", ".join(changed) or "the code changed since its games were played"


def _positions_every(path: Path):
    try:
        text = read_regular(path / "positions" / "manifest.json", value_model.MAX_MODEL_BYTES)
        return json_read.loads(text).get("every")
    except (OSError, ValueError, AttributeError):
        return None
