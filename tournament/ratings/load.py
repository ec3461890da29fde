"""Ledgers to rating arrays (one pass over the rated games, vectorised per batch file),
and ``ratings_from_ledgers``: load, then fit (``tournament.ratings.fit``).

Agents are keyed by id (canonical spec + code version); the display name is the config name,
with the id appended when two ids share a name. A duplicate set is (run, seed).
"""

from __future__ import annotations

import numpy as np
import pyarrow.compute as pc

from tournament.ledger import LedgerArgumentError, LedgerError, read_ledger
from tournament.luck_ledger import ledger_luck
from tournament.ratings.adjusted import adjust
from tournament.ratings.fit import DEFAULT_BOOTSTRAP, AgentInfo, Games, Ratings, RatingsError, rate
from tournament.ratings.unrated import split_unrated

RATING_COLUMNS = [
    "game_id",
    "seed",
    "agents",
    "scores",
    "ranks",
    "coverage",
    "failure",
    "failed_seat",
]


def load_games(directories) -> tuple[list[AgentInfo], list[Games], int, dict]:
    """Read ledgers into rating arrays. Agents are keyed by id (spec + code version)."""
    ledgers = [read_ledger(d, columns=RATING_COLUMNS) for d in directories]
    # in run-id order, whatever the order of the arguments: the names (the first ledger's),
    # the duplicate sets' numbers and with them every bootstrap resample
    ledgers.sort(key=lambda led: (led.manifest["run_id"], str(led.directory)))
    runs: dict[str, str] = {}
    for led in ledgers:
        run = led.manifest["run_id"]
        if run in runs:
            raise LedgerArgumentError(
                f"{led.directory} and {runs[run]} hold the same run {run}; rate it once"
            )
        runs[run] = str(led.directory)
    agents = _agents(ledgers)
    index = {x.id: i for i, x in enumerate(agents)}
    by_n: dict[int, list] = {}
    void, next_block = 0, 0
    for led in ledgers:
        t = led.table
        if t.num_rows == 0:
            continue
        rated = pc.is_valid(t.column("ranks"))
        void += t.num_rows - pc.sum(rated.cast("int64")).as_py()
        t = t.filter(rated)
        if t.num_rows == 0:
            continue
        # a duplicate set is (run, seed): block ids are the run's distinct seeds, offset per run
        uniq, inv = np.unique(t.column("seed").to_numpy(), return_inverse=True)
        blocks_all = inv.astype(np.int64) + next_block
        next_block += len(uniq)
        start = 0
        for batch in t.to_batches():
            if batch.num_rows:
                blocks = blocks_all[start : start + batch.num_rows]
                _add_batch(by_n, batch, blocks, index, led.directory)
                start += batch.num_rows
    groups = [
        Games(*(np.concatenate([p[i] for p in parts]) for i in range(5)))
        for _, parts in sorted(by_n.items())
    ]
    extra = {
        "games": sum(led.table.num_rows for led in ledgers),
        "ledgers": [str(led.directory) for led in ledgers],
        "ignored": [str(p) for led in ledgers for p in led.ignored],
        "notes": [n for led in ledgers for n in design_notes(led)],
    }
    return agents, groups, void, extra


SPRT_SIDECAR = ".sprt.json"  # tournament.sprt.run.SIDECAR: the ledger holds an SPRT


def design_notes(led) -> list[str]:
    """What the ledger's design says of the ratings: games played of those scheduled (an
    interrupted run, or one still being written), an adaptive schedule's or an SPRT's
    stopping on the results (their intervals taken as a fixed design)."""
    played, most = led.table.num_rows, int(led.manifest.get("num_games") or 0)
    schedule = led.manifest.get("config", {}).get("tournament", {}).get("schedule", "")
    if (led.directory / SPRT_SIDECAR).exists():
        return [
            f"{led.directory}: an SPRT's ledger ({played} games of at most {most}): a test "
            "that stopped when its results crossed a bound is no fixed sample, and this fit, "
            "which takes it for one, over-states the gap; meeple sprt reports the estimate "
            "corrected for the stop"
        ]
    if schedule == "adaptive":
        return [
            f"{led.directory}: adaptive schedule ({played} games of at most {most}): which "
            "line-ups were played depended on the results, so the intervals, which take the "
            "games as a fixed design, are somewhat too narrow for the pairs it chased"
        ]
    if played < most:
        return [
            f"{led.directory}: {played} of {most} scheduled games played (an interrupted "
            "run, or one still being written): the ratings rest on the games so far"
        ]
    return []


def _agents(ledgers) -> list[AgentInfo]:
    """Every agent of the manifests, once per id, named as in the first ledger (in run-id
    order) that has it, its other names kept as aliases; a name used by two different ids
    gets the id appended, so each agent has one display name."""
    info: dict[str, AgentInfo] = {}
    for led in ledgers:
        for a in led.manifest["agents"]:
            x = info.setdefault(
                a["id"], AgentInfo(a["id"], a["name"], a.get("spec", ""), a.get("budget"))
            )
            if a["name"] != x.name and a["name"] not in x.aliases:
                x.aliases.append(f"{a['name']}")
    by_name: dict[str, list[str]] = {}
    for x in info.values():
        by_name.setdefault(x.name, []).append(x.id)
    for ids in by_name.values():
        if len(ids) > 1:
            for i in ids:
                info[i].name = f"{info[i].name}@{i[:6]}"
    _coverage(ledgers, info)
    _game_counts(ledgers, info)
    return list(info.values())


def _game_counts(ledgers, info: dict[str, AgentInfo]) -> None:
    """Each agent's games in the ledgers, how many of them are void, and its own failures
    (the games it failed, by kind): what an agent without a rating is listed with."""
    for led in ledgers:
        for batch in led.table.to_batches():
            if not batch.num_rows:
                continue
            col = batch.column("agents")
            values = col.flatten()
            ids = values.dictionary.to_pylist()
            codes = values.indices.to_numpy(zero_copy_only=False).astype(np.int64)
            parent = pc.list_parent_indices(col).to_numpy(zero_copy_only=False)
            void = ~pc.is_valid(batch.column("ranks")).to_numpy(zero_copy_only=False)
            pairs = np.unique(parent.astype(np.int64) * len(ids) + codes)  # once per game
            game, code = pairs // len(ids), pairs % len(ids)
            read = np.bincount(code, minlength=len(ids))
            voided = np.bincount(code[void[game]], minlength=len(ids))
            for c, x in enumerate(ids):
                if x in info:
                    info[x].games_read += int(read[c])
                    info[x].void_games += int(voided[c])
            seat = batch.column("failed_seat").to_numpy(zero_copy_only=False)
            for row in np.flatnonzero(seat >= 0):
                kind = batch.column("failure")[int(row)].as_py() or "failure"
                who = col[int(row)].as_py()[int(seat[row])]
                if who in info:
                    info[who].failures[kind] = info[who].failures.get(kind, 0) + 1


def _add_batch(by_n: dict[int, list], batch, blocks, index: dict[str, int], directory) -> None:
    """One record batch's games, split by player count: (agents, ranks, scores, blocks, ids)."""
    col = batch.column("agents")
    lengths = col.value_lengths().to_numpy(zero_copy_only=False)
    values = col.flatten()
    try:
        lut = np.array([index[x] for x in values.dictionary.to_pylist()], dtype=np.int64)
    except KeyError as e:
        raise LedgerError(f"{directory}: agent id {e.args[0]} is not in the manifest") from None
    idx = lut[values.indices.to_numpy(zero_copy_only=False)]
    ranks = batch.column("ranks").flatten().to_numpy(zero_copy_only=False).astype(np.int64)
    scores = batch.column("scores").flatten().to_numpy(zero_copy_only=False).astype(float)
    game_ids = np.asarray(batch.column("game_id").to_pylist(), dtype=object)
    for n in np.unique(lengths):
        sel = lengths == n
        flat = np.repeat(sel, lengths)
        by_n.setdefault(int(n), []).append(
            (
                idx[flat].reshape(-1, n),
                ranks[flat].reshape(-1, n),
                scores[flat].reshape(-1, n),
                blocks[sel],
                game_ids[sel],
            )
        )


def _coverage(ledgers, info: dict[str, AgentInfo]) -> None:
    """Each table agent's mean coverage over the games that recorded one (ledger v2)."""
    sums: dict[str, list[float]] = {}
    for led in ledgers:
        t = led.table
        if "coverage" not in t.column_names or t.num_rows == 0:
            continue
        t = t.filter(pc.is_valid(t.column("coverage")))
        for agents, shares in zip(
            t.column("agents").to_pylist(), t.column("coverage").to_pylist(), strict=True
        ):
            for a, x in zip(agents, shares, strict=True):
                if x is not None:
                    sums.setdefault(a, []).append(x)
    for a, xs in sums.items():
        if a in info:
            info[a].coverage = float(np.mean(xs))
            info[a].coverage_games = len(xs)


def ratings_from_ledgers(
    directories,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    anchor: tuple[str, float] | None = None,
    seed: int = 0,
    luck_adjusted: bool = False,
    luck_value: str = "lookahead",
) -> tuple[Ratings, dict]:
    """Rate the ledgers jointly; ``luck_adjusted``: Elo on luck-adjusted pairwise results
    (each game replayed once, see tournament.luck_ledger), luck valued by ``luck_value``
    (``tournament.luck.VALUES``)."""
    agents, groups, void, extra = load_games(directories)
    if not groups:
        raise RatingsError("no rated games in " + ", ".join(str(d) for d in directories))
    agents, groups, unrated = split_unrated(agents, groups)
    r = rate(
        agents,
        groups,
        bootstrap=bootstrap,
        anchor=anchor,
        seed=seed,
        void_games=void,
        plackett_luce=not luck_adjusted,
        unrated=unrated,
    )
    r.design = list(extra["notes"])
    if luck_adjusted:
        luck: dict = {}
        for d in directories:
            luck.update(ledger_luck(d, value=luck_value))
        adjust(
            r, groups, luck, bootstrap=bootstrap, anchor=anchor, seed=seed, luck_value=luck_value
        )
    return r, extra
