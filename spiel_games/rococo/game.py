"""Rococo (Matthias Cramer, Louis Malz, Stefan Malz; eggertspiele / Pegasus 2013) as an OpenSpiel game.

Rules source: the publisher's English rulebook of the 2013 base game (rulespal
transcription `data/rulebooks/rococo-rulebook.md`), summarised in
docs/sources/RULES-FACTS.md section 2; the optional Festivity and Fancy Dresses
come from seed 000 (docs/sources/README.md). Not the 2020 Deluxe edition.

Parameters: OpenSpiel game parameters (e.g. ``python_rococo(players=3)``), listed with
their defaults and meanings in ``rules.config.PARAMS`` (the table at the end of this
docstring is generated from it).

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
  scores nothing (it still counts in its hall) - SEED-000's "only this once".
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

Parameters:

"""

from __future__ import annotations

from spiel_games.common.engine import EngineGame, EngineState, Setup
from spiel_games.common.params import markdown_table
from spiel_games.rococo import rules as R
from spiel_games.rococo import scoring, text
from spiel_games.rococo.actions import ActionLayout
from spiel_games.rococo.observer import make_observer
from spiel_games.rococo.phases import TABLE
from spiel_games.rococo.resample import resample
from spiel_games.rococo.rules.config import DEFAULTS, PARAMS, Config, make_config
from spiel_games.rococo.state import Phase, initial_core
from spiel_games.rococo.view import render_view

__doc__ = (__doc__ or "") + markdown_table(PARAMS)

SHORT_NAME = "python_rococo"


def max_game_length(cfg: Config) -> int:
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


class RococoState(EngineState):
    table = TABLE
    final_returns = staticmethod(scoring.final_returns)
    action_text = staticmethod(text.action_string)
    board_text = staticmethod(text.render)
    chance_text = staticmethod(text.chance_description)
    option_text = staticmethod(text.option_details)
    setup_text = staticmethod(text.setup_conventions)
    resampler = staticmethod(resample)

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

    def render_view(self, player: int) -> str:
        """A readable board as `player` sees it (only what that player may know)."""
        return render_view(self._s, player)


class RococoGame(EngineGame):
    short_name = SHORT_NAME
    long_name = "Rococo"
    perfect_information = False
    min_players, max_players = 2, 5
    parameters = DEFAULTS
    state_type = RococoState
    configure = staticmethod(make_config)
    observer = staticmethod(make_observer)

    def setup(self, cfg: Config) -> Setup:
        self.layout = ActionLayout(
            cfg.num_windows, cfg.num_guests, cfg.num_decos, len(cfg.jeweller_prices), cfg.jewelry
        )
        return Setup(
            core=initial_core(cfg, self.layout),
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=max(cfg.players, cfg.num_cards, R.NUM_TILES, R.NUM_DRESSES),
            max_game_length=max_game_length(cfg),
        )
