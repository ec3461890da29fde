"""Held-out R^2 of the value models, per game: hand-set evaluation, linear, mlp.

    python scripts/bench_value_models.py --run WORK[:POOL...] [--run ...] [--bootstrap 2000]

Each ``--run`` names the work directory of a ``meeple train`` run (the search's own
self-play games: their positions, replayed; runs of other seeds joined by ``+``) and, after colons, earlier runs whose positions
also train (e.g. noisy-heuristic games), as ``meeple train --pool`` does. The last fifth of
the run's own games are held out (whole games, never positions of a game the fit saw); the
linear and the mlp model are fitted on the rest (pooled games included) and every model is
scored on the same held-out positions. Intervals: 95% percentile bootstrap over the held-out
games (R^2 recomputed from each resample's residual and total sums), for each R^2 and for
each model's gain over the hand-set evaluation (paired: the same resampled games).

The figures go to docs/data/value-models.json (one record per game) and are rendered into
docs/solvers.md between the ``value-models`` markers; ``--render`` only renders.

``--against-shipped`` instead prints, for each run, the held-out R^2 of the model the game
ships (``spiel_games/<game>/value_model.json``), of the linear model refitted on the run's
other games, of the hand-set evaluation and of the points alone, each with its gain over the
shipped model (paired bootstrap); it writes nothing. It answers "do the positions these
games reach call for another model than the shipped one?"
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import spiel_games  # noqa: E402
from solvers import value_fit, value_model  # noqa: E402
from solvers.identity import code_version  # noqa: E402
from solvers.registry import resolve  # noqa: E402
from tournament.positions import (  # noqa: E402
    TrainError,
    done_positions,
    ledger_digests,
    load_positions,
    pool_manifest,
    pooled_positions,
)

DATA = ROOT / "docs" / "data" / "value-models.json"
DOC = ROOT / "docs" / "solvers.md"
START, END = "<!-- value-models -->", "<!-- /value-models -->"
TARGET = 0.05  # the gain over the hand-set evaluation
MODELS = ("hand", "linear", "mlp")


def per_game_sums(pred: np.ndarray, p: value_fit.Positions) -> tuple[np.ndarray, np.ndarray]:
    """Residual and total sums of squares of the centred score differences, per game."""
    y = value_fit.centred(p.y, p.pos)
    resid = y - value_fit.centred(pred, p.pos)
    games, inverse = np.unique(p.game, return_inverse=True)
    sse = np.bincount(inverse, weights=resid**2, minlength=len(games))
    sst = np.bincount(inverse, weights=y**2, minlength=len(games))
    return sse, sst


def bootstrap(sums: dict[str, tuple], draws: int, seed: int = 0) -> dict:
    """R^2 of every model and gain over ``hand``, each with a 95% percentile interval over
    resampled games (the same resamples for every model)."""
    sst = next(iter(sums.values()))[1]
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(sst), size=(draws, len(sst)))
    total = sst[idx].sum(axis=1)
    out: dict = {}
    boot = {m: 1.0 - sse[idx].sum(axis=1) / total for m, (sse, _) in sums.items()}
    for m, (sse, _) in sums.items():
        r2 = 1.0 - sse.sum() / sst.sum()
        out[m] = _triple(r2, boot[m])
        if m != "hand":
            out[f"{m}_gain"] = _triple(r2 - out["hand"][0], boot[m] - boot["hand"])
    return out


def _triple(point: float, samples: np.ndarray) -> list[float]:
    lo, hi = np.percentile(samples, [2.5, 97.5])
    return [round(float(point), 4), round(float(lo), 4), round(float(hi), 4)]


def short_spec(canonical: str) -> str:
    """An agent's canonical spec with only the parameters that differ from its kind's defaults
    (all of them when none differs)."""
    kind, _, rest = canonical.partition("(")
    defaults = set(resolve(kind).canonical.partition("(")[2].rstrip(")").split(","))
    given = [kv for kv in rest.rstrip(")").split(",") if kv and kv not in defaults]
    return f"{kind}({','.join(given)})" if given else canonical


def _ledger_manifest(work: Path) -> dict:
    try:
        return json.loads((work / "games" / "manifest.json").read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise TrainError(f"{work}: no self-play ledger manifest ({e})") from None


def save_model(run: str, out_dir: Path) -> Path:
    """The mlp model fitted on every game of ``run`` (held-out figures in its ``trained``),
    written as ``<game>-mlp.json`` in ``out_dir``."""
    work, *pool = run.split(":")
    manifest = _ledger_manifest(Path(work.split("+")[0]))
    name = spiel_games.load_game(manifest["game"]).get_type().short_name
    p, features = _positions(work, pool)
    trained = {
        "command": "python scripts/bench_value_models.py --run " + run + " --save DIR",
        "game_string": manifest["game"],
        "agent": manifest["agents"][0]["canonical"],
        "pooled_agents": [_ledger_manifest(Path(d))["agents"][0]["canonical"] for d in pool],
        "code": code_version(manifest["game"]),
        "ledger_run_id": manifest["run_id"],
    }
    model, _ = value_fit.fit(name, features, p, 0.2, trained, kind="mlp")
    return model.save(out_dir / f"{name.removeprefix('python_')}-mlp.json")


def _positions(work: str, pool: list[str]) -> tuple[value_fit.Positions, tuple[str, ...]]:
    """The positions of ``work`` (several runs of the same agent joined by ``+``, their
    games numbered one run after the other: the held-out share is the last games of the
    last run) and of the pooled runs (numbered below 0)."""
    runs, own_digests = [], set()
    for w in work.split("+"):
        pos_dir = Path(w) / "positions"
        done = done_positions(pos_dir)
        own_digests.update(ledger_digests(Path(w) / "games", done).values())
        p = load_positions(pos_dir, done)
        if runs:
            p.game = p.game + int(runs[-1].game.max()) + 1
        runs.append(p)
    own = value_fit.concat(runs)
    first = Path(work.split("+")[0]) / "positions" / "manifest.json"
    features = tuple(json.loads(first.read_text())["features"])
    for d in pool:  # the pooled runs' features must be these
        pool_manifest(d, features)
    pooled, _ = pooled_positions(tuple(pool), own_digests)  # this run's games left out
    return (own if pooled is None else value_fit.concat([pooled, own])), features


def measure(run: str, draws: int) -> dict:
    """One game's record: what was measured on which games, and the figures."""
    work, *pool = run.split(":")
    manifest = _ledger_manifest(Path(work.split("+")[0]))
    p, _ = _positions(work, pool)
    own_games = np.unique(p.game[p.game >= 0])
    pooled_games = np.unique(p.game[p.game < 0])
    split = value_fit.holdout_split(p, 0.2)
    if split is None:
        raise TrainError(f"{work}: too few games to hold any out")
    train, test = split
    sums = {"hand": per_game_sums(test.hand, test)}
    epochs = 0
    for kind in ("linear", "mlp"):
        fitted = value_fit.fit_kind(train, kind)
        sums[kind] = per_game_sums(fitted.predict(test), test)
        epochs = fitted.epochs
    pool_agents = [short_spec(_ledger_manifest(Path(d))["agents"][0]["canonical"]) for d in pool]
    return {
        "game": manifest["game"],
        "agent": short_spec(manifest["agents"][0]["canonical"]),
        "games": int(len(own_games)),
        "heldout_games": int(len(np.unique(test.game))),
        "heldout_positions": int(len(np.unique(test.pos))),
        "pooled_games": int(len(pooled_games)),
        "pooled_agents": pool_agents,
        "network_epochs": epochs,
        "command": f"python scripts/bench_value_models.py --run {run} --bootstrap {draws}",
        "code_version": code_version(manifest["game"]),
        "load": round(os.getloadavg()[0], 1),
        "r2": bootstrap(sums, draws),
    }


def _fmt(t: list[float], sign: bool = False) -> str:
    f = "{:+.3f}" if sign else "{:.3f}"
    return f"{f.format(t[0])} ({f.format(t[1])} .. {f.format(t[2])})"


def render(data: dict) -> str:
    """The block of docs/solvers.md between the markers (the figures, each verdict computed)."""
    lines = [
        START,
        "Held-out R^2 of score differences, per game (`scripts/bench_value_models.py`; 95%",
        "bootstrap intervals over the held-out games; the gain is over the hand-set",
        "evaluation on the same positions; target: mlp gain at least +0.05):",
        "",
        "| game | self-play agent (games; held out) | trained also on | hand-set | linear"
        " | mlp | linear gain | mlp gain | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key in sorted(data):
        r = data[key]
        f = r["r2"]
        pooled = (
            f"{r['pooled_games']} games of {', '.join(f'`{a}`' for a in r['pooled_agents'])}"
            if r["pooled_games"]
            else "-"
        )
        verdict = "**met**" if f["mlp_gain"][0] >= TARGET else "missed"
        lines.append(
            f"| {key} | `{r['agent']}` ({r['games']}; {r['heldout_games']}) | {pooled} | "
            f"{_fmt(f['hand'])} | {_fmt(f['linear'])} | {_fmt(f['mlp'])} | "
            f"{_fmt(f['linear_gain'], True)} | {_fmt(f['mlp_gain'], True)} | {verdict} |"
        )
    lines.append("")
    lines.append(
        "Network epochs kept by early stopping (0: the network adds nothing): "
        + ", ".join(f"{k} {data[k]['network_epochs']}" for k in sorted(data))
        + "."
    )
    lines.append("")
    lines.append(
        "Measured by (each game's work directories from `meeple train` runs; machine load,"
    )
    lines.append("1-minute average on 2 cores, at the end of the measurement):")
    lines.append("")
    for k in sorted(data):
        lines.append(f"    {data[k]['command']}  # load {data[k]['load']}")
    lines.append(END)
    return "\n".join(lines)


def against_shipped(run: str, draws: int) -> list[str]:
    """Lines comparing the shipped model with a refit on ``run``'s held-out games."""
    work, *pool = run.split(":")
    manifest = _ledger_manifest(Path(work.split("+")[0]))
    name = manifest["game"].split("(")[0]
    path = value_model.shipped_path(spiel_games.get_spec(name).evaluation)
    if not path.exists():
        raise TrainError(f"{name}: the game ships no value model")
    shipped = value_model.load(path)
    p, features = _positions(work, pool)
    if tuple(features) != shipped.features:
        raise TrainError(f"{work}: positions have other features than {path}")
    split = value_fit.holdout_split(p, 0.2)
    if split is None:
        raise TrainError(f"{work}: too few games to hold any out")
    train, test = split
    as_fitted = value_fit.Fitted(np.array(shipped.weights), shipped.network)
    sums = {
        "shipped": per_game_sums(as_fitted.predict(test), test),
        "refit": per_game_sums(value_fit.fit_kind(train, "linear").predict(test), test),
        "hand": per_game_sums(test.hand, test),
        "points": per_game_sums(test.x[:, 0], test),
    }
    sst = sums["shipped"][1]
    idx = np.random.default_rng(0).integers(0, len(sst), size=(draws, len(sst)))
    boot = {m: 1.0 - sse[idx].sum(axis=1) / sst[idx].sum(axis=1) for m, (sse, _) in sums.items()}
    point = {m: 1.0 - sse.sum() / sst.sum() for m, (sse, _) in sums.items()}
    lines = [
        f"{name}: {len(np.unique(train.game))} games train the refit, "
        f"{len(sst)} held out ({len(np.unique(test.pos))} positions); shipped: {path.name} "
        f"({shipped.trained.get('agent', '?')}, {shipped.trained.get('games', '?')} games)"
    ]
    for m in sums:
        r2 = _triple(point[m], boot[m])
        gain = _triple(point[m] - point["shipped"], boot[m] - boot["shipped"])
        lines.append(f"  {m:8s} R^2 {_fmt(r2)}  minus shipped {_fmt(gain, True)}")
    return lines


def write_doc(data: dict, doc: Path = DOC) -> None:
    text = doc.read_text()
    i, j = text.index(START), text.index(END) + len(END)
    doc.write_text(text[:i] + render(data) + text[j:])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="append", default=[], help="WORK[:POOL...]")
    ap.add_argument("--bootstrap", type=int, default=2000)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--doc", type=Path, default=DOC)
    ap.add_argument("--render", action="store_true", help="only render the stored figures")
    ap.add_argument("--save", type=Path, help="also write each run's mlp model here")
    ap.add_argument(
        "--against-shipped", action="store_true", help="print shipped vs refit; write nothing"
    )
    args = ap.parse_args(argv)
    if args.bootstrap < 100:
        print("error: --bootstrap must be at least 100", file=sys.stderr)
        return 1
    data = json.loads(args.data.read_text()) if args.data.exists() else {}
    try:
        if args.against_shipped:
            for run in args.run:
                print("\n".join(against_shipped(run, args.bootstrap)))
            return 0
        for run in [] if args.render else args.run:
            record = measure(run, args.bootstrap)
            data[record["game"].split("(")[0].removeprefix("python_")] = record
            if args.save:
                print(f"wrote {save_model(run, args.save)}")
    except (TrainError, OSError, KeyError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    args.data.parent.mkdir(parents=True, exist_ok=True)
    args.data.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    write_doc(data, args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
