"""Die Staufer / The Staufer Dynasty (Andreas Steding; Hans im Glueck / Z-Man 2014) for OpenSpiel.

Rules source and edition: the procedure follows the Spanish rules summary seeds/002 and
shared/rules/RULES-FACTS.md section 4 (Z-Man English rules p.1, German rules p.1, reviews).
Almost all printed component data is unpublished; it is designed in rules.toml, every such
number marked ``source = "assumed"`` with a reason (see "Deviations and assumptions").

Play: 5 rounds; each round every player takes 3 actions in family-member order. An action
is a *supply* (take the space's figures from your province into your court plus the chests
under it) or a *deployment* (travel clockwise from the king's region leaving one figure in
each region's payment area, occupy a free seat paying value - 1 further figures, take the
seat's chest; the first deployer of a round gets an envoy first). Turquoise chests may be
used before the action. At round end the A-tile region and the B-condition region score
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
  region clockwise from the target. Paying nobles fill the last payment slots.
- Short province: figures come from payment areas clockwise from the king's region.
- The king passes (and clears) the regions from his start (inclusive) to his destination.
- Next round's order: supply track in placement order, then the deployment track.
- P1 starts; the first region in play is fixed at board position 0 (rotation symmetry).
- Chests are refilled under empty supply spaces and free seats; exhausted stacks leave
  spaces empty. The last round's C tile is not drawn (round 5 has no clean-up).
- Turquoise chests are used at the start of the turn, before the action.
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
from spiel_games.staufer import rounds as RD
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.core import (
    CHANCE_PHASES,
    END,
    KING,
    MOVER,
    NDEP,
    NSUP,
    PEND_POS,
    PHASE,
    REFILL,
    ROUND,
    SETUP,
    ST_A,
    ST_B,
    ST_C,
    ST_JOB,
    ST_REGION,
    ST_TILE,
    STEP,
    TI,
    Phase,
    initial_core,
)

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
    # Per action at most: deploy, seat, occupant, payment.
    moves = cfg.rounds * cfg.turns_per_round * 4
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
        from spiel_games.staufer.observer import make_observer

        return make_observer(self, iig_obs_type, params)


class StauferState(pyspiel.State):
    def __init__(self, game: StauferGame):
        super().__init__(game)
        self._s = game._initial  # copy-on-write: see core.initial_core

    # ----- OpenSpiel API -------------------------------------------------------------
    def current_player(self):
        return self._s.v[MOVER]

    def is_terminal(self):
        return self._s.v[PHASE] == END

    def chance_outcomes(self):
        return RD.chance_outcomes(self._s)

    def _legal_actions(self, player):
        s = self._s
        if player != s.v[MOVER] or player < 0:
            return []
        return P.legal_actions(s)

    def _apply_action(self, action):
        s = self._s
        if not s.owned:
            self._s = s = s.__deepcopy__(None)
        s.pub = None
        if s.v[PHASE] in CHANCE_PHASES:
            RD.apply_chance(s, action)
        elif s.v[PHASE] == END:
            raise ValueError("the game is over")
        else:
            P.apply_action(s, action)

    def returns(self):
        s = self._s
        if s.returns is None:
            return [0.0] * s.t.n
        return list(s.returns)

    def scores(self) -> list[int]:
        """Each player's score if the game ended now (VP track + final scoring)."""
        return S.scores(self._s)

    def resample_from_infostate(self, player_id, probability_sampler):
        """Re-deal the opponents' job cards (the only hidden facts) uniformly among the
        cards `player_id` has not seen; everything else is public."""
        from spiel_games.staufer.resample import resample

        return resample(self, player_id, probability_sampler)

    # ----- strings -------------------------------------------------------------------
    def _action_to_string(self, player, action):
        s = self._s
        if player == pyspiel.PlayerId.CHANCE:
            return chance_string(s, action)
        text = A.to_string(action, s.cfg)
        kind, arg = A.decode(action)
        pos = s.v[PEND_POS]
        if kind == "seat" and pos >= 0 and arg < s.seats_in(pos):
            value, only = s.seat_def(pos, arg)
            text += f" ({value}{'N' if only else ''})"
        return text

    def __str__(self):
        return render(self._s)

    def render_view(self, player: int) -> str:
        """The readable board as `player` sees it (own job cards only; see view.py)."""
        from spiel_games.staufer.view import render_view

        return render_view(self._s, player)


def chance_string(s, outcome: int) -> str:
    if s.v[PHASE] == REFILL:
        return f"chest: {R.CHEST_NAMES[outcome]}"
    kind, arg = s.t.steps[s.v[STEP]]
    if kind == ST_REGION:
        return f"region {arg + 1}: {R.REGION_NAMES[outcome]}"
    if kind == ST_TILE:
        return f"point tile {R.POINT_TILES[outcome]}"
    if kind == ST_JOB:
        return f"job {R.JOB_TYPE_NAMES[arg % 3]} {outcome} for P{arg // 3 + 1}"
    if kind == ST_A:
        return f"A tile: {R.REGION_NAMES[outcome]}"
    if kind == ST_B:
        return f"B tile: {R.B_CONDITIONS[outcome]}"
    assert kind == ST_C
    return f"C tile: king moves {outcome}"


def job_name(card: int) -> str:
    t, i = divmod(card, R.JOB_POOL_MAX)
    if t == R.JOB_REGION:
        return f"region:{R.REGION_NAMES[i]}"
    if t == R.JOB_DESIGN:
        return f"design:{R.DESIGN_JOBS[i][0]}"
    return f"office:{R.OFFICE_JOBS[i][0]}"


def render(s) -> str:
    v = s.v
    t = s.t
    n, k = t.n, t.K
    if v[PHASE] == SETUP:
        return f"Setup step {v[STEP] + 1}/{len(t.steps)}"
    rnd = v[ROUND]
    lines = [
        f"Round {rnd + 1}/{t.cfg.rounds}, king at {R.REGION_NAMES[s.region_at[v[KING]]]}, "
        f"phase {Phase(v[PHASE]).name.lower()}"
    ]
    lines.append(
        f"A: {R.REGION_NAMES[s.a_tiles[rnd]]}, B: {R.B_CONDITIONS[s.b_tiles[rnd]]}"
        + (f", C: {s.c_tiles[rnd]}" if rnd < len(s.c_tiles) else "")
    )
    for pos in range(t.r):
        rid = s.region_at[pos]
        parts = []
        for i, (value, only) in enumerate(t.cfg.seats[rid]):
            o = v[t.seat + pos * k + i]
            who = "." if o < 0 else f"P{(o >> 1) + 1}{'n' if o & 1 else 'e'}"
            ch = v[t.chest + pos * k + i]
            chest = f"[{R.CHEST_SHORT[ch]}]" if ch >= 0 else ""
            parts.append(f"{value}{'N' if only else ''}:{who}{chest}")
        base = t.pay + pos * n * 2
        pay = " ".join(
            f"P{p + 1}:{v[base + 2 * p]}e{v[base + 2 * p + 1]}n"
            for p in range(n)
            if v[base + 2 * p] or v[base + 2 * p + 1]
        )
        king = "*" if pos == v[KING] else " "
        lines.append(
            f"{king}{R.REGION_NAMES[rid]} {R.POINT_TILES[s.tile_at[pos]]}: {' '.join(parts)}"
            + (f" | pay {pay}" if pay else "")
        )
    sup = []
    for i, (e, nb) in enumerate(t.cfg.supply):
        base = t.supc + i * R.CHEST_KINDS
        ch = ",".join(R.CHEST_SHORT[x] for x in range(R.CHEST_KINDS) for _ in range(v[base + x]))
        sup.append(f"{e}E{nb}N[{ch}]")
    lines.append("supply: " + " ".join(sup))
    for p in range(n):
        pk = t.privs + p * R.PRIV_KINDS
        privs = ",".join(R.PRIV_NAMES[x] for x in range(R.PRIV_KINDS) if v[pk + x])
        tq = ",".join(
            f"{R.CHEST_SHORT[R.TURQUOISE[i]]}x{v[t.tq + p * 3 + i]}"
            for i in range(3)
            if v[t.tq + p * 3 + i]
        )
        lines.append(
            f"P{p + 1}: vp {v[t.vp + p]}, court {v[t.court + 2 * p]}e{v[t.court + 2 * p + 1]}n, "
            f"province {v[t.prov + 2 * p]}e{v[t.prov + 2 * p + 1]}n, brown {v[t.brown + p]}"
            + (f", {tq}" if tq else "")
            + (f", privileges {privs}" if privs else "")
        )
    if v[PHASE] == END:
        lines.append("scores: " + " ".join(str(x) for x in S.scores(s)))
        lines.append(
            "jobs: "
            + "; ".join(
                f"P{p + 1} "
                + ",".join(job_name(c) for c in v[t.jobs + p * 3 : t.jobs + p * 3 + 3] if c >= 0)
                for p in range(n)
            )
        )
    else:
        order = v[t.order + v[TI] : t.order + t.F]
        lines.append("to act: " + " ".join(f"P{p + 1}" for p in order))
        lines.append(
            "tracks: supply "
            + "".join(str(p + 1) for p in v[t.sup : t.sup + v[NSUP]])
            + " deploy "
            + "".join(str(p + 1) for p in v[t.dep : t.dep + v[NDEP]])
        )
    return "\n".join(lines)
