"""Die Staufer / The Staufer Dynasty (Andreas Steding; Hans im Glueck / Z-Man 2014) for OpenSpiel.

Rules source and edition: the procedure follows the Spanish rules summary seed 002 (docs/sources/README.md) and
docs/sources/RULES-FACTS.md section 4 (Z-Man English rules p.1, German rules p.1, reviews).
Almost all printed component data is unpublished; it is designed in rules.toml, every such
number marked ``source = "assumed"`` with a reason (see "Deviations and assumptions").

Play: 5 rounds; each round every player takes 3 actions in family-member order. An action
is a *supply* (take the space's figures from your province into your court plus the chests
under it) or a *deployment* (travel clockwise from the king's region leaving one figure in
each region's payment area, occupy a free seat paying value - 1 further figures, take the
seat's chest; the first deployer of a round gets an envoy first; the player chooses the
regions of paying nobles). Figures the province lacks come from the payment areas the
player chooses. Turquoise chests may be used before the action, a levy also after it. At
round end the A-tile region and the B-condition region score
(majority with nobles double, ties to the leftmost seat; 1st-3rd take the point tile, the
majority holder takes the region bonus); clean-up empties the scored seats, refills chests,
moves the king (clearing the payment areas he passes back to the courts) and sets the next
turn order. The game ends after round 5 with jobs, brown chests and privileges.

Parameters: OpenSpiel game parameters (e.g. ``python_staufer(players=3)``), listed with
their defaults and meanings in ``rules.PARAMS`` (the table at the end of this docstring is
generated from it).

Information: job cards are secret (dealt by chance, seen only by their owner until the
end); chest stacks are face down, so every draw (setup and refill) is a chance node over
the remaining chest kinds. Everything else is public. The information state is the
public position plus the player's own jobs (the public position records every past
public event that matters to the rules; it does not keep their order).

Deviations and assumptions (each in rules.toml with source = "assumed" and a reason):
- Seats, point tiles, region bonuses, supply spaces, chest effects, privilege texts,
  job cards, three of the six B conditions and the C-tile moves are designed here.
- Travel: one figure into the payment area of each region from the king's region
  (inclusive) to the target (exclusive); the seat's value - 1 further figures go one per
  region clockwise from the target.
- Region bonus figures (round-end scoring, outside any turn) that the province lacks come
  from payment areas clockwise from the king's region.
- The king passes (and clears) the regions from his start (inclusive) to his destination.
- Next round's order: supply track in placement order, then the deployment track.
- P1 starts; the first region in play is fixed at board position 0 (rotation symmetry).
- Chests are refilled under empty supply spaces and free seats; exhausted stacks leave
  spaces empty. The last round's C tile is not drawn (round 5 has no clean-up).
- Escort and gift chests only before the action (they change the deployment).
- A player may hold each standing privilege kind once (VP privileges any number); one
  purple chest buys one privilege (one source says two chests).
- Chest counts: the English rules' 10 purple + 18 brown by default (the German original's
  18 violet + 10 brown with ``chests=german``); all other published counts are kept.

Parameters:

"""

from __future__ import annotations

from spiel_games.common.engine import EngineGame, EngineState, Setup
from spiel_games.common.params import markdown_table
from spiel_games.staufer import actions as A
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer import text
from spiel_games.staufer.observer import make_observer
from spiel_games.staufer.phases import TABLE
from spiel_games.staufer.resample import resample
from spiel_games.staufer.state import (
    CUR,
    ESCORT,
    GIFT,
    KING,
    NDEP,
    NSUP,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PRIV_PENDING,
    ROUND,
    SCORED_A,
    SCORED_B,
    TI,
    Phase,
    initial_core,
)
from spiel_games.staufer.view import render_view

__doc__ = (__doc__ or "") + markdown_table(R.PARAMS)

SHORT_NAME = "python_staufer"


def max_game_length(cfg: R.Config) -> int:
    setup = len(initial_core(cfg).t.steps)
    spaces = len(cfg.supply) + sum(len(x) for x in cfg.seats)
    chest_draws = min(sum(cfg.bag), spaces * cfg.rounds)
    # Per turn at most: a deployment (deploy, seat, occupant, payment, one step per paying
    # noble, one take for an orange figure chest under the seat) or a supply (the space,
    # one take per figure it gives, the courier's envoy, an orange figure chest: a supply
    # space holds at most one chest), then `end turn` when levies exist.
    figure_chest = 1 if cfg.bag[R.OENVOY] + cfg.bag[R.ONOBLE] else 0
    deploy = 4 + R.RULES["figures.nobles_per_colour"] + figure_chest
    courier = R.RULES["privileges.courier_envoys"] if cfg.bag[R.PURPLE] else 0
    supply = 1 + max(e + n for e, n in cfg.supply) + courier + figure_chest
    end = 1 if cfg.bag[R.LEVY] else 0
    moves = cfg.rounds * cfg.turns_per_round * (max(deploy, supply) + end)
    # Each turquoise use spends a chest; each privilege choice spends a purple chest.
    extra = cfg.bag[R.ESCORT] + cfg.bag[R.GIFT] + cfg.bag[R.LEVY] + cfg.bag[R.PURPLE]
    return setup + chest_draws + moves + extra


class StauferState(EngineState):
    table = TABLE
    final_returns = staticmethod(S.final_returns)
    action_text = staticmethod(text.action_string)
    board_text = staticmethod(text.render)
    chance_text = staticmethod(text.chance_description)
    setup_text = staticmethod(text.setup_conventions)
    round_text = staticmethod(text.round_text)
    resampler = staticmethod(resample)

    def scores(self) -> list[int]:
        """Each player's score if the game ended now (VP track + final scoring)."""
        return S.scores(self._s)

    def score_breakdown(self) -> list[dict[str, int]]:
        """Per player: the VP track and each final-scoring part (they sum to scores())."""
        return S.breakdown(self._s)

    def holdings(self, player: int) -> dict:
        """A player's holdings (omniscient: includes the secret job cards). Figures are
        (envoys, nobles); privileges count the cards held per kind (rules.VP_PRIV ..
        rules.PILGRIM); jobs are job card ids (type * rules.JOB_POOL_MAX + index, -1 =
        not dealt)."""
        s = self._s
        v = s.v
        t = s.t
        p = player
        if not 0 <= p < t.n:
            raise ValueError(f"player must be 0-{t.n - 1}, got {p}")
        return {
            "vp": v[t.vp + p],
            "court": (v[t.court + 2 * p], v[t.court + 2 * p + 1]),
            "province": (v[t.prov + 2 * p], v[t.prov + 2 * p + 1]),
            "brown": v[t.brown + p],
            "turquoise": tuple(v[t.tq + 3 * p : t.tq + 3 * p + 3]),
            "privileges": tuple(v[t.privs + p * R.PRIV_KINDS : t.privs + (p + 1) * R.PRIV_KINDS]),
            "vp_privilege_points": v[t.vpp + p],
            "jobs": tuple(v[t.jobs + 3 * p : t.jobs + 3 * p + 3]),
        }

    def board(self) -> dict:
        """The shared facts. Board positions run clockwise from 0; ``regions`` gives the
        region id at each position (-1 = not placed yet), ``king`` a position. Per
        position: ``seats`` (occupant per seat: -1 free, else player * 2 + is_noble),
        ``seat_chests`` (chest kind or -1) and ``payment`` ((envoys, nobles) per player).
        ``supply_chests``: chests per kind under each supply space; ``chest_stacks``:
        chests per kind still face down; ``privilege_piles``: cards per kind left;
        ``vp_pile``: VP privilege values left, top last."""
        s = self._s
        v = s.v
        t = s.t
        n, k, ck = t.n, t.K, R.CHEST_KINDS
        seats, chests, payment = [], [], []
        for pos in range(t.r):
            m = s.seats_in(pos) if s.region_at[pos] >= 0 else 0
            seats.append(tuple(v[t.seat + pos * k : t.seat + pos * k + m]))
            chests.append(tuple(v[t.chest + pos * k : t.chest + pos * k + m]))
            base = t.pay + pos * n * 2
            payment.append(tuple((v[base + 2 * p], v[base + 2 * p + 1]) for p in range(n)))
        return {
            "phase": Phase(s.phase).name.lower(),
            "round": v[ROUND] + 1,
            "king": v[KING],
            "regions": s.region_at,
            "point_tiles": s.tile_at,
            "a_tiles": s.a_tiles,
            "b_tiles": s.b_tiles,
            "c_tiles": s.c_tiles,
            "order": tuple(v[t.order : t.order + t.F]),
            "turns_taken": v[TI],
            "to_move": v[CUR],
            "supply_track": tuple(v[t.sup : t.sup + v[NSUP]]),
            "deploy_track": tuple(v[t.dep : t.dep + v[NDEP]]),
            "seats": tuple(seats),
            "seat_chests": tuple(chests),
            "payment": tuple(payment),
            "supply_chests": tuple(
                tuple(v[t.supc + i * ck : t.supc + (i + 1) * ck]) for i in range(t.S)
            ),
            "chest_stacks": tuple(v[t.bag : t.bag + ck]),
            "privilege_piles": tuple(v[t.piles : t.piles + R.PRIV_KINDS]),
            "vp_pile": s.vp_pile(),
            "pending": (v[PEND_POS], v[PEND_SEAT], v[PEND_OCC]),
            "turquoise_used": (v[ESCORT], v[GIFT]),
            "privileges_to_choose": v[PRIV_PENDING],
            "scored": (v[SCORED_A], v[SCORED_B]),
        }

    def render_view(self, player: int) -> str:
        """The readable board as `player` sees it (own job cards only; see view.py)."""
        return render_view(self._s, player)


class StauferGame(EngineGame):
    short_name = SHORT_NAME
    long_name = "Die Staufer"
    perfect_information = False
    min_players, max_players = 2, 5
    parameters = R.DEFAULTS
    state_type = StauferState
    configure = staticmethod(R.make_config)
    observer = staticmethod(make_observer)

    def setup(self, cfg: R.Config) -> Setup:
        return Setup(
            core=initial_core(cfg),
            num_distinct_actions=A.NUM_ACTIONS,
            max_chance_outcomes=A.NUM_CHANCE,
            max_game_length=max_game_length(cfg),
        )
