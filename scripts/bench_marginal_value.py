"""What one more unit of a resource is worth, measured by paired playouts, beside what the
game's value models say it is worth.

    python scripts/bench_marginal_value.py [--game bruxelles] [--resource money] [--games 120]
        [--playouts 16] [--delta 3] [--seed 1000]

Positions come from games of the heuristic with a random move 10% of the time (the games the
shipped value models were fitted on); at a share of the decision points where a change of
the resource is well defined (Bruxelles 1893: the start of a player's main action, so no
payment is pending), each player in turn is given ``delta`` more units and, where it has
them, ``delta`` fewer. Both the changed and the unchanged position are played to the end by
the heuristic with the same random streams (chance draws and the heuristic's tie-breaks),
``playouts`` times; the marginal value is the mean change of the player's final score
minus each other player's, per unit. That is a causal value (what the unit does to the
result when the heuristic plays on), where a fitted weight is a conditional correlation:
a player with money in hand is often one who has not yet built, so the fit gives money
little weight even though a franc more, all else equal, is worth far more.

Printed: per round, the positions measured, the mean value per unit with a 95% t interval
over the games (the positions of one game are not independent), and the weight the shipped
value model and the hand-set evaluation give the unit at that round's mean stage; then the
line a + b x stage fitted to the measurements (stage: the evaluation's share of the game
still to play). With ``--write`` the figures also go to docs/data/marginal-value.json and
are rendered into docs/solvers.md between the ``marginal-value`` markers; ``--render`` only
renders.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import spiel_games  # noqa: E402
from spiel_games.common.chance import sample_chance  # noqa: E402

DATA = ROOT / "docs" / "data" / "marginal-value.json"
DOC = ROOT / "docs" / "solvers.md"
START, END = "<!-- marginal-value -->", "<!-- /marginal-value -->"


class Resource(NamedTuple):
    """How to change one resource of a game's state: where a change is well defined, how
    many units a player holds, and the change itself (applied to a clone)."""

    feature: str  # its feature in the game's evaluation (FEATURES)
    ready: Callable  # (core state) -> bool
    held: Callable  # (core state, player) -> int
    add: Callable  # (core state, player, units) -> None


def _bruxelles_money() -> Resource:
    from spiel_games.bruxelles.state.core import Phase

    def add(s, p: int, units: int) -> None:
        s.money[p] += units

    return Resource("money", lambda s: s.phase == Phase.MAIN, lambda s, p: s.money[p], add)


RESOURCES: dict[tuple[str, str], Callable[[], Resource]] = {
    ("bruxelles", "money"): _bruxelles_money,
}


def _playout(state, heuristic, seed: int) -> list[float]:
    chance = random.Random(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            state.apply_action(int(heuristic(state, rng)))
    return [float(x) for x in state.scores()]


def _value(state, heuristic, res: Resource, p: int, units: int, seeds: list[int]) -> float:
    """Mean change per unit of p's score minus each other player's, over paired playouts."""
    n = state.num_players()
    total = 0.0
    for seed in seeds:
        base = _playout(state.clone(), heuristic, seed)
        changed = state.clone()
        res.add(changed._s, p, units)
        alt = _playout(changed, heuristic, seed)
        gain = [(alt[p] - alt[q]) - (base[p] - base[q]) for q in range(n) if q != p]
        total += sum(gain) / len(gain) / units
    return total / len(seeds)


def measure(
    game_name: str,
    resource: str,
    games: int,
    playouts: int,
    delta: int = 3,
    seed: int = 1000,
    share: float = 0.12,
    eps: float = 0.1,
) -> list[dict]:
    """One row per (position, player, +/-delta): game, round, stage, held, delta, value."""
    res = RESOURCES[(game_name, resource)]()
    spec = spiel_games.get_spec(game_name)
    evaluation = spec.evaluation
    game = spiel_games.load_game(f"python_{game_name}(players=3)")
    rows = []
    for g in range(games):
        rng = random.Random(seed + g)
        hrng = np.random.default_rng(seed + g)
        state = game.new_initial_state()
        ply = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            ply += 1
            if res.ready(state._s) and rng.random() < share:
                seeds = [(seed + g) * 100_003 + ply * 101 + r for r in range(playouts)]
                for p in range(state.num_players()):
                    held = res.held(state._s, p)
                    for units in (delta, -delta):
                        if held + units < 0:
                            continue
                        rows.append(
                            {
                                "game": g,
                                "round": int(state._s.round),
                                "stage": float(evaluation.stage(state)),
                                "held": held,
                                "delta": units,
                                "value": _value(state, spec.heuristic, res, p, units, seeds),
                            }
                        )
            legal = state.legal_actions()
            if rng.random() < eps:
                state.apply_action(int(legal[rng.randrange(len(legal))]))
            else:
                state.apply_action(int(spec.heuristic(state, hrng)))
    return rows


def t_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval (normal quantile beyond 30 values)."""
    n = len(values)
    mean = float(np.mean(values))
    if n < 2:
        return mean, float("nan"), float("nan")
    from scipy import stats

    half = float(stats.t.ppf(0.975, n - 1)) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def model_weight(game_name: str, feature: str, stage: float) -> tuple[float, float]:
    """(the shipped value model's weight of the feature at this stage, the hand-set one)."""
    spec = spiel_games.get_spec(game_name)
    evaluation = spec.evaluation
    hand = float(evaluation.WEIGHTS[evaluation.FEATURES.index(feature)])
    path = Path(evaluation.__file__).with_name("value_model.json")
    weights = json.loads(path.read_text())["weights"]
    return weights["flat"][feature] + weights["times_stage"][feature] * stage, hand


def summary(game_name: str, feature: str, rows: list[dict]) -> list[dict]:
    """Per round: positions, the mean value per unit over per-game means, its interval, and
    the models' weights at the round's mean stage."""
    out = []
    for rnd in sorted({r["round"] for r in rows}):
        mine = [r for r in rows if r["round"] == rnd]
        by_game: dict[int, list[float]] = {}
        for r in mine:
            by_game.setdefault(r["game"], []).append(r["value"])
        mean, low, high = t_interval([float(np.mean(v)) for v in by_game.values()])
        stage = float(np.mean([r["stage"] for r in mine]))
        shipped, hand = model_weight(game_name, feature, stage)
        out.append(
            {
                "round": rnd,
                "rows": len(mine),
                "games": len(by_game),
                "stage": stage,
                "value": mean,
                "low": low,
                "high": high,
                "shipped": shipped,
                "hand": hand,
            }
        )
    return out


def fit_line(rows: list[dict]) -> tuple[float, float]:
    """Least squares a + b x stage through the measured values."""
    a_mat = np.array([[1.0, r["stage"]] for r in rows])
    coef, *_ = np.linalg.lstsq(a_mat, np.array([r["value"] for r in rows]), rcond=None)
    return float(coef[0]), float(coef[1])


def record(args, rows: list[dict]) -> dict:
    """What the document shows of one measurement: the command, the rounds, the line."""
    res = RESOURCES[(args.game, args.resource)]()
    a, b = fit_line(rows)
    command = (
        f"python scripts/bench_marginal_value.py --game {args.game} --resource "
        f"{args.resource} --games {args.games} --playouts {args.playouts} --delta "
        f"{args.delta} --seed {args.seed}"
    )
    return {
        "command": command,
        "game": args.game,
        "resource": args.resource,
        "measurements": len(rows),
        "games": args.games,
        "playouts": args.playouts,
        "delta": args.delta,
        "rounds": summary(args.game, res.feature, rows),
        "fit": [a, b],
    }


def render_one(rec: dict) -> list[str]:
    lines = [
        f"    {rec['command']}",
        "",
        f"{rec['game']}, {rec['resource']}: {rec['measurements']} measurements on "
        f"{rec['games']} games ({rec['playouts']} paired playouts each, "
        f"+/-{rec['delta']} units). Value per unit: points of the player's final score "
        "minus each other player's.",
        "",
        "| round | stage | measurements | games | value per unit | 95% interval "
        "| shipped model | hand-set |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in rec["rounds"]:
        lines.append(
            f"| {s['round']} | {s['stage']:.2f} | {s['rows']} | {s['games']} | "
            f"{s['value']:+.2f} | {s['low']:+.2f} .. {s['high']:+.2f} | "
            f"{s['shipped']:+.2f} | {s['hand']:+.2f} |"
        )
    a, b = rec["fit"]
    return [*lines, "", f"Fitted line: {a:+.2f} {b:+.2f} x stage points a unit."]


def render(data: dict) -> str:
    body: list[str] = []
    for key in sorted(data):
        body += [*render_one(data[key]), ""]
    return "\n".join([START, "", *body, END])


def write_doc(data: dict) -> None:
    text = DOC.read_text()
    start, end = text.index(START), text.index(END) + len(END)
    DOC.write_text(text[:start] + render(data) + text[end:])


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="bruxelles")
    ap.add_argument("--resource", default="money")
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--playouts", type=int, default=16)
    ap.add_argument("--delta", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--write", action="store_true", help="store and render into the docs")
    ap.add_argument("--render", action="store_true", help="only render the stored figures")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.render:
        write_doc(json.loads(DATA.read_text()))
        return 0
    if (args.game, args.resource) not in RESOURCES:
        known = ", ".join(f"{g} {r}" for g, r in RESOURCES)
        print(f"error: no measurement for {args.game} {args.resource} (known: {known})")
        return 2
    if args.games < 1 or args.playouts < 1 or args.delta < 1:
        print("error: --games, --playouts and --delta must be at least 1")
        return 2
    rows = measure(args.game, args.resource, args.games, args.playouts, args.delta, args.seed)
    rec = record(args, rows)
    print("\n".join(render_one(rec)))
    if args.write:
        data = json.loads(DATA.read_text()) if DATA.exists() else {}
        data[f"{args.game}:{args.resource}"] = rec
        DATA.write_text(json.dumps(data, indent=1) + "\n")
        write_doc(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
