"""Coloretto (Michael Schacht; Abacusspiele 2003, Rio Grande) as an OpenSpiel game.

Rules source: the publisher's English rulebook (classic edition) as summarised in
docs/sources/RULES-FACTS.md section 1, and the founding summary seed 004 (docs/sources/README.md).
The newer edition (2 jokers + golden joker, last-round card on 16 cards) is a
parameter.

Parameters: OpenSpiel game parameters (e.g. ``python_coloretto(players=3)``), listed
with their defaults and meanings in ``rules.PARAMS`` (the table at the end of this
docstring is generated from it).

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

Parameters:

"""

from __future__ import annotations

from spiel_games.coloretto import rules as R
from spiel_games.coloretto import scoring, text
from spiel_games.coloretto.actions import ActionLayout
from spiel_games.coloretto.observer import make_observer
from spiel_games.coloretto.phases import TABLE
from spiel_games.coloretto.state import Phase, initial_core
from spiel_games.common.engine import EngineGame, EngineState, Setup
from spiel_games.common.params import markdown_table

__doc__ = (__doc__ or "") + markdown_table(R.PARAMS)

SHORT_NAME = "python_coloretto"


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


class ColorettoState(EngineState):
    table = TABLE
    final_returns = staticmethod(scoring.final_returns)
    action_text = staticmethod(text.action_string)
    board_text = staticmethod(text.render)
    chance_text = staticmethod(text.chance_description)
    setup_text = staticmethod(text.setup_conventions)

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


class ColorettoGame(EngineGame):
    short_name = SHORT_NAME
    long_name = "Coloretto"
    perfect_information = True
    min_players, max_players = 2, 5
    parameters = R.DEFAULTS
    state_type = ColorettoState
    configure = staticmethod(R.make_config)
    observer = staticmethod(make_observer)

    def setup(self, cfg: R.Config) -> Setup:
        self.layout = ActionLayout(cfg.rows, cfg.colours)
        return Setup(
            core=initial_core(cfg, self.layout),
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=max(cfg.num_types, cfg.players),
            max_game_length=max_game_length(cfg),
        )
