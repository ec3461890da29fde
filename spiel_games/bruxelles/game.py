"""Bruxelles 1893 (Etienne Espreman; Pearl Games / Z-Man 2013) as an OpenSpiel game.

Rules source: the publisher's English rulebook (translation N. Morse, (c) 2013-2016,
basic strip faces), as transcribed in borisyankov/rulespal
``data/rulebooks/bruxelles-1893-rulebook.md``; then shared/rules/RULES-FACTS.md
section 3 and the founding seed seeds/001. Unpublished numbers live in
``rules.toml`` with ``source = "assumed"`` and a reason.

Parameters (OpenSpiel game parameters, e.g. ``python_bruxelles(players=3)``):

| name       | default | meaning                                                            |
|------------|---------|--------------------------------------------------------------------|
| players    | 4       | 2-5 players (2 uses the neutral-assistant rules)                   |
| rounds     | 5       | rounds played (1-5; the rulebook plays 5)                          |
| max_bid    | 0       | highest bid under one assistant; 0 = no cap (rulebook)             |
| board      | 5       | Art Nouveau board size; below 5 the whole board is available       |
| assistants | 5       | assistants in each player's supply at the start                    |
| courthouse | 2       | each player's assistants in the Courthouse at the start            |
| brussels   | true    | Brussels board actions (Market, Bourse, Park, Grand Place) exist   |
| setup      | random  | `random` (rulebook) or `fixed` (deterministic setup, tiny configs) |
| private_works | false | true: a work kept from the Workshop stays hidden until sold      |
| utility    | rank    | `rank`, `score` or `win` (see spiel_games.common.utility)          |

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
"""

from __future__ import annotations

import dataclasses

import pyspiel

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import phases as P
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles import scoring, text
from spiel_games.bruxelles.observer import make_observer
from spiel_games.bruxelles.resample import resample_from_infostate
from spiel_games.bruxelles.rounds import start
from spiel_games.bruxelles.state import CHANCE_PHASES, Phase, initial_core, log_tokens
from spiel_games.bruxelles.view import render_view
from spiel_games.common.game_type import make_game_type
from spiel_games.common.utility import ConfigError, utility_bounds

SHORT_NAME = "python_bruxelles"


def _game_type(mode: str):
    return make_game_type(
        SHORT_NAME,
        "Bruxelles 1893",
        perfect_information=False,
        utility=mode,
        min_players=R.RULES["game.min_players"],
        max_players=R.RULES["game.max_players"],
        parameters=R.DEFAULTS,
    )


GAME_TYPE = _game_type("rank")

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


class BruxellesGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(params or {})
        self.config = R.make_config(params)
        cfg = self.config
        lo, hi, total = utility_bounds(cfg.utility, cfg.min_score(), cfg.max_score())
        if A.num_actions(cfg.bid_cap) > A.CHANCE_TOKEN:
            raise ConfigError(f"max_bid {cfg.max_bid} leaves no room for the move log tokens")
        info = pyspiel.GameInfo(
            num_distinct_actions=A.num_actions(cfg.bid_cap),
            max_chance_outcomes=max(
                len(R.STRIPS),
                len(R.COMPASS),
                R.COLOURS,
                len(R.FIGURES),
                len(R.BONUS),
                len(R.STOCK_VALUES),
            ),
            num_players=cfg.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total if cfg.utility != "score" else None,
            max_game_length=max_game_length(cfg),
        )
        super().__init__(_game_type(cfg.utility), info, {**R.DEFAULTS, **params})
        core = initial_core(cfg)
        start(core)
        core.shared_initial = True
        self._initial = core

    def new_initial_state(self):
        return BruxellesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return make_observer(self, iig_obs_type, params)


class BruxellesState(pyspiel.State):
    def __init__(self, game: BruxellesGame):
        super().__init__(game)
        # Copy-on-write: a new state shares the game's initial position until its
        # first move (pyspiel's clone() builds a new state and then replaces _s).
        self._s = game._initial

    def own_core(self):
        """The position, made private to this state (copied if still shared)."""
        s = self._s
        if s.shared_initial:
            s = self._s = s.__deepcopy__(None)
        s.cache = {}  # the caller may edit the position: drop cached legal actions and views
        return s

    # ----- OpenSpiel API -------------------------------------------------------------------
    def current_player(self):
        s = self._s
        if s.phase in CHANCE_PHASES:
            return pyspiel.PlayerId.CHANCE
        if s.phase == Phase.END:
            return pyspiel.PlayerId.TERMINAL
        return s.actor

    def is_terminal(self):
        return self._s.phase == Phase.END

    def chance_outcomes(self):
        return P.chance_outcomes(self._s)

    def _legal_actions(self, player):
        s = self._s
        if player != s.actor or s.phase in CHANCE_PHASES or s.phase == Phase.END:
            return []
        return list(P.legal_actions(s))

    def _apply_action(self, action):
        s = self._s
        if s.shared_initial:
            s = self.own_core()
        if s.phase == Phase.END:
            raise ValueError("the game is over")
        if s.phase in CHANCE_PHASES:
            hidden = s.phase == Phase.C_ART and s.ctx[3] == 1
            token = A.HIDDEN_TOKEN + s.ctx[0] if hidden else A.CHANCE_TOKEN + action
            P.apply_chance(s, action)
        else:
            private_keep = s.phase == Phase.KEEP_WORK and s.cfg.private_works
            token = A.HIDDEN_TOKEN + s.actor if private_keep else action
            P.apply_action(s, action)
        s.log = (token, s.log)
        s.cache = {}
        if s.phase == Phase.END:
            s.returns = scoring.final_returns(s)

    def returns(self):
        s = self._s
        if s.returns is None:
            return [0.0] * s.n
        return list(s.returns)

    def resample_from_infostate(self, player_id, probability_sampler=None):
        return resample_from_infostate(self, player_id, probability_sampler)

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

    # ----- strings -----------------------------------------------------------------------------
    def _action_to_string(self, player, action):
        s = self._s
        if player == pyspiel.PlayerId.CHANCE:
            return text.chance_string(s, action)
        return text.action_string(s, action)

    def __str__(self):
        s = self._s
        return text.render(s, scoring.scores(s) if s.phase == Phase.END else [])

    def render_view(self, player: int) -> str:
        """The readable board as `player` sees it (own secrets only; see view.py)."""
        return render_view(self, player)
