"""The statistics benchmark's luck-ceiling phase: how much of the within-pairing variance of
a per-game result any unbiased luck adjustment can remove (docs/TOURNAMENTS-STATS.md).

With the true value function (each player's expected result given the state, under the
agents that play), AIVAT's adjusted result is the root value plus the luck of the events
it has no term for. What stays is therefore

- the variance of the root value within a pairing (seat order and third agent differ: no
  adjustment touches it), estimated from the ledger's cells (pairing, third agent, seats)
  less their sampling noise; plus
- the variance of the events without a term: replay a ledger game with its chance draws
  (the same chance stream) and fresh seeds for the agents, and take the variance of the
  result across replays. Fresh seeds for every seat: the noise of all decisions (what is
  left after chance terms alone); fresh seeds only for the agents whose strategy is not
  known (``ismcts8``): what is left after chance and known-strategy terms.

A common chance stream gives the same outcomes where the decks evolve alike (the share of
chance outcomes equal to the ledger game's is reported); where they differ the replay's
variance includes some chance, so the ceiling is, if anything, set too low.
"""

from __future__ import annotations

import time

from bench_stats_common import GAMES, POOL, ledger_dir, progress, save

REPLICAS = 3  # replays with fresh seeds per ledger game and kind
BOOTSTRAP = 200


def _pairs(ranks) -> dict[tuple[int, int], float]:
    n = len(ranks)
    return {
        (i, j): 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
        for i in range(n)
        for j in range(n)
        if i != j
    }


def _chance_outcomes(game, actions) -> list[int]:
    state, out = game.new_initial_state(), []
    for a in actions:
        if state.is_chance_node():
            out.append(a)
        state.apply_action(a)
    return out


def _replay(game, specs, seats, seed, fresh, rep):
    """One replay of a ledger game: its chance stream, fresh seeds for the seats in
    ``fresh`` (replica ``rep``), the ledger's seeds for the others."""
    import numpy as np

    from tournament.batch import ranks_from
    from tournament.match import play_match, seed_streams

    chance_rng, seat_seeds = seed_streams(seed, len(seats))
    other = np.random.SeedSequence([seed % 2**63, 0xCE11, rep]).generate_state(len(seats))
    seeds = [int(other[p]) if p in fresh else seat_seeds[p] for p in range(len(seats))]
    agents = [specs[name].make(game, seeds[p]) for p, name in enumerate(seats)]
    r = play_match(game, agents, seed, chance_rng=chance_rng)
    return ranks_from(r.returns, r.scores), list(r.actions)


def _root_variance(rows, names) -> float:
    """Variance of the cell means (pairing, third agent, seats) within pairings, less the
    cells' own sampling noise: the part of the result no luck term reaches."""
    from collections import defaultdict

    import numpy as np

    cells = defaultdict(list)
    for r in rows:
        who = [names[a] for a in r["agents"]]
        for (i, j), y in _pairs(r["ranks"]).items():
            cells[(who[i], who[j], tuple(who), i, j)].append(y)
    by_pair = defaultdict(list)
    for key, ys in cells.items():
        se2 = np.var(ys, ddof=1) / len(ys) if len(ys) > 1 else 0.0
        by_pair[key[:2]].append((np.mean(ys), se2, len(ys)))
    between, noise, n = 0.0, 0.0, 0
    for cs in by_pair.values():
        means = np.array([c[0] for c in cs])
        w = np.array([c[2] for c in cs])
        grand = np.average(means, weights=w)
        between += float(np.sum(w * (means - grand) ** 2))
        noise += float(np.sum(w * np.array([c[1] for c in cs])))
        n += int(w.sum())
    return max(between - noise, 0.0) / n


def _within(rows) -> float:
    """The within-pairing variance of the pairwise result over the ledger's games."""
    from collections import defaultdict

    import numpy as np

    groups = defaultdict(list)
    for r in rows:
        for (i, j), y in _pairs(r["ranks"]).items():
            groups[(r["agents"][i], r["agents"][j])].append(y)
    xs = np.concatenate([np.array(v) - np.mean(v) for v in groups.values()])
    return float(np.var(xs))


def measure(d, seeds: int, replicas: int = REPLICAS) -> dict:
    """The ceiling on ledger ``d``'s first ``seeds`` duplicate sets per line-up."""
    import numpy as np

    import spiel_games
    from solvers.registry import resolve
    from tournament.batch import actions_hash
    from tournament.ledger import read_ledger
    from tournament.luck_policies import baseline_for

    led = read_ledger(d)
    names = {a["id"]: a["name"] for a in led.manifest["agents"]}
    rows = [r for r in led.table.to_pylist() if r["ranks"] is not None and not r["failure"]]
    game_string = rows[0]["game"]
    game = spiel_games.load_game(game_string)
    spec_text = {a["name"]: POOL.get(a["name"], a["spec"]) for a in led.manifest["agents"]}
    specs = {n: resolve(t) for n, t in spec_text.items()}
    known = {n: baseline_for(t, game_string) is not None for n, t in spec_text.items()}
    t0, cpu0 = time.perf_counter(), time.process_time()
    var: dict[str, list] = {
        "decisions": [],
        "unknown": [],
    }  # (duplicate set, variance over replays)
    same, chance_total, reproduced, played = 0, 0, 0, 0
    for r in (r for r in rows if r["seed_index"] < seeds):
        seats = [names[a] for a in r["agents"]]
        ranks0, actions0 = _replay(game, specs, seats, r["seed"], set(), 0)
        reproduced += actions_hash(actions0) == r["actions_hash"]
        chance0 = _chance_outcomes(game, actions0)
        for kind in var:
            fresh = {p for p, s in enumerate(seats) if kind == "decisions" or not known[s]}
            results = [_pairs(ranks0)]
            for rep in range(1, replicas + 1) if fresh else ():
                ranks, actions = _replay(game, specs, seats, r["seed"], fresh, rep)
                results.append(_pairs(ranks))
                c = _chance_outcomes(game, actions)
                same += sum(x == y for x, y in zip(c, chance0, strict=False))
                chance_total += max(len(c), len(chance0))
                played += 1
            for key in results[0]:
                ys = [res[key] for res in results]
                var[kind].append((r["seed"], float(np.var(ys, ddof=1)) if len(ys) > 1 else 0.0))
    total, root = _within(rows), _root_variance(rows, names)
    out = {
        "game": game_string,
        "ledger_games": len(rows),
        "replayed_games": reproduced,
        "games": sum(1 for r in rows if r["seed_index"] < seeds),
        "seeds": seeds,
        "replicas": replicas,
        "replays": played,
        "same_chance_share": same / max(chance_total, 1),
        "within_variance": total,
        "root_variance": root,
        "cpu_seconds": round(time.process_time() - cpu0, 1),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    for kind, vs in var.items():
        sets, v = np.array([x[0] for x in vs]), np.array([x[1] for x in vs])
        out[f"ceiling_{kind}"] = _ceiling(v, sets, root, total)
    return out


def _ceiling(v, sets, root, total) -> list[float]:
    """Least SD change reachable (residual SD / SD - 1) and its 95% bootstrap interval over
    duplicate sets (the replays' variance resampled; the ledger's totals held)."""
    import numpy as np

    def change(x):
        return float(np.sqrt(min((x.mean() + root) / total, 1.0)) - 1.0)

    rng = np.random.default_rng(0)
    uniq = np.unique(sets)
    index = {k: np.flatnonzero(sets == k) for k in uniq}
    draws = [
        change(v[np.concatenate([index[k] for k in rng.choice(uniq, size=len(uniq))])])
        for _ in range(BOOTSTRAP)
    ]
    lo, hi = np.quantile(draws, [0.025, 0.975])
    return [change(v), float(lo), float(hi)]


def phase_luck_ceiling(args) -> None:
    """The ceiling on each game's pool ledger (``--quick``: on a token ledger, one replay)."""
    from bench_stats_luck import quick_ledgers

    if args.quick:
        quick_ledgers(args)
    rows = []
    for name in args.games:
        d, replicas = ledger_dir(args.runs, name), 1 if args.quick else REPLICAS
        row = {**measure(d, args.seeds or 4, replicas), "game": GAMES[name]}
        rows.append(row)
        progress(f"luck ceiling {name}: {row}")
    if not args.quick:
        save("luck_ceiling", rows)
