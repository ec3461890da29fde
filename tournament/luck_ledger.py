"""Luck of every finished game of a ledger, replayed from its seeds, cached beside it.

Ledgers hold no move lists (a digest only), so each game is replayed exactly as `meeple
replay` does (the agents are rebuilt from the manifest and replay from the recorded seed;
the digest proves the replay is the game played), then ``tournament.luck.game_luck``
measures its chance events. A replay costs what the game cost to play, so the results
are kept in ``DIR/.luck.json`` (hidden: the ledger ignores it; written every ``SAVE_EVERY``
games, so an interrupted measurement keeps its work), keyed by game id and by
the evaluator, with the opening's expectation they were measured against (a later,
more precise expectation shifts them without a replay); a rerun replays only new games.
The moves of every replayed game are kept in ``DIR/.moves.json``, so that luck measured
another way (another evaluator, known-policy terms) replays nothing; a cached move list is
used only when its digest equals the ledger's, so it is the game played whoever wrote it.
Failed games (crash, timeout, illegal
move) and void games carry no luck: their result is not the game's.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

from tournament.batch import BatchSpec, actions_hash, play_one
from tournament.ledger import read_ledger
from tournament.luck import (
    LUCK_VERSION,
    OPENING_SAMPLES,
    Evaluator,
    LuckError,
    Opening,
    evaluator_for,
    game_luck,
    opening,
)
from tournament.luck_policies import KNOWN_VERSION, baseline_for
from tournament.schedule import GameTask

CACHE = ".luck.json"
MOVES = ".moves.json"
SAVE_EVERY = 100  # games measured between two writes of the caches


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
    return {"version": LUCK_VERSION, "evaluator": ev.name}


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _start(data: dict, key: dict, ev: Evaluator) -> Opening:
    """The opening's expectation: the cached one when it is this evaluator's with as many
    samples as asked (40,000 openings take a minute on the slowest game), else measured."""
    base = data.get("opening")
    if data.get("key") == key and base and base.get("samples") == OPENING_SAMPLES:
        v = np.array(base["v"])
        return Opening(v, np.array(base["w"]), np.zeros_like(v), OPENING_SAMPLES)
    return opening(ev)


def _read_cache(data: dict, key: dict, ev: Evaluator, start: Opening) -> dict:
    """The cached games' luck, against ``start`` (the opening's expectation): luck measured
    against another expectation differs by the two expectations' difference only."""
    old_key = dict(data.get("key", {}))
    legacy = old_key.pop("opening_samples", None)  # the first format: no stored opening
    if old_key != key:
        return {}
    games = data.get("games", {})
    if "opening" in data:
        old_v, old_w = np.array(data["opening"]["v"]), np.array(data["opening"]["w"])
    elif legacy:
        before = opening(ev, int(legacy))
        old_v, old_w = before.v, before.w
    else:
        return {}
    dv, dw = old_v - start.v, old_w - start.w
    if not (dv.any() or dw.any()):
        return games
    return {
        gid: {
            **g,
            "luck": [round(float(x), 6) for x in np.array(g["luck"]) + dv],
            "pairs": np.round(np.array(g["pairs"]) + dw, 6).tolist(),
        }
        for gid, g in games.items()
    }


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        tmp.write_text(json.dumps(data))
        tmp.replace(path)
    except OSError:  # a read-only ledger: measured again next time
        tmp.unlink(missing_ok=True)


def _write_cache(path: Path, key: dict, start: Opening, games: dict) -> None:
    base = {"samples": start.samples, "v": start.v.tolist(), "w": start.w.tolist()}
    _write_json(path, {"key": key, "opening": base, "games": games})


def _seed(game_id: str) -> int:
    """The baselines' seed of one game: its own, stable across runs."""
    return int(hashlib.sha256(game_id.encode()).hexdigest()[:15], 16)


def _moves(d: Path, spec: BatchSpec, names: dict, row: dict, moves: dict) -> list[int]:
    """The game's moves: cached when their digest is the ledger's, else replayed."""
    cached = moves.get(row["game_id"])
    if (
        isinstance(cached, list)
        and all(type(x) is int and 0 <= x < 2**31 for x in cached)
        and actions_hash(cached) == row["actions_hash"]
    ):
        return cached
    seats = tuple(names[i] for i in row["agents"])
    task = GameTask(
        row["game_id"], tuple(sorted(seats)), seats, row["rotation"], row["seed_index"], row["seed"]
    )
    played = play_one(spec, task, keep_actions=True)
    if played["actions_hash"] != row["actions_hash"]:
        raise LuckError(
            f"{d}: game {row['game_id']} replays differently from the ledger "
            "(agent or game code changed); luck cannot be measured"
        )
    moves[row["game_id"]] = played["actions"]
    return played["actions"]


def ledger_luck(
    directory,
    lookahead: bool = True,
    progress: bool = True,
    known: bool = True,
    seeds: int | None = None,
    measure: bool = True,
) -> dict[str, dict]:
    """game id -> {"luck": per seat, "pairs": [i][j], "events": n, "decisions": m} for every
    rated game that finished normally (``seeds``: only the first duplicate sets of each
    line-up). ``known``: also the decision terms of the seats whose strategy is known
    (``tournament.luck_policies``). ``measure=False``: only the games already measured."""
    d = Path(directory)
    led = read_ledger(d)
    rows = [
        r
        for r in led.table.to_pylist()
        if r["ranks"] is not None
        and not r["failure"]
        and (seeds is None or r["seed_index"] < seeds)
    ]
    if not rows:
        return {}
    game = rows[0]["game"]
    ev = evaluator_for(game, lookahead)
    key = {**_key(ev), **({"known_policies": KNOWN_VERSION} if known else {})}
    cache_path = d / CACHE
    data = _load(cache_path)
    start = _start(data, key, ev)
    done = _read_cache(data, key, ev, start)
    todo = [r for r in rows if r["game_id"] not in done] if measure else []
    if todo:
        spec = _batch_spec(led.manifest, game)
        names = {a["id"]: a["name"] for a in led.manifest["agents"]}
        specs = {a["id"]: a["spec"] for a in led.manifest["agents"]}
        moves = _load(d / MOVES)
        try:
            for n, row in enumerate(todo, 1):
                actions = _moves(d, spec, names, row, moves)
                seats = [baseline_for(specs[i], game) if known else None for i in row["agents"]]
                g = game_luck(ev, actions, start, seats, _seed(row["game_id"]))
                done[row["game_id"]] = {
                    "luck": [round(float(x), 6) for x in g.luck],
                    "pairs": np.round(g.pair_luck, 6).tolist(),
                    "events": g.events,
                    "decisions": g.decisions,
                }
                if n % SAVE_EVERY == 0:  # a killed run keeps most of its work
                    _write_json(d / MOVES, moves)
                    _write_cache(cache_path, key, start, done)
                if progress and (n % SAVE_EVERY == 0 or n == len(todo)):
                    print(f"luck: {n}/{len(todo)} games of {d} measured", file=sys.stderr)
        finally:  # an interrupted or failed run keeps what it measured
            _write_json(d / MOVES, moves)
            _write_cache(cache_path, key, start, done)
    return {r["game_id"]: done[r["game_id"]] for r in rows if r["game_id"] in done}
