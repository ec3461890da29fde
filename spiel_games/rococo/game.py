"""Rococo (Matthias Cramer, Louis Malz, Stefan Malz; eggertspiele / Pegasus 2013) as an OpenSpiel game.

Rules source: the publisher's English rulebook of the 2013 base game (rulespal
transcription `data/rulebooks/rococo-rulebook.md`), summarised in
shared/rules/RULES-FACTS.md section 2; the optional Festivity and Fancy Dresses
come from seeds/000. Not the 2020 Deluxe edition.

Parameters (OpenSpiel game parameters, e.g. ``python_rococo(players=3)``):

| name        | default | meaning                                                              |
|-------------|---------|----------------------------------------------------------------------|
| players     | 4       | 2-5 players; 2-3 use the small board side, 4-5 the large one          |
| rounds      | 7       | rounds played (tiny configs use fewer)                               |
| hand_size   | 3       | cards selected each round                                            |
| base_deck   | MMJab   | each player's starting cards: M Master, J Journeyman, a/b Apprentices |
| start_money | 15      | Livre at the start                                                   |
| display     | 4       | employee cards revealed each round (0 = no hiring)                   |
| levels      | 6       | employee levels in the hire stack (level 1 on top)                   |
| windows     | 0       | workshop windows; 0 = the board side's, else the rightmost N          |
| warehouse   | 0       | tiles per warehouse segment; 0 = by side (3 or 4)                     |
| guests      | 0       | guest spaces per hall; 0 = by side (4 or 6), the first is the Master's |
| decorations | 0       | at most N spaces of each decoration kind; 0 = the full board          |
| dresses     | 0       | dress tiles in the bag; 0 = all, else N spread over the colours        |
| tiles       | 0       | resource tiles; 0 = all, else N spread over the tile types            |
| festivity   | false   | add the 4 Festivity Dresses (seed option)                             |
| fancy       | false   | add the 4 Fancy Dresses and 5 extra resource tiles (seed option)      |
| jewelry     | false   | the Jewelry Box: jeweller, exams, 28 employees (docs/games/rococo.md) |
| jeweller    | 0       | jeweller spaces, 1-4 (the cheapest N); 0 = all 4 (needs jewelry)      |
| jewels      | 0       | jewellery tiles; 0 = all 24, else N spread over the kinds (jewelry)   |
| specialists | 10      | specialised apprentices in the open row, 0-10 (jewelry)               |
| exam_cards  | 9       | new cards in each exam pool, 0-9 (jewelry)                            |
| utility     | rank    | `rank`, `score` or `win` (see spiel_games.common.utility)             |

Information: hidden from the other players are the cards a player selected for
the hand (and so how the deck is split between hand and supply) and the
resource tiles drawn face down from the stacks through the level-1 bonuses.
Selection is modelled as sequential picks in seat order, each hidden until the
card is played. All draws (employee reveals, warehouse and workshop refills,
stack tiles) are explicit chance nodes over the remaining types.

Deviations and assumptions (every assumed number is in rules.toml with
``source = "assumed"`` and a reason; `meeple games show rococo` lists them):
- Board-printed data (guest spaces and rewards, hall values, decoration costs
  and prestige, terrace multipliers, window costs, All-halls values), the dress
  and resource tile lists, the M/J/A type of each hireable card and which base
  card has which bonus are designed here, consistent with every published total.
- The extra Make-a-Dress bonuses never make a "Master dress", so their dresses
  cannot go on Master guest spaces.
- The depute bonuses (levels 1 and 2) take a card of the Employee deck
  (supply, hand or discard pile); a type in both the supply and the discard
  pile is taken from the discard pile.
- A Festivity dress gives its prestige once, when made; at the end its marker
  scores nothing (it still counts in its hall) - the seed's "only this once".
- A tile handed in to pay for a dress, or converted, is discarded face up.
- Terrace moves: the player picks which King's-hall dress moves; it goes to
  the player's free terrace space with the highest multiplier.
- Ties for second place in a hall after all tie-breaks: all tied players get
  the second-place value.
- Instant bonuses worth nothing at the moment are not offered (no decision).
- A guest-space tile reward gives nothing when the warehouse is empty; a deck
  of 4 cards uses the 5-6 bracket of the deck-size tables.
- Jewelry Box (`jewelry=true`): the board, prices, refill, trigger and
  colour-match reward, the exam tasks, fees and trade-in, and every text,
  condition and bonus of the 28 new employees except the one published example
  are designed (rules.toml `[jewelry]`, `[jewelry.exams]`, `[jewelry.employees]`).
  The two pool cards set aside unseen in stack levels 2 and 5 are reserved
  slots drawn from the pool when revealed (no hidden state: no one sees them).
- Hand selection is sequential in seat order from the start player, each pick
  hidden from the others (the project's model of simultaneous secret choices).
"""

from __future__ import annotations

import pyspiel

from spiel_games.common.game_type import make_game_type
from spiel_games.common.utility import returns_from_keys, utility_bounds
from spiel_games.rococo import rules as R
from spiel_games.rococo import scoring, text
from spiel_games.rococo import state as ST
from spiel_games.rococo.actions import ActionLayout
from spiel_games.rococo.observer import make_observer
from spiel_games.rococo.phases import table as X
from spiel_games.rococo.resample import resample
from spiel_games.rococo.state import PH_END, PH_SELECT, PH_START, Phase
from spiel_games.rococo.view import render_view

SHORT_NAME = "python_rococo"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _game_type(mode: str):
    return make_game_type(
        SHORT_NAME,
        "Rococo",
        perfect_information=False,
        utility=mode,
        min_players=2,
        max_players=5,
        parameters=R.DEFAULTS,
    )


GAME_TYPE = _game_type("rank")


def max_game_length(cfg: R.Config) -> int:
    turns = cfg.max_turns()
    n_tiles = sum(cfg.tile_counts)
    max_bales = max(sum(R.DRESSES[d].bales) for d in range(R.NUM_DRESSES) if cfg.dress_counts[d])
    step = 1 + max_bales + 1 + 2  # make, pay, place (or sell), reward tile + use
    if cfg.jewelry:
        step += 2  # buy a piece of jewellery, take the colour-match yarn or lace
    per_turn = 1 + 1 + step + 1 + 1 + 1 + step + 1  # play, main, step, bonus, depute, bonus, step
    chance = 1 + cfg.rounds * (cfg.display + R.SEGMENTS * cfg.segment_size + cfg.num_windows)
    chance += min(sum(cfg.jewel_counts), cfg.rounds * len(cfg.jeweller_prices))
    chance += sum(len(pool) for pool in cfg.exam_pools)  # exam cards shown, each once
    select = cfg.rounds * cfg.players * cfg.hand_size
    buys = cfg.max_money() // 3 + turns
    discards = turns * (n_tiles + 1)
    terrace = cfg.players * (len(cfg.terrace_mult) + 1)
    return chance + select + turns * (per_turn + 1) + buys + discards + terrace


class RococoGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(params or {})
        self.config = R.make_config(params)
        cfg = self.config
        self.layout = ActionLayout(
            cfg.num_windows, cfg.num_guests, cfg.num_decos, len(cfg.jeweller_prices), cfg.jewelry
        )
        lo, hi, total = utility_bounds(cfg.utility, 0, cfg.max_score())
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=max(cfg.players, cfg.num_cards, R.NUM_TILES, R.NUM_DRESSES),
            num_players=cfg.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total if cfg.utility != "score" else None,
            max_game_length=max_game_length(cfg),
        )
        super().__init__(_game_type(cfg.utility), info, {**R.DEFAULTS, **params})
        self._initial = ST.initial_core(cfg, self.layout)

    def new_initial_state(self):
        return RococoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return make_observer(self, iig_obs_type, params)


class RococoState(pyspiel.State):
    def __init__(self, game: RococoGame):
        super().__init__(game)
        # Shared until the first move (see _apply_action): pyspiel's clone() builds a
        # new initial state and then overwrites _s, so the copy here would be wasted.
        self._s = game._initial

    # ----- OpenSpiel API ---------------------------------------------------------------------
    def current_player(self):
        c = self._s
        ph = c.phase
        if ph >= PH_SELECT:
            return c.cur if ph != PH_END else _TERMINAL
        return _CHANCE

    def is_terminal(self):
        return self._s.phase == PH_END

    def chance_outcomes(self):
        c = self._s
        outcomes = X.OUTCOMES[c.phase]
        if outcomes is None:
            raise ValueError("chance_outcomes called at a player node")
        return list(outcomes(c))

    def _legal_actions(self, player):
        c = self._s
        ph = c.phase
        if ph < PH_SELECT or ph == PH_END or player != c.cur:
            return []
        legal = c.legal
        if legal is None:
            legal = c.legal = X.LEGAL[ph](c, c.lay)
        return list(legal)

    def _apply_action(self, action):
        c = self._s
        ph = c.phase
        if ph == PH_START:  # only a fresh state is at START: stop sharing the initial core
            c = self._s = c.__deepcopy__(None)
        if ph >= PH_SELECT:
            if ph == PH_END:
                raise ValueError("the game is over")
            legal = c.legal
            if legal is None:
                legal = X.LEGAL[ph](c, c.lay)
            if action not in legal:
                lay = c.lay
                block = lay.decode(action)[0]
                raise ValueError(
                    f"action {action} ({block}) is not legal in phase {Phase(ph).name}"
                )
        elif not X.chance_possible(c, ph, action):
            raise ValueError(f"chance outcome {action} is not possible here")
        X.APPLY[ph](c, c.lay, action)
        c.ply += 1
        c.legal = None
        c.memo = None
        if c.phase == PH_END and c.returns is None:
            scores = scoring.scores(c)
            c.returns = tuple(returns_from_keys(c.cfg.utility, scores, scoring.tie_keys(c, scores)))

    def returns(self):
        c = self._s
        if c.returns is None:
            return [0.0] * c.cfg.players
        return list(c.returns)

    def scores(self) -> list[int]:
        """Each player's prestige if the game were scored now."""
        return scoring.scores(self._s)

    def score_breakdown(self) -> list[dict[str, int]]:
        return scoring.breakdown(self._s)

    def holdings(self, player: int) -> dict:
        """A player's holdings (omniscient: includes secrets). Count vectors are tuples
        indexed by tile id (tiles), card id (cards) or jewellery kind (jewellery); exam
        is (side: 0 journeyman's / 1 master's, task bits done)."""
        c = self._s
        if not 0 <= player < c.cfg.players:
            raise ValueError(f"player must be 0-{c.cfg.players - 1}, got {player}")
        return {
            "money": c.money[player],
            "yarn": c.yarn[player],
            "lace": c.lace[player],
            "prestige": c.prestige[player],
            "tiles": c.tpub[player],
            "secret_tiles": c.tsec[player],
            "hand": c.hand[player],
            "known_hand": c.known[player],
            "supply": c.supply[player],
            "discard": c.discard[player],
            "jewellery": c.jewels[player],
            "exam": (c.xside[player], c.xbits[player]),
        }

    def board(self) -> dict:
        """The shared facts: phase, round, start player, favor holder (-1 = beside the
        board), display, warehouse segments, windows (dress id or -1), guest spaces and
        decorations (owner or -1), All-halls and terrace spaces, bag and discard piles,
        the jeweller (jewellery kind per space, dearest first, or -1) and the face-down
        jewellery left per kind, the employee stack by level (-2 / -3: a reserved slot
        of the journeyman's / master's pool), the specialised apprentices in the row, the
        cards no one has seen in each exam pool and the exam cards shown (Jewelry Box;
        empty without it)."""
        c = self._s
        return {
            "phase": Phase(c.phase).name.lower(),
            "round": c.round,
            "start": c.start,
            "favor": c.favor,
            "display": c.display,
            "warehouse": c.ware,
            "windows": c.windows,
            "guest_owner": c.gown,
            "guest_dress": c.gdress,
            "decorations": c.deco,
            "all_halls": c.allh,
            "terrace": c.terr,
            "bag": c.bag,
            "dress_discard": c.ddisc,
            "tile_stack": c.tstack,
            "tile_discard": c.tdisc,
            "to_select": c.need_sel,
            "jeweller": c.jdisp,
            "jewel_stack": c.jstack,
            "employee_stack": c.emp,
            "specialists": c.spec,
            "exam_pools": c.xpool,
            "exam_offer": c.xoffer,
        }

    def resample_from_infostate(self, player_id, probability_sampler=None):
        return resample(self, player_id, probability_sampler)

    def _action_to_string(self, player, action):
        return text.action_string(self._s, self._s.lay, player, action)

    def __str__(self):
        return text.render(self._s)

    def render_view(self, player: int) -> str:
        """A readable board as `player` sees it (only what that player may know)."""
        return render_view(self._s, player)
