"""The positions files of ``meeple train``: rows of replayed games, 50 games per Parquet file.

``<work>/positions/part-NNNNN.parquet`` (written atomically, numbered after the highest
existing one) hold one row per (position, player): the game, its seed index, the step,
the player, the stage, the features, the hand-set estimate and the final score.
``load_positions`` reads one run's rows as ``solvers.value_fit.Positions``;
``pooled_positions`` reads every row of earlier runs (``meeple train --pool``, checked first
by ``check_pools``) so that they train a model beside a new run's games, numbered below them
so they are never held out; a pooled game identical to one of the run's own is left out.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from solvers import value_fit
from spiel_games.common import json_read
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.files import atomic_file, lookup_problem
from spiel_games.common.registry import get_spec
from tournament.ledger import LedgerError, read_ledger, read_manifest

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
    with atomic_file(path) as f:  # synced, then renamed: a crash or full disk leaves no part
        pq.write_table(pa.table(rows, schema=SCHEMA), f)


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
    if why := lookup_problem(path):  # a name over 255 bytes (Path.exists raises)
        raise TrainError(f"--pool {d}: {why}")
    if not path.exists():
        raise TrainError(f"--pool {d}: no positions of an earlier meeple train run there")
    try:
        manifest = json_read.loads(path.read_text())
    except (OSError, ValueError) as e:  # not UTF-8, not JSON, nested too deeply
        raise TrainError(f"--pool {d}: unreadable manifest ({one_line(e)})") from None
    if not isinstance(manifest, dict) or tuple(manifest.get("features", ())) != features:
        raise TrainError(f"--pool {d}: positions of other features than the game's now")
    return manifest


def check_pools(cfg, work: Path, run_id: str) -> None:
    """Before anything runs: every ``--pool`` is an earlier run's work directory of this
    game string and of the game's features, other than this run's ``--work`` and its
    request (``run_id``, whose games are this run's own, held-out ones included), and no
    two pools hold the same run's games."""
    features = tuple(get_spec(cfg.short_name).evaluation.FEATURES)
    seen: dict[str, str] = {}  # self-play run id -> the --pool that holds its games
    for d in cfg.pool:
        manifest = pool_manifest(d, features)
        if Path(d).resolve() == work.resolve():
            raise TrainError(f"--pool {d} is this run's --work: its held-out games would train")
        try:
            game = read_manifest(Path(d) / "games").get("game")
        except LedgerError as e:
            raise TrainError(f"--pool {d}: {one_line(e)}") from None
        if game != cfg.game_string:
            raise TrainError(f"--pool {d} holds games of {game}, not of {cfg.game_string}")
        rid = str(manifest.get("ledger_run_id"))
        if rid == run_id:
            raise TrainError(
                f"--pool {d} holds this request's own games (an earlier run of it): its "
                "held-out games would train"
            )
        if rid in seen:
            raise TrainError(f"--pool {d} holds the same games as --pool {seen[rid]}")
        seen[rid] = d


def ledger_digests(ledger_dir: Path, ids: set[str]) -> dict[str, int]:
    """The move digest (``actions_hash``) of each of the games ``ids`` in a ledger."""
    t = read_ledger(ledger_dir, columns=["game_id", "actions_hash"]).table
    ids_col, hashes = t.column("game_id").to_pylist(), t.column("actions_hash").to_pylist()
    digests = dict(zip(ids_col, hashes, strict=True))
    missing = ids - digests.keys()
    if missing:
        raise TrainError(f"{ledger_dir} does not hold game {min(missing)} of its positions")
    return {g: digests[g] for g in ids}


def pooled_positions(
    dirs: tuple[str, ...], own: set[int]
) -> tuple[value_fit.Positions | None, int]:
    """Every stored row of earlier runs' work directories (checked by ``check_pools``),
    their games numbered below 0 (``value_fit.holdout_split`` holds out games numbered 0
    and up only), and how many games were left out: a pooled game whose move list is one
    of this run's (``own``: their digests; an earlier run of the same seeds with fewer
    games) or an earlier pool's would train twice, or train on a held-out game."""
    parts: list[value_fit.Positions] = []
    next_game = -1
    taken, left_out = set(own), 0
    for d in dirs:
        pos_dir = Path(d) / "positions"
        digests = ledger_digests(Path(d) / "games", done_positions(pos_dir))
        keep = {g for g, h in digests.items() if h not in taken}
        left_out += len(digests) - len(keep)
        taken.update(digests.values())
        if not keep:
            continue
        p = load_positions(pos_dir, keep)
        _, rank = np.unique(p.game, return_inverse=True)
        p.game = next_game - rank
        next_game = int(p.game.min()) - 1
        parts.append(p)
    return (value_fit.concat(parts) if parts else None), left_out
