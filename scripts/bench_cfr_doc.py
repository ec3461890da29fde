"""docs/CFR.md from the measurements of ``scripts/bench_cfr.py`` (stored in
docs/data/cfr.json): the targets of issue 31 with their verdicts computed from the figures,
and one section per measurement with the command and code version that measured it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spiel_games.common.files import atomic_write_text  # noqa: E402

DATA = ROOT / "docs" / "data" / "cfr.json"
DOC = ROOT / "docs" / "CFR.md"


def load_data(path: Path = DATA) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def save_section(path: Path, key: str, record: dict) -> None:
    """Store one section's record under ``key`` (SECTION-games), atomically; the games it
    measured leave the section's earlier records (the other sections are kept)."""
    data = load_data(path)
    section = key.split("-")[0]
    measured = {r["game"] for r in record["rows"]}
    for k in [k for k in data if k.split("-")[0] == section]:  # one row per game and section
        data[k]["rows"] = [r for r in data[k]["rows"] if r["game"] not in measured]
        if not data[k]["rows"]:
            del data[k]
    data[key] = record
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def _load(part: dict) -> str:
    """The machine's load while the section ran (wall-clock figures depend on it)."""
    if "load" not in part:
        return " Machine load not recorded."
    start, end = part["load"]
    return (
        f" Machine load (1-minute average, 2 cores) {start:.1f} at the start, {end:.1f} at the end."
    )


def _short(game: str) -> str:
    return game.split("(")[0].removeprefix("python_")


def _pct(x) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def _status(ok: bool | None) -> str:
    return "n/a" if ok is None else "**holds**" if ok else "misses"


def _rows(data: dict, section: str) -> list[dict]:
    """Every row of a section, over the runs that measured it (keys SECTION-games)."""
    return [r for k, v in sorted(data.items()) if k.split("-")[0] == section for r in v["rows"]]


def _train_cpu(data: dict, game: str) -> float:
    """CPU seconds of training of the shipped blueprint for ``game`` (inf: not measured)."""
    for r in _rows(data, "blueprints"):
        if r["game"] == game:
            for f in r["files"]:
                return float(f["meta"].get("train_cpu_seconds") or float("inf"))
    return float("inf")


def _train_minutes(data: dict, game: str) -> str:
    cpu = _train_cpu(data, game)
    return "training time unknown" if cpu == float("inf") else f"{cpu / 60:.0f} CPU min training"


def _search_seconds(row: dict) -> tuple[float, str]:
    """cfr-search's seconds per decision and their unit: CPU seconds where measured (the
    agent is one thread: its time on an idle core; wall seconds on a loaded machine
    measure the other jobs too)."""
    if "search_cpu_seconds_per_decision" in row:
        return row["search_cpu_seconds_per_decision"], "CPU s"
    return row["search_seconds_per_decision"], "s"


def targets(data: dict) -> list[str]:
    sp = _rows(data, "speed")
    par = _rows(data, "parallel")
    st = _rows(data, "strength")
    ex = _rows(data, "exact")
    ism = _rows(data, "ismcts")
    cov = [r["lineups"]["blueprint"]["coverage"] for r in st]
    bp = [r["lineups"]["blueprint"]["share"] for r in st]
    cs = [r["lineups"]["cfr-search"]["share"] for r in st]
    secs = [_search_seconds(r) for r in st]
    lines = ["| target | measured | status |", "|---|---|---|"]

    def row(text, measured, ok):
        lines.append(f"| {text} | {measured} | {_status(ok)} |")

    ratios = ", ".join(f"{_short(r['game'])} {r['os_ratio']:.2f}" for r in sp)
    if sp and all("abstraction_ratio" in r for r in sp):
        ratios += (
            " (a playout with the abstraction's keys and labels alone: "
            + ", ".join(f"{r['abstraction_ratio']:.2f}" for r in sp)
            + ")"
        )
    row(
        "OS traversal <= 1.5 x a random playout (every game)",
        ratios or "n/a",
        all(r["os_ratio"] <= 1.5 for r in sp) if sp else None,
    )
    eff = ", ".join(f"{_short(r['game'])} {r['efficiency']:.2f}" for r in par)
    row(
        "parallel efficiency >= 0.8 at 2 workers; merged tables = serial tables",
        eff or "n/a",
        all(r["efficiency"] >= 0.8 and r["identical"] for r in par) if par else None,
    )
    row(
        "blueprint coverage >= 0.80 at 3 players, every game, <= 1 h training",
        ", ".join(
            f"{_short(r['game'])} {_pct(x)} ({_train_minutes(data, r['game'])})"
            for r, x in zip(st, cov, strict=True)
        )
        or "n/a",
        all(x is not None and x >= 0.8 for x in cov)
        and all(_train_cpu(data, r["game"]) <= 3600 for r in st)
        if cov
        else None,
    )
    row(
        "blueprint ahead of heuristic >= 0.55 on >= 2 games",
        ", ".join(_pct(x) for x in bp) or "n/a",
        sum(x >= 0.55 for x in bp) >= 2 if bp else None,
    )
    row(
        "cfr-search ahead of heuristic >= 0.70 on every game at <= 1 s per decision",
        ", ".join(f"{s:.2f} ({t:.2f} {unit})" for s, (t, unit) in zip(cs, secs, strict=True))
        or "n/a",
        all(x >= 0.7 for x in cs) and all(t <= 1.0 for t, _ in secs) if cs else None,
    )
    verdicts = [t for r in ism for t in r["tests"]]
    row(
        "IS-MCTS with the blueprint (prior, opponents or rollouts) not weaker than the default at equal "
        "time on any game, stronger (>= 0.55, SPRT or >= 200 games) on at least one",
        ", ".join(
            f"{_short(r['game'])} {t['variant']} {t['share']:.2f} ({t['verdict'] or 'open'}, "
            f"{t['games']} games)"
            for r in ism
            for t in r["tests"]
        )
        or "n/a",
        (
            not any(t["verdict"] == "H0" and t["share"] < 0.5 for t in verdicts)
            and any(t["verdict"] == "H1" and t["share"] >= 0.55 for t in verdicts)
        )
        if verdicts
        else None,
    )
    row(
        "exact CFR+ on tiny configurations: NashConv after 100 iterations < 0.01",
        ", ".join(f"{r['nash_conv_100']:.4f}" for r in ex) or "n/a",
        all(r["nash_conv_100"] < 0.01 for r in ex) if ex else None,
    )
    return lines


def render(data: dict) -> str:
    lines = [
        "# CFR on the real games",
        "",
        "Written by `scripts/bench_cfr.py` (issue 31) from the measurements stored under",
        "`docs/data/cfr.json`; each section names the command and code version that measured",
        "it. Regenerate with `python scripts/bench_cfr.py` (about 40 minutes on two cores;",
        "`--quick` for a smoke run into another file).",
        'Design and usage: docs/solvers.md ("The CFR family").',
        "",
        "## Against the targets",
        "",
        *targets(data),
        "",
    ]
    for name, title, body in (
        ("speed", "Traversal speed", _speed_lines),
        ("parallel", "Distributed training at 2 workers", _parallel_lines),
        ("blueprints", "The shipped blueprints", _blueprint_lines),
        ("strength", "Playing strength at 3 players", _strength_lines),
        ("ismcts", "IS-MCTS with the blueprint", _ismcts_lines),
        ("exact", "Exact CFR on tiny configurations", _exact_lines),
    ):
        parts = [v for k, v in sorted(data.items()) if k == name or k.startswith(name + "-")]
        if not parts:
            continue
        lines += [f"## {title}", ""]
        for part in parts:
            lines += [
                f"    {part['command']}",
                "",
                f"Code version {part['code_version']}.{_load(part)}",
            ]
            lines += [""]
            lines += body(part["rows"]) + [""]
    return "\n".join(lines).rstrip() + "\n"


def _speed_lines(rows) -> list[str]:
    out = [
        "Per CPU second of one process (interleaved slices, the cyclic garbage collector "
        "paused in each as the traversals pause it; 3 players). *Keys and labels*: random "
        "playouts that also compute, at every decision, the abstraction's labels of the "
        "legal actions and the key, as an OS traversal does: their cost over a playout's "
        "is the abstraction's share of the OS traversal's; the rest of the traversal's is "
        "its tables, sampling and updates (and its policy's games being longer or shorter "
        "than random ones).",
        "",
        "| game | random playouts/s | OS traversals/s | playout / OS | playout / playout "
        "with keys and labels | windowed ES traversals/s | playout / ES |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ab = r.get("abstraction_ratio")
        out.append(
            f"| {r['game']} | {r['playout_per_s']:.0f} | {r['os_per_s']:.0f} | "
            f"{r['os_ratio']:.2f} | {'n/a' if ab is None else f'{ab:.2f}'} | "
            f"{r['es_per_s']:.0f} | {r['es_ratio']:.2f} |"
        )
    return out


def _parallel_lines(rows) -> list[str]:
    out = [
        "The same MCCFR-OS rounds serially and on two Ray workers, timed validly: both runs "
        "first train one untimed round (the Ray actors' start-up, their imports and the first "
        "keys), then timed segments of `iterations` alternate (serial, Ray, serial, Ray, ...) "
        "so that changes of the machine's load hit both sides. Wall seconds of training, "
        "summed over the segments; a traversal = one player's sampled trajectory, three per "
        "iteration at 3 players. Efficiency = serial seconds / (2 x Ray seconds), with the "
        "lowest and highest over the segments; load = the machine's 1-minute load average "
        "(2 cores) between segments, lowest and highest. CPU efficiency = the serial run's CPU "
        "seconds / the Ray run's (driver plus workers): the work distribution adds, which the "
        "load does not change (wall efficiency reaches it on an idle machine at best). Under "
        "load the wall figure measures the other jobs: the Ray workers are started from the "
        "benchmark's session and share its CPU share with it (Linux schedules sessions "
        "fairly), so two busy workers get no more CPU than one serial process.",
        "",
        "| game | iterations x segments | batch | serial s | traversals/s serial | Ray s | "
        "traversals/s 2 workers | efficiency (range) | CPU efficiency | load | identical tables |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        k = r.get("repeats", 1)
        n = r["iterations"] * r.get("players", 3) * k
        low, high = r.get("efficiency_range", [r["efficiency"]] * 2)
        load = "-".join(f"{x:.1f}" for x in r["load"]) if "load" in r else "n/a"
        out.append(
            f"| {r['game']} | {r['iterations']} x {k} | {r['batch']} | "
            f"{r['serial_seconds']:.1f} | {n / r['serial_seconds']:.0f} | "
            f"{r['ray_seconds']:.1f} | {n / r['ray_seconds']:.0f} | "
            f"{r['efficiency']:.2f} ({low:.2f}-{high:.2f}) | {_pct(r.get('cpu_efficiency'))} | "
            f"{load} | "
            f"{'yes' if r['identical'] else 'NO'} |"
        )
    return out


def _blueprint_lines(rows) -> list[str]:
    out = [
        "Abstraction: the abstraction and version the file was trained with (refused under "
        "another). RNR: the restricted Nash response's share (`meeple solve --rnr`; each other "
        "seat played the heuristic in that share of the traversals; 0 = self-play).",
        "",
        "| file | abstraction | RNR | iterations | training CPU min | keys | median visits per "
        "key | keys with >= 100 visits (share of all visits) | MB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    curves = []
    for r in rows:
        for f in r["files"]:
            m = f["meta"]
            cpu = m.get("train_cpu_seconds") or 0.0
            out.append(
                f"| {f['file']} | {m['abstraction']} v{m['abstraction_version']} | "
                f"{m.get('rnr', 0.0):g} | {m['iterations']} | {cpu / 60:.0f} | {f['keys']} | "
                f"{f['visits_median']:.0f} | {f['keys_100']} ({f['share_of_visits_at_100']:.3f}) "
                f"| {f['bytes'] / 1e6:.1f} |"
            )
            curve = [c for c in f["curve"] if c.get("ahead") is not None]
            if curve:
                curves += [
                    "",
                    f"Learning curve of {m['game']} (the progress figure of `meeple solve`: the "
                    "blueprint, from every seat, against two heuristic players on its fixed deals):",
                    "",
                    "| iteration | ahead of heuristic | coverage | keys | visits per key |",
                    "|---|---|---|---|---|",
                ]
                curves += [
                    f"| {c['iteration']} | {c['ahead']:.2f} | {c['coverage']:.2f} | "
                    f"{int(c['keys'])} | {c['visits_per_key']:.0f} |"
                    for c in curve
                ]
    return out + curves


def _strength_lines(rows) -> list[str]:
    out = [
        "Each agent in one seat, two copies of the opponent in the other two (`heuristic`; "
        "for the blueprint also `noisy(eps=0.3)`, the heuristic playing a random move 30% of "
        "the time, which no blueprint was trained against; and `blueprint(play=best)`, "
        "the blueprint's most likely action at every decision, where the default samples "
        "its average strategy in a game that hides information), every seat rotation on each "
        "deal (duplicate seeds), played by the tournament runner. Share = pairs (agent, "
        "opponent) in which the agent finished ahead, ties half; 95% bootstrap intervals "
        "over the deals. Coverage: the blueprint's decisions played from its table (ledger).",
        "",
        "| game | agent | opponent | ahead of opponent | 95% interval | pairs | "
        "score difference | 95% interval | coverage | minutes |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        for x in r["lineups"].values():
            lo, hi = x["interval"]
            dlo, dhi = x["difference_interval"]
            out.append(
                f"| {r['game']} | `{x['spec']}` | `{x.get('opponent', 'heuristic')}` | "
                f"{x['share']:.2f} | {lo:.2f} .. {hi:.2f} | "
                f"{x['pairs']} | {x['score_difference']:+.1f} | {dlo:+.1f} .. {dhi:+.1f} | "
                f"{_pct(x['coverage'])} | {x['minutes']:.0f} |"
            )
    out += ["", "Seconds per decision of the `cfr-search` agent above on 8 fixed positions:", ""]
    out += [
        f"- {r['game']}: {r['search_seconds_per_decision']:.2f} s wall"
        + (
            f", {r['search_cpu_seconds_per_decision']:.2f} CPU s (its time on an idle core)"
            if "search_cpu_seconds_per_decision" in r
            else ""
        )
        for r in rows
    ]
    return out


def _ismcts_lines(rows) -> list[str]:
    out = [
        "Sequential tests (`tournament.sprt`, as `meeple sprt`; duplicate sets, the other seat "
        "a copy of A or B) of IS-MCTS with the blueprint against the default IS-MCTS at the "
        "same seconds per move. Share: the mean over duplicate sets of the share of (A, B) "
        "seat pairs in which A finished ahead, ties half.",
        "",
        "| game | A | B | verdict | games | A ahead of B | Elo of A over B (95%, at the stop) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        for t in r["tests"]:
            out.append(
                f"| {r['game']} | `{t['a']}` | `{t['b']}` | {t['verdict'] or 'not finished'} | "
                f"{t['games']} | {t['share']:.2f} | {t['elo']:+.0f} ({t['elo_low']:+.0f} .. "
                f"{t['elo_high']:+.0f}) |"
            )
    return out


def _exact_lines(rows) -> list[str]:
    out = ["| configuration | NashConv after 10 | after 100 |", "|---|---|---|"]
    out += [f"| `{r['game']}` | {r['nash_conv_10']:.4f} | {r['nash_conv_100']:.5f} |" for r in rows]
    return out
