"""The checks ``meeple train`` makes of a request's files before anything runs: the model
file (``--out``), the work directory (``--work``), that both can be written; each refusal is
a one-line ``TrainError``."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from solvers import value_model
from spiel_games.common.files import TMP_PREFIX, existing_parent
from tournament.positions import TrainError

if TYPE_CHECKING:
    from tournament.training import TrainConfig

WORK_PARTS = ("games", "positions")  # what a work directory holds: the ledger, the positions


def check_writable(option: str, path: Path) -> None:
    """The nearest existing folder on ``path``'s way can be written to: a read-only disk is
    said before the self-play, not after it."""
    parent = existing_parent(path)
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise TrainError(f"{option} {path}: cannot write in {parent}")
    try:  # the permission bits are not the whole story (/proc, a disk mounted read-only)
        fd, probe = tempfile.mkstemp(dir=parent, prefix=f"{TMP_PREFIX}probe-")
    except OSError as e:
        raise TrainError(f"{option} {path}: cannot write in {parent} ({e.strerror or e})") from None
    os.close(fd)
    os.unlink(probe)


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
    another run's model, another game's, or a file that is no value model)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or data.get("format") != value_model.FORMAT:
        raise TrainError(f"--out {path} exists and is not a value model; choose another --out")
    trained = data.get("trained")
    made_by = trained.get("command") if isinstance(trained, dict) else None
    if made_by != train_command(cfg):
        raise TrainError(
            f"--out {path} holds the value model of another run ({made_by or 'command unknown'});"
            " choose another --out, or remove that file"
        )


def check_work(path: Path) -> None:
    """The work directory is new, empty or an earlier run's: never a ledger or a folder of
    other files, into which self-play would mix its own."""
    if path.exists() and not path.is_dir():
        raise TrainError(f"--work {path} is a file, not a work directory; choose another --work")
    if path.is_dir():
        other = sorted(p.name for p in path.iterdir() if p.name not in WORK_PARTS)
        if other:
            raise TrainError(
                f"--work {path} holds files of its own ({', '.join(other[:3])}): not a meeple"
                " train work directory; choose another --work"
            )
