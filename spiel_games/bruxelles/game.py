"""Bruxelles 1893 (Etienne Espreman; Pearl Games / Z-Man 2013) as an OpenSpiel game.

Rules source: the publisher's English rulebook (translation N. Morse, (c) 2013-2016,
basic strip faces), as transcribed in borisyankov/rulespal
``data/rulebooks/bruxelles-1893-rulebook.md``; then docs/sources/RULES-FACTS.md
section 3 and the founding seed 001 (docs/sources/README.md). Unpublished numbers live in
``rules.toml`` with ``source = "assumed"`` and a reason.

Parameters: OpenSpiel game parameters (e.g. ``python_bruxelles(players=3)``), listed
with their defaults and meanings in ``rules.PARAMS`` (the table at the end of this
docstring is generated from it).

Information: the only secret is what a Workshop draw showed the drawer (the
works he put back). Kept works are face up (rulebook: "places it face-up"), as
is everything else; the decks are unknown to everyone and are explicit chance
nodes over count vectors. The information state is the public position, the
public move log (hidden draws shown as ``?``) and the player's own memory of
the works he drew and put back.

Deviations and assumptions (numbers in rules.toml, source = "assumed"):
- Unpublished data designed here: stock exchange cards (values and shields),
  the 25 bonus cards, figure copies and keep costs, City Hall / Royal Palace /
  Architect track values, sale grid money and VP, cursor dot positions, the
  action order on each strip, the needles' start spaces, 6 works per colour.
- Issue 4 asks for the kept workshop work to stay private until sold; the
  rulebook (higher authority) places it face up, so by default only the put-back
  draws are private. ``private_works=true`` plays the issue's reading: the kept
  work (and the colour make-up of the stack) is hidden until sold; passing still
  pays by colours owned, as the rulebook says, so income hints at hidden colours
  (the resampler ignores that hint).
- Figure payment at the end is automatic: all if affordable, else the maximal
  affordable set that scores best (the rulebook lets the player choose).
- Tie-break: money left after paying figures; then tied players share.
- Move order inside compound actions: a sale chooses the work before moving the
  cursor (same outcomes as the rulebook's order); two cubes of one action are
  taken in non-decreasing kind order and payment units in non-decreasing order
  (pure symmetry reduction).
- Brussels actions are only offered when they can do something (Park: some Art
  Nouveau action is possible; Grand Place: an upright figure); an Art Nouveau
  action that cannot be carried out is skipped without asking.
- Tiny configurations only: a board smaller than 5x5 makes the whole board
  available (no shield choice), ``brussels=false`` removes the Brussels board,
  ``setup=fixed`` replaces the setup shuffles by a fixed order.

Parameters:

"""

from __future__ import annotations

import dataclasses

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles import scoring, text
from spiel_games.bruxelles.observer import make_observer
from spiel_games.bruxelles.phases import TABLE
from spiel_games.bruxelles.resample import resample_from_infostate
from spiel_games.bruxelles.rounds import start
from spiel_games.bruxelles.state import Phase, initial_core, log_tokens
from spiel_games.bruxelles.text import round_end
from spiel_games.bruxelles.view import render_view
from spiel_games.common.engine import EngineGame, EngineState, Setup
from spiel_games.common.params import markdown_table
from spiel_games.common.utility import ConfigError

__doc__ = (__doc__ or "") + markdown_table(R.PARAMS)

SHORT_NAME = "python_bruxelles"

# Decision steps one turn can take at most: a Grand Place with 5 activations, each
# a Solvay swap with two cubes (1 + 5 * 4 + 1), or a placement with bid, action
# (up to 8 steps) and the owner's secondary action (up to 4).
TURN_STEPS = 25


def max_game_length(cfg: R.Config) -> int:
    n, b = cfg.players, cfg.board
    setup = b + len(R.COMPASS) + n + len(R.THEATER_COSTS) + b
    per_round = (
        3
        + b
        + 2  # stock card, shield, bonus deal, theater refill, neutral assistants
        + n * (cfg.total_assistants + 1) * TURN_STEPS
        + b * n  # bonus card decisions (a tied card reaches every tied player)
    )
    return setup + cfg.rounds * per_round


class BruxellesState(EngineState):
    table = TABLE
    final_returns = staticmethod(scoring.final_returns)
    action_text = staticmethod(text.action_string)
    board_text = staticmethod(text.render)
    chance_text = staticmethod(text.chance_description)
    option_text = staticmethod(text.option_details)
    setup_text = staticmethod(text.setup_conventions)
    round_text = staticmethod(round_end.round_text)
    resampler = staticmethod(resample_from_infostate)

    # ----- inspection ----------------------------------------------------------------------
    def score_details(self) -> list[scoring.FinalScore]:
        """Each player's final score broken down, as if the game ended now."""
        return scoring.score_details(self._s)

    def score_breakdown(self) -> list[dict[str, int]]:
        """``score_details()`` as plain dicts (total, track, buildings, rows, nobles,
        manneken, unpaid, money_left)."""
        return [dataclasses.asdict(d) for d in scoring.score_details(self._s)]

    def scores(self) -> list[int]:
        return scoring.scores(self._s)

    def holdings(self, player: int) -> dict:
        """A player's holdings (omniscient: includes hidden works and put-back draws).

        Works and cubes are count vectors (works by colour id: blue, pink, yellow,
        green, black; cubes: wood, stone, iron, joker); ``kept`` and ``rotated`` are
        bitmasks over figure ids; track levels are 0-based indices into the tracks.
        """
        s = self._s
        p = player
        return {
            "money": s.money[p],
            "vp": s.vp[p],
            "works": s.works[p],
            "public_works": s.pub_works[p],
            "cubes": s.cubes[p],
            "supply": s.supply[p],
            "courthouse": s.court[p],
            "on_board": s.onboard[p],
            "on_brussels": s.onbrussels[p],
            "built": s.built[p],
            "exhibitions": s.exhib[p],
            "manneken": s.mp[p],
            "city_hall": s.hall[p],
            "palace": s.palace[p],
            "architect": s.arch[p],
            "kept": s.kept[p],
            "rotated": s.rot[p],
            "rows": s.rows[p],
            "tucked": s.tucked[p],
            "seen": s.seen[p],
            "passed": bool((s.passed >> p) & 1),
        }

    def board(self) -> dict:
        """The shared facts (omniscient: ``context`` may hold a private Workshop draw).

        Spaces are row-major on the board x board Art Nouveau board: occupant (player,
        n = neutral, -1 empty), bid, building owner (-1 none), action id; ``area`` is a
        bitmask of the spaces available this round. Decks are count vectors.
        """
        s = self._s
        return {
            "phase": Phase(s.phase).name.lower(),
            "actor": s.actor,
            "context": s.ctx,
            "round": s.round,
            "first": s.first,
            "stock": s.stock,
            "spaces": s.cfg.spaces,
            "area": s.area,
            "occupants": tuple(s.occ),
            "bids": tuple(s.bids),
            "buildings": s.bld,
            "strips": s.strips,
            "space_actions": s.acts,
            "bonus_strip": s.strip_bonus,
            "display": s.display,
            "figure_deck": s.fig_deck,
            "figure_discard": s.fig_disc,
            "art_stack": s.art_stack,
            "shop": s.shop,
            "shop_pile": s.shop_pile,
            "cursor": s.cursor,
            "compass": s.compass,
            "needles": s.needles,
            "cube_supply": s.cube_supply,
            "brussels_uses": s.uses,
        }

    def log_tokens(self) -> list[int]:
        return log_tokens(self._s)

    def render_view(self, player: int) -> str:
        """The readable board as `player` sees it (own secrets only; see view.py)."""
        return render_view(self, player)


class BruxellesGame(EngineGame):
    short_name = SHORT_NAME
    long_name = "Bruxelles 1893"
    perfect_information = False
    min_players = R.RULES["game.min_players"]
    max_players = R.RULES["game.max_players"]
    parameters = R.DEFAULTS
    state_type = BruxellesState
    configure = staticmethod(R.make_config)
    observer = staticmethod(make_observer)

    def setup(self, cfg: R.Config) -> Setup:
        if A.num_actions(cfg.bid_cap) > A.CHANCE_TOKEN:
            raise ConfigError(f"max_bid {cfg.max_bid} leaves no room for the move log tokens")
        core = initial_core(cfg)
        start(core)
        return Setup(
            core=core,
            num_distinct_actions=A.num_actions(cfg.bid_cap),
            max_chance_outcomes=max(
                len(R.STRIPS),
                len(R.COMPASS),
                R.COLOURS,
                len(R.FIGURES),
                len(R.BONUS),
                len(R.STOCK_VALUES),
            ),
            max_game_length=max_game_length(cfg),
        )
