"""The agent interface every solver and baseline implements, and the description of an
agent kind (its typed parameters and factory) that ``solvers.registry`` lists.

A :class:`Param` declares everything about one parameter: type, default, meaning, the values
it accepts (``choices``, or a ``range`` with ``special`` values), how ``auto`` is chosen for
a game (:class:`Auto`), and whether and where a tuner may vary it. Validation
(:meth:`AgentKind.check`), the help text (:attr:`Param.help`), ``auto`` resolution
(:func:`resolve_auto`) and the tuning domain (:meth:`AgentKind.tunable`) all read that one
declaration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from solvers.spec import AgentSpecError

# z of a two-sided 95% normal interval (NormalDist().inv_cdf(0.975)): a MoveStat's
# interval is its value +- Z95 standard errors, and advice reads the errors back with it.
Z95 = 1.959963984540054

# Upper bounds of the budget parameters (sims, iterations, worlds, rollouts; time): generous,
# hours to days of search per move, but finite, so a typo is refused instead of a search that
# never ends. Every float parameter must also be finite (inf and nan are refused).
MAX_COUNT = 10**9
MAX_SECONDS = 86_400.0  # a day per move


@dataclass
class MoveStat:
    """One candidate move in an analysis (used by move advice)."""

    action: int
    action_str: str
    visits: float  # simulations or iterations that back the value
    value: float  # mean value for the player to move
    ci_low: float | None = None
    ci_high: float | None = None
    prob: float | None = None  # policy probability (CFR policies)
    # the comparison phase (search agents asked with a Compare): paired samples, and the
    # move's value in points and in chance to finish first, each with its interval
    samples: int = 0
    margin: tuple[float, float, float] | None = None  # (mean, low, high), points
    first: tuple[float, float, float] | None = None  # (mean, low, high), probability
    gap: tuple[float, float, float] | None = None  # paired value difference to the best
    # paired differences to the compared move best in points, and to the one best in chance
    # to finish first (each >= 0; the best by value can be behind in them)
    margin_gap: tuple[float, float, float] | None = None
    first_gap: tuple[float, float, float] | None = None
    prior: float | None = None  # the search's prior for the move (1: the heuristic's move)
    pv: list[str] = field(default_factory=list)  # the expected continuation


@dataclass(frozen=True)
class Compare:
    """What advice asks of a search's analysis: list the ``listed`` most searched moves and
    the moves in ``include``, and compare them on ``passes`` paired passes (None: chosen
    from the budget), stopping at ``deadline`` (a ``time.perf_counter()`` time; None: no
    deadline) once each move has two samples."""

    listed: int = 5
    include: tuple[int, ...] = ()
    passes: int | None = None
    deadline: float | None = None


@dataclass(frozen=True)
class ChoiceTie:
    """The agent's pick was not strictly most visited when its selection ended: ``moves``
    had as many visits (``visits`` each) and ``by`` broke the tie ("value": the pick's
    higher mean then; "id": the same mean too, the lower action id). ``moves``: action ids
    in an ``Analysis``, their names in an advice answer (``tournament.advice.moves``)."""

    moves: tuple[int | str, ...]
    visits: int
    by: str


@dataclass
class Analysis:
    player: int
    moves: list[MoveStat]  # best first
    budget: dict = field(default_factory=dict)  # e.g. {"sims": 800} or {"seconds": 0.5}
    choice: int | None = None  # the move the agent plays (its own rule), when it differs
    passes: int = 0  # paired passes of the comparison phase (0: no comparison)
    # what the fields mean for this agent, over advice's defaults (tournament.advice UNITS);
    # a key set to None does not apply (its fields are null): e.g. "ci" for an agent with
    # no intervals. Keys: value, visits, prob, order, ci, gap, margin, first
    units: dict[str, str | None] = field(default_factory=dict)
    choice_tie: ChoiceTie | None = None  # the moves ``choice`` was tied with on visits


class Agent:
    """A player. ``step`` returns the action for ``state.current_player()``.

    Agents are deterministic given the seed they were built with; they own their
    RNG stream (never the match's chance stream). ``reset`` is called before each
    new game. Agents must only use what the player to move may know: search agents
    go through the game's information state / resampler.
    """

    spec: str = ""

    def step(self, state) -> int:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget per-game memory (trees, caches) before a new game."""

    def reseed(self, seed: int) -> None:
        """Restart the agent's random streams from ``seed`` (``meeple play`` does before
        every AI decision, from the seat and the ply, so that a game resumed after ``undo``
        or ``--load`` plays on exactly as an unbroken one would). Here: the stream named
        ``rng`` (a ``random.Random`` or a numpy Generator, reseeded in place: a search's
        parts share it), and a ``fallback`` agent's from ``seed + 1``; an agent whose
        streams live elsewhere overrides it."""
        import numpy as np  # (only here: the module stays light for the command line)

        rng = getattr(self, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(seed)
        elif isinstance(rng, np.random.Generator):
            rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        fallback = getattr(self, "fallback", None)
        if isinstance(fallback, Agent):
            fallback.reseed(seed + 1)

    # whether ``analyse`` takes ``compare=`` (the search agents' comparison phase)
    compares: bool = False

    def analyse(self, state) -> Analysis | None:
        """Per-move statistics for advice, for agents that search; None otherwise."""
        return None

    def halt(self) -> bool:
        """Ask the search running now (from another thread: the advice engine's
        ``terminate``) to stop soon and answer from what it has searched. True when this
        agent stops so; False when it cannot (an agent that does not search answers at
        once anyway)."""
        return False

    def coverage(self) -> float | None:
        """For agents that play from a table (blueprint, policy file): the share of this
        game's decisions played from it (the rest went to a fallback); None otherwise.
        Recorded per seat in the ledger."""
        return None


@dataclass(frozen=True)
class Auto:
    """The value of a parameter that means "chosen for the game", and how it is chosen.

    ``rule(values)`` returns the choice; ``values[name]`` is any parameter of the agent with
    its own ``auto`` already resolved (rules may read each other, never in a cycle), and
    ``values.game`` the game. ``says`` is the rule in words, for the help text."""

    value: object
    says: str
    rule: Callable[[Any], object]


def _num(x: object) -> str:
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    return f"{x:g}" if isinstance(x, float) else repr(x)


def _either(options: list[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


@dataclass(frozen=True)
class Param:
    """One parameter of an agent kind.

    ``choices``: the values a string parameter takes. ``range``: inclusive bounds of a number
    (``None`` for no bound). ``special``: numbers with a meaning of their own, either outside
    the range (``(-1, "to the end")``, accepted too) or a label of one inside it
    (``(0, "off")``). ``auto``: the value chosen per game (accepted too). A tuner varies the
    ``tunable`` parameters over their choices, or over ``tune`` (else the range) on a log
    scale when ``log``. ``required``: the default (empty) is no value to play with, the spec
    must give one (``policy(path=FILE)``); listed as required by `meeple agents`.
    ``agent``: the value is itself an agent spec (a fallback), resolved while parsing."""

    name: str
    type: type
    default: object
    meaning: str
    choices: tuple[object, ...] = ()
    range: tuple[float | None, float | None] | None = None
    special: tuple[tuple[float, str], ...] = ()
    auto: Auto | None = None
    tunable: bool = False
    tune: tuple[float, float] | None = None
    log: bool = False
    required: bool = False
    agent: bool = False

    def _in_range(self, value) -> bool:
        lo, hi = self.range or (None, None)
        return (lo is None or value >= lo) and (hi is None or value <= hi)

    def allowed(self) -> str:
        """The accepted values in words: "auto, random or heuristic", ">= 0 (0 = off) or -1
        (auto)", "in [0, 1]"; empty when any value of the type is accepted."""
        if self.choices:
            return _either(self._auto_words(bare=True) + [str(c) for c in self.choices])
        if self.range is None:
            return ""
        lo, hi = self.range
        if lo is not None and hi is not None:
            text = f"in [{_num(lo)}, {_num(hi)}]"
        else:
            text = f">= {_num(lo)}" if lo is not None else f"<= {_num(hi)}"
        labels = [f"{_num(v)} = {says}" for v, says in self.special if self._in_range(v)]
        if labels:
            text += f" ({'; '.join(labels)})"
        outside = [f"{_num(v)} ({says})" for v, says in self.special if not self._in_range(v)]
        return _either([text, *outside, *self._auto_words(bare=False)])

    def _auto_words(self, bare: bool) -> list[str]:
        if self.auto is None:
            return []
        return [str(self.auto.value) if bare else f"{_num(self.auto.value)} (auto)"]

    def problem(self, value) -> str:
        """Why ``value`` is refused, or "" when it is accepted."""
        if self.auto is not None and value == self.auto.value:
            return ""
        if self.type is float and isinstance(value, float) and not math.isfinite(value):
            allowed = self.allowed()
            return f"must be a finite number{f' ({allowed})' if allowed else ''}, got {value!r}"
        if self.choices:
            ok = value in self.choices
        elif self.range is not None:
            ok = self._in_range(value) or any(value == v for v, _ in self.special)
        else:
            ok = True
        return "" if ok else f"must be {self.allowed()}, got {value!r}"

    @property
    def help(self) -> str:
        """The meaning, then the accepted values and what ``auto`` picks."""
        text = self.meaning
        allowed = self.allowed()
        if allowed:
            text += f"; {'one of ' if self.choices else ''}{allowed}"
        if self.auto is not None:
            text += f"; auto = {self.auto.says}"
        return text

    def domain(self) -> tuple[object, ...]:
        """What a tuner varies: the choices, or the (low, high) bounds of the number."""
        if self.choices:
            return self.choices
        bounds = self.tune or self.range
        if bounds is None or bounds[0] is None or bounds[1] is None:
            raise ValueError(f"parameter {self.name!r} declares no bounds to tune within")
        return bounds


class AutoValues:
    """Parameter values with every ``auto`` replaced by its rule's choice for ``game``,
    resolved on first use (``values[name]``); subclasses add what the rules need to know."""

    def __init__(self, params: Iterable[Param], values: Mapping[str, object], game=None):
        self.game = game
        self._decl = {p.name: p for p in params}
        self._given = values
        self._done: dict[str, object] = {}
        self._busy: set[str] = set()

    def __getitem__(self, name: str) -> object:
        if name in self._done:
            return self._done[name]
        value = self._given[name]
        p = self._decl.get(name)
        if p is not None and p.auto is not None and value == p.auto.value:
            if name in self._busy:
                raise RuntimeError(f"the auto rules of {sorted(self._busy)} read each other")
            self._busy.add(name)
            value = p.auto.rule(self)
            self._busy.discard(name)
        self._done[name] = value
        return value

    def resolved(self) -> dict[str, object]:
        return {name: self[name] for name in self._given}


@dataclass(frozen=True)
class AgentKind:
    name: str
    summary: str
    params: tuple[Param, ...]
    # factory(game, params: dict with every param filled, seed: int) -> Agent
    factory: Callable[..., Agent]

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def check(self, values: Mapping[str, object]) -> None:
        """Refuse a value outside its parameter's choices or range, and a required
        parameter left empty (one-line error)."""
        for p in self.params:
            if p.required and values.get(p.name) in ("", None):
                raise AgentSpecError(f"agent {self.name!r} needs {p.name}=...: {p.meaning}")
            if p.name in values:
                problem = p.problem(values[p.name])
                if problem:
                    raise AgentSpecError(f"parameter {p.name!r} of agent {self.name!r} {problem}")

    def tunable(self) -> tuple[Param, ...]:
        """The parameters a tuner varies (each with its :meth:`Param.domain`)."""
        return tuple(p for p in self.params if p.tunable)
