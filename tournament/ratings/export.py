"""The machine formats of a ratings report: JSON, with everything that qualifies the
numbers, and CSV, the bare table.

JSON, one object (was a bare list of records until the review asked for the rest):

- ``ratings``: the rated agents, best first (group by group when the comparison graph is
  disconnected), each ``{"agent", "elo", "ci_low", "ci_high", "games"}`` as before, with
  ``plackett_luce`` ``{"elo", "ci_low", "ci_high"}``, ``coverage`` for agents that played
  from a table, ``group`` (the comparison component, when there are several: ratings of
  different groups are not comparable) and ``one_sided`` (why the interval is open on a
  side) where they apply; an unbounded or unmeasured bound is null;
- ``unrated``: agents without a rated game, ``{"agent", "games", "void_games",
  "failures", "reason"}``;
- ``method``: ``confidence``, ``anchor`` (in words) and ``anchor_agents``, ``bootstrap``
  (resamples; 0: no intervals), ``bound_noise`` (the largest Monte Carlo standard error of
  a bootstrap bound, Elo: what another --seed moves one by) and ``bound_noise_at`` (which
  bound), ``duplicate_sets``, ``small_sample_factor``, ``pairwise``,
  ``prior``, ``plackett_luce`` (shown or not), ``luck_adjusted`` (null, or its ``value``
  function and ``beta``);
- ``games``: ``read``, ``rated``, ``void``, and per agent ``void_by_agent`` and
  ``failures_by_agent`` (the games it failed, by kind);
- ``seat_terms``: Plackett-Luce's seat terms, ``{"players", "seat", "elo", "ci_low",
  "ci_high"}`` (null when Plackett-Luce is not shown); a term the data do not measure has
  null value and bounds and ``not_measured``, why (was: left out of the JSON, and shown in
  the tables as the prior-held value, +-204 Elo beside even seat win rates);
- ``groups``: the comparison components (agent names); ``ledgers``; ``warnings``; and
  ``notes``, the table's note lines, word for word.

CSV is the bare table (agent, elo, ci_low, ci_high, games, the Plackett-Luce columns),
unrated agents as rows with empty cells: what qualifies the numbers is in the JSON (or the
table's notes), not in the CSV.
"""

from __future__ import annotations

import csv
import io
import json
import math

from tournament.ratings.fit import Ratings
from tournament.ratings.notes import notes, unmeasured_seats
from tournament.ratings.pairs import small_sample_factor
from tournament.ratings.unrated import reason


def method(r: Ratings) -> dict:
    """How the numbers were made: what the table's first note lines say, as fields."""
    names = [a.name for a in r.agents]
    if r.anchor_set is not None:
        anchor_agents = [n for n, a in zip(names, r.anchor_set, strict=True) if a]
    else:
        anchor_agents = []
    luck = None if not r.luck else {"value": r.luck_value, "beta": r.luck_beta}
    return {
        "confidence": r.confidence,
        "anchor": r.anchor,
        "anchor_agents": anchor_agents,
        "bootstrap": r.bootstrap,
        "bound_noise": None if math.isnan(r.bound_noise[0]) else round(r.bound_noise[0], 1),
        "bound_noise_at": r.bound_noise[1] or None,
        "duplicate_sets": r.blocks,
        "small_sample_factor": round(small_sample_factor(r.blocks, r.confidence), 3),
        "pairwise": "each game's pairwise results by finishing rank, ties as draws"
        + (", less beta times their luck (luck_adjusted)" if r.luck else ""),  # was: not said
        "prior": r.prior,
        "plackett_luce": r.plackett_luce is not None,
        "luck_adjusted": luck,
    }


def report_object(r: Ratings, extra: dict | None = None) -> dict:
    """The JSON report as a dict (module docstring); ``extra``: what the loader read."""
    extra = extra or {}
    everyone = [*r.agents, *r.unrated]
    read = extra.get("games")
    return {
        "ratings": [x for x in r.as_records() if "unrated" not in x],
        "unrated": [
            {
                "agent": a.name,
                "games": a.games_read - a.void_games,
                "void_games": a.void_games,
                "failures": dict(sorted(a.failures.items())),
                "reason": reason(a),
            }
            for a in r.unrated
        ],
        "method": method(r),
        "games": {
            "read": read,
            "rated": None if read is None else read - r.void_games,
            "void": r.void_games,
            "void_by_agent": {a.name: a.void_games for a in everyone if a.void_games},
            "failures_by_agent": {
                a.name: dict(sorted(a.failures.items())) for a in everyone if a.failures
            },
        },
        "seat_terms": seat_terms(r),
        "groups": r.components,
        "ledgers": extra.get("ledgers", []),
        "warnings": r.warnings,
        "notes": notes(r),
    }


def seat_terms(r: Ratings) -> list[dict] | None:
    """Plackett-Luce's seat terms (Elo, centred per player count); one not measured has
    null value and bounds and ``not_measured``, why (null too: an open or missing bound)."""
    if r.plackett_luce is None:
        return None
    why = unmeasured_seats(r)

    def num(x: float) -> float | None:
        return round(float(x), 1) if math.isfinite(x) else None

    out = []
    for s in r.plackett_luce.seats:
        rec = {"players": s["players"], "seat": s["seat"]}
        rec |= {"elo": num(s["elo"]), "ci_low": num(s["ci_low"]), "ci_high": num(s["ci_high"])}
        if s["players"] in why:
            rec["not_measured"] = why[s["players"]]
        out.append(rec)
    return out


def to_json(r: Ratings, extra: dict | None = None) -> str:
    return json.dumps(report_object(r, extra), indent=2)


def to_csv(r: Ratings) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    pl_cols = ["pl_elo", "pl_ci_low", "pl_ci_high"] if r.plackett_luce is not None else []
    w.writerow(["agent", "elo", "ci_low", "ci_high", "games", *pl_cols])
    for rec in r.as_records():
        pl = rec.get("plackett_luce")
        extra = [pl["elo"], pl["ci_low"], pl["ci_high"]] if pl else [None] * len(pl_cols)
        w.writerow([rec["agent"], rec["elo"], rec["ci_low"], rec["ci_high"], rec["games"], *extra])
    return buf.getvalue()
