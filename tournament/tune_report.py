"""What `meeple tune` reports: the recommended setting, the marginal effect of every value
of every tuned parameter (NTBEA's 1-tuple statistics, with 95% normal intervals widened to
contain Wilson's), and the confirmation run (an SPRT of the recommendation against the
agent as given) that decides whether the recommendation is adopted.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import spiel_games
from solvers.registry import resolve
from solvers.spec import AgentSpecError
from tournament.sprt.gsprt import PRESETS, Bounds
from tournament.sprt.run import SprtRequest, games_per_set, play_sprt, sets_for, sprt_config
from tournament.sprt.state import fewest_to_cross, reach_warnings
from tournament.tune import CONFIRM, Tuned, TuneError

CONFIRM_PRESET = "gain"  # Elo 0 against 20: is the recommendation stronger?
DEFAULT_CONFIRM = 600  # the printed command's --max-games when --confirm is 0


def _point(t: Tuned, point) -> dict:
    s = t.result.evaluated.get(point)
    ci = s.interval() if s is not None else None
    return {
        "spec": t.space.spec(point),
        "values": t.space.values(point),
        "estimate": round(t.result.model.estimate(point), 4),
        "games": s.n if s is not None else 0,
        "share": round(s.mean, 4) if s is not None else None,
        "ci": [round(ci[0], 4), round(ci[1], 4)] if ci else None,
    }


def marginals(t: Tuned) -> list[dict]:
    """Per parameter, per value: games played with it, mean fitness, 95% interval."""
    out = []
    for d, dim in enumerate(t.space.dims):
        rows = []
        for i, value in enumerate(dim.values):
            s = t.result.model.marginal(d, i)
            ci = s.interval()
            rows.append(
                {
                    "value": value,
                    "games": s.n,
                    "share": round(s.mean, 4) if s.n else None,
                    "ci": [round(ci[0], 4), round(ci[1], 4)] if ci else None,
                }
            )
        out.append({"parameter": dim.name, "default": dim.values[t.space.start[d]], "rows": rows})
    return out


def summary(t: Tuned, out: Path) -> dict:
    r = t.result
    return {
        "game": t.req.game,
        "agent": t.req.agent,
        "method": "NTBEA (1-tuples and the full tuple)",
        "k": t.req.k,
        "neighbours": t.req.neighbours,
        "seed": t.req.seed,
        "opponents": list(t.req.opponents),
        "games": r.model.evaluations,
        "played_now": t.played,
        "iterations": len(r.trail),
        "points_evaluated": len(r.evaluated),
        "recommended": _point(t, r.best),
        "start": _point(t, t.space.start),
        "marginals": marginals(t),
        "log": str(out),
    }


def confirm_command(s: dict, max_games: int, filler: str, seed: int) -> str:
    max_games = max_games or DEFAULT_CONFIRM
    argv = ["meeple", "sprt", s["game"], s["recommended"]["spec"], s["agent"]]
    argv += ["--filler", filler, "--seed", str(seed), "--max-games", str(max_games)]
    return " ".join(shlex.quote(a) for a in argv)


def check_filler(filler: str, game: str, agent: str) -> None:
    """Refuse a --confirm-filler the confirming SPRT would refuse, before the tuning plays a
    game: no agent spec, one refused on ``game`` (a missing policy file, a value that needs
    another), or the tuned agent itself (its SPRT is against that agent)."""
    if filler == "ab":
        return
    try:
        spec = resolve(filler)
        spec.check(spiel_games.load_game(game))
    except AgentSpecError as e:
        raise AgentSpecError(f"--confirm-filler: {e}") from None
    if spec.canonical == resolve(agent).canonical:
        raise TuneError(
            "--confirm-filler is the --agent itself; use --confirm-filler ab for copies of "
            "the recommendation and the agent"
        )


def confirm_warnings(game: str, max_games: int, filler: str) -> list[str]:
    """The confirming SPRT's warnings about its length, known before the tuning plays: a
    --confirm below the fewest games that could accept H1 means no recommendation can be
    adopted (as `meeple sprt` warns about its --max-games)."""
    if max_games < 1:
        return []
    per_set = games_per_set(spiel_games.load_game(game).num_players(), filler)
    sets = sets_for(max_games, per_set)
    to_cross = fewest_to_cross(Bounds(*PRESETS[CONFIRM_PRESET]), per_set)
    warnings = reach_warnings(to_cross, sets, per_set)
    h1 = to_cross["H1"]
    if h1 is not None and h1 > sets:
        warnings.append(
            f"--confirm {max_games} can never adopt a recommendation: give --confirm "
            f"{h1 * per_set} or more"
        )
    return [w.replace("--max-games", "--confirm") for w in warnings]


def confirm(s: dict, out: Path, max_games: int, filler: str, seed: int, workers, executor) -> dict:
    """The SPRT of the recommendation against the agent as given (preset ``gain``);
    adopted only on H1. Nothing is played when the recommendation is the start point."""
    c: dict = {"command": confirm_command(s, max_games, filler, seed), "seed": seed}
    if s["recommended"]["values"] == s["start"]["values"]:
        return {**c, "verdict": "none", "adopted": False, "why": "the start point is recommended"}
    if max_games < 1:
        return {**c, "verdict": "not run", "adopted": False, "why": "--confirm 0"}
    bounds = Bounds(*PRESETS[CONFIRM_PRESET])
    req = SprtRequest(
        s["game"], s["recommended"]["spec"], s["agent"], bounds, filler, max_games, seed
    )
    players = spiel_games.load_game(req.game).num_players()  # its ledger's own run id:
    where = out / f"{CONFIRM}-{sprt_config(req, players)[0].run_id[:8]}"  # as `meeple sprt`'s
    v, _, _ = play_sprt(req, where, workers, executor=executor)
    return {
        **c,
        "warnings": confirm_warnings(s["game"], max_games, filler),
        "verdict": v.verdict or "not finished",
        "adopted": v.verdict == "H1",
        "games_played": v.games,
        "elo": round(v.elo, 1),
        "elo_ci": [round(v.elo_low, 1), round(v.elo_high, 1)],
        "why": "H1: stronger by at least 20 Elo" if v.verdict == "H1" else "H1 not accepted",
    }


def _share(x: dict) -> str:
    if x["share"] is None:
        return "-"
    ci = f" ({x['ci'][0]:.2f} .. {x['ci'][1]:.2f})" if x["ci"] else " (n/a)"
    return f"{x['share']:.2f}{ci}"


def _value(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def text(s: dict) -> str:
    rec, start = s["recommended"], s["start"]
    lines = [
        f"Tuning {s['agent']} on {s['game']}: {s['method']}, k={s['k']:g}, "
        f"{s['neighbours']} neighbours, master seed {s['seed']}",
        f"{s['games']} games ({s['played_now']} played now), {s['iterations']} iterations, "
        f"{s['points_evaluated']} settings evaluated",
        f"opponents drawn from: {', '.join(s['opponents'])}",
        "fitness: share of the opponents at the table finished ahead of, ties half; "
        "intervals 95% normal",
        "",
        f"recommended: {rec['spec']}",
        f"  model estimate {rec['estimate']:.2f}; its own games {rec['games']}, "
        f"share {_share(rec)}",
        f"start:       {start['spec']}",
        f"  model estimate {start['estimate']:.2f}; its own games {start['games']}, "
        f"share {_share(start)}",
        "",
        "marginal effects (games with the value, their mean share, 95% interval):",
    ]
    for m in s["marginals"]:
        cells = [
            f"{_value(r['value'])}{'*' if r['value'] == m['default'] else ''}: "
            f"{r['games']} {_share(r)}"
            for r in m["rows"]
        ]
        lines.append(f"  {m['parameter']}: " + "; ".join(cells))
    lines.append("  (* the start value)")
    c = s.get("confirmation")
    if c is not None:
        lines.append("")
        if c["verdict"] in ("none", "not run"):
            lines.append(f"confirmation: {c['verdict']} ({c['why']}); adopted: no")
        else:
            lines.append(
                f"confirmation: SPRT {c['verdict']} after {c['games_played']} games, Elo of the "
                f"recommendation {c['elo']:+.0f} ({c['elo_ci'][0]:+.0f} .. {c['elo_ci'][1]:+.0f})"
                f"; adopted: {'yes' if c['adopted'] else 'no'} ({c['why']})"
            )
        lines.append(f"  {c['command']}")
        lines += [f"  warning: {w}" for w in c.get("warnings", ())]
    lines.append(f"log: {s['log']} (rerun the same command to resume)")
    return "\n".join(lines)


def _md_share(x: dict) -> str:
    if x["share"] is None:
        return "- | -"
    ci = f"{x['ci'][0]:.2f} .. {x['ci'][1]:.2f}" if x["ci"] else "n/a (one game)"
    return f"{x['share']:.2f} | {ci}"


def markdown(s: dict) -> list[str]:
    """The report as Markdown lines (scripts/bench_strength.py's tuning section)."""
    lines = [
        f"{s['method']} over {len(s['marginals'])} parameters of `{s['agent']}`: {s['games']} "
        f"games against opponents drawn from the pool, {s['iterations']} iterations, "
        f"{s['points_evaluated']} settings evaluated, master seed {s['seed']}, k = {s['k']:g}. "
        "Fitness: the share of the opponents at the table finished ahead of, ties half; "
        "95% normal intervals widened to contain Wilson's over the games.",
        "",
        "| | setting | model estimate | own games | share | 95% interval |",
        "|---|---|---|---|---|---|",
    ]
    for name in ("recommended", "start"):
        x = s[name]
        lines.append(
            f"| {name} | `{x['spec']}` | {x['estimate']:.2f} | {x['games']} | {_md_share(x)} |"
        )
    lines += [
        "",
        "Marginal effects (NTBEA's 1-tuple statistics: every game played with the value; "
        "`*` the default's value):",
        "",
        "| parameter | value | games | share | 95% interval |",
        "|---|---|---|---|---|",
    ]
    for m in s["marginals"]:
        for r in m["rows"]:
            star = "*" if r["value"] == m["default"] else ""
            lines.append(
                f"| {m['parameter']} | {_value(r['value'])}{star} | {r['games']} | {_md_share(r)} |"
            )
    c = s["confirmation"]
    lines.append("")
    if c["verdict"] in ("none", "not run"):
        lines.append(f"Confirmation: {c['verdict']} ({c['why']}); not adopted. `{c['command']}`")
    else:
        lines.append(
            f"Confirmation (`{c['command']}`): {c['verdict']} after {c['games_played']} games, "
            f"Elo of the recommendation over the default {c['elo']:+.0f} "
            f"({c['elo_ci'][0]:+.0f} .. {c['elo_ci'][1]:+.0f}); "
            f"{'adopted' if c['adopted'] else 'not adopted'} ({c['why']})."
        )
    return lines
