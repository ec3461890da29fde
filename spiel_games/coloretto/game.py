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

import pyspiel

from spiel_games.coloretto import rules as R
from spiel_games.coloretto import scoring, text
from spiel_games.coloretto.actions import ActionLayout
from spiel_games.coloretto.observer import make_observer
from spiel_games.coloretto.phases import APPLY, LEGAL, OUTCOMES
from spiel_games.coloretto.state import CHANCE, CHANCE_PHASES, END, TERMINAL, Phase, initial_core
from spiel_games.common.game_type import make_game_type
from spiel_games.common.utility import utility_bounds

SHORT_NAME = "python_coloretto"


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
        self._initial = initial_core(cfg, self.layout)

    def new_initial_state(self):
        return ColorettoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return make_observer(self, iig_obs_type, params)


class ColorettoState(pyspiel.State):
    def __init__(self, game: ColorettoGame):
        super().__init__(game)
        self._s = game._initial  # copy-on-write: see state.initial_core

    # ----- OpenSpiel API -------------------------------------------------------------
    def current_player(self):
        return self._s.mover

    def is_terminal(self):
        return self._s.phase == END

    def chance_outcomes(self):
        s = self._s
        return OUTCOMES[s.phase](s)

    def _legal_actions(self, player):
        s = self._s
        if player != s.mover or player < 0:
            return []
        return LEGAL[s.phase](s)

    def _apply_action(self, action):
        s = self._s
        if not s.owned:
            self._s = s = s.__deepcopy__(None)
        APPLY[s.phase](s, action)
        ph = s.phase
        s.mover = CHANCE if ph in CHANCE_PHASES else TERMINAL if ph == END else s.cur

    def returns(self):
        s = self._s
        if s.returns is None:
            return [0.0] * s.cfg.players
        return list(s.returns)

    def resample_from_infostate(self, player_id, probability_sampler=None):
        # Perfect information: nothing is hidden from any player.
        return self.clone()

    # ----- inspection ----------------------------------------------------------------
    def scores(self) -> list[int]:
        """Each player's score if the game ended now (best joker use and colour choice)."""
        return scoring.scores(self._s)

    def score_breakdown(self) -> list[dict[str, object]]:
        """Per player: final colour counts (jokers assigned), positive and negative
        colour points, +2 points and the total, as if the game ended now."""
        return scoring.breakdown(self._s)

    def holdings(self, player: int) -> dict:
        """A player's collection: counts per colour id, +2 cards, unassigned jokers
        (plain and golden), jokers waiting for a colour (immediate variant), and
        whether he has taken a row this round."""
        s = self._s
        cfg = s.cfg
        col = s.coll[player]
        return {
            "colours": col[: cfg.colours],
            "plus2": col[cfg.plus2_type],
            "jokers": col[cfg.joker_type],
            "to_assign": s.to_assign if player == s.cur else 0,
            "done": bool((s.done >> player) & 1),
        }

    def board(self) -> dict:
        """The shared facts: phase, round, whether the last round has begun, the player
        on turn, rows (card type ids) and which are taken, the deck's count vector
        (card types: colours, +2, joker, golden joker) and size, the drawn card
        waiting to be placed (-1 if none) and the start cards dealt so far."""
        s = self._s
        return {
            "phase": Phase(s.phase).name.lower(),
            "round": s.round,
            "last_round": s.last_round,
            "current": s.cur,
            "rows": s.rows,
            "taken": tuple(bool((s.taken >> r) & 1) for r in range(len(s.rows))),
            "deck": s.deck,
            "deck_size": s.deck_size,
            "pending": s.pending,
            "dealt": s.dealt,
        }

    # ----- strings -------------------------------------------------------------------
    def _action_to_string(self, player, action):
        if player == CHANCE:
            return text.chance_string(self._s, action)
        return text.action_string(self._s, action)

    def __str__(self):
        s = self._s
        return text.render(s, scoring.scores(s) if s.phase == END else [])
