"""The statistics benchmark's luck phase: the luck of every game of the pool ledgers and
the standard deviations of the results before and after (docs/TOURNAMENTS-STATS.md)."""

from __future__ import annotations

import time

from bench_stats_common import GAMES, POOL, ledger_dir, progress, save

BOOTSTRAP = 200  # resamples of the duplicate sets for the SD ratios' intervals
QUICK_AGENTS = ("random", "heuristic", "ismcts8")  # one line-up: a known and a searching seat
QUICK_OPENINGS = 100  # openings drawn for the opening's expectation in a --quick run


def quick_ledgers(args) -> None:
    """--quick: a two-seed round robin of one line-up per game under ``args.runs/quick``,
    measured instead of the pool ledgers (a token run: the figures mean nothing)."""
    from tournament.config import build_config
    from tournament.runner import run_tournament

    args.runs = args.runs / "quick"
    for name in args.games:
        t = {"game": GAMES[name], "seeds_per_lineup": 2, "seed": 30, "seating": "balanced"}
        cfg = build_config({"tournament": t, "agents": {a: POOL[a] for a in QUICK_AGENTS}})
        run_tournament(cfg, ledger_dir(args.runs, name), workers=1, executor="serial")


def _luck_items(d, luck) -> tuple[list, list, list]:
    """(pairwise, margin) items (agents, result, luck, duplicate set) and the seats' luck."""
    import numpy as np

    from tournament.ledger import read_ledger

    led = read_ledger(d)
    names = {a["id"]: a["name"] for a in led.manifest["agents"]}
    pair, margin, seat_luck = [], [], []
    for g in led.table.to_pylist():
        if g["game_id"] not in luck:
            continue
        lk, who = luck[g["game_id"]], [names[a] for a in g["agents"]]
        ranks, scores = np.array(g["ranks"]), np.array(g["scores"], float)
        lu, pl = np.array(lk["luck"]), np.array(lk["pairs"])
        n, fold = len(ranks), g["seed"]  # the duplicate set (its deal's seed)
        for i in range(n):
            others = [j for j in range(n) if j != i]
            m = scores[i] - scores[others].mean()
            margin.append(((who[i],), m, lu[i] - lu[others].mean(), fold))
            for j in others:
                res = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                pair.append(((who[i], who[j]), res, pl[i, j], fold))
        ordered = [pl[i, j] for i in range(n) for j in range(i + 1, n)]  # by seat
        seat_luck.append((g["seed"], lu, float(np.mean(ordered))))
    return pair, margin, seat_luck


def _by_set(values, sets) -> tuple:
    """Mean and standard error of per-game values, the error over duplicate sets (the
    games of one set share their deal, so they are not independent)."""
    import numpy as np

    values, sets = np.asarray(values, dtype=float), np.asarray(sets)
    means = np.array([values[sets == k].mean(axis=0) for k in np.unique(sets)])
    return means.mean(axis=0), means.std(axis=0, ddof=1) / np.sqrt(len(means))


def _sds(items) -> dict:
    """SDs raw / less the whole luck / less the cross-fitted share, pooled and within each
    pairing (the result less its pairing's mean: the noise an interval on that pairing
    pays for; differences in skill between pairings are no noise)."""
    from collections import defaultdict

    import numpy as np

    from tournament.luck import cross_fitted_scale

    _who, res, lk, sets = (np.array(x) for x in zip(*items, strict=True))
    res, lk = res.astype(float), lk.astype(float)
    fold = np.array([int(k) % 2 for k in sets])  # seeds are 64-bit: no float round trip
    beta = cross_fitted_scale(res, lk, fold)
    groups = defaultdict(list)
    for k, (who, *_rest) in enumerate(items):
        groups[who].append(k)

    def centred(x):
        out = x.copy()
        for idx in groups.values():
            out[idx] -= x[idx].mean()
        return out

    within, lk_within = centred(res), centred(lk)  # the adjusted result, centred alike
    bw = cross_fitted_scale(within, lk_within, fold)
    return {
        "pooled": [float(np.std(res)), float(np.std(res - lk)), float(np.std(res - beta * lk))],
        "within": [
            float(np.std(within)),
            float(np.std(within - lk_within)),
            float(np.std(within - bw * lk_within)),
        ],
        "beta": float(bw.mean()),
        "within_ratio_ci": _ratio_ci(within, bw * lk_within, sets),
    }


def _ratio_ci(within, luck, sets, draws: int = BOOTSTRAP) -> list[float]:
    """95% interval of SD(adjusted) / SD(raw) within pairings, by a bootstrap over
    duplicate sets (results and luck resampled together, so the ratio is paired)."""
    import numpy as np

    rng = np.random.default_rng(0)
    uniq = np.unique(sets)
    index = {k: np.flatnonzero(sets == k) for k in uniq}
    ratios = []
    for _ in range(draws):
        idx = np.concatenate([index[k] for k in rng.choice(uniq, size=len(uniq))])
        ratios.append(np.std(within[idx] - luck[idx]) / np.std(within[idx]))
    return [float(x) for x in np.quantile(ratios, [0.025, 0.975])]


def _section(value: str) -> str:
    return "luck" if value == "lookahead" else f"luck_{value}"


def _cost_of(game: str, args) -> dict:
    """The measuring run's times of a game's row (same value function and games)."""
    from bench_stats_common import load_data

    for r in load_data().get(_section(args.value), []):
        if r["game"] == game and r.get("seeds") == args.seeds and not r.get("measured_only"):
            return {k: r[k] for k in ("seconds", "cpu_seconds") if k in r}
    return {}


def phase_luck(args) -> None:
    """Luck of every game of the pool ledgers (chance events and the decisions of the
    known-strategy agents): SDs of the per-game results raw, less the whole luck and less
    the cross-fitted share that ratings subtract; the mean adjustment against its
    standard error."""

    import numpy as np

    from tournament.luck_ledger import ledger_luck

    if args.quick:
        quick_ledgers(args)
    rows = []
    for name in args.games:
        d = ledger_dir(args.runs, name)
        t, cpu0 = time.perf_counter(), time.process_time()
        how = {"value": args.value, "seeds": args.seeds, "measure": not args.measured_only}
        if args.quick:
            how["opening_samples"] = QUICK_OPENINGS
        chance = ledger_luck(d, known=False, **how) if args.chance_only else {}
        luck = ledger_luck(d, **how)
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu0
        base = {}  # the default value function on the same games, for comparison
        if args.value != "lookahead" and luck:
            base = ledger_luck(d, **{**how, "value": "lookahead", "measure": True})
        if not luck:
            progress(f"luck {name}: no games measured; nothing to report")
            continue
        pair, margin, seat_luck = _luck_items(d, luck)
        sets = [x[0] for x in seat_luck]
        seat_mean, seat_se = _by_set([x[1] for x in seat_luck], sets)
        adj_mean, adj_se = _by_set([x[2] for x in seat_luck], sets)
        row = {
            "game": GAMES[name],
            "games": len(seat_luck),
            "seconds": round(seconds),
            "cpu_seconds": round(cpu),
            "value": args.value,
            "seeds": args.seeds,
            "measured_only": args.measured_only,
            "decisions_per_game": float(np.mean([g["decisions"] for g in luck.values()])),
            "pairwise": _sds(pair),
            "margin": _sds(margin),
            "mean_pair_adjustment": float(adj_mean),
            "se_pair_adjustment": float(adj_se),
            "mean_luck_by_seat": [float(x) for x in seat_mean],
            "z_luck_by_seat": [float(x) for x in seat_mean / seat_se],
        }
        if chance:
            row["pairwise_chance_only"] = _sds(_luck_items(d, chance)[0])
        if base:
            same = {k: base[k] for k in luck if k in base}
            row["pairwise_lookahead"] = _sds(_luck_items(d, same)[0])
        if args.measured_only:  # nothing measured now: the cost is the measuring run's
            row.update(_cost_of(GAMES[name], args))
        rows.append(row)
        progress(f"luck {name}: {rows[-1]}")
    if not args.quick:
        save(_section(args.value), rows)
