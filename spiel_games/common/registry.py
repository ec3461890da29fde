"""Metadata for every game meeple-arena registers with pyspiel.

Each game module builds one GameSpec and calls ``register``. The CLI, the
conformance suite, the benchmark harness and the solvers read games only through
this registry, so a new game works everywhere once it registers.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from spiel_games.common.errors import GameStringError

__all__ = [
    "GameSpec",
    "SearchDefaults",
    "GameStringError",
    "ParamDoc",
    "all_specs",
    "get_spec",
    "load_game",
    "register",
    "short_name_of",
]


@dataclass(frozen=True)
class ParamDoc:
    name: str
    default: object
    meaning: str


@dataclass(frozen=True)
class SearchDefaults:
    """A game's measured settings for the search agents' ``auto`` parameters with its
    evaluation (``eval=game`` or ``learned``; measured in issue 11), declared beside the
    evaluation module."""

    # what eval=auto picks: "game" (the evaluation module's hand-set estimate) or "learned"
    # (the value model the game ships beside it, value_model.json, fitted by `meeple train`)
    eval_auto: str = "game"
    # rollout_depth=auto: moves played after a new leaf before the evaluation
    eval_depth: int = 4
    # rollout=auto: who plays those moves, "random" or "heuristic" (the game's heuristic)
    eval_rollout: str = "random"
    # unprune=auto with the heuristic prior: a node below the root gains one move per
    # unprune * sims visits; 0 = off
    unprune: float = 0.0
    # opp_until=auto with opponents=search|infer: searched opponent decisions play the
    # heuristic's move until their node is reached opp_until * sims times; 0 = off
    opp_until: float = 0.0
    # tree_depth=auto: searched decisions on a path below the root before its position is
    # evaluated; 0 = no limit
    tree_depth: int = 0

    def __post_init__(self):
        if self.eval_auto not in ("game", "learned"):
            raise ValueError(f"eval_auto must be game or learned, got {self.eval_auto!r}")
        if self.eval_rollout not in ("random", "heuristic"):
            raise ValueError(f"eval_rollout must be random or heuristic, got {self.eval_rollout!r}")
        if self.eval_depth < 0 or self.unprune < 0 or self.tree_depth < 0:
            raise ValueError("eval_depth, unprune and tree_depth must be >= 0")
        if not 0.0 <= self.opp_until <= 1.0:
            raise ValueError(f"opp_until must be in [0, 1], got {self.opp_until}")


@dataclass(frozen=True)
class GameSpec:
    short_name: str  # e.g. "python_coloretto"
    title: str
    min_players: int
    max_players: int
    params: tuple[ParamDoc, ...]
    summary: str  # a short rules summary, plain text
    # Configurations small enough for exact CFR (2 players) and exhaustive tests.
    tiny_configs: tuple[str, ...]
    # Configurations exercised by the conformance suite (each player count, variants).
    test_configs: tuple[str, ...]
    # The configuration benchmarks and demos use ("typical player count").
    typical_config: str
    # Deviations and assumptions, one line each (from rules data marked "assumed").
    assumptions: tuple[str, ...] = ()
    # Rule-based baseline: heuristic(state, rng) -> action for state.current_player().
    heuristic: Callable | None = None
    # Information abstraction for MCCFR: abstraction(state, player) -> compact key.
    abstraction: Callable | None = None
    # Action abstraction beside it (optional): abstraction_labels(state, player, legal) ->
    # one small int per legal action; actions with equal labels are played as one (the
    # first in legal order), so tables hold a slot per (key, label). None: the action ids.
    abstraction_labels: Callable | None = None
    abstraction_name: str = ""
    abstraction_version: int = 0
    # For the info-leak test: perturb_secret(state, player, rng) -> a state that differs
    # from `state` only in what `player` privately knows, or None if there is nothing.
    perturb_secret: Callable | None = None
    # For search: world_sampler(state, player, sampler) -> a world consistent with what
    # `player` knows, like resample_from_infostate but free to leave history() as the real
    # game's (search never reads it). For games whose history-consistent resampler is
    # costly; None means search calls resample_from_infostate.
    world_sampler: Callable | None = None
    # Position evaluation for search (the game's evaluation module: estimate(state) ->
    # expected final scores, fitted on differences; spread(state) -> uncertainty of a score
    # difference; level(state) -> the players' mean final score expected, for
    # utility=score, spiel_games.common.level), and the search settings measured with it
    # (its SEARCH_DEFAULTS).
    evaluation: Any = None
    search_defaults: SearchDefaults = field(default_factory=SearchDefaults)
    # Extra notes shown by `meeple games show`.
    notes: tuple[str, ...] = field(default=())

    def param_defaults(self) -> dict[str, object]:
        return {p.name: p.default for p in self.params}


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec, game_type, game_class) -> None:
    """Register a game with pyspiel (once) and with the meeple-arena registry."""
    if spec.short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_class)
    _REGISTRY[spec.short_name] = spec


def all_specs() -> list[GameSpec]:
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def short_name_of(game_string: str) -> str:
    name = game_string.strip()
    i = name.find("(")
    return name if i < 0 else name[:i]


def get_spec(name_or_game_string: str) -> GameSpec:
    name = short_name_of(name_or_game_string)
    if name not in _REGISTRY and f"python_{name}" in _REGISTRY:
        name = f"python_{name}"
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise KeyError(f"unknown game {name!r}; registered games: {known}")
    return _REGISTRY[name]


def load_game(game_string: str, any_openspiel: bool = False):
    """Load a registered game from its string, with a clean one-line error.

    The one way the project loads games (import it as ``spiel_games.load_game``, which
    registers every game first). ``any_openspiel`` also accepts OpenSpiel's own games
    (``kuhn_poker``, for the solvers' reference values). Games are immutable, so each game
    string is loaded once per process and shared.

    pyspiel prints "OpenSpiel exception: ..." on the C++ stderr before raising;
    that line is suppressed here so command-line tools show one message only.
    """
    name = game_string.split("(")[0]
    if name != name.strip():  # pyspiel refuses it too, with a list of games cut off here
        raise GameStringError(f"cannot load {game_string!r}: spaces around the game's name")
    _check_parameter_lists(game_string)
    if name not in _REGISTRY and f"python_{name}" in _REGISTRY:  # `games show` takes these
        rest = game_string[len(name) :]
        rest = rest if rest.endswith(")") else "(players=3)"  # never a broken example
        raise GameStringError(
            f"unknown game {name!r}: a game string names python_{name}, e.g. 'python_{name}{rest}'"
        )
    try:
        get_spec(game_string)
    except KeyError as e:
        name = short_name_of(game_string)
        if not any_openspiel or name not in pyspiel.registered_names():
            message = e.args[0]
            if any_openspiel:
                message = f"unknown game {name!r}; meeple games: {', '.join(sorted(_REGISTRY))}"
            raise GameStringError(message) from None
    return _load(game_string)


@functools.lru_cache(maxsize=256)  # once per string, as _load (a refusal is not cached)
def _check_parameter_lists(game_string: str) -> None:
    """GameStringError for a parameter given twice in one parameter list (nested game
    strings have their own lists): OpenSpiel would keep the last value without a word;
    and for text after the closing parenthesis of the game's list, which OpenSpiel
    ignores (was: 'python_coloretto(players=3)players=4)' played 3 players, exit 0)."""
    seen: list[set[str]] = []  # the keys of each open parameter list
    start: int | None = None  # where the key being read began
    for i, ch in enumerate(game_string):
        if ch in "(,":
            if ch == "(":
                seen.append(set())
            start = i + 1
        elif ch == ")":
            seen = seen[:-1]
            start = None
            rest = game_string[i + 1 :]
            if not seen and rest:
                raise GameStringError(
                    f"cannot load {game_string!r}: {rest!r} after the closing ')' of the"
                    " game's parameters"
                )
        elif ch == "=" and seen and start is not None:
            key = game_string[start:i].strip()
            if key in seen[-1]:
                raise GameStringError(f"game parameter {key!r} given twice in {game_string!r}")
            seen[-1].add(key)
            start = None


@functools.lru_cache(maxsize=64)
def _load(game_string: str):
    fd = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            try:
                return pyspiel.load_game(game_string)
            except Exception as e:  # SpielError, ValueError from our configs, ...
                message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                raise GameStringError(f"cannot load {game_string!r}: {message}") from None
    finally:
        os.dup2(fd, 2)
        os.close(fd)
