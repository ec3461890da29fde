"""The one table of ``[tournament]`` keys (stdlib only, so the CLI reads it for --help).

The validator (``tournament.config.build_config``), the TOML writer
(``tournament.config.config_to_toml_dict``) and the `meeple tournament run` override
options all read this table; a new key is added here once.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Key:
    """One ``[tournament]`` key: its type, default and meaning."""

    name: str
    type: type
    default: object
    help: str
    option: bool = True  # also a `meeple tournament run --<name>` override


TOURNAMENT_KEYS: tuple[Key, ...] = (
    Key("game", str, None, "game string, e.g. python_coloretto(players=3)"),  # None: required
    Key(
        "seeds_per_lineup",
        int,
        10,
        "chance seeds per line-up, each under every seating (balanced: under the rotations "
        "of one order of play)",
    ),
    Key("seed", int, 0, "master seed; every game seed is derived from it"),
    Key(
        "schedule",
        str,
        "round-robin",
        "round-robin, gauntlet (needs focus), ladder, fixed (needs tables) or adaptive (a "
        "round robin that plays where the ranking is least certain, seeds_per_lineup at most)",
    ),
    Key("focus", str, "", "gauntlet: the agent that meets the field"),
    Key(
        "tables",
        list,
        [],
        "fixed: the line-ups to play, each a list of agent names, one per seat (a name may "
        "hold several seats)",
        False,
    ),
    Key(
        "seating",
        str,
        "rotations",
        "rotations (every cyclic seat rotation of a line-up), permutations (every seat "
        "order, so who sits after whom is balanced too) or balanced (each seed the "
        "rotations of one order of play, the orders in turn: permutations over more deals)",
    ),
    Key(
        "self_play",
        bool,
        False,
        "allow line-ups with one agent in several seats; with the fixed schedule a "
        "table may seat one agent only (self-play games)",
        False,
    ),
    Key("failure_policy", str, "rank-last", "rank-last or void: what an agent failure means"),
    Key("time_limit", float, 0.0, "seconds per move; 0 = none"),
    Key("batch_size", int, 0, "games per task; 0 = chosen from the workload"),
    Key(
        "record_moves",
        bool,
        False,
        "store every game's move list in the ledger (about 1 byte a move; `meeple train`, "
        "`meeple replay` and the luck measurement then read it instead of replaying the "
        "agents, which costs as much as playing)",
        False,
    ),
    Key(
        "confidence",
        float,
        0.95,
        "adaptive: stop when every pair that decides the top places is ordered with this "
        "bootstrap probability",
        False,
    ),
    Key("top", int, 3, "adaptive: the places whose order must be certain; 0 = every place", False),
    Key(
        "min_seeds", int, 2, "adaptive: seeds every line-up plays before the choosing starts", False
    ),
    Key(
        "tie_elo",
        float,
        0.0,
        "adaptive: a deciding pair shown within this many Elo of level counts as decided "
        "(0: never; two tied agents then play to the cap)",
        False,
    ),
)
ADAPTIVE_KEYS = ("confidence", "top", "min_seeds", "tie_elo")
# The adaptive schedule's stopping rule, part of an adaptive run's identity: a run begun
# under another rule (stopping at any round, before "looks") is another run
ADAPTIVE_RULE = "looks-1"


def option_help(name: str) -> str:
    """The --<name> override's help text; the option itself is never required, but a key
    without a default (``None``) must be set by the config or by the option."""
    for k in TOURNAMENT_KEYS:
        if k.name == name and k.option:
            must = " (a key the config or this option must set)" if k.default is None else ""
            return f"Override tournament.{name}{must}: {k.help}"
    raise KeyError(name)
