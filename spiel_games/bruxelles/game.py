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
| max_bid    | 6       | highest bid under one assistant (rulebook: no cap; 1-20)           |
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
- Bids are capped by ``max_bid`` (the rulebook has no cap).
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

import pyspiel

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import decisions
from spiel_games.bruxelles import phases as P
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.core import CHANCE_PHASES, Phase, initial_core
from spiel_games.common.game_type import make_game_type
from spiel_games.common.utility import returns_from_keys, utility_bounds

SHORT_NAME = "python_bruxelles"

# Log tokens: player actions as is; public chance outcomes CHANCE_TOKEN + outcome;
# a workshop draw (shown only to its drawer) HIDDEN_TOKEN + drawer.
CHANCE_TOKEN = 1000
HIDDEN_TOKEN = 2000


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
        info = pyspiel.GameInfo(
            num_distinct_actions=A.NUM_ACTIONS,
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
        P.start(core)
        core.shared_initial = True
        self._initial = core

    def new_initial_state(self):
        return BruxellesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        from spiel_games.bruxelles.observer import make_observer

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
        return decisions.chance_outcomes(self._s)

    def _legal_actions(self, player):
        s = self._s
        if player != s.actor or s.phase in CHANCE_PHASES or s.phase == Phase.END:
            return []
        return list(decisions.legal_actions(s))

    def _apply_action(self, action):
        s = self._s
        if s.shared_initial:
            s = self.own_core()
        if s.phase == Phase.END:
            raise ValueError("the game is over")
        if s.phase in CHANCE_PHASES:
            hidden = s.phase == Phase.C_ART and s.ctx[3] == 1
            token = HIDDEN_TOKEN + s.ctx[0] if hidden else CHANCE_TOKEN + action
            decisions.apply_chance(s, action)
        else:
            private_keep = s.phase == Phase.KEEP_WORK and s.cfg.private_works
            token = HIDDEN_TOKEN + s.actor if private_keep else action
            decisions.apply_action(s, action)
        s.log = (token, s.log)
        s.cache = {}
        if s.phase == Phase.END:
            s.returns = self._final_returns()

    # ----- scores ------------------------------------------------------------------------------
    def score_details(self) -> list[R.FinalScore]:
        """Each player's final score broken down, as if the game ended now."""
        s = self._s
        return [
            R.final_score(
                vp=s.vp[p],
                money=s.money[p],
                built=s.built[p],
                architect_level=s.arch[p],
                rows=s.rows[p],
                works=s.total_works(p),
                kept=s.kept_list(p),
                assistants_owned=s.owned_assistants(p),
                nobles=s.nobles(p),
                has_manneken=s.first == p,
            )
            for p in range(s.n)
        ]

    def scores(self) -> list[int]:
        return [d.total for d in self.score_details()]

    def _final_returns(self) -> list[float]:
        details = self.score_details()
        keys = [(d.total, d.money_left) for d in details]
        return returns_from_keys(self._s.cfg.utility, [d.total for d in details], keys)

    def returns(self):
        s = self._s
        if s.returns is None:
            return [0.0] * s.n
        return list(s.returns)

    # ----- hidden information --------------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler=None):
        """Re-deal what `player_id` cannot know: the works other players drew and put back.

        Everything else is public or still in a deck (decks are count vectors that
        chance nodes draw from, so there is no order to re-deal). Each other player's
        memory keeps the work he kept (public) and gets fresh put-back works drawn
        from the colour proportions of the current stack.
        """
        clone = self.clone()
        s = clone.own_core()
        if s.cfg.private_works:
            _redeal_hidden_works(s, player_id, probability_sampler)
        weights = [max(k, 0) for k in s.art_stack[: R.COLOURS]]
        total = sum(weights) or 1

        def draw() -> int:
            x = (probability_sampler() if probability_sampler else 0.5) * total
            acc = 0
            for c, w in enumerate(weights):
                acc += w
                if x < acc:
                    return c
            return max(range(R.COLOURS), key=lambda c: weights[c])

        for q in range(s.n):
            if q == player_id or not s.seen[q]:
                continue
            fresh = tuple(
                (kept, tuple(sorted(draw() for _ in others))) for kept, others in s.seen[q]
            )
            s.seen = s.seen[:q] + (fresh,) + s.seen[q + 1 :]
        return clone

    def log_tokens(self) -> list[int]:
        out = []
        node = self._s.log
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    # ----- strings ---------------------------------------------------------------------------------
    def _action_to_string(self, player, action):
        s = self._s
        if player == pyspiel.PlayerId.CHANCE:
            return _chance_string(s, action)
        return action_string(s, action)

    def __str__(self):
        from spiel_games.bruxelles.text import render

        return render(self)

    def render_view(self, player: int) -> str:
        """The readable board as `player` sees it (own secrets only; see view.py)."""
        from spiel_games.bruxelles.view import render_view

        return render_view(self, player)


def _redeal_hidden_works(s, player_id: int, sampler) -> None:
    """private_works: deal the other players' hidden works afresh from the pool of
    colours nobody has seen (their hidden works and the colour stack)."""
    pool = list(s.art_stack[: R.COLOURS])
    hidden = {}
    for q in range(s.n):
        if q == player_id:
            continue
        h = [s.works[q][c] - s.pub_works[q][c] for c in range(R.COLOURS)]
        hidden[q] = sum(h)
        for c in range(R.COLOURS):
            pool[c] += h[c]
    for q, k in hidden.items():
        w = list(s.works[q])
        for c in range(R.COLOURS):
            w[c] = s.pub_works[q][c]
        for _ in range(k):
            x = (sampler() if sampler else 0.5) * sum(pool)
            c, acc = 0, pool[0]
            while x >= acc and c < R.COLOURS - 1:
                c += 1
                acc += pool[c]
            while pool[c] == 0:  # guard against rounding at the top end
                c = (c - 1) % R.COLOURS
            pool[c] -= 1
            w[c] += 1
        s.works = s.works[:q] + (tuple(w),) + s.works[q + 1 :]
    s.art_stack = tuple(pool) + s.art_stack[R.COLOURS :]


def _space(s, sp: int) -> str:
    b = s.cfg.board
    return f"r{sp // b + 1}c{sp % b + 1}"


def _chance_string(s, o: int) -> str:
    ph = s.phase
    if ph == Phase.C_STRIP:
        return f"strip {o + 1}"
    if ph == Phase.C_COMPASS:
        return f"compass {R.COMPASS[o]}"
    if ph == Phase.C_ART:
        return f"art {R.ART[o]}"
    if ph == Phase.C_FIGURE:
        return f"figure {R.FIGURES[o]}"
    if ph == Phase.C_BONUS:
        return f"bonus {R.BONUS_NAMES[o]}"
    if ph == Phase.C_STOCK:
        return f"stock card {o + 1} ({R.STOCK_VALUES[o]} BF)"
    return f"chance {o}"


def action_string(s, a: int) -> str:
    """A readable, unique name for a player action id (uses the state for detail)."""
    if a < A.BRUSSELS0:
        title = f" ({R.ACTION_TITLES[s.acts[a]]})" if s.acts else ""
        return f"place {_space(s, a)}{title}"
    if a < A.PASS:
        return f"brussels {R.BRUSSELS_TITLES[a - A.BRUSSELS0]}"
    if a == A.PASS:
        return "pass"
    if a < A.SKIP:
        return f"bid {a - A.BID0 + 1}"
    if a == A.SKIP:
        return "skip"
    if a == A.PERFORM:
        return "perform"
    if a < A.KEEP_WORK0:
        return f"park {R.ACTION_TITLES[a - A.PARK0]}"
    if a < A.SELL0:
        return f"keep {R.ART[a - A.KEEP_WORK0]}"
    if a < A.CURSOR0:
        return f"sell {R.ART[a - A.SELL0]}"
    if a < A.SLOT0:
        r, c = A.cursor_of(a)
        return f"cursor {r},{c}"
    if a < A.THEATER0:
        return f"shop {a - A.SLOT0 + 1}"
    if a < A.ACTIVATE0:
        k = a - A.THEATER0
        fig = s.display[k] if s.phase == Phase.THEATER else -1
        name = f" {R.FIGURES[fig]}" if fig >= 0 else ""
        return f"theater {k}{name} ({R.THEATER_COSTS[k]} BF)"
    if a < A.KEEP_FIG:
        return f"activate {R.FIGURES[a - A.ACTIVATE0]}"
    if a == A.KEEP_FIG:
        return "keep figure"
    if a == A.DISCARD_FIG:
        return "discard figure"
    if a < A.SOLVAY_ONE:
        return f"take {R.CUBES[a - A.NOBLE0]}"
    if a == A.SOLVAY_ONE:
        return "solvay one"
    if a == A.SOLVAY_SWAP:
        return "solvay swap"
    if a < A.NEEDLE0:
        return f"pay {R.PAY[a - A.PAY0]}"
    if a < A.BUILD0:
        return f"needle {a - A.NEEDLE0 + 1}"
    if a < A.NEUTRAL0:
        return f"build {_space(s, a - A.BUILD0)}"
    if a < A.SHIELD0:
        return f"neutral {_space(s, a - A.NEUTRAL0)}"
    if a < A.POWER0:
        k = a - A.SHIELD0
        if s.phase == Phase.SHIELD and s.stock >= 0:
            r, c = R.STOCK_SHIELDS[s.n][s.stock][k]
            return f"shield {k + 1} ({r}-{c})"
        return f"shield {k + 1}"
    if a < A.TUCK0:
        k = a - A.POWER0
        if s.phase == Phase.BONUS:
            return f"bonus power {k + 1} ({''.join(R.BONUS[s.ctx[0]][0][k])})"
        return f"bonus power {k + 1}"
    if a < A.NUM_ACTIONS:
        r = a - A.TUCK0
        return f"tuck row {r + 1} ({R.ROW_TITLES[r]})"
    raise ValueError(f"action id {a} is outside Bruxelles' layout (0-{A.NUM_ACTIONS - 1})")
