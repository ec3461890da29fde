"""The engine every meeple game runs on: one phase table, one base game, one base state.

The framework owns the bookkeeping (copy on write, refusing illegal moves, the cache, the
player to move, the returns at the end); a game fills hooks with fixed names (the
Tabletop Games Framework's forward model, OpenSpiel gin_rummy's legal/apply pair per
phase). For a phase ``Phase.DRAW`` the hooks are::

    outcomes_draw(core) -> [(outcome, probability), ...]   a chance phase: sorted, exact
    legal_draw(core) -> [action, ...]                       a player phase: sorted ids
    apply_draw(core, action) -> None                        every phase but the end

The lists ``outcomes_*`` and ``legal_*`` return are cached on the position and handed out as
they are (pyspiel copies them; a Python caller must not change them). A hook is given the
core only: the deciding player is read from it (``core.mover``, or
the game's own turn slot). ``phase_table`` (phase_table.py) collects the hooks from the
game's phase modules when the game is imported and checks that every phase has exactly
its hooks: a chance phase its outcomes and apply, a player phase its legal and apply, the
end none.

Each game keeps its own core, a ``__slots__`` object with a cheap ``__deepcopy__``, and
gives it these slots, which the engine reads and writes:

    phase    the Phase id (a plain int)
    mover    the player to decide, CHANCE or TERMINAL (set by the engine after each move)
    ply      the actions applied so far: the history index of the next one
    returns  the final returns (set by the engine, through the game's scoring, at the end)
    owned    False while the core is the game's initial one, shared by fresh states
    cache    what was computed for this exact position: None, the list of its legal ids
             or chance outcomes, or a dict holding them and the game's own pieces
             (``memo``/``cached``: observer outputs); shared by copies, dropped by every move

A game's ``game.py`` declares its ``EngineGame`` and ``EngineState`` subclasses; its
core's ``__deepcopy__`` (``install_copier``) copies the slots above and sets ``owned``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import ClassVar, NamedTuple, Protocol

import pyspiel

from spiel_games.common.chance import CHANCE_OUTCOME
from spiel_games.common.game_type import make_game_type
from spiel_games.common.phase_table import (
    CHANCE,
    TERMINAL,
    Core,
    PhaseTable,
    PhaseTableError,
    install_copier,
    phase_table,
)
from spiel_games.common.utility import utility_bounds

__all__ = [
    "CHANCE",
    "TERMINAL",
    "EngineConfig",
    "EngineGame",
    "EngineState",
    "PhaseTable",
    "PhaseTableError",
    "Setup",
    "cached",
    "install_copier",
    "memo",
    "phase_table",
]

_first = itemgetter(0)
OPTIONS = "options"  # the cache key of the engine's legal ids or chance outcomes


def memo(core: Core) -> dict:
    """The position's cache as a dict, for what a game keeps beside the engine's options
    (observer pieces): made on first use. While it holds nothing else, the cache is the
    options list itself (no dict per move)."""
    cache = core.cache
    if cache is None:
        cache = core.cache = {}
    elif cache.__class__ is list:
        cache = core.cache = {OPTIONS: cache}
    return cache


def cached(core: Core, key):
    """What the game cached for this position under ``key`` (see ``memo``), or None."""
    cache = core.cache
    return cache.get(key) if cache.__class__ is dict else None


class EngineConfig(Protocol):
    """What the engine reads from a game's configuration (rules.Config)."""

    @property
    def players(self) -> int: ...

    @property
    def utility(self) -> str: ...

    def min_score(self) -> float: ...

    def max_score(self) -> float: ...


class Setup(NamedTuple):
    """A configuration's initial core and the sizes GameInfo declares."""

    core: Core
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int


class EngineGame(pyspiel.Game):
    """A game built from its declarations. A subclass sets the class attributes below and
    ``setup(cfg)``; the engine builds the GameType and the GameInfo from them."""

    short_name: ClassVar[str]
    long_name: ClassVar[str]
    perfect_information: ClassVar[bool]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    parameters: ClassVar[dict[str, object]]  # every parameter with its default
    state_type: ClassVar[type[EngineState]]

    @staticmethod
    def configure(params: dict, /) -> EngineConfig:
        """The configuration of these parameters (rules.make_config)."""
        raise NotImplementedError

    @staticmethod
    def observer(game: EngineGame, iig_obs_type=None, params=None):
        """The game's observer (observer.make_observer)."""
        raise NotImplementedError

    @classmethod
    def game_type(cls, utility: str = "rank") -> pyspiel.GameType:
        return make_game_type(
            cls.short_name,
            cls.long_name,
            perfect_information=cls.perfect_information,
            utility=utility,
            min_players=cls.min_players,
            max_players=cls.max_players,
            parameters=cls.parameters,
        )

    def setup(self, cfg) -> Setup:
        raise NotImplementedError

    def __init__(self, params=None):
        params = dict(params or {})
        self.config = cfg = type(self).configure(params)
        setup = self.setup(cfg)
        lo, hi, total = utility_bounds(cfg.utility, cfg.min_score(), cfg.max_score())
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.num_distinct_actions,
            max_chance_outcomes=setup.max_chance_outcomes,
            num_players=cfg.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total if cfg.utility != "score" else None,
            max_game_length=setup.max_game_length,
        )
        super().__init__(self.game_type(cfg.utility), info, {**self.parameters, **params})
        core = setup.core
        core.owned = False  # shared by every fresh state until its first move
        core.ply = 0
        core.cache = None
        core.returns = None
        core.mover = self.state_type.table.mover_of(core)
        self.initial_core = core

    def new_initial_state(self):
        return self.state_type(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return type(self).observer(self, iig_obs_type, params)


class EngineState(pyspiel.State):
    """The pyspiel state of every meeple game: one attribute, the core ``_s``.

    pyspiel clones a Python state by building a new initial state and deep-copying its
    ``__dict__``, so ``__init__`` only points at the game's initial core (copied on the
    first move) and ``clone()`` is not overridden. A subclass declares ``table`` (its
    phase table), ``final_returns(core)`` (its scoring), ``action_text(core, player,
    action)`` and ``board_text(core)`` (its text), ``chance_text(core)`` (what a chance
    node decides, in a player's words; optional) and ``resampler`` where it hides
    information; the hot methods are then bound to its table (closures over the hook
    tuples: no attribute lookups per move).
    """

    table: ClassVar[PhaseTable]
    # resample(state, player, sampler, tries) -> a world; None: perfect information
    resampler: ClassVar[Callable | None] = None

    @staticmethod
    def final_returns(core: Core, /) -> Sequence[float]:
        """The returns at the end of the game (scoring.final_returns)."""
        raise NotImplementedError

    @staticmethod
    def action_text(core: Core, player: int, action: int, /) -> str:
        """A move or chance outcome as text (text.action_string)."""
        raise NotImplementedError

    @staticmethod
    def board_text(core: Core, /) -> str:
        """The position as text, ``str(state)`` (text.render)."""
        raise NotImplementedError

    @staticmethod
    def chance_text(core: Core, /) -> str:
        """What the chance node at ``core`` decides, in a few words a player at the table
        understands ("P2's start card"; text.chance_description). Optional: a game without
        it says only "chance outcome". Built from public facts only."""
        return CHANCE_OUTCOME

    @staticmethod
    def setup_text(core: Core, /) -> str:
        """The set-up conventions a player at a real table needs to enter the game as the
        engine numbers it (seat order, numbering of spaces, components left out), in one
        short line (text.setup_conventions); "" where the game says nothing."""
        return ""

    @staticmethod
    def option_text(core: Core, player: int, action: int, /) -> str:
        """What tells an option apart beyond its name, from the game's data (a card's
        cost, effect or points), for the menus a player reads (text.option_details);
        "" where the name says it all. Optional; public facts only."""
        return ""

    @staticmethod
    def round_text(before: Core, action: int, after: Core, /) -> str:
        """What the move ``action`` from ``before`` to ``after`` ended, when it ended a
        round whose end does what no move shows (a round's scoring), as lines for the log;
        "" otherwise. Optional; public facts only."""
        return ""

    def round_summary(self, before: EngineState, action: int) -> str:
        """What the move ``action`` from ``before`` (which led here) ended (``round_text``)."""
        return type(self).round_text(before._s, action, self._s)

    def option_details(self, player: int, action: int) -> str:
        """The details of option ``action`` of ``player`` here (``option_text``)."""
        return type(self).option_text(self._s, player, action)

    def setup_conventions(self) -> str:
        """The game's set-up conventions for a player at the table (``setup_text``)."""
        return type(self).setup_text(self._s)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "table" in cls.__dict__:
            _bind(cls)

    def __init__(self, game: EngineGame):
        super().__init__(game)
        self._s = game.initial_core

    def current_player(self):
        return self._s.mover

    def is_terminal(self):
        return self._s.mover == TERMINAL

    def returns(self):
        r = self._s.returns
        return [0.0] * self.num_players() if r is None else list(r)

    def own_core(self) -> Core:
        """The position, private to this state and with nothing cached: for edits made
        outside the moves (scenario set-ups, resamplers, perturbations)."""
        c = self._s
        if not c.owned:
            c = self._s = c.__deepcopy__(None)
        c.cache = None
        return c

    def resample_from_infostate(self, player_id, probability_sampler=None, tries=None):
        """A world consistent with what ``player_id`` knows (OpenSpiel's IS-MCTS contract:
        any player, any node). ``tries``: how many fresh re-deals a game that can fail to
        find one attempts before its fallback (None: the game's own number; 0 forces the
        fallback)."""
        if self.resampler is None:
            return self.clone()  # perfect information: nothing to re-deal
        return type(self).resampler(self, player_id, probability_sampler, tries)

    def _action_to_string(self, player, action):
        return type(self).action_text(self._s, player, action)

    def __str__(self):
        return type(self).board_text(self._s)

    def chance_description(self) -> str:
        """What this chance node decides, in a player's words (``chance_text``)."""
        c = self._s
        if c.mover != CHANCE:
            raise ValueError("chance_description called at a player node or the end")
        return type(self).chance_text(c)

    def _illegal(self, action: int, options) -> ValueError:
        """The one refusal of a move that is not legal (or a chance outcome that is not
        possible) here; the position is left as it was."""
        c = self._s
        phase = self.table.phases(c.phase).name
        try:
            name = f" ({type(self).action_text(c, c.mover, action)!r})"
        except Exception:  # an id outside every layout has no name
            name = ""
        if c.mover == CHANCE:
            what = f"impossible chance outcome {action}{name}"
        else:
            what = f"illegal action {action}{name} for P{c.mover + 1}"
        return ValueError(f"{what} in phase {phase}; possible: {sorted(options)[:30]}")


def _bind(cls: type[EngineState]) -> None:
    """Bind the per-move methods of ``cls`` to its phase table and scoring."""
    table = cls.table
    outcomes, legal, apply, movers = table.outcomes, table.legal, table.apply, table.mover
    actor = table.actor
    final_returns = cls.final_returns

    def chance_outcomes(self):
        # A copy: callers own the list they get (OpenSpiel's MCTSBot shuffles it in place,
        # which broke the cached list's sorted order the apply relies on).
        c = self._s
        if c.mover != CHANCE:
            return outcomes[c.phase](c)  # raises: not a chance node
        cache = c.cache
        if cache is None:
            outs = c.cache = outcomes[c.phase](c)
            return list(outs)
        if cache.__class__ is list:
            return list(cache)
        outs = cache.get(OPTIONS)
        if outs is None:
            outs = cache[OPTIONS] = outcomes[c.phase](c)
        return list(outs)

    def _legal_actions(self, player):
        c = self._s
        if player != c.mover or player < 0:
            return []
        cache = c.cache
        if cache is None:
            ids = c.cache = legal[c.phase](c)
            return ids
        if cache.__class__ is list:
            return cache
        ids = cache.get(OPTIONS)
        if ids is None:
            ids = cache[OPTIONS] = legal[c.phase](c)
        return ids

    def _apply_action(self, action):
        c = self._s
        if not c.owned:
            c = self._s = c.__deepcopy__(None)
        ph = c.phase
        cache = c.cache
        if cache is None:
            opts = None
        elif cache.__class__ is list:
            opts = cache
        else:
            opts = cache.get(OPTIONS)
        if c.mover >= 0:
            if opts is None:
                opts = legal[ph](c)
            if action not in opts:
                raise self._illegal(action, opts)
        else:
            if opts is None:
                opts = outcomes[ph](c)  # at the end: raises "the game is over"
            i = bisect_left(opts, action, key=_first)  # outcomes are sorted by id
            if i == len(opts) or opts[i][0] != action:
                raise self._illegal(action, [o for o, _ in opts])
        apply[ph](c, action)
        c.ply += 1
        c.cache = None
        m = movers[c.phase]
        if m is None:
            c.mover = actor(c)
        else:
            c.mover = m
            if m == TERMINAL:
                c.returns = tuple(final_returns(c))

    cls.chance_outcomes = chance_outcomes
    cls._legal_actions = _legal_actions
    cls._apply_action = _apply_action
