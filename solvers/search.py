"""Monte Carlo tree search for every registered game: MCTS, IS-MCTS and PIMC.

One engine serves the three agents. A simulation starts from a *world*: the
real state for perfect-information games, or a determinization drawn through the
game's ``resample_from_infostate`` (IS-MCTS). It walks a tree whose edges are
action ids, sampling chance outcomes with their exact probabilities, expands one
new node, finishes with a rollout (random or the game's heuristic, optionally cut
after ``rollout_depth`` moves and scored from ``state.scores()`` or, with
``evaluation="game"``, from the game's evaluation module as soft returns), and backs up
every player's return (multi-player: each edge stores the value for the player
who chose it). Selection is UCB1 with availability counts (Cowling et al.'s
single-observer IS-MCTS), which reduces to plain UCT when every legal action is
always available. With ``opponents="heuristic"`` the other players' decisions
inside the tree are played by the game's heuristic (an opponent model) and only the
root player's own decisions are searched. With ``root="halving"`` the root move is
chosen by sequential halving over paired samples (every surviving move simulated on the
same determinization and chance draws) instead of UCB. With ``unprune`` > 0 a decision
node below the root plays only the heuristic's move until it has been reached
``unprune * sims`` times, then gains one move per that many visits (progressive
unpruning); ``unprune=1`` leaves every later turn in the tree to the heuristic.

Why not OpenSpiel's bots: pyspiel's C++ ``MCTSBot``/``ISMCTSBot`` segfault on
Python games, and the Python bots key nodes by information-state strings and go
through the pybind bridge at every step. This engine calls the game's own Python
methods (``_legal_actions``, ``_apply_action``) and keeps statistics on edges, which
is several times faster (see docs/BENCHMARKS.md). It relies on the STYLE.md rule that
a state keeps every fact in its own attributes (never in pyspiel's history).

Known simplification: tree edges are keyed by action ids, including chance
outcomes and hidden actions, so nodes *below* the root may separate worlds the
root player cannot tell apart. The root decision only ever uses what the root
player knows (every simulation starts from a resampled world).
"""

from __future__ import annotations

import math
import random
import time

import numpy as np
import pyspiel

from solvers import value_model
from solvers.base import Agent, AgentKind, Analysis, MoveStat, Param
from solvers.fastpath import transition_functions
from solvers.spec import AgentSpecError
from spiel_games.common.chance import UniformSampler as _Sampler
from spiel_games.common.chance import sample_chance
from spiel_games.common.registry import get_spec
from spiel_games.common.utility import returns_from_keys

TERMINAL = int(pyspiel.PlayerId.TERMINAL)
# Defaults of the search agents' tuning parameters (measured in docs/STRENGTH.md).
ROLLOUT_DEPTH = 20  # with eval=score: random rollouts scored from scores() when cut
AUTO = -2  # rollout_depth=-2: chosen by resolve_auto
AUTO_UNPRUNE = -1.0  # unprune=-1: the game's GameSpec.unprune (with prior=heuristic)
# rollout_depth with eval=game or learned comes from the game's GameSpec.eval_depth
PRIOR_W = 1.0
SETTLE_STEPS = 6  # at most this many heuristic moves to finish a turn at the cut-off
_Z95 = 1.959964


class Node:
    """Statistics of one edge (the action that leads here) and its children."""

    __slots__ = ("n", "w", "w2", "avail", "visits", "children", "hint")

    def __init__(self):
        self.hint = -2  # the heuristic's move at this decision node; -2 = not asked yet
        self.n = 0
        self.visits = 0  # times this node was reached as a decision (progressive widening)
        self.w = 0.0  # sum of normalised returns for the player who chose the edge
        self.w2 = 0.0
        self.avail = 0  # simulations in which this edge was legal at its parent
        self.children: dict[int, Node] = {}


def has_hidden_information(game) -> bool:
    return game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION


class SearchEngine:
    """UCT / SO-IS-MCTS over one game; ``search(state)`` returns the root node."""

    def __init__(
        self,
        game,
        rng: random.Random,
        uct_c: float = 1.4,
        rollout: str = "random",
        rollout_depth: int = 20,
        determinize: bool = False,
        widen: float = 0.0,
        evaluation: str = "score",
        prior: str = "none",
        prior_w: float = 1.0,
        epsilon: float = 0.0,
        qnorm: bool = False,
        settle: bool = False,
        opponents: str = "search",
        root: str = "ucb",
        opp_eps: float = 0.0,
        unprune: float = 0.0,
        model: str = "",
    ):
        self.game = game
        self.rng = rng
        self.np_rng = np.random.default_rng(rng.getrandbits(63))
        self.uct_c = uct_c
        self.rollout_depth = rollout_depth
        self.determinize = determinize
        # Progressive widening: a decision node reached v times may have at most
        # max(2, widen * sqrt(v)) children; 0 = off (every legal move is tried first).
        self.widen = widen
        self.lo = float(game.min_utility())
        hi = float(game.max_utility())
        self.span = (hi - self.lo) or 1.0
        self.utility = str(game.get_parameters().get("utility", "rank"))
        self.heuristic = None
        wanted = {
            "heuristic rollouts": rollout == "heuristic",
            "prior=heuristic": prior == "heuristic",
            "settle": settle,
            "opponents=heuristic": opponents == "heuristic",
        }
        heuristic = None
        if any(wanted.values()):
            spec = get_spec(game.get_type().short_name)
            if spec.heuristic is None:
                use = next(k for k, v in wanted.items() if v)
                raise ValueError(f"{spec.short_name} has no heuristic for {use}")
            heuristic = spec.heuristic
        if rollout == "heuristic":
            self.heuristic = heuristic
        # At the rollout cut-off, the heuristic finishes the turn of the player who made
        # the last tree move (its sub-choices), at most SETTLE_STEPS moves.
        self.settle = heuristic if settle else None
        # Epsilon-greedy heuristic rollouts: a random legal move with probability epsilon.
        self.epsilon = epsilon
        # Progressive bias (Chaslot et al. 2008): the heuristic's move at a decision
        # node is expanded first and gets prior_w / (n + 1) added to its UCB value.
        self.prior = heuristic if prior == "heuristic" else None
        self.prior_w = prior_w
        # Exploration on the returns' own scale (UCB-V style): at a decision node the
        # exploration term and the prior bias are multiplied by the standard deviation of
        # the returns seen below it, so they meet value differences on the scale of the
        # noise (an evaluation's move-to-move differences are a few hundredths of the
        # return range, far below the fixed uct_c's reach).
        self.qnorm = qnorm
        # Opponent model: with opponents="heuristic" the other players' decisions inside
        # the tree are the heuristic's moves (kept as edges, like chance outcomes, with
        # no statistics), so the budget goes to the root player's own decisions.
        self.opponent = heuristic if opponents == "heuristic" else None
        # A noisy opponent model: with probability opp_eps a modelled opponent plays a
        # uniformly random legal move instead of the heuristic's (robustness to players
        # who are not the heuristic).
        self.opp_eps = opp_eps
        self.root_player = -1
        # Root policy: "ucb" selects root moves like every other node; "halving" runs
        # sequential halving over the root moves (Karnin et al. 2013, as in Gumbel
        # MuZero's root) with common random numbers: in each pass every surviving move is
        # simulated on the same sampled world with the same chance draws, so moves are
        # compared on paired samples and the budget decides which of them is best.
        self.halving = root == "halving"
        # Progressive unpruning below the root (Chaslot et al. 2008): a decision node
        # other than the root keeps only the heuristic's move until it has been reached
        # T times, then gains one more move per T visits, with T = unprune * sims (so
        # the share of the budget that opens a new move is the same at every budget).
        if unprune > 0 and self.prior is None:
            raise ValueError("unprune needs prior=heuristic (the move a node starts with)")
        self.unprune = unprune
        self.unprune_t = 0  # T of the current search (set by search())
        if evaluation == "game":
            self.estimator = game_evaluation(game)
        elif evaluation == "learned":
            self.estimator = learned_evaluation(game, model)
        else:
            self.estimator = None
        self.n_players = game.num_players()
        self.sampler = _Sampler(rng)
        self.sims_done = 0
        self._apply, self._legal = transition_functions(game)
        self.world = world_sampler(game)

    # ----- budget loop -------------------------------------------------------------
    def search(self, state, sims: int, seconds: float = 0.0, root: Node | None = None) -> Node:
        root = root or Node()
        player = state.current_player()
        self.root_player = player
        # with a time budget the sims parameter still sets the unpruning scale
        self.unprune_t = max(1, round(self.unprune * sims)) if self.unprune > 0 else 0
        if self.halving and player >= 0:
            legal = self._legal(state, player)
            if len(legal) > 1:
                self.sims_done = self._halving(state, root, legal, sims, seconds)
                return root
        t_end = time.perf_counter() + seconds if seconds > 0 else None
        done = 0
        while True:
            if t_end is not None:
                if done > 0 and time.perf_counter() >= t_end:
                    break
            elif done >= sims:
                break
            self._simulate(root, self._world(state, player))
            done += 1
        self.sims_done = done
        return root

    def _world(self, state, player: int):
        return self.world(state, player, self.sampler) if self.determinize else state.clone()

    def _halving(self, state, root: Node, legal: list[int], sims: int, seconds: float) -> int:
        """Sequential halving over the root moves with paired samples; returns the
        simulations run. Each round gives every surviving move the same number of
        passes (one pass = one world, every survivor simulated on a copy of it with the
        random stream rewound), then keeps the better half by mean value (before the
        last round the heuristic's move gets the progressive bias as a tie-breaker; the
        last round is decided by the mean alone, as ``best_action`` would). The winner
        also gets the 0-1 simulations left over: it is the most visited move, or tied
        with the runner-up and ahead on mean. A budget below about twice the number of
        moves is exceeded (every round runs at least one pass)."""
        rng, np_rng = self.rng, self.np_rng
        player = self.root_player
        alive = list(legal)
        # the heuristic's move for the mover, asked on the state the agent was given (as
        # the heuristic agent itself is: it reads only what the mover may see)
        hint = self.prior(state, self.np_rng) if self.prior is not None else -1
        if self.widen > 0 and seconds <= 0:
            # progressive widening's bound for a root reached `sims` times: the
            # heuristic's move (if any) and random others
            keep = max(2, int(self.widen * math.sqrt(sims)))
            if keep < len(alive):
                rest = [a for a in alive if a != hint]
                rng.shuffle(rest)
                alive = ([hint] if hint in alive else []) + rest
                alive = alive[:keep]
        rounds = max(1, math.ceil(math.log2(len(alive))))
        t_end = time.perf_counter() + seconds if seconds > 0 else None
        done = 0
        for r in range(rounds):
            left = rounds - r
            if t_end is None:
                passes = max(1, (sims - done) // (len(alive) * left))
                slice_end = None
            else:
                passes = 1 << 62
                slice_end = time.perf_counter() + max(0.0, t_end - time.perf_counter()) / left
            k = 0
            while k < passes:
                if k > 0 and slice_end is not None and time.perf_counter() >= slice_end:
                    break
                world = self._world(state, player)
                # the pass's own stream, rewound for every move (the engine's stream
                # moves on by one draw per pass, so passes never repeat each other)
                stream = random.Random(rng.getrandbits(64))
                np_stream = np.random.default_rng(rng.getrandbits(63))
                saved, np_saved = stream.getstate(), np_stream.bit_generator.state
                last = len(alive) - 1
                self.rng, self.np_rng = stream, np_stream
                try:
                    for i, a in enumerate(alive):
                        stream.setstate(saved)
                        np_stream.bit_generator.state = np_saved
                        self._simulate(root, world if i == last else world.clone(), a)
                finally:
                    self.rng, self.np_rng = rng, np_rng
                done += len(alive)
                k += 1
            if len(alive) > 1:
                alive = self._keep_better_half(root, alive, hint)
        # whole passes leave fewer simulations than the last round's moves: they go to
        # the winner, so the budget is spent exactly and the winner is the most visited
        while t_end is None and done < sims:
            self._simulate(root, self._world(state, player), alive[0])
            done += 1
        return done

    def _keep_better_half(self, root: Node, alive: list[int], hint: int) -> list[int]:
        kids = [root.children[a] for a in alive]
        tn = sum(ch.n for ch in kids)
        m = sum(ch.w for ch in kids) / tn
        sd = math.sqrt(max(sum(ch.w2 for ch in kids) / tn - m * m, 1e-6))

        final = len(alive) <= 2  # one move survives: the pick, by mean alone (as best_action)

        def score(a):
            ch = root.children[a]
            bias = self.prior_w * sd / (ch.n + 1) if a == hint and not final else 0.0
            return (ch.w / ch.n + bias, -a)

        ranked = sorted(alive, key=score, reverse=True)
        return ranked[: (len(alive) + 1) // 2]

    # ----- one simulation ----------------------------------------------------------
    def _simulate(self, root: Node, state, first: int = -1) -> None:
        """One simulation from ``state`` (at ``root``); ``first`` >= 0 forces the root
        player's first decision (sequential halving's paired samples)."""
        rng = self.rng
        c = self.uct_c
        log = math.log
        sqrt = math.sqrt
        path: list[tuple[Node, int]] = []
        node = root
        opponent, me, opp_eps = self.opponent, self.root_player, self.opp_eps
        unprune_t = self.unprune_t
        while True:
            p = state.current_player()
            a = -1  # a move that is not searched: a chance outcome or a modelled opponent's
            if p < 0:
                if p == TERMINAL:
                    ret = state.returns()
                    break
                a = sample_chance(state, rng)
            elif opponent is not None and p != me:
                if opp_eps > 0.0 and rng.random() < opp_eps:
                    legal = self._legal(state, p)
                    a = legal[rng.randrange(len(legal))]
                else:
                    a = opponent(state, self.np_rng)
            if a >= 0:
                self._apply(state, a)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = Node()
                node = child
                continue
            legal = self._legal(state, p)
            children = node.children
            if first >= 0:  # the forced root move
                a, first = first, -1
                if a not in legal:
                    raise RuntimeError("the world's resampler changed the mover's legal moves")
                # (no availability counts: the root's moves are never chosen by UCB here)
                new = a not in children
                child = children[a] = Node() if new else children[a]
                path.append((child, p))
                self._apply(state, a)
                if new:  # expanded: evaluate it, as a newly expanded move is
                    ret = self._rollout(state, p)
                    break
                node = child
                continue
            if len(legal) == 1:
                a = legal[0]
                child = children.get(a)
                if child is None:
                    child = children[a] = Node()
                child.avail += 1
                path.append((child, p))
                self._apply(state, a)
                node = child
                continue
            hint = -1
            if self.prior is not None:
                hint = node.hint
                if hint == -2:
                    hint = node.hint = self.prior(state, self.np_rng)
            untried = [a for a in legal if a not in children]
            if untried and self.widen > 0:
                node.visits += 1
                known = len(legal) - len(untried)
                if known > 0 and known >= max(2.0, self.widen * sqrt(node.visits)):
                    untried = []  # enough children here: select among the known ones
            if untried and unprune_t and node is not root:
                if self.widen <= 0:
                    node.visits += 1
                known = len(legal) - len(untried)
                # the heuristic's move alone until T visits, then one more per T
                if known > 0 and known >= 1 + (node.visits - 1) // unprune_t:
                    if known == 1 and hint in children and hint in legal:
                        # the only move open here: UCB would pick it (same counts)
                        child = children[hint]
                        child.avail += 1
                        path.append((child, p))
                        self._apply(state, hint)
                        node = child
                        continue
                    untried = []
            if untried:
                if hint >= 0 and hint not in children:
                    a = hint
                else:
                    a = untried[rng.randrange(len(untried))]
                children[a] = Node()
                for b in legal:
                    ch = children.get(b)
                    if ch is not None:
                        ch.avail += 1
                path.append((children[a], p))
                self._apply(state, a)
                ret = self._rollout(state, p)
                break
            best = None
            best_a = -1
            best_u = -1e300
            cc, pw = c, self.prior_w
            if self.qnorm:
                tn = 0
                tw = tw2 = 0.0
                for b in legal:
                    ch = children.get(b)
                    if ch is not None:
                        tn += ch.n
                        tw += ch.w
                        tw2 += ch.w2
                if tn:
                    m = tw / tn
                    sd = sqrt(max(tw2 / tn - m * m, 1e-6))
                    cc *= sd
                    pw *= sd
            for b in legal:
                ch = children.get(b)
                if ch is None:
                    continue  # not yet widened to
                ch.avail += 1
                u = ch.w / ch.n + cc * sqrt(log(ch.avail) / ch.n) if ch.n else 1e300
                if b == hint:
                    u += pw / (ch.n + 1)
                if u > best_u:
                    best_u, best, best_a = u, ch, b
            assert best is not None
            path.append((best, p))
            self._apply(state, best_a)
            node = best
        lo, span = self.lo, self.span
        for ch, p in path:
            v = (ret[p] - lo) / span
            ch.n += 1
            ch.w += v
            ch.w2 += v * v

    def _rollout(self, state, mover: int = -1) -> list[float]:
        rand = self.rng.random
        apply = self._apply
        legal_fn = self._legal
        depth = self.rollout_depth
        h = self.heuristic
        eps = self.epsilon
        finish = self.settle
        settle = SETTLE_STEPS if finish is not None else 0
        steps = 0
        while True:
            p = state.current_player()
            if p < 0:
                if p == TERMINAL:
                    return state.returns()
                x = rand()
                acc = 0.0
                outcomes = state.chance_outcomes()
                a = outcomes[-1][0]
                for o, q in outcomes:
                    acc += q
                    if x < acc:
                        a = o
                        break
                apply(state, a)
                continue
            if 0 <= depth <= steps:
                if p != mover or settle <= 0 or finish is None:
                    return self.evaluate(state)
                # the mover's turn is unfinished (a sub-choice is pending): the
                # heuristic completes it, so the evaluation sees a whole turn
                settle -= 1
                apply(state, finish(state, self.np_rng))
                continue
            if h is not None and (eps <= 0.0 or rand() >= eps):
                a = h(state, self.np_rng)
            else:
                legal = legal_fn(state, p)
                a = legal[int(rand() * len(legal))]
            apply(state, a)
            steps += 1

    def evaluate(self, state) -> list[float]:
        """Returns of a position cut off before the end.

        With the game's evaluation (``evaluation=game``): its estimate of every
        player's final score, turned into expected returns with its uncertainty
        (see ``soft_returns``). Otherwise: as if the game ended now (the utility
        mode applied to current scores)."""
        est = self.estimator
        if est is not None:
            return soft_returns(
                self.utility, est.estimate(state), est.spread(state), self.lo, self.lo + self.span
            )
        scores = getattr(state, "scores", None)
        if not callable(scores):
            self.rollout_depth = -1  # the game cannot be scored early: roll out to the end
            return self._rollout(state)
        return returns_from_keys(self.utility, scores())


def _resample(state, player: int, sampler):
    return state.resample_from_infostate(player, sampler)


def world_sampler(game):
    """How search draws a world from an information state: the game's ``world_sampler``
    (which may leave ``history()`` as the real game's: search never reads it), else
    OpenSpiel's ``resample_from_infostate``."""
    try:
        spec = get_spec(game.get_type().short_name)
    except KeyError:  # a game outside the registry (e.g. kuhn_poker)
        return _resample
    return spec.world_sampler or _resample


def game_evaluation(game):
    """The game's evaluation (``GameSpec.evaluation``, its evaluation module).

    It provides ``estimate(state) -> list[float]``, each player's expected final
    score, and ``spread(state) -> float``, the standard deviation of a difference
    between two players' final scores given the position (large early, small late).
    """
    name = game.get_type().short_name
    try:
        evaluation = get_spec(name).evaluation
    except KeyError:  # a game outside the registry (e.g. kuhn_poker)
        evaluation = None
    if evaluation is None:
        raise ValueError(f"{name} has no evaluation for evaluation=game")
    return evaluation


def learned_evaluation(game, path: str = ""):
    """The learned value model of ``eval=learned`` (``path``, or the game's shipped one),
    bound to the game's evaluation module's features (``solvers.value_model``)."""
    return value_model.model_for(game.get_type().short_name, game_evaluation(game), path)


def soft_returns(mode: str, est, spread: float, lo: float, hi: float) -> list[float]:
    """Expected returns when final scores are ``est`` plus independent noise.

    Player i beats j with probability sigmoid(1.7 (est_i - est_j) / spread), the
    logistic approximation of a normal difference. ``rank``: the expected rank
    return; ``win``: pairwise win chances multiplied, normalised to sum 1;
    ``score``: the estimates, clipped to the utility bounds.
    """
    n = len(est)
    if mode == "score":
        return [min(hi, max(lo, float(e))) for e in est]
    k = 1.7 / max(spread, 1e-9)
    exp = math.exp
    beat = [[0.5] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            d = k * (est[i] - est[j])
            q = 1.0 / (1.0 + exp(-d)) if d > -50.0 else 0.0
            beat[i][j] = q
            beat[j][i] = 1.0 - q
    if mode == "win":
        w = []
        for i in range(n):
            x = 1.0
            for j in range(n):
                if j != i:
                    x *= beat[i][j]
            w.append(x)
        total = sum(w) or 1.0
        return [x / total for x in w]
    if n == 1:
        return [0.0]
    return [sum(2.0 * beat[i][j] - 1.0 for j in range(n) if j != i) / (n - 1) for i in range(n)]


def root_analysis(state, root: Node, lo: float, span: float, budget: dict) -> Analysis:
    player = state.current_player()
    legal = state.legal_actions()
    moves = []
    for a in legal:
        ch = root.children.get(a)
        n = ch.n if ch else 0
        if ch is not None and n:
            mean = ch.w / n
            var = max(ch.w2 / n - mean * mean, 0.0)
            half = _Z95 * math.sqrt(var / n) if n > 1 else 1.0
            value = lo + mean * span
            moves.append(
                MoveStat(
                    a,
                    state.action_to_string(player, a),
                    n,
                    value,
                    value - half * span,
                    value + half * span,
                )
            )
        else:
            moves.append(MoveStat(a, state.action_to_string(player, a), 0, float("nan")))
    moves.sort(key=lambda m: (-m.visits, -(m.value if m.visits else -1e300), m.action))
    return Analysis(player=player, moves=moves, budget=budget)


def merge_into(total: dict[int, Node], root: Node) -> None:
    for a, ch in root.children.items():
        t = total.get(a)
        if t is None:
            t = total[a] = Node()
        t.n += ch.n
        t.w += ch.w
        t.w2 += ch.w2


class _SearchAgent(Agent):
    def __init__(self, game, params: dict, seed: int):
        self.game = game
        self.params = params
        self.seed = seed
        self.rng = random.Random(seed)
        self.hidden = has_hidden_information(game)
        self.last_sims = 0

    def _engine(self, determinize: bool) -> SearchEngine:
        p = self.params
        return SearchEngine(
            self.game,
            self.rng,
            uct_c=p["uct_c"],
            rollout=p["rollout"],
            rollout_depth=p["rollout_depth"],
            determinize=determinize,
            widen=p["widen"],
            evaluation=p["eval"],
            prior=p["prior"],
            prior_w=p["prior_w"],
            epsilon=p["epsilon"],
            qnorm=p["qnorm"] == "on",
            settle=p["settle"] == "on",
            opponents=p["opponents"],
            root=p["root"],
            opp_eps=p["opp_eps"],
            unprune=p["unprune"],
            model=p["model"],
        )

    def _budget(self) -> dict:
        if self.params.get("time", 0.0) > 0:
            return {"seconds": self.params["time"]}
        return {"sims": self.params["sims"]}

    def _root(self, state) -> tuple[Node, SearchEngine]:
        raise NotImplementedError

    def analyse(self, state) -> Analysis:
        root, eng = self._root(state)
        budget = self._budget()
        budget["sims_done"] = self.last_sims
        return root_analysis(state, root, eng.lo, eng.span, budget)

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root, _ = self._root(state)
        return best_action(root, legal)


def best_action(root: Node, legal) -> int:
    """Most visited legal move; ties broken by mean value, then by the lower id."""

    def key(a):
        ch = root.children.get(a)
        if ch is None or ch.n == 0:
            return (0, -1.0, -a)
        return (ch.n, ch.w / ch.n, -a)

    return max(legal, key=key)


class MCTSAgent(_SearchAgent):
    """UCT on the true state. On a game with hidden information it searches one
    world sampled from the mover's information state per move (it never peeks)."""

    def _root(self, state):
        eng = self._engine(determinize=False)
        world = state
        if self.hidden:
            world = eng.world(state, state.current_player(), eng.sampler)
        root = eng.search(world, self.params["sims"], self.params["time"])
        self.last_sims = eng.sims_done
        return root, eng


class ISMCTSAgent(_SearchAgent):
    """Single-observer IS-MCTS: every simulation starts from a fresh determinization."""

    def _root(self, state):
        eng = self._engine(determinize=self.hidden)
        root = eng.search(state, self.params["sims"], self.params["time"])
        self.last_sims = eng.sims_done
        return root, eng


class PIMCAgent(_SearchAgent):
    """Perfect-information Monte Carlo: sample `worlds` determinizations, run UCT in
    each (always the UCB root: the vote is the visits summed over worlds)."""

    def _budget(self) -> dict:
        if self.params["time"] > 0:
            return {"seconds": self.params["time"], "worlds": self.params["worlds"]}
        return {"worlds": self.params["worlds"], "sims": self.params["sims"]}

    def _root(self, state):
        eng = self._engine(determinize=False)
        worlds = self.params["worlds"]
        per_world_time = self.params["time"] / worlds if self.params["time"] > 0 else 0.0
        total = Node()
        sims = 0
        player = state.current_player()
        for _ in range(worlds):
            world = eng.world(state, player, eng.sampler) if self.hidden else state
            root = eng.search(world, self.params["sims"], per_world_time)
            sims += eng.sims_done
            merge_into(total.children, root)
        self.last_sims = sims
        return total, eng


# ----- registration ------------------------------------------------------------------
# The string parameters and their values ("auto" is resolved per game by resolve_auto).
_CHOICES = {
    "rollout": ("auto", "random", "heuristic"),
    "eval": ("auto", "score", "game", "learned"),
    "prior": ("auto", "none", "heuristic"),
    "qnorm": ("auto", "on", "off"),
    "settle": ("auto", "on", "off"),
    "opponents": ("auto", "search", "heuristic"),
    "root": ("auto", "ucb", "halving"),
}


def _check(params: dict, kind: str) -> dict:
    for name in ("sims", "worlds"):
        if name in params and params[name] < 1:
            raise AgentSpecError(f"parameter {name!r} of agent {kind!r} must be >= 1")
    if params["time"] < 0:
        raise AgentSpecError(f"parameter 'time' of agent {kind!r} must be >= 0")
    if params["widen"] < 0:
        raise AgentSpecError(f"parameter 'widen' of agent {kind!r} must be >= 0")
    if params["rollout_depth"] < AUTO:
        raise AgentSpecError(
            f"parameter 'rollout_depth' of agent {kind!r} must be >= 0, -1 (to the end) "
            "or -2 (auto)"
        )
    if params["uct_c"] < 0:
        raise AgentSpecError(f"parameter 'uct_c' of agent {kind!r} must be >= 0")
    for name, options in _CHOICES.items():
        if params[name] not in options:
            allowed = ", ".join(options[:-1]) + " or " + options[-1]
            raise AgentSpecError(
                f"parameter {name!r} of agent {kind!r} must be {allowed}, got {params[name]!r}"
            )
    if params["prior_w"] < 0:
        raise AgentSpecError(f"parameter 'prior_w' of agent {kind!r} must be >= 0")
    if not 0.0 <= params["opp_eps"] <= 1.0:
        raise AgentSpecError(f"parameter 'opp_eps' of agent {kind!r} must be in [0, 1]")
    if params["unprune"] < 0 and params["unprune"] != AUTO_UNPRUNE:
        raise AgentSpecError(
            f"parameter 'unprune' of agent {kind!r} must be >= 0 (0 = off) or -1 (auto)"
        )
    if not 0.0 <= params["epsilon"] <= 1.0:
        raise AgentSpecError(f"parameter 'epsilon' of agent {kind!r} must be in [0, 1]")
    return params


def _game_heuristic(game):
    """The registered game's heuristic, or None (also for games outside the registry)."""
    try:
        return get_spec(game.get_type().short_name).heuristic
    except (KeyError, ValueError):
        return None


def _has_evaluation(game) -> bool:
    try:
        game_evaluation(game)
    except ValueError:
        return False
    return True


def _auto_eval(game) -> str:
    """eval=auto: the game's measured choice (``GameSpec.eval_auto``) when it has an
    evaluation (and, for ``learned``, ships a value model), else ``score``."""
    if not _has_evaluation(game):
        return "score"
    spec = get_spec(game.get_type().short_name)
    if spec.eval_auto == "learned" and value_model.shipped_path(spec.evaluation).exists():
        return "learned"
    return "game"


def resolve_auto(game, params: dict) -> dict:
    """Fill the ``auto`` choices for this game: the strongest measured settings
    (docs/STRENGTH.md) where the game provides the pieces, the plain ones otherwise.
    ``eval=learned`` takes the same settings as ``eval=game`` (both estimate final scores)."""
    out = dict(params)
    if out["eval"] == "auto":
        out["eval"] = _auto_eval(game)
    evaluated = out["eval"] in ("game", "learned")
    if out["rollout"] == "auto":
        spec = get_spec(game.get_type().short_name) if _has_evaluation(game) else None
        use = evaluated and _game_heuristic(game) is not None
        out["rollout"] = spec.eval_rollout if spec is not None and use else "random"
    if out["rollout_depth"] == AUTO:
        if evaluated:
            spec = get_spec(game.get_type().short_name) if _has_evaluation(game) else None
            out["rollout_depth"] = spec.eval_depth if spec else ROLLOUT_DEPTH  # make refuses
        else:
            out["rollout_depth"] = ROLLOUT_DEPTH
    if out["qnorm"] == "auto":
        out["qnorm"] = "on" if evaluated else "off"
    if out["settle"] == "auto":
        has = evaluated and _game_heuristic(game) is not None
        out["settle"] = "on" if has else "off"
    if out["prior"] == "auto":
        out["prior"] = "heuristic" if _game_heuristic(game) is not None else "none"
    if out["opponents"] == "auto":
        has = evaluated and _game_heuristic(game) is not None
        out["opponents"] = "heuristic" if has else "search"
    if out["root"] == "auto":
        out["root"] = "halving" if evaluated else "ucb"
    if out["unprune"] == AUTO_UNPRUNE:
        spec = get_spec(game.get_type().short_name) if _has_evaluation(game) else None
        use = out["prior"] == "heuristic" and evaluated
        out["unprune"] = spec.unprune if spec is not None and use else 0.0
    return out


def _factory(cls, kind):
    def make(game, params, seed):
        if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise AgentSpecError(f"agent {kind!r} needs a sequential game")
        params = _check(dict(params), kind)
        if kind == "pimc":
            # PIMC votes with the visits summed over its worlds; halving's visits say how
            # long a move survived, not that it won, so its worlds keep the UCB root
            if params["root"] == "halving":
                raise AgentSpecError(
                    "agent 'pimc' votes by visits over its worlds: root=halving is for "
                    "mcts and ismcts"
                )
            params["root"] = "ucb"
        params = resolve_auto(game, params)
        if params["settle"] == "on" and _game_heuristic(game) is None:
            raise AgentSpecError(f"agent {kind!r}: this game has no heuristic for settle=on")
        for name in ("rollout", "prior", "opponents"):
            if params[name] == "heuristic" and _game_heuristic(game) is None:
                raise AgentSpecError(
                    f"agent {kind!r}: this game has no heuristic for {name}=heuristic"
                )
        if params["opp_eps"] > 0 and params["opponents"] != "heuristic":
            raise AgentSpecError(
                f"agent {kind!r}: opp_eps is the noise of opponents=heuristic, but the "
                f"opponents here are {params['opponents']!r}"
            )
        if params["unprune"] > 0 and params["prior"] != "heuristic":
            raise AgentSpecError(
                f"agent {kind!r}: unprune opens a node with the heuristic's move, so it "
                f"needs prior=heuristic (here prior={params['prior']!r})"
            )
        if params["eval"] in ("game", "learned") and not _has_evaluation(game):
            raise AgentSpecError(
                f"agent {kind!r}: this game has no evaluation for eval={params['eval']}"
            )
        if params["model"] and params["eval"] != "learned":
            raise AgentSpecError(
                f"agent {kind!r}: model is the value model of eval=learned, but eval is "
                f"{params['eval']!r}"
            )
        if params["eval"] == "learned":
            try:
                learned_evaluation(game, params["model"])
            except value_model.ValueModelError as e:
                raise AgentSpecError(f"agent {kind!r}: {e}") from None
        return cls(game, params, seed)

    return make


def _kinds() -> tuple[AgentKind, ...]:
    common = (
        Param(
            "time",
            float,
            0.0,
            "seconds per move; when > 0 it replaces the simulation budget "
            "(then moves are no longer exactly reproducible)",
        ),
        Param("uct_c", float, 1.4, "UCB exploration constant (returns normalised to [0, 1])"),
        Param(
            "rollout",
            str,
            "auto",
            "rollout policy: random, heuristic (the game's baseline; slower per simulation) "
            "or auto (the game's measured policy with eval=game|learned, else random)",
        ),
        Param(
            "epsilon",
            float,
            0.0,
            "heuristic rollouts play a uniformly random legal move with this probability",
        ),
        Param(
            "rollout_depth",
            int,
            AUTO,
            "moves per rollout before the position is evaluated (see eval); "
            "0 evaluates the new leaf at once; -1 plays to the end; -2 = auto "
            f"({ROLLOUT_DEPTH} with eval=score, the game's measured depth with eval=game|learned)",
        ),
        Param(
            "eval",
            str,
            "auto",
            "evaluation at the rollout cut-off: score (the current scores under the game's "
            "utility), game (the game's estimate of final scores from the whole position: "
            "money, goods, cards, pending majorities, rounds left; turned into expected "
            "returns), learned (the same features weighed by a value model fitted to "
            "self-play games, see model and `meeple train`) or auto (the game's measured "
            "choice: learned on Bruxelles 1893, game elsewhere; score without an evaluation)",
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
            "first and gets a progressive bias prior_w/(n+1)) or auto (heuristic where "
            "the game has one)",
        ),
        Param("prior_w", float, PRIOR_W, "weight of the heuristic prior (returns in [0, 1])"),
        Param(
            "qnorm",
            str,
            "auto",
            "exploration on the returns' scale: uct_c and prior_w multiplied by the standard "
            "deviation of the returns seen at the node; on, off or auto (on with eval=game|learned, "
            "whose move-to-move differences are small)",
        ),
        Param(
            "settle",
            str,
            "auto",
            "at the rollout cut-off the game's heuristic finishes the turn of the player who "
            "made the last tree move (its pending sub-choices) before the evaluation: on, off "
            "or auto (on with eval=game|learned where the game has a heuristic)",
        ),
        Param(
            "opponents",
            str,
            "auto",
            "the other players' decisions inside the tree: search (UCB on their own returns), "
            "heuristic (the game's heuristic plays them, so the budget goes to the mover's own "
            "decisions) or auto (heuristic with eval=game|learned where the game has a heuristic)",
        ),
        Param(
            "root",
            str,
            "auto",
            "how the root move is chosen: ucb (like every other node, most visits wins) or "
            "halving (sequential halving over the root moves, each pass simulating every "
            "surviving move on the same sampled world and chance draws; the better half "
            "survives each round) or auto (halving with eval=game|learned; pimc always ucb)",
        ),
        Param(
            "opp_eps",
            float,
            0.0,
            "with opponents=heuristic: each modelled opponent decision is a uniformly random "
            "legal move with this probability (robustness to players unlike the heuristic; "
            "0.25 measured no stronger, docs/STRENGTH.md)",
        ),
        Param(
            "unprune",
            float,
            AUTO_UNPRUNE,
            "progressive unpruning below the root: a decision node there plays only the "
            "heuristic's move until reached T = unprune*sims times, then gains one more move "
            "per T visits (so later turns in the tree stay close to sensible play); 0 = off, "
            "-1 = auto (the game's measured value with eval=game|learned and prior=heuristic)",
        ),
        Param(
            "widen",
            float,
            0.0,
            "progressive widening: a node reached v times keeps at most "
            "max(2, widen*sqrt(v)) children (for huge branching, e.g. 2.0); 0 = off",
        ),
    )
    mcts = AgentKind(
        name="mcts",
        summary="UCT with sampled chance nodes and multi-player returns, for games without "
        "private information (on hidden-information games: one sampled world per move)",
        params=(Param("sims", int, 800, "simulations per move"),) + common,
        factory=_factory(MCTSAgent, "mcts"),
    )
    ismcts = AgentKind(
        name="ismcts",
        summary="single-observer information-set MCTS: each simulation starts from a world "
        "resampled from the mover's information state (plain UCT on perfect-information games)",
        params=(Param("sims", int, 2000, "simulations per move"),) + common,
        factory=_factory(ISMCTSAgent, "ismcts"),
    )
    pimc = AgentKind(
        name="pimc",
        summary="perfect-information Monte Carlo: sample worlds, run UCT in each, vote by visits",
        params=(
            Param("worlds", int, 16, "determinizations sampled per move"),
            Param("sims", int, 200, "simulations per world"),
        )
        + common,
        factory=_factory(PIMCAgent, "pimc"),
    )

    return mcts, ismcts, pimc


KINDS = _kinds()
