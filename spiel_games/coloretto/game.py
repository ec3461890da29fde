"""Coloretto (Michael Schacht; Abacusspiele 2003, Rio Grande) as an OpenSpiel game.

Rules source: the publisher's English rulebook (classic edition) as summarised in
shared/rules/RULES-FACTS.md section 1, and the founding summary seeds/004.
The newer edition (2 jokers + golden joker, last-round card on 16 cards) is a
parameter.

Parameters (all OpenSpiel game parameters, e.g. ``python_coloretto(players=3)``):

| name             | default    | meaning                                                            |
|------------------|------------|--------------------------------------------------------------------|
| players          | 4          | 2-5 players (2 uses the official two-player rules)                  |
| colors           | 0          | colours in play; 0 = by the rules (5 at 2p, 6 at 3p, 7 at 4-5p)     |
| cards_per_color  | 9          | cards of each colour                                               |
| plus2            | 10         | "+2" cards                                                         |
| edition          | classic    | `classic` (3 jokers, depth 15) or `new` (2 jokers + golden, 16)    |
| jokers           | -1         | plain jokers; -1 = by edition                                      |
| last_round_depth | -1         | cards under the last-round card; -1 = by edition                   |
| rows             | 0          | rows; 0 = by the rules (one per player; 3 rows of 1/2/3 at 2p)     |
| row_capacity     | 0          | capacity of every row when `rows` or it is set; 0 = 3              |
| start_cards      | -1         | start cards per player, all of distinct colours; -1 = by the rules |
| scoring          | standard   | `standard` (1/3/6/10/15/21) or `alternative` (1/4/8/7/6/5)         |
| positive_colors  | 3          | colours scoring positive (the seed's variant uses 2)               |
| joker_timing     | end        | `end` (best assignment at scoring) or `immediate` (owner decides)  |
| utility          | rank       | `rank`, `score` or `win` (see spiel_games.common.utility)          |

Information: Coloretto has no private information. Every collection and row is
face up, and the deck order is unknown to *everyone*: each draw is an explicit
chance node over the remaining card types that all players see. The game is
therefore declared PERFECT_INFORMATION (with explicit chance), like backgammon,
which lets plain MCTS and minimax-style solvers apply. The resampler is the
identity (there is nothing to re-deal).

The last-round card sits at a known depth (the rulebook counts off 15 cards),
so it appears deterministically when the deck is down to that many cards: the
drawing player sets it aside and the chance node that follows is the next card.

Deviations and assumptions (each also in rules.toml with source = "assumed"):
- Tie-break: the rulebook has none; tied players share their rank (equal
  returns under `rank`, a split win under `win`).
- At two players all four start cards are of distinct colours.
- Which colours are removed at 2-3 players: the last ones of the colour list
  (colours are symmetric).
- Tiny configurations only: when the deck is empty and only empty rows remain,
  a player takes an empty row; a round ending with an empty deck ends the game.
"""

from __future__ import annotations

import enum

import pyspiel

from spiel_games.coloretto import rules as R
from spiel_games.coloretto.actions import DRAW, ActionLayout
from spiel_games.common import deck as D
from spiel_games.common.game_type import make_game_type
from spiel_games.common.utility import returns_from_keys, utility_bounds

SHORT_NAME = "python_coloretto"


class Phase(enum.IntEnum):
    DEAL = 0  # chance: start cards
    START_PLAYER = 1  # chance: the start player is chosen by lot
    PLAY = 2  # player: draw or take a row
    DRAW = 3  # chance: the drawn card
    PLACE = 4  # player: place the drawn card
    GOLDEN = 5  # chance: the golden joker's extra card
    ASSIGN = 6  # player: give a joker a colour (immediate variant)
    END = 7


_CHANCE_PHASES = frozenset(
    int(p) for p in (Phase.DEAL, Phase.START_PLAYER, Phase.DRAW, Phase.GOLDEN)
)
# Plain ints for the per-move hot path (enum attribute lookups are slower).
_DEAL, _START, _PLAY, _DRAW, _PLACE, _GOLDEN, _ASSIGN, _END = (int(p) for p in Phase)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _game_type(mode: str):
    return make_game_type(
        SHORT_NAME,
        "Coloretto",
        perfect_information=True,
        utility=mode,
        min_players=2,
        max_players=5,
        parameters=R.DEFAULTS,
    )


GAME_TYPE = _game_type("rank")


def _put(t: tuple, i: int, value) -> tuple:
    """`t` with item i replaced (the core's containers are immutable tuples)."""
    return t[:i] + (value,) + t[i + 1 :]


def _draw(deck: tuple, card: int) -> tuple:
    if deck[card] <= 0:
        raise ValueError(f"no card of type {card} left to draw")
    return _put(deck, card, deck[card] - 1)


class _Core:
    """Every mutable fact of a Coloretto state; cheap to copy.

    Every container is a tuple (coll[p], rows[r], deck), replaced rather than mutated,
    so a copy shares them and only copies the scalar fields.
    coll[p] = counts of colours 0..C-1, then +2, then unassigned jokers.
    """

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
    )

    def __deepcopy__(self, memo):
        c = _Core.__new__(_Core)
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
        return c


def _initial_core(cfg: R.Config, layout: ActionLayout) -> _Core:
    c = _Core.__new__(_Core)
    c.cfg = cfg
    c.layout = layout
    c.phase = _DEAL if cfg.start_cards > 0 else _START
    c.cur = 0
    c.mover = _CHANCE
    # The game's template core is shared by fresh states until their first move
    # (copy-on-write), so new_initial_state() -- which pyspiel also calls for
    # every clone -- costs no copy.
    c.owned = False
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
    c.returns = None
    return c


def max_game_length(cfg: R.Config) -> int:
    d = cfg.deck_size_after_setup()
    # Each drawn card: draw + chance + place. Each round draws at least one card,
    # so there are at most d + 1 rounds, each with one take per player.
    return (
        cfg.players * cfg.start_cards
        + 1
        + 3 * d
        + cfg.players * (d + 1)
        + cfg.jokers
        + cfg.golden
        + cfg.golden
    )


class ColorettoGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(params or {})
        self.config = R.make_config(params)
        cfg = self.config
        self.layout = ActionLayout(cfg.rows, cfg.colours)
        lo, hi, total = utility_bounds(cfg.utility, cfg.min_score(), cfg.max_score())
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=max(cfg.num_types, cfg.players),
            num_players=cfg.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total if cfg.utility != "score" else None,
            max_game_length=max_game_length(cfg),
        )
        super().__init__(_game_type(cfg.utility), info, {**R.DEFAULTS, **params})
        self._initial = _initial_core(cfg, self.layout)

    def new_initial_state(self):
        return ColorettoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        from spiel_games.coloretto.observer import make_observer

        return make_observer(self, iig_obs_type, params)


class ColorettoState(pyspiel.State):
    def __init__(self, game: ColorettoGame):
        super().__init__(game)
        self._s = game._initial  # copy-on-write: see _initial_core

    # ----- OpenSpiel API -------------------------------------------------------------
    def current_player(self):
        return self._s.mover

    def is_terminal(self):
        return self._s.phase == _END

    def chance_outcomes(self):
        s = self._s
        if s.phase == _DEAL:
            return D.uniform_outcomes([c for c in range(s.cfg.colours) if c not in s.dealt])
        if s.phase == _START:
            return D.uniform_outcomes(range(s.cfg.players))
        if s.phase in (_DRAW, _GOLDEN):
            return D.draw_outcomes(s.deck)
        raise ValueError("chance_outcomes called at a player node")

    def _legal_actions(self, player):
        s = self._s
        if player != s.mover or player < 0:
            return []
        lay = s.layout
        caps = s.cfg.capacities
        if s.phase == _PLACE:
            p0 = lay.place0
            taken = s.taken
            return [
                p0 + r
                for r, row in enumerate(s.rows)
                if not (taken >> r) & 1 and len(row) < caps[r]
            ]
        if s.phase == _PLAY:
            acts = []
            if s.deck_size > 0:
                for r, row in enumerate(s.rows):
                    if not (s.taken >> r) & 1 and len(row) < caps[r]:
                        acts.append(DRAW)
                        break
            for r, row in enumerate(s.rows):
                if row and not (s.taken >> r) & 1:
                    acts.append(lay.take0 + r)
            if not acts:  # tiny configs only: empty deck, only empty rows
                acts = [lay.take0 + r for r in range(len(s.rows)) if not (s.taken >> r) & 1]
            return acts
        if s.phase == _ASSIGN:
            return list(range(lay.assign0, lay.assign0 + s.cfg.colours))
        return []

    def _apply_action(self, action):
        s = self._s
        if not s.owned:
            self._s = s = s.__deepcopy__(None)
        self._apply(s, action)
        ph = s.phase
        s.mover = _CHANCE if ph in _CHANCE_PHASES else _TERMINAL if ph == _END else s.cur

    def _apply(self, s, action):
        ph = s.phase
        if ph == _DEAL:
            self._apply_deal(action)
        elif ph == _START:
            if not 0 <= action < s.cfg.players:
                raise ValueError(f"start player outcome {action} out of range")
            s.cur = action
            s.phase = _PLAY
        elif ph in (_DRAW, _GOLDEN):
            s.deck = _draw(s.deck, action)
            s.deck_size -= 1
            if ph == _DRAW:
                s.pending = action
                s.phase = _PLACE
            else:
                self._gain(s.cur, (action,))
                self._after_take()
        elif ph == _PLAY:
            if action == DRAW:
                if s.deck_size == 0:
                    raise ValueError("cannot draw: the deck is empty")
                if not self._open_row_with_space():
                    raise ValueError("cannot draw: every open row is full")
                if not s.last_round and s.deck_size == s.cfg.depth:
                    s.last_round = True  # the last-round card is revealed and set aside
                s.phase = _DRAW
            else:
                kind, r = s.layout.decode(action)
                if kind != "take" or (s.taken >> r) & 1:
                    raise ValueError(f"illegal action {action} in the play phase")
                if not s.rows[r] and (
                    s.deck_size > 0
                    or any(row for i, row in enumerate(s.rows) if not (s.taken >> i) & 1)
                ):
                    raise ValueError(f"cannot take row {r + 1}: it is empty")
                self._take(r)
        elif ph == _PLACE:
            kind, r = s.layout.decode(action)
            if kind != "place" or (s.taken >> r) & 1 or len(s.rows[r]) >= s.cfg.capacities[r]:
                raise ValueError(f"cannot place in row {r + 1}")
            s.rows = _put(s.rows, r, s.rows[r] + (s.pending,))
            s.pending = -1
            s.phase = _PLAY
            self._next_turn()
        elif ph == _ASSIGN:
            kind, c = s.layout.decode(action)
            if kind != "assign":
                raise ValueError(f"illegal action {action}: a joker colour is expected")
            col = list(s.coll[s.cur])
            col[c] += 1
            s.coll = _put(s.coll, s.cur, tuple(col))
            s.to_assign -= 1
            if s.to_assign == 0:
                s.phase = _PLAY
                self._end_take()
        else:
            raise ValueError("the game is over")

    # ----- rules ---------------------------------------------------------------------
    def _open_row_with_space(self) -> bool:
        s = self._s
        caps = s.cfg.capacities
        return any(not (s.taken >> r) & 1 and len(row) < caps[r] for r, row in enumerate(s.rows))

    def _apply_deal(self, colour: int) -> None:
        s = self._s
        cfg = s.cfg
        if colour in s.dealt or not 0 <= colour < cfg.colours:
            raise ValueError(f"start card colour {colour} is not available")
        p = len(s.dealt) // cfg.start_cards
        s.deck = _draw(s.deck, colour)
        s.deck_size -= 1
        s.dealt = s.dealt + (colour,)
        self._gain(p, (colour,))
        if len(s.dealt) == cfg.players * cfg.start_cards:
            s.phase = _START

    def _gain(self, player: int, cards) -> None:
        """Add cards to a collection; jokers wait for a colour in the immediate variant."""
        s = self._s
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
        s.coll = _put(s.coll, player, tuple(col))

    def _take(self, r: int) -> None:
        s = self._s
        row = s.rows[r]
        s.taken |= 1 << r
        s.done |= 1 << s.cur
        s.rows = _put(s.rows, r, ())
        self._gain(s.cur, row)
        if s.cfg.golden and s.cfg.golden_type in row and s.deck_size > 0:
            # Golden joker: reveal the top card of the supply into the collection.
            if not s.last_round and s.deck_size == s.cfg.depth:
                s.last_round = True
            s.phase = _GOLDEN
            return
        self._after_take()

    def _after_take(self) -> None:
        s = self._s
        if s.to_assign > 0:
            s.phase = _ASSIGN
            return
        s.phase = _PLAY
        self._end_take()

    def _end_take(self) -> None:
        s = self._s
        if s.done == (1 << s.cfg.players) - 1:
            self._end_round()
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        s = self._s
        n = s.cfg.players
        p = s.cur
        for _ in range(n):
            p = (p + 1) % n
            if not (s.done >> p) & 1:
                s.cur = p
                return
        raise AssertionError("no player left in the round")

    def _end_round(self) -> None:
        s = self._s
        if s.last_round or s.deck_size == 0:
            s.phase = _END
            s.returns = self._final_returns()
            return
        # Untaken rows (two-player game) are discarded; the last taker starts.
        s.rows = ((),) * s.cfg.rows
        s.taken = 0
        s.done = 0
        s.round += 1
        s.phase = _PLAY

    def scores(self) -> list[int]:
        """Each player's score if the game ended now (best joker use and colour choice)."""
        s = self._s
        cfg = s.cfg
        out = []
        for col in s.coll:
            score, _ = R.best_score(
                col[: cfg.colours],
                col[cfg.plus2_type],
                col[cfg.joker_type],
                cfg.table,
                cfg.positive,
            )
            out.append(score)
        return out

    def _final_returns(self) -> list[float]:
        return returns_from_keys(self._s.cfg.utility, self.scores())

    def returns(self):
        s = self._s
        if s.returns is None:
            return [0.0] * s.cfg.players
        return list(s.returns)

    def resample_from_infostate(self, player_id, probability_sampler=None):
        # Perfect information: nothing is hidden from any player.
        return self.clone()

    # ----- strings -------------------------------------------------------------------
    def _action_to_string(self, player, action):
        s = self._s
        cfg = s.cfg
        if player == pyspiel.PlayerId.CHANCE:
            if s.phase == _DEAL:
                return f"start: {R.COLOUR_NAMES[action]}"
            if s.phase == _START:
                return f"start player: P{action + 1}"
            return f"deck: {cfg.type_name(action)}"
        kind, arg = s.layout.decode(action)
        if kind == "draw":
            return "draw"
        if kind == "take":
            return f"take row {arg + 1}"
        if kind == "place":
            card = cfg.type_name(s.pending) + " " if s.pending >= 0 else ""
            return f"place {card}in row {arg + 1}"
        return f"joker as {R.COLOUR_NAMES[arg]}"

    def __str__(self):
        s = self._s
        cfg = s.cfg
        lines = [f"Round {s.round}{' (last round)' if s.last_round else ''}, deck {s.deck_size}"]
        for r, row in enumerate(s.rows):
            status = "taken" if (s.taken >> r) & 1 else f"{len(row)}/{cfg.capacities[r]}"
            cards = ", ".join(cfg.type_name(t) for t in row) or "-"
            lines.append(f"row {r + 1} [{status}]: {cards}")
        for p, col in enumerate(s.coll):
            parts = [f"{cfg.type_name(t)} {k}" for t, k in enumerate(col[: cfg.colours]) if k]
            if col[cfg.plus2_type]:
                parts.append(f"+2 x{col[cfg.plus2_type]}")
            if col[cfg.joker_type]:
                parts.append(f"joker x{col[cfg.joker_type]}")
            mark = " (done)" if (s.done >> p) & 1 else ""
            lines.append(f"P{p + 1}{mark}: {', '.join(parts) or '-'}")
        if s.phase == _PLACE:
            lines.append(f"P{s.cur + 1} places {cfg.type_name(s.pending)}")
        elif s.phase == _ASSIGN:
            lines.append(f"P{s.cur + 1} assigns {s.to_assign} joker(s)")
        elif s.phase == _END:
            lines.append("scores: " + " ".join(str(x) for x in self.scores()))
        elif s.phase == _PLAY:
            lines.append(f"P{s.cur + 1} to move")
        return "\n".join(lines)
