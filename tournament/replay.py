"""Replay one game of a ledger exactly, move by move, from its recorded seed.

A ledger that recorded its moves (``tournament.record_moves``) is read as it stands, when
the moves still play to the recorded result under the current rules. Otherwise the agents
play the game again: they are deterministic given their seed, and
every seed derives from the game's recorded match seed, so replaying needs no stored moves;
the recorded digest of the move list (``actions_hash``) proves the replay is the game that
was played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import spiel_games
from tournament.batch import BatchSpec, play_one, stored_moves
from tournament.ledger import read_game
from tournament.records import GameRecord, record_of
from tournament.schedule import GameTask


@dataclass
class Replay:
    row: dict
    lines: list[str]
    matches: bool  # the replayed move list has the recorded digest
    actions: list[int]
    state: object  # the replayed final state
    seat_specs: tuple[str, ...]

    def record(self) -> GameRecord:
        """The game as a record that `meeple advise --game-file` and `meeple play --load` read."""
        return record_of(
            self.row["game"], self.state, self.row["seed"], self.seat_specs, self.actions
        )


def _as_played(row: dict, moves: list[int]) -> dict:
    """The ledger row of a game that recorded its moves, as ``play_one`` returns a replay."""
    return {**row, "actions": moves}


def _scores(scores: list[float]) -> str:
    """The final scores per seat; a game that ended early (a failed agent) has none (NaN)."""
    if all(math.isnan(x) for x in scores):
        return "- (the game did not finish)"
    return ", ".join(f"P{p + 1} {'-' if math.isnan(x) else f'{x:g}'}" for p, x in enumerate(scores))


def replay(directory: str | Path, game_id: str) -> Replay:
    row, manifest = read_game(directory, game_id)
    by_id = {a["id"]: a for a in manifest["agents"]}
    seats = tuple(by_id[i]["name"] for i in row["agents"])
    policy = manifest["config"]["tournament"]
    spec = BatchSpec(
        run_id=manifest["run_id"],
        game=row["game"],
        agents={a["name"]: (a["spec"], a["id"]) for a in manifest["agents"]},
        failure_policy=policy["failure_policy"],
        time_limit=policy["time_limit"],
    )
    task = GameTask(
        row["game_id"], tuple(sorted(seats)), seats, row["rotation"], row["seed_index"], row["seed"]
    )
    game = spiel_games.load_game(row["game"])
    stored = stored_moves(row, game)
    played = play_one(spec, task, keep_actions=True) if stored is None else _as_played(row, stored)
    state = game.new_initial_state()
    lines = [
        f"game {row['game_id']}  {row['game']}",
        f"seed {row['seed']}  rotation {row['rotation']}  seats: "
        + ", ".join(f"P{p + 1}={name}" for p, name in enumerate(seats)),
    ]
    lines.append(f"{'ply':>4}  {'who':<20} move   (ply: the actions before it, as review counts)")
    for ply, a in enumerate(played["actions"]):  # ply as review and `advise --ply` count it
        if state.is_chance_node():
            who = "chance"
        else:
            p = state.current_player()
            who = f"P{p + 1} {seats[p]}"
        lines.append(f"{ply:>4}  {who:<20} {state.action_to_string(state.current_player(), a)}")
        state.apply_action(a)
    if played["failure"]:
        lines.append(
            f"ended by {played['failure']} of seat P{played['failed_seat'] + 1}: {played['detail']}"
        )
    lines.append("scores: " + _scores(played["scores"]))
    lines.append(
        "ranks: " + ", ".join(f"P{p + 1} {r}" for p, r in enumerate(played["ranks"] or []))
    )
    ok = played["actions_hash"] == row["actions_hash"]
    lines.append(
        "replay matches the ledger"
        if ok
        else "WARNING: the replay differs from the recorded game (agent or game code changed?)"
    )
    seat_specs = tuple(by_id[i]["spec"] for i in row["agents"])
    return Replay(row, lines, ok, list(played["actions"]), state, seat_specs)
