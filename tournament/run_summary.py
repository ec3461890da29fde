"""What a run did: games played, failures by kind and by the agent that failed
(``RunSummary``, filled by ``tournament.runner``), and its failures in one line."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class RunSummary:
    directory: Path
    scheduled: int
    already_done: int
    played: int
    batches: int
    seconds: float
    failures: dict[str, int] = field(default_factory=dict)
    # per agent id: the games it played in this run, and the ones it failed by kind
    agent_games: dict[str, int] = field(default_factory=dict)
    agent_failures: dict[str, dict[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    executor: str = ""  # what played the games: serial, ray, or "serial, then ray"


def count_failures(summary: RunSummary, rows: list[dict]) -> None:
    """Add the rows' failures to ``summary``: by kind, and by the agent that failed (the
    one in ``failed_seat``), with the games each agent played."""
    for r in rows:
        for a in set(r["agents"]):
            summary.agent_games[a] = summary.agent_games.get(a, 0) + 1
        if r["failure"]:
            summary.failures[r["failure"]] = summary.failures.get(r["failure"], 0) + 1
            if r["failed_seat"] >= 0:
                mine = summary.agent_failures.setdefault(r["agents"][r["failed_seat"]], {})
                mine[r["failure"]] = mine.get(r["failure"], 0) + 1


def failures_text(summary, names: dict[str, str]) -> str:
    """The run's failures by kind, then by the agent that failed, out of its games:
    "timeout 28 (ismcts: timeout 28 of its 54 games)"; "none"."""
    if not summary.failures:
        return "none"
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(summary.failures.items()))
    who = [
        f"{names.get(a, a)}: "
        + ", ".join(f"{k} {v}" for k, v in sorted(fails.items()))
        + f" of its {summary.agent_games.get(a, 0)} games"
        for a, fails in sorted(summary.agent_failures.items(), key=lambda x: names.get(x[0], x[0]))
    ]
    return kinds + (f" ({'; '.join(who)})" if who else "")
