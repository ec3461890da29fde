"""What one more unit of a resource is worth, measured by paired playouts, beside the price
the game's evaluations put on it.

    python scripts/bench_marginal_value.py [--game bruxelles] [--resource money] [--games 120]
        [--playouts 16] [--delta 3] [--seed 1000]

Positions come from games of the heuristic with a random move 10% of the time (games like
those the shipped value models were fitted on); at a share of the decision points where a
change of the resource is well defined (Bruxelles 1893: the start of a player's main
action, so no payment is pending), each player in turn is given ``delta`` more units and,
where it has them, ``delta`` fewer. The unchanged position is played to the end by the
heuristic ``playouts`` times, and every changed one as often with the same random streams
(chance draws and the heuristic's tie-breaks); the measured value of a change is the mean
change of the player's final score minus each other player's, per unit: what the unit does
to the result when the heuristic plays on. An evaluation's price for the same change is the
change of its estimate of that margin, per unit, through every feature the unit moves (on
Bruxelles money also counts in the points a player would score now); the shipped model's
fitted weight of the resource's own feature is shown beside (docs/solvers.md, "What a
unit of a resource is worth").

Printed per round: the mean value per unit with a 95% t interval over the games (the
measurements of one game are not independent), the evaluations' mean prices, the weight
at the round's mean stage; then the line a + b x stage fitted to the measured values.
With ``--write`` the figures also go to docs/data/marginal-value.json and are rendered
into docs/solvers.md between the ``marginal-value`` markers; ``--render`` only renders.
``--write-model FILE`` (from the stored figures, measuring nothing) writes the shipped
value model with the resource's own weight (a + b x stage) refitted so that its price
matches the measured value round by round (least squares over the rounds): a model for
``ismcts(model=FILE)`` experiments, every other weight unchanged (the stored prices are
those of the model shipped when they were measured: measure again after it changes).
"""

from __future__ import annotations

import argparse
import json
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


def _rococo_money() -> Resource:
    from spiel_games.rococo.state import Phase

    def add(s, p: int, units: int) -> None:
        s.money = tuple(m + units if q == p else m for q, m in enumerate(s.money))

    # PLAY: a player's turn begins with the choice of the card to play (nothing to pay yet)
    return Resource("livre", lambda s: s.phase == Phase.PLAY, lambda s, p: s.money[p], add)


RESOURCES: dict[tuple[str, str], Callable[[], Resource]] = {
    ("bruxelles", "money"): _bruxelles_money,
    ("rococo", "money"): _rococo_money,
}


def _playout(state, heuristic, seed: int) -> list[float]:
    """Final scores of the heuristic playing ``state`` out. Chance and the heuristic draw
    from separate streams (``tournament.luck_rollouts`` shares one), so a pair's chance
    draws stay the same where the change alters the heuristic's tie-break draws."""
    chance = random.Random(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            state.apply_action(int(heuristic(state, rng)))
    return [float(x) for x in state.scores()]


def _margin_change(before: list[float], after: list[float], p: int, units: int) -> float:
    """The change of p's score minus each other player's (averaged over them), per unit."""
    n = len(before)
    gain = [(after[p] - after[q]) - (before[p] - before[q]) for q in range(n) if q != p]
    return sum(gain) / len(gain) / units


class Position:
    """One measured position: its paired playouts' unchanged results (played once, shared
    by every change measured there) and the evaluations' estimates of it."""

    def __init__(self, state, heuristic, prices: dict[str, Callable], seeds: list[int]):
        self.state, self.heuristic, self.prices, self.seeds = state, heuristic, prices, seeds
        self.base = [_playout(state.clone(), heuristic, seed) for seed in seeds]
        self.estimates = {name: f(state) for name, f in prices.items()}

    def change(self, res: Resource, p: int, units: int) -> dict[str, float]:
        """The measured value per unit (``value``) and each evaluation's price per unit:
        the change of its estimate of p's margin, through every feature the unit moves."""
        changed = self.state.clone()
        res.add(changed.own_core(), p, units)  # own_core: a private core, nothing cached
        out = {
            name: _margin_change(self.estimates[name], f(changed), p, units)
            for name, f in self.prices.items()
        }
        values = [
            _margin_change(base, _playout(changed.clone(), self.heuristic, seed), p, units)
            for base, seed in zip(self.base, self.seeds, strict=True)
        ]
        out["value"] = sum(values) / len(values)
        return out


def evaluation_prices(game_name: str) -> dict[str, Callable]:
    """The estimates whose prices are compared: the shipped value model's (where the game
    ships one) and the hand-set evaluation's."""
    from solvers import value_model

    evaluation = spiel_games.get_spec(game_name).evaluation
    prices = {"hand": evaluation.estimate}
    if value_model.shipped_path(evaluation).exists():
        prices["shipped"] = value_model.model_for(f"python_{game_name}", evaluation).estimate
    return prices


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
    """One row per (position, player, +/-delta): game, round, stage, held, delta, the
    measured value and the evaluations' prices, per unit."""
    res = RESOURCES[(game_name, resource)]()
    spec = spiel_games.get_spec(game_name)
    evaluation = spec.evaluation
    prices = evaluation_prices(game_name)
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
                here = Position(state, spec.heuristic, prices, seeds)
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
                                **here.change(res, p, units),
                            }
                        )
            legal = state.legal_actions()
            if rng.random() < eps:
                state.apply_action(int(legal[rng.randrange(len(legal))]))
            else:
                state.apply_action(int(spec.heuristic(state, hrng)))
    return rows


def t_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval (nan bounds with fewer than 2 values)."""
    if len(values) < 2:
        return float(np.mean(values)), float("nan"), float("nan")
    from scipy import stats

    from solvers.search.compare import mean_interval

    return mean_interval(np.array(values), float(stats.t.ppf(0.975, len(values) - 1)))


def summary(rows: list[dict]) -> list[dict]:
    """Per round: the measurements, the games, the mean value per unit over the per-game
    means with its interval, and each evaluation's mean price per unit on the same
    measurements."""
    out = []
    for rnd in sorted({r["round"] for r in rows}):
        mine = [r for r in rows if r["round"] == rnd]
        by_game: dict[int, list[float]] = {}
        for r in mine:
            by_game.setdefault(r["game"], []).append(r["value"])
        mean, low, high = t_interval([float(np.mean(v)) for v in by_game.values()])
        rec = {
            "round": rnd,
            "rows": len(mine),
            "games": len(by_game),
            "stage": float(np.mean([r["stage"] for r in mine])),
            "value": mean,
            "low": low,
            "high": high,
        }
        for name in ("shipped", "hand"):
            if name in mine[0]:
                rec[name] = float(np.mean([r[name] for r in mine]))
        out.append(rec)
    return out


def feature_weight(game_name: str, feature: str, stage: float) -> float | None:
    """The shipped value model's weight of one feature at this stage (None: no model)."""
    from solvers import value_model

    path = value_model.shipped_path(spiel_games.get_spec(game_name).evaluation)
    if not path.exists():
        return None
    model = value_model.load_cached(path)
    k = model.features.index(feature)
    return float(model.flat[k] + model.staged[k] * stage)


def priced_model(game_name: str, feature: str, rounds: list[dict]) -> dict:
    """The shipped model's JSON with ``feature``'s weight set so that its price per round
    (what the other features already count for the unit, plus the new weight) fits the
    measured values."""
    from solvers import value_model

    path = value_model.shipped_path(spiel_games.get_spec(game_name).evaluation)
    need = [
        {"stage": r["stage"], "value": r["value"] - (r["shipped"] - r["weight"])} for r in rounds
    ]
    a, b = fit_line(need)
    model = json.loads(path.read_text())
    model["weights"]["flat"][feature] = a
    model["weights"]["times_stage"][feature] = b
    model["trained"] = {
        **model["trained"],
        "repriced": f"{feature} weight {a:+.3f} {b:+.3f} x stage so that the model's price "
        "fits scripts/bench_marginal_value.py's measured value",
    }
    return model


def fit_line(rows: list[dict]) -> tuple[float, float]:
    """Least squares a + b x stage through the measured values."""
    a_mat = np.array([[1.0, r["stage"]] for r in rows])
    coef, *_ = np.linalg.lstsq(a_mat, np.array([r["value"] for r in rows]), rcond=None)
    return float(coef[0]), float(coef[1])


def record(args, rows: list[dict]) -> dict:
    """What the document shows of one measurement: the command, the rounds, the line."""
    res = RESOURCES[(args.game, args.resource)]()
    a, b = fit_line(rows)
    flags = ("game", "resource", "games", "playouts", "delta", "seed")
    command = " ".join(f"--{k} {getattr(args, k)}" for k in flags)
    return {
        "command": f"python scripts/bench_marginal_value.py {command}",
        "game": args.game,
        "resource": args.resource,
        "measurements": len(rows),
        "games": args.games,
        "playouts": args.playouts,
        "delta": args.delta,
        "rounds": [
            {**r, "weight": feature_weight(args.game, res.feature, r["stage"])}
            for r in summary(rows)
        ],
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
        "| shipped model's price | hand-set price | shipped weight of the feature |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for s in rec["rounds"]:
        shown = [f"{s[k]:+.2f}" if s.get(k) is not None else "n/a" for k in _PRICES]
        lines.append(
            f"| {s['round']} | {s['stage']:.2f} | {s['rows']} | {s['games']} | "
            f"{s['value']:+.2f} | {s['low']:+.2f} .. {s['high']:+.2f} | {' | '.join(shown)} |"
        )
    a, b = rec["fit"]
    return [*lines, "", f"Fitted line: {a:+.2f} {b:+.2f} x stage points a unit."]


_PRICES = ("shipped", "hand", "weight")  # the table's last three columns


def render(data: dict) -> str:
    body: list[str] = []
    for key in sorted(data):
        body += [*render_one(data[key]), ""]
    return "\n".join([START, "", *body, END])


def write_doc(data: dict) -> None:
    text = DOC.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"error: {DOC} has no {START} ... {END} block to write into")
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
    ap.add_argument("--write-model", metavar="FILE", help="write the repriced value model")
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
    if args.write_model:
        from solvers import value_model

        evaluation = spiel_games.get_spec(args.game).evaluation
        if not value_model.shipped_path(evaluation).exists():
            print(f"error: {args.game} ships no value model to reprice")
            return 2
        key = f"{args.game}:{args.resource}"
        stored = json.loads(DATA.read_text()) if DATA.exists() else {}
        if key not in stored:
            print(f"error: no stored measurement of {key}: run with --write first")
            return 2
        feature = RESOURCES[(args.game, args.resource)]().feature
        model = priced_model(args.game, feature, stored[key]["rounds"])
        Path(args.write_model).write_text(json.dumps(model, indent=1) + "\n")
        return 0
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
