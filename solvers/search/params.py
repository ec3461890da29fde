"""The search agents' parameters, declared once: type, default, accepted values, how
``auto`` is chosen per game, and what a tuner may vary. The kinds ``mcts``, ``ismcts`` and
``pimc`` are built from them; the refusals that depend on several parameters or on the game
live in ``make``.
"""

from __future__ import annotations

from solvers import value_model
from solvers.base import MAX_COUNT, MAX_SECONDS, Auto, AutoValues, Param
from solvers.search.checks import evaluation_or_none as _evaluation
from solvers.search.checks import game_heuristic
from spiel_games.common.registry import get_spec

ROLLOUT_DEPTH = 20  # rollout_depth=auto with eval=score: random moves, then scores()
PRIOR_W = 1.0
# The upper bound of the unbounded-looking weights (uct_c, prior_w, unprune, widen): far past
# any useful value (returns are normalised to [0, 1]; 1000*sqrt(v) children is every move of
# any game), and small enough that its product with a budget is a finite number (an
# ismcts(widen=1e308) failed in the middle of its search converting infinity to an int).
MAX_WEIGHT = 1000.0


class GameAuto(AutoValues):
    """What the ``auto`` rules read: the game's heuristic, its evaluation, the search
    settings measured with it (``SearchDefaults``), and the other parameters."""

    def __init__(self, game, values):
        super().__init__(COMMON, values, game)
        self.heuristic = game_heuristic(game)
        self.evaluation = _evaluation(game)
        self.defaults = None
        if self.evaluation is not None:
            self.defaults = get_spec(game.get_type().short_name).search_defaults

    @property
    def evaluated(self) -> bool:
        """Leaves are valued by an estimate of final scores (eval=game or learned)."""
        return self["eval"] in ("game", "learned")

    @property
    def evaluated_with_heuristic(self) -> bool:
        return self.evaluated and self.heuristic is not None


def _auto_eval(v: GameAuto) -> str:
    if v.defaults is None:
        return "score"
    if v.defaults.eval_auto == "learned" and value_model.shipped_path(v.evaluation).exists():
        return "learned"
    return "game"


def _auto_rollout(v: GameAuto) -> str:
    use = v.defaults is not None and v.evaluated_with_heuristic
    return v.defaults.eval_rollout if v.defaults is not None and use else "random"


def _auto_depth(v: GameAuto) -> int:
    if v.evaluated and v.defaults is not None:
        return v.defaults.eval_depth
    return ROLLOUT_DEPTH  # (with eval=game on a game without evaluation, make refuses)


def _auto_unprune(v: GameAuto) -> float:
    use = v["prior"] in ("heuristic", "blueprint") and v.evaluated
    return v.defaults.unprune if v.defaults is not None and use else 0.0


def _auto_until(v: GameAuto) -> float:
    use = v["opponents"] in ("search", "infer") and v.evaluated_with_heuristic
    return v.defaults.opp_until if v.defaults is not None and use else 0.0


def _auto_tree_depth(v: GameAuto) -> int:
    return v.defaults.tree_depth if v.defaults is not None and v.evaluated else 0


_EVALUATED = "eval=game|learned"

COMMON: tuple[Param, ...] = (
    Param(
        "time",
        float,
        0.0,
        "seconds per move; when > 0 it replaces the simulation budget "
        "(then moves are no longer exactly reproducible)",
        range=(0.0, MAX_SECONDS),
        special=((0.0, "the sims budget"),),
    ),
    Param(
        "uct_c",
        float,
        1.4,
        "UCB exploration constant (returns normalised to [0, 1])",
        range=(0.0, MAX_WEIGHT),  # returns in [0, 1]: 1000 is exploration alone
        tunable=True,
        tune=(0.05, 5.0),
        log=True,
    ),
    Param(
        "rollout",
        str,
        "auto",
        "rollout policy: random, heuristic (the game's baseline; slower per simulation), or "
        "blueprint (moves sampled from the blueprint's strategy)",
        choices=("random", "heuristic", "blueprint"),
        auto=Auto(
            "auto", f"the game's measured policy with {_EVALUATED}, else random", _auto_rollout
        ),
        tunable=True,
    ),
    Param(
        "epsilon",
        float,
        0.0,
        "heuristic or blueprint rollouts play a uniformly random legal move with this probability",
        range=(0.0, 1.0),
        tunable=True,
    ),
    Param(
        "rollout_depth",
        int,
        -2,
        "moves per rollout before the position is evaluated (see eval); "
        "0 evaluates the new leaf at once",
        range=(0, None),
        special=((-1, "to the end"),),
        auto=Auto(
            -2,
            f"{ROLLOUT_DEPTH} with eval=score, the game's measured depth with {_EVALUATED}",
            _auto_depth,
        ),
        tunable=True,
        tune=(0, 30),
    ),
    Param(
        "eval",
        str,
        "auto",
        "evaluation at the rollout cut-off: score (the current scores under the game's "
        "utility), game (the game's estimate of final scores from the whole position: "
        "money, goods, cards, pending majorities, rounds left; turned into expected "
        "returns) or learned (the same features weighed by a value model fitted to "
        "self-play games, see model and `meeple train`)",
        choices=("score", "game", "learned"),
        auto=Auto(
            "auto",
            "the game's measured choice (learned on Bruxelles 1893, game elsewhere; "
            "score without an evaluation)",
            _auto_eval,
        ),
        tunable=True,
    ),
    Param(
        "model",
        str,
        "",
        "value model file for eval=learned (JSON written by `meeple train`); empty = "
        "the model the game ships beside its evaluation module",
    ),
    Param(
        "prior",
        str,
        "auto",
        "move prior: none, heuristic (the heuristic's move at each node is tried "
        "first and gets a progressive bias prior_w/(n+1)) or blueprint (the same for the "
        "blueprint's most likely move, the heuristic's where it has no row; see blueprint)",
        choices=("none", "heuristic", "blueprint"),
        auto=Auto(
            "auto",
            "heuristic where the game has one",
            lambda v: "heuristic" if v.heuristic is not None else "none",
        ),
        tunable=True,
    ),
    Param(
        "prior_w",
        float,
        PRIOR_W,
        "weight of the heuristic prior (returns in [0, 1])",
        range=(0.0, MAX_WEIGHT),  # returns in [0, 1]: 1000 always plays the hint
        tunable=True,
        tune=(0.05, 10.0),
        log=True,
    ),
    Param(
        "qnorm",
        str,
        "auto",
        "exploration on the returns' scale: uct_c and prior_w multiplied by the standard "
        "deviation of the returns seen at the node",
        choices=("on", "off"),
        auto=Auto(
            "auto",
            f"on with {_EVALUATED}, whose move-to-move differences are small",
            lambda v: "on" if v.evaluated else "off",
        ),
        tunable=True,
    ),
    Param(
        "settle",
        str,
        "auto",
        "at the rollout cut-off the game's heuristic finishes the turn of the player who "
        "made the last tree move (its pending sub-choices) before the evaluation",
        choices=("on", "off"),
        auto=Auto(
            "auto",
            f"on with {_EVALUATED} where the game has a heuristic",
            lambda v: "on" if v.evaluated_with_heuristic else "off",
        ),
        tunable=True,
    ),
    Param(
        "opponents",
        str,
        "auto",
        "the other players' decisions inside the tree: search (UCB on their own returns), "
        "heuristic (the game's heuristic plays them, so the budget goes to the mover's "
        "own decisions), infer (each decision the heuristic's with the probability "
        "inferred from the moves that player made so far in the game, else searched) or "
        "blueprint (moves sampled from the blueprint's average strategy, the heuristic's "
        "where it has no row; see blueprint)",
        choices=("search", "heuristic", "infer", "blueprint"),
        auto=Auto(
            "auto",
            f"infer with {_EVALUATED} where the game has a heuristic (docs/STRENGTH.md)",
            lambda v: "infer" if v.evaluated_with_heuristic else "search",
        ),
        tunable=True,
    ),
    Param(
        "root",
        str,
        "auto",
        "how the root move is chosen: ucb (like every other node, most visits wins) or "
        "halving (sequential halving over the root moves, each pass simulating every "
        "surviving move on the same sampled world and chance draws; the better half "
        "survives each round)",
        choices=("ucb", "halving"),
        auto=Auto(
            "auto",
            f"halving with {_EVALUATED}; pimc always ucb",
            lambda v: "halving" if v.evaluated else "ucb",
        ),
        tunable=True,
    ),
    Param(
        "opp_eps",
        float,
        0.0,
        "with opponents=heuristic: each modelled opponent decision is a uniformly random "
        "legal move with this probability (robustness to players unlike the heuristic; "
        "0.25 measured no stronger than 0)",
        range=(0.0, 1.0),
        tunable=True,
        tune=(0.0, 0.5),
    ),
    Param(
        "opp_share",
        float,
        0.5,
        "with opponents=infer: the prior share of a player's decisions the heuristic makes",
        range=(0.0, 1.0),
        tunable=True,
    ),
    Param(
        "opp_prior",
        float,
        4.0,
        "with opponents=infer: the prior's weight, in observed decisions (large: a fixed "
        "mixture of the two models with weight opp_share)",
        range=(0.0, 1e6),  # 10^6 observations: the fixed mixture
        tunable=True,
        tune=(0.5, 64.0),
        log=True,
    ),
    Param(
        "opp_fit",
        str,
        "match",
        "with opponents=infer: how a player's decisions move q: match (q is the posterior "
        "share of their moves that match the heuristic's) or mixture (q is the posterior "
        "weight of the heuristic in a mixture with a uniformly random player, so a player "
        "who is the heuristic tends to 1 even where its moves depend on hidden cards)",
        choices=("match", "mixture"),
        tunable=True,
    ),
    Param(
        "opp_until",
        float,
        -1.0,
        "with opponents=search or infer: a searched opponent decision is the heuristic's "
        "move in the simulated world (an edge without statistics) until its node has been "
        "reached opp_until*sims times, and searched from then on, so thinly visited "
        "opponent nodes play like the heuristic with that world's cards instead of trying "
        "every move in turn",
        range=(0.0, 1.0),
        special=((0.0, "off: searched from the first visit"),),
        auto=Auto(
            -1.0,
            f"the game's measured value with {_EVALUATED} and opponents=search|infer",
            _auto_until,
        ),
        tunable=True,
        tune=(0.0, 0.5),
    ),
    Param(
        "unprune",
        float,
        -1.0,
        "progressive unpruning below the root: a decision node there plays only the "
        "heuristic's move until reached T = unprune*sims times, then gains one more move "
        "per T visits (so later turns in the tree stay close to sensible play)",
        range=(0.0, MAX_WEIGHT),  # T = unprune*sims is an int: bounded
        special=((0.0, "off"),),
        auto=Auto(
            -1.0,
            f"the game's measured value with {_EVALUATED} and prior=heuristic|blueprint",
            _auto_unprune,
        ),
        tunable=True,
        tune=(0.0, 1.0),
    ),
    Param(
        "tree_depth",
        int,
        -1,
        "searched decisions on a simulation's path below the root before its position "
        "is evaluated (the root's move counts one); later simulations through that node "
        "evaluate it again in other sampled worlds",
        range=(0, MAX_COUNT),
        special=((0, "no limit"),),
        auto=Auto(-1, f"the game's measured value with {_EVALUATED}", _auto_tree_depth),
    ),
    Param(
        "widen",
        float,
        0.0,
        "progressive widening: a node reached v times keeps at most "
        "max(2, widen*sqrt(v)) children (for huge branching, e.g. 2.0)",
        range=(0.0, MAX_WEIGHT),  # 1000*sqrt(v) keeps every child of any game
        special=((0.0, "off"),),
        tunable=True,
        tune=(0.0, 4.0),
    ),
    Param(
        "blueprint",
        str,
        "",
        "blueprint file (.npz, `meeple solve`) for prior=, opponents= or rollout=blueprint; "
        "empty: the one the game ships for this game string",
    ),
)


def resolve_auto(game, params: dict) -> dict:
    """Fill the ``auto`` choices for this game: the strongest measured settings
    (docs/STRENGTH.md) where the game provides the pieces, the plain ones otherwise.
    ``eval=learned`` takes the same settings as ``eval=game`` (both estimate final scores)."""
    return GameAuto(game, params).resolved()
