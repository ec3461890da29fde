"""Luck of every finished game of a ledger, replayed from its seeds, cached beside it.

Ledgers hold no move lists (a digest only), so each game is replayed exactly as `meeple
replay` does (the agents are rebuilt from the manifest and replay from the recorded seed;
the digest proves the replay is the game played), then ``tournament.luck.game_luck``
measures its chance events. A replay costs what the game cost to play, so the results
are kept in ``DIR/.luck.json`` (hidden: the ledger ignores it), keyed by game id and by
the evaluator; a rerun replays only new games. Failed games (crash, timeout, illegal
move) and void games carry no luck: their result is not the game's.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

from tournament.batch import BatchSpec, play_one
from tournament.ledger import read_ledger
from tournament.luck import (
    LUCK_VERSION,
    OPENING_SAMPLES,
    Evaluator,
    LuckError,
    evaluator_for,
    game_luck,
    opening,
)
from tournament.schedule import GameTask

CACHE = ".luck.json"


def _batch_spec(manifest: dict, game: str) -> BatchSpec:
    policy = manifest["config"]["tournament"]
    return BatchSpec(
        run_id=manifest["run_id"],
        game=game,
        agents={a["name"]: (a["spec"], a["id"]) for a in manifest["agents"]},
        failure_policy=policy["failure_policy"],
        time_limit=policy["time_limit"],
    )


def _key(ev: Evaluator) -> dict:
    return {"version": LUCK_VERSION, "evaluator": ev.name, "opening_samples": OPENING_SAMPLES}


def _read_cache(path: Path, key: dict) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data.get("games", {}) if data.get("key") == key else {}


def _write_cache(path: Path, key: dict, games: dict) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        tmp.write_text(json.dumps({"key": key, "games": games}))
        tmp.replace(path)
    except OSError:  # a read-only ledger: luck is measured again next time
        tmp.unlink(missing_ok=True)


def ledger_luck(directory, lookahead: bool = True, progress: bool = True) -> dict[str, dict]:
    """game id -> {"luck": per seat, "pairs": [i][j], "events": n} for every rated game
    that finished normally."""
    d = Path(directory)
    led = read_ledger(d)
    rows = [r for r in led.table.to_pylist() if r["ranks"] is not None and not r["failure"]]
    if not rows:
        return {}
    game = rows[0]["game"]
    ev = evaluator_for(game, lookahead)
    key = _key(ev)
    cache_path = d / CACHE
    done = _read_cache(cache_path, key)
    todo = [r for r in rows if r["game_id"] not in done]
    if todo:
        start = opening(ev)
        spec = _batch_spec(led.manifest, game)
        names = {a["id"]: a["name"] for a in led.manifest["agents"]}
        for n, row in enumerate(todo, 1):
            seats = tuple(names[i] for i in row["agents"])
            task = GameTask(
                row["game_id"],
                tuple(sorted(seats)),
                seats,
                row["rotation"],
                row["seed_index"],
                row["seed"],
            )
            played = play_one(spec, task, keep_actions=True)
            if played["actions_hash"] != row["actions_hash"]:
                raise LuckError(
                    f"{d}: game {row['game_id']} replays differently from the ledger "
                    "(agent or game code changed); luck cannot be measured"
                )
            g = game_luck(ev, played["actions"], start)
            done[row["game_id"]] = {
                "luck": [round(float(x), 6) for x in g.luck],
                "pairs": np.round(g.pair_luck, 6).tolist(),
                "events": g.events,
            }
            if progress and (n % 200 == 0 or n == len(todo)):
                print(f"luck: {n}/{len(todo)} games of {d} replayed", file=sys.stderr)
        _write_cache(cache_path, key, done)
    return {r["game_id"]: done[r["game_id"]] for r in rows}
