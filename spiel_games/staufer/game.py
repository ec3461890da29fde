"""Die Staufer / The Staufer Dynasty (Andreas Steding; Hans im Glueck / Z-Man 2014) for OpenSpiel.

Rules source and edition: the procedure follows the Spanish rules summary seeds/002 and
shared/rules/RULES-FACTS.md section 4 (Z-Man English rules p.1, German rules p.1, reviews).
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

Parameters (OpenSpiel game parameters, e.g. ``python_staufer(players=3)``):

| name          | default  | meaning                                                              |
|---------------|----------|----------------------------------------------------------------------|
| players       | 4        | 2-5 players (2 uses the two-player sides of regions and supply table)|
| rounds        | 5        | rounds (1-5); needs rounds + 1 <= regions                            |
| actions       | 3        | actions (family members) per player per round, 1-3                   |
| regions       | 6        | regions in play (2-6): the first ones of Milan, Augsburg, ...        |
| seats         | 0        | seats per region; 0 = by player count, k = leftmost k of the 3-5 side|
| supply_spaces | 0        | supply-table spaces; 0 = by player count, k = first k                |
| chests        | english  | `english` (10 purple + 18 brown), `german` (18 violet + 10 brown), `none` |
| jobs          | 3        | job types dealt (region, design, office, in that order)              |
| job_pool      | 6        | job cards per type in play (players..6)                              |
| privileges    | blue     | `blue` (first-game piles) or `red` (red-seal piles replace them)     |
| utility       | rank     | `rank`, `score` or `win` (see spiel_games.common.utility)             |

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
"""

from __future__ import annotations

import pyspiel

from spiel_games.common.game_type import make_game_type
from spiel_games.common.utility import utility_bounds
from spiel_games.staufer import actions as A
from spiel_games.staufer import phases as P
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer import text
from spiel_games.staufer.observer import make_observer
from spiel_games.staufer.resample import resample
from spiel_games.staufer.state import (
    CUR,
    END,
    ESCORT,
    GIFT,
    KING,
    MOVER,
    NDEP,
    NSUP,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PHASE,
    PRIV_PENDING,
    ROUND,
    SCORED_A,
    SCORED_B,
    TI,
    Phase,
    initial_core,
)
from spiel_games.staufer.view import render_view

SHORT_NAME = "python_staufer"


def _game_type(mode: str):
    return make_game_type(
        SHORT_NAME,
        "Die Staufer",
        perfect_information=False,
        utility=mode,
        min_players=2,
        max_players=5,
        parameters=R.DEFAULTS,
    )


GAME_TYPE = _game_type("rank")


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


class StauferGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(params or {})
        self.config = R.make_config(params)
        cfg = self.config
        lo, hi, total = utility_bounds(cfg.utility, 0, cfg.max_score())
        info = pyspiel.GameInfo(
            num_distinct_actions=A.NUM_ACTIONS,
            max_chance_outcomes=A.NUM_CHANCE,
            num_players=cfg.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total if cfg.utility != "score" else None,
            max_game_length=max_game_length(cfg),
        )
        game_type = GAME_TYPE if cfg.utility == "rank" else _game_type(cfg.utility)
        super().__init__(game_type, info, {**R.DEFAULTS, **params})
        self._initial = initial_core(cfg)

    def new_initial_state(self):
        return StauferState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return make_observer(self, iig_obs_type, params)


class StauferState(pyspiel.State):
    def __init__(self, game: StauferGame):
        super().__init__(game)
        self._s = game._initial  # copy-on-write: see state.initial_core

    # ----- OpenSpiel API -------------------------------------------------------------
    def current_player(self):
        return self._s.v[MOVER]

    def is_terminal(self):
        return self._s.v[PHASE] == END

    def chance_outcomes(self):
        s = self._s
        outcomes = P.OUTCOMES[s.v[PHASE]]
        if outcomes is None:
            raise ValueError("chance_outcomes called at a player node")
        return outcomes(s)

    def _legal_actions(self, player):
        s = self._s
        if player != s.v[MOVER] or player < 0:
            return []
        return P.LEGAL[s.v[PHASE]](s)

    def _apply_action(self, action):
        s = self._s
        if not s.owned:
            self._s = s = s.__deepcopy__(None)
        s.pub = None
        apply = P.APPLY[s.v[PHASE]]
        if apply is None:
            raise ValueError("the game is over")
        apply(s, action)

    def returns(self):
        s = self._s
        if s.returns is None:
            return [0.0] * s.t.n
        return list(s.returns)

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
            "phase": Phase(v[PHASE]).name.lower(),
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

    def resample_from_infostate(self, player_id, probability_sampler):
        """Re-deal the opponents' job cards (the only hidden facts) uniformly among the
        cards `player_id` has not seen; everything else is public."""
        return resample(self, player_id, probability_sampler)

    # ----- strings -------------------------------------------------------------------
    def _action_to_string(self, player, action):
        return text.action_string(self._s, player, action)

    def __str__(self):
        return text.render(self._s)

    def render_view(self, player: int) -> str:
        """The readable board as `player` sees it (own job cards only; see view.py)."""
        return render_view(self._s, player)
