"""The mutable facts of a Coloretto position, in one cheap-to-copy object.

``Core`` holds every fact in ``__slots__``. Every container is an immutable tuple
(``coll[p]``, ``rows[r]``, ``deck``), replaced rather than mutated, so a copy shares
them and only copies the scalar fields. ``coll[p]`` counts colours 0..C-1, then +2
cards, then unassigned jokers. The primitive edits at the bottom are the only
writes the rule modules make to containers. The engine's slots (``phase``, ``mover``,
``ply``, ``returns``, ``owned``, ``cache``) are described in spiel_games.common.engine.
"""

from __future__ import annotations

import enum

from spiel_games.coloretto import rules as R
from spiel_games.coloretto.actions import ActionLayout


class Phase(enum.IntEnum):
    DEAL = 0  # chance: start cards
    START_PLAYER = 1  # chance: the start player is chosen by lot
    PLAY = 2  # player: draw or take a row
    DRAW = 3  # chance: the drawn card
    PLACE = 4  # player: place the drawn card
    GOLDEN = 5  # chance: the golden joker's extra card
    ASSIGN = 6  # player: give a joker a colour (immediate variant)
    END = 7


CHANCE_PHASES = frozenset(
    int(p) for p in (Phase.DEAL, Phase.START_PLAYER, Phase.DRAW, Phase.GOLDEN)
)
# Plain ints for the per-move hot path (enum attribute lookups are slower).
DEAL, START, PLAY, DRAW, PLACE, GOLDEN, ASSIGN, END = (int(p) for p in Phase)


class Core:
    """Every mutable fact of a Coloretto state; cheap to copy."""

    __slots__ = (
        "cfg",
        "layout",
        "phase",
        "cur",
        "mover",
        "coll",
        "rows",
        "taken",
        "done",
        "deck",
        "deck_size",
        "last_round",
        "pending",
        "dealt",
        "round",
        "to_assign",
        "returns",
        "owned",
        "ply",
        "cache",
    )
    # Slot types (annotations only: no class attributes, so __slots__ stays as is).
    cfg: R.Config
    layout: ActionLayout
    phase: int  # a Phase, kept as a plain int
    cur: int  # the player whose turn it is
    mover: int  # current player id, CHANCE or TERMINAL
    coll: tuple[tuple[int, ...], ...]  # per player: colours, +2 cards, unassigned jokers
    rows: tuple[tuple[int, ...], ...]  # card types in each row
    taken: int  # bit r: row r was taken this round
    done: int  # bit p: player p has taken a row this round
    deck: tuple[int, ...]  # cards left per type
    deck_size: int
    last_round: bool
    pending: int  # the drawn card waiting to be placed, -1 none
    dealt: tuple[int, ...]  # start-card colours dealt so far, in deal order
    round: int
    to_assign: int  # jokers waiting for a colour (immediate variant)
    returns: tuple[float, ...] | None  # set by the engine once the game is over
    owned: bool  # False while shared with the game's template (copy-on-write)
    ply: int  # actions applied so far
    cache: dict | list | None  # computed for this exact position (see spiel_games.common.engine)

    def __deepcopy__(self, memo: dict[int, object]) -> Core:
        c = Core.__new__(Core)
        c.owned = True
        c.mover = self.mover
        c.cfg = self.cfg
        c.layout = self.layout
        c.phase = self.phase
        c.cur = self.cur
        c.coll = self.coll
        c.rows = self.rows
        c.taken = self.taken
        c.done = self.done
        c.deck = self.deck
        c.deck_size = self.deck_size
        c.last_round = self.last_round
        c.pending = self.pending
        c.dealt = self.dealt
        c.round = self.round
        c.to_assign = self.to_assign
        c.returns = self.returns
        c.ply = self.ply
        c.cache = self.cache
        return c


def initial_core(cfg: R.Config, layout: ActionLayout) -> Core:
    c = Core.__new__(Core)
    c.cfg = cfg
    c.layout = layout
    c.phase = DEAL if cfg.start_cards > 0 else START
    c.cur = 0
    c.coll = ((0,) * (cfg.colours + 2),) * cfg.players
    c.rows = ((),) * cfg.rows
    c.taken = 0
    c.done = 0
    c.deck = tuple(cfg.initial_deck())
    c.deck_size = sum(c.deck)
    c.last_round = False
    c.pending = -1
    c.dealt = ()  # start-card colours dealt so far, in deal order
    c.round = 1
    c.to_assign = 0
    return c


# ----- primitive edits ---------------------------------------------------------------------
def put(t: tuple, i: int, value) -> tuple:
    """`t` with item i replaced (the core's containers are immutable tuples)."""
    return t[:i] + (value,) + t[i + 1 :]


def draw(deck: tuple, card: int) -> tuple:
    if deck[card] <= 0:
        raise ValueError(f"no card of type {card} left to draw")
    return put(deck, card, deck[card] - 1)


def gain(s: Core, player: int, cards) -> None:
    """Add cards to a collection; jokers wait for a colour in the immediate variant."""
    cfg = s.cfg
    col = list(s.coll[player])
    for t in cards:
        if t >= cfg.joker_type:  # plain or golden joker
            if cfg.immediate_jokers:
                s.to_assign += 1
            else:
                col[cfg.joker_type] += 1
        else:
            col[t] += 1
    s.coll = put(s.coll, player, tuple(col))


def open_row_with_space(s: Core) -> bool:
    caps = s.cfg.capacities
    return any(not (s.taken >> r) & 1 and len(row) < caps[r] for r, row in enumerate(s.rows))
