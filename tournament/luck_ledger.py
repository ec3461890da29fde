"""Luck of every finished game of a ledger, replayed from its seeds, cached beside it.

Ledgers hold no move lists (a digest only), so each game is replayed exactly as `meeple
replay` does (the agents are rebuilt from the manifest and replay from the recorded seed;
the digest proves the replay is the game played), then ``tournament.luck.game_luck``
measures its chance events. A replay costs what the game cost to play, so the results
are kept in ``DIR/.luck.json`` (``tournament.luck_cache``; written every ``SAVE_EVERY``
games, so an interrupted measurement keeps its work), one entry per value function and
code version, with the opening's expectation they were measured against (a later, more
precise expectation shifts them without a replay); a rerun measures only new games.
The moves of every replayed game are kept in ``DIR/.moves.json`` with the code version
they were replayed under, so that luck measured another way replays nothing; a cached
move list is used only when its digest equals the ledger's and its code version is the
current one. Under other code the game is replayed; when an agent has changed since (the
replay differs), the cached moves still serve if they play legally to the ledger's
scores under the current rules, since their digest proves they are the game played.
Failed games (crash, timeout, illegal move) and void games carry no luck: their result
is not the game's.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

import spiel_games
from solvers.identity import code_version
from tournament import luck_cache
from tournament.batch import BatchSpec, actions_hash, play_one, plays_as_recorded, stored_moves
from tournament.ledger import read_ledger
from tournament.luck import (
    LUCK_VERSION,
    Evaluator,
    LuckError,
    Opening,
    evaluator_for,
    game_luck,
    opening,
)
from tournament.luck_policies import KNOWN_VERSION, baseline_for
from tournament.schedule import GameTask

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


def _key(ev: Evaluator, code: str, known: bool) -> dict:
    key = {"version": LUCK_VERSION, "evaluator": ev.name, "code": code}
    return {**key, **({"known_policies": KNOWN_VERSION} if known else {})}


def _opening_record(start: Opening) -> dict:
    return {"samples": start.samples, "v": start.v.tolist(), "w": start.w.tolist()}


def _start(cached: dict | None, ev: Evaluator) -> Opening:
    """The opening's expectation: the cached one when it has as many samples as the
    evaluator asks for (40,000 openings take a minute on the slowest game), else measured."""
    base = (cached or {}).get("opening")
    if base and base.get("samples") == ev.opening_samples:
        v = np.array(base["v"])
        return Opening(v, np.array(base["w"]), np.zeros_like(v), ev.opening_samples)
    return opening(ev)


def _read_cache(cached: dict | None, start: Opening) -> dict:
    """The cached games' luck, against ``start`` (the opening's expectation): luck measured
    against another expectation differs by the two expectations' difference only."""
    if not cached or "opening" not in cached:
        return {}
    games = cached.get("games", {})
    dv = np.array(cached["opening"]["v"]) - start.v
    dw = np.array(cached["opening"]["w"]) - start.w
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


def _seed(game_id: str) -> int:
    """The baselines' seed of one game: its own, stable across runs."""
    return int(hashlib.sha256(game_id.encode()).hexdigest()[:15], 16)


def _moves(d: Path, spec: BatchSpec, names: dict, row: dict, moves: dict, code: str):
    """The game's moves: cached when their digest is the ledger's and they were kept under
    the current code; else replayed. A game that replays differently under the current
    code (an agent changed) keeps its cached moves only when they still play legally to
    the ledger's scores. Moves the ledger recorded are read instead, when they still play
    as recorded under the current rules (``stored_moves``)."""
    stored = stored_moves(row, spiel_games.load_game(spec.game))
    if stored is not None:
        return stored
    cached = moves.get(row["game_id"])
    actions = cached.get("actions") if isinstance(cached, dict) else None
    if not (
        isinstance(actions, list)
        and all(type(x) is int and 0 <= x < 2**31 for x in actions)
        and actions_hash(actions) == row["actions_hash"]
    ):
        actions = None
    elif isinstance(cached, dict) and cached.get("code") == code:
        return actions
    seats = tuple(names[i] for i in row["agents"])
    task = GameTask(
        row["game_id"], tuple(sorted(seats)), seats, row["rotation"], row["seed_index"], row["seed"]
    )
    played = play_one(spec, task, keep_actions=True)
    if played["actions_hash"] == row["actions_hash"]:
        actions = played["actions"]
    elif actions is None or not plays_as_recorded(spiel_games.load_game(spec.game), actions, row):
        raise LuckError(
            f"{d}: game {row['game_id']} replays differently from the ledger "
            "(agent or game code changed); luck cannot be measured"
        )
    moves[row["game_id"]] = {"code": code, "actions": actions}
    return actions


def ledger_luck(
    directory,
    value: str = "lookahead",
    progress: bool = True,
    known: bool = True,
    seeds: int | None = None,
    measure: bool = True,
    opening_samples: int | None = None,
) -> dict[str, dict]:
    """game id -> {"luck": per seat, "pairs": [i][j], "events": n, "decisions": m} for every
    rated game that finished normally (``seeds``: only the first duplicate sets of each
    line-up). ``value``: the value function (``tournament.luck.VALUES``). ``known``: also
    the decision terms of the seats whose strategy is known (``tournament.luck_policies``).
    ``measure=False``: only the games already measured. ``opening_samples``: openings
    drawn for the opening's expectation, when not the value function's own number."""
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
    ev = evaluator_for(game, value)
    if opening_samples:
        ev = replace(ev, opening_samples=opening_samples)
    code = code_version(game)  # what V and the replays read: the game's code and solvers
    key = _key(ev, code, known)
    cached = luck_cache.entry(luck_cache.load(d / luck_cache.CACHE), key)
    start = _start(cached, ev)
    done = _read_cache(cached, start)
    todo = [r for r in rows if r["game_id"] not in done] if measure else []
    if todo:
        _measure(d, led.manifest, todo, (ev, key, start, code, known), done, progress)
    return {r["game_id"]: done[r["game_id"]] for r in rows if r["game_id"] in done}


def _measure(d: Path, manifest: dict, todo: list, how: tuple, done: dict, progress: bool):
    """Measure the luck of the games ``todo`` into ``done``, saving as it goes."""
    ev, key, start, code, known = how
    game = todo[0]["game"]
    spec = _batch_spec(manifest, game)
    names = {a["id"]: a["name"] for a in manifest["agents"]}
    specs = {a["id"]: a["spec"] for a in manifest["agents"]}
    moves = luck_cache.load_moves(d)
    fresh: dict = {}  # what this run measured: what it writes (merged with the disk's)

    def save():
        # sorted: a set's order follows the hash seed, and the file should not
        luck_cache.save_moves(d, {k: moves[k] for k in sorted(fresh.get("moves", ()))})
        luck_cache.save_luck(d, key, _opening_record(start), done)

    try:
        for n, row in enumerate(todo, 1):
            before = moves.get(row["game_id"])
            actions = _moves(d, spec, names, row, moves, code)
            if moves.get(row["game_id"]) is not before:
                fresh.setdefault("moves", set()).add(row["game_id"])
            seat_specs = [specs[i] for i in row["agents"]]
            seats = [baseline_for(s, game) if known else None for s in seat_specs]
            row_ev = ev.for_seats(seat_specs) if hasattr(ev, "for_seats") else ev
            g = game_luck(row_ev, actions, start, seats, _seed(row["game_id"]), opening_ev=ev)
            done[row["game_id"]] = {
                "luck": [round(float(x), 6) for x in g.luck],
                "pairs": np.round(g.pair_luck, 6).tolist(),
                "events": g.events,
                "decisions": g.decisions,
            }
            if n % SAVE_EVERY == 0:  # a killed run keeps most of its work
                save()
            if progress and (n % SAVE_EVERY == 0 or n == len(todo)):
                print(f"luck: {n}/{len(todo)} games of {d} measured", file=sys.stderr)
    finally:  # an interrupted or failed run keeps what it measured
        save()
