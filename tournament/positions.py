"""The positions files of ``meeple train``: rows of replayed games, 50 games per Parquet file.

``<work>/positions/part-NNNNN.parquet`` (written atomically, numbered after the highest
existing one) hold one row per (position, player): the game, its seed index, the step,
the player, the stage, the features, the hand-set estimate and the final score.
``load_positions`` reads one run's rows as ``solvers.value_fit.Positions``;
``pooled_positions`` reads every row of earlier runs (``meeple train --pool``) so that they
train a model beside a new run's games, numbered below them so they are never held out.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from solvers import value_fit
from spiel_games.common.errors import MeepleError, one_line

SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("seed_index", pa.int64()),
        ("step", pa.int32()),
        ("player", pa.int8()),
        ("stage", pa.float64()),
        ("features", pa.list_(pa.float64())),
        ("hand", pa.float64()),
        ("final", pa.float64()),
    ]
)


class TrainError(MeepleError):
    """A bad training request, or work files that cannot be used (one line)."""


_PART = "part-[0-9][0-9][0-9][0-9][0-9].parquet"


def _parts(pos_dir: Path) -> list[Path]:
    return sorted(pos_dir.glob(_PART))


def done_positions(pos_dir: Path) -> set[str]:
    done: set[str] = set()
    for p in _parts(pos_dir):
        try:
            t = pq.read_table(p, columns=["game_id"])
        except (OSError, pa.ArrowException) as e:
            raise TrainError(f"{p}: unreadable positions file ({one_line(e)}); delete it") from None
        done.update(t.column("game_id").unique().to_pylist())
    return done


def write_part(pos_dir: Path, rows: dict[str, list]) -> None:
    """A new part file, numbered after the highest existing one (never over one)."""
    numbers = [int(p.stem.split("-")[1]) for p in _parts(pos_dir)]
    k = max(numbers, default=-1) + 1
    path = pos_dir / f"part-{k:05d}.parquet"
    tmp = pos_dir / f".tmp-{path.name}"
    pq.write_table(pa.table(rows, schema=SCHEMA), tmp)
    tmp.replace(path)


def load_positions(pos_dir: Path, game_ids: set[str]) -> value_fit.Positions:
    """The stored rows of ``game_ids`` as arrays (games numbered by seed index)."""
    parts = _parts(pos_dir)
    if not parts:
        raise TrainError(f"{pos_dir}: no positions")
    tables = []
    for p in parts:
        try:
            tables.append(pq.read_table(p, schema=SCHEMA))
        except (OSError, pa.ArrowException) as e:
            raise TrainError(f"{p}: unreadable positions file ({one_line(e)}); delete it") from None
    t = pa.concat_tables(tables)
    ids = t.column("game_id").to_numpy(zero_copy_only=False)
    keep = np.isin(ids, np.array(sorted(game_ids), dtype=object))
    t = t.filter(pa.array(keep))
    # one order whatever the part files' order (a rebuilt part comes last): the same fit
    t = t.sort_by([("seed_index", "ascending"), ("step", "ascending"), ("player", "ascending")])
    found = set(t.column("game_id").unique().to_pylist())
    if found != game_ids:
        raise TrainError(
            f"{pos_dir}: positions of {len(game_ids - found)} game(s) are missing: rerun the "
            "same command to replay them"
        )
    seed_index = t.column("seed_index").to_numpy()
    step = t.column("step").to_numpy().astype(np.int64)
    feats = t.column("features").to_pylist()
    if not feats:
        raise TrainError(f"{pos_dir}: no positions of this request's games")
    width = {len(f) for f in feats}
    if len(width) != 1:
        raise TrainError(f"{pos_dir}: positions with different feature counts; delete it")
    x = np.array(feats, dtype=float)
    # one id per (game, step): rows of one position share it
    pos = seed_index * (int(step.max()) + 1) + step
    return value_fit.Positions(
        x=x,
        stage=t.column("stage").to_numpy(),
        y=t.column("final").to_numpy(),
        pos=pos,
        game=seed_index,
        hand=t.column("hand").to_numpy(),
    )


def pool_manifest(d: str, features: tuple[str, ...]) -> dict:
    """The positions manifest of an earlier run's work directory ``d`` (``--pool``): refused
    when there is none, when it cannot be read or when its positions were taken with other
    features than the game's now (checked before anything runs)."""
    path = Path(d) / "positions" / "manifest.json"
    if not path.exists():
        raise TrainError(f"--pool {d}: no positions of an earlier meeple train run there")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TrainError(f"--pool {d}: unreadable manifest ({one_line(e)})") from None
    if not isinstance(manifest, dict) or tuple(manifest.get("features", ())) != features:
        raise TrainError(f"--pool {d}: positions of other features than the game's now")
    return manifest


def pooled_positions(
    dirs: tuple[str, ...], features: tuple[str, ...]
) -> value_fit.Positions | None:
    """Every stored row of earlier runs' work directories, their games numbered below 0
    (``value_fit.holdout_split`` holds out games numbered 0 and up only). A directory whose
    positions were taken with other features is refused."""
    parts: list[value_fit.Positions] = []
    next_game = -1
    for d in dirs:
        pos_dir = Path(d) / "positions"
        pool_manifest(d, features)
        p = load_positions(pos_dir, done_positions(pos_dir))
        _, rank = np.unique(p.game, return_inverse=True)
        p.game = next_game - rank
        next_game = int(p.game.min()) - 1
        parts.append(p)
    if not parts:
        return None
    return value_fit.concat(parts)
