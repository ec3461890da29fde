"""``meeple train``: fit a game's value model to self-play games played by the tournament runner.

    result = train(TrainConfig("python_bruxelles(players=3)", games=1000))

1. **Self-play.** A fixed-schedule tournament of one agent (``noisy(eps=0.1)`` by default:
   the heuristic with a random move 10% of the time, so the games visit more than the
   heuristic's own lines) in every seat, one game per seed, played by the tournament runner
   (serially, or on Ray once that pays, or on a cluster) into a ledger under
   ``<work>/games``. It is the runner's crash-safe, resumable ledger: rerunning the same
   command plays only the missing games.
2. **Positions.** Every game's move list is read from the ledger (the self-play tournament
   records its moves, ``tournament.record_moves``; a ledger written before it did is
   replayed from its seeds instead: agents are deterministic given their seed, and the
   replayed move list must have the ledger's digest) and every ``every``-th decision
   position gives one row per player: the evaluation module's features, the
   stage, the hand-set estimate and the player's final score. Rows go to
   ``<work>/positions/part-*.parquet``, a chunk of games per file written atomically, so an
   interrupted extraction also resumes. (Replaying a search agent's games costs as much as
   playing them, on one core; reading the recorded moves takes milliseconds a game.)
3. **Fit.** ``solvers.value_fit.fit`` of the requested ``kind`` (``linear``, or ``mlp``:
   linear plus a small network): the held-out R^2 (the last 20% of games, by seed index) of
   the model fitted without them, next to the hand-set evaluation's and the points' alone on
   the same positions (and the linear model's, for ``mlp``); then the model fitted on every
   game, written as JSON to ``out`` (default ``runs/models/<game>-<8 hex of the file>.json``).
   ``pool`` adds the stored positions of earlier runs' work directories (e.g. noisy-heuristic
   games beside the search's own): they train, and are never held out.

The work directory defaults to ``runs/train/<game>-<8 hex of the request>``; the same
request (game string, agent, games, seed, every) under the same code version finds the same
directory and resumes; after a change to the game or the solvers it starts a new directory.
(Game seeds derive from the request's seed and the agent's parameters, not the code version:
the new directory's games are dealt the same cards, played by the current code.)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import spiel_games
from solvers import value_fit, value_model
from solvers.identity import code_version
from solvers.registry import resolve
from solvers.spec import AgentSpecError
from spiel_games.common import json_read
from spiel_games.common.errors import MeepleError, one_line
from spiel_games.common.files import atomic_write_text, lookup_problem
from spiel_games.common.registry import get_spec
from tournament.batch import play_one, resolve_agents, stored_moves
from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.positions import (
    SCHEMA,
    TrainError,
    check_pools,
    done_positions,
    ledger_digests,
    load_positions,
    pooled_positions,
    write_part,
)
from tournament.runner import batch_spec, run_tournament
from tournament.schedule import schedule
from tournament.training_request import (
    TrainConfig,
    check_out,
    check_work,
    check_writable,
    train_command,
)

CHUNK = 50  # games per positions file


@dataclass
class TrainResult:
    model_path: Path
    work: Path
    games: int  # games the model was fitted on (pooled ones included)
    failed: int  # self-play games that ended in a failure (left out)
    positions: int
    report: dict
    model: value_model.ValueModel


def validate(cfg: TrainConfig) -> TrainConfig:
    """Check the whole request before anything runs (one-line ``TrainError`` otherwise)."""
    try:
        game = spiel_games.load_game(cfg.game)
    except MeepleError as e:
        raise TrainError(one_line(e)) from None
    name = game.get_type().short_name
    evaluation = get_spec(name).evaluation
    if evaluation is None or not hasattr(evaluation, "features"):
        raise TrainError(f"{name} has no evaluation features to fit a value model on")
    if cfg.games < 5:
        raise TrainError(f"--games must be at least 5 (a fifth is held out), got {cfg.games}")
    if cfg.every < 1:
        raise TrainError(f"--every must be at least 1, got {cfg.every}")
    if not 0.0 <= cfg.holdout <= 0.5:
        raise TrainError(f"the held-out share must be in [0, 0.5], got {cfg.holdout}")
    try:
        spec = resolve(cfg.agent)
        spec.check(game)
    except AgentSpecError as e:
        raise TrainError(f"--agent: {one_line(e)}") from None
    budget = spec.params.get("time", 0.0)
    if isinstance(budget, (int, float)) and budget > 0:
        raise TrainError(
            "--agent: a time budget (time=) plays differently on every run, so its games "
            "cannot be replayed for their positions; give it a simulation budget"
        )
    cfg.game_string = str(game)
    cfg.short_name = name
    cfg.agent_canonical = spec.canonical
    if cfg.kind not in value_model.KINDS:
        raise TrainError(f"--kind must be one of {', '.join(value_model.KINDS)}, got {cfg.kind}")
    if cfg.out is not None and Path(cfg.out).suffix != ".json":
        raise TrainError(f"--out must name a .json file, got {cfg.out}")
    if cfg.out is not None and (why := lookup_problem(cfg.out)):  # a name over 255 bytes
        raise TrainError(f"--out {cfg.out}: {why}; choose another --out")
    if cfg.out is not None and Path(cfg.out).exists():
        check_out(cfg, Path(cfg.out))
    tcfg = tournament_config(cfg)
    check_work(work_dir(cfg), cfg, tcfg)
    check_pools(cfg, work_dir(cfg), tcfg.run_id)
    for option, path in (("--out", cfg.out), ("--work", work_dir(cfg))):
        if path is not None:
            check_writable(option, Path(path))
    return cfg


def request_hash(cfg: TrainConfig) -> str:
    text = json.dumps(
        [
            cfg.game_string,
            cfg.agent_canonical,
            cfg.games,
            cfg.seed,
            cfg.every,
            code_version(cfg.game_string),
        ],
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def work_dir(cfg: TrainConfig) -> Path:
    if cfg.work:
        return Path(cfg.work)
    slug = cfg.short_name.removeprefix("python_")
    return Path("runs") / "train" / f"{slug}-{request_hash(cfg)}"


def tournament_config(cfg: TrainConfig):
    """The self-play tournament: one agent in every seat, one game per seed."""
    n = spiel_games.load_game(cfg.game_string).num_players()
    return build_config(
        {
            "tournament": {
                "game": cfg.game_string,
                "schedule": "fixed",
                "tables": [["self"] * n],
                "seating": "balanced",
                "self_play": True,
                "seeds_per_lineup": cfg.games,
                "seed": cfg.seed,
                "time_limit": 0.0,
                "record_moves": True,
            },
            "agents": {"self": cfg.agent_canonical},
        }
    )


def _positions_manifest(cfg: TrainConfig, tcfg) -> dict:
    evaluation = get_spec(cfg.short_name).evaluation
    return {
        "ledger_run_id": tcfg.run_id,
        "every": cfg.every,
        "features": list(evaluation.FEATURES),
    }


def _check_or_write_manifest(pos_dir: Path, manifest: dict) -> None:
    """The positions directory holds rows of one request only (self-play run, every,
    features); a directory written for another is refused, never mixed."""
    path = pos_dir / "manifest.json"
    if path.exists():
        try:
            old = json_read.loads(path.read_text())
        except (OSError, ValueError) as e:  # not UTF-8, not JSON, nested too deeply
            raise TrainError(f"{path}: unreadable ({one_line(e)}); delete {pos_dir}") from None
        if old != manifest:
            keys = [k for k in manifest if not isinstance(old, dict) or old.get(k) != manifest[k]]
            raise TrainError(
                f"{pos_dir} holds positions of another request ({', '.join(keys) or 'format'} "
                f"differ): use another --work or delete {pos_dir}"
            )
        return
    atomic_write_text(path, json.dumps(manifest, indent=1) + "\n")


def extract_positions(
    cfg: TrainConfig,
    tcfg,
    ledger_dir: Path,
    pos_dir: Path,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[set[str], int]:
    """Replay the ledger's games missing from ``pos_dir`` and store their positions.

    Returns (ids of the games with positions, failed self-play games)."""
    pos_dir.mkdir(parents=True, exist_ok=True)
    _check_or_write_manifest(pos_dir, _positions_manifest(cfg, tcfg))
    for stale in pos_dir.glob(".tmp-*"):
        stale.unlink()
    table = read_ledger(ledger_dir).table
    wanted = ["game_id", "failure", "actions_hash", "seed_index", "moves", "scores"]
    rows = table.select(wanted).to_pylist()
    failed = sum(1 for r in rows if r["failure"])
    good = sorted((r for r in rows if not r["failure"]), key=lambda r: r["seed_index"])
    done = done_positions(pos_dir)
    todo = [r for r in good if r["game_id"] not in done]
    if on_progress:
        on_progress(len(good) - len(todo), len(good))
    if not todo:
        return {r["game_id"] for r in good}, failed
    spec = batch_spec(tcfg)
    agents = resolve_agents(spec)
    tasks = {t.game_id: t for t in schedule(tcfg)}
    game = spiel_games.load_game(cfg.game_string)
    evaluation = get_spec(cfg.short_name).evaluation
    buf: dict[str, list] = {k: [] for k in SCHEMA.names}
    in_buf = 0
    for i, r in enumerate(todo):
        task = tasks.get(r["game_id"])
        if task is None:
            raise TrainError(
                f"game {r['game_id']} of {ledger_dir} is not in this request's schedule"
            )
        actions = stored_moves(r, game)
        if actions is None:  # a ledger that did not record its moves: the agents replay it
            played = play_one(spec, task, keep_actions=True, agent_specs=agents)
            if played["actions_hash"] != r["actions_hash"]:
                raise TrainError(
                    f"game {r['game_id']} replays differently from the ledger (the code "
                    f"changed since it was played): delete {ledger_dir.parent} and train again"
                )
            actions = played["actions"]
        cols = value_fit.game_positions(game, actions, evaluation, cfg.every)
        m = len(cols["step"])
        buf["game_id"] += [r["game_id"]] * m
        buf["seed_index"] += [r["seed_index"]] * m
        for k in ("step", "player", "stage", "features", "hand", "final"):
            buf[k] += cols[k]
        in_buf += 1
        if in_buf == CHUNK or i == len(todo) - 1:
            write_part(pos_dir, buf)
            buf = {k: [] for k in SCHEMA.names}
            in_buf = 0
            if on_progress:
                on_progress(len(good) - len(todo) + i + 1, len(good))
    return {r["game_id"] for r in good}, failed


def default_out(cfg: TrainConfig, text: str) -> Path:
    slug = cfg.short_name.removeprefix("python_")
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return Path("runs") / "models" / f"{slug}-{digest}.json"


def train(
    cfg: TrainConfig,
    workers: int = 2,
    address: str | None = None,
    executor: str = "auto",
    on_start=None,
    on_batch=None,
    on_progress: Callable[[int, int], None] | None = None,
) -> TrainResult:
    """Self-play, positions, fit; every step resumes from what an earlier run left."""
    validate(cfg)
    work = work_dir(cfg)
    tcfg = tournament_config(cfg)
    ledger_dir = work / "games"
    pos_dir = work / "positions"
    run_tournament(
        tcfg,
        ledger_dir,
        workers=workers,
        address=address,
        executor=executor,
        on_start=on_start,
        on_batch=on_batch,
    )
    ids, failed = extract_positions(cfg, tcfg, ledger_dir, pos_dir, on_progress)
    positions = load_positions(pos_dir, ids)  # the manifest vouches for the feature names
    names = tuple(get_spec(cfg.short_name).evaluation.FEATURES)
    own = set(ledger_digests(ledger_dir, ids).values())
    pooled, left_out = pooled_positions(cfg.pool, own)
    if pooled is not None:
        positions = value_fit.concat([pooled, positions])
    trained = {
        "command": train_command(cfg),
        "game_string": cfg.game_string,
        "agent": cfg.agent_canonical,
        "seed": cfg.seed,
        "every": cfg.every,
        "code": code_version(cfg.game_string),
        "ledger_run_id": tcfg.run_id,
    }
    try:
        model, report = value_fit.fit(
            cfg.short_name, names, positions, cfg.holdout, trained, cfg.kind
        )
    except value_fit.TooFewPositionsError as e:  # the games stay in the work directory
        raise TrainError(
            f"{one_line(e)}; lower --every (now {cfg.every}) so that each game gives more "
            f"positions, with a new --work (its games are those of --every {cfg.every}:"
            f" {work} resumes only this request)"
        ) from None
    except value_model.ValueModelError as e:
        raise TrainError(one_line(e)) from None
    if left_out:
        report["pooled_left_out"] = left_out
    text = model.to_json()
    out = Path(cfg.out) if cfg.out else default_out(cfg, text)
    try:
        model.save(out)
    except OSError as e:  # the reason, not the name of the temporary file it wrote first
        raise TrainError(f"cannot write {out}: {e.strerror or one_line(e)}") from None
    return TrainResult(out, work, report["games"], failed, report["positions"], report, model)
