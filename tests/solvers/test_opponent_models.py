"""The opponent models inside the tree: the heuristic, search, a noisy heuristic, and the
model inferred from the moves the other players made so far (``opponents=infer``)."""

import random

import numpy as np
import pyspiel
import pytest

from solvers.registry import make_agent, resolve
from solvers.search import make_engine, resolve_auto
from solvers.search.models import InferredOpponents, SearchedOpponents
from solvers.search.tree import Streams
from solvers.spec import AgentSpecError
from spiel_games.common.chance import UniformSampler
from spiel_games.common.registry import all_specs, get_spec


def _first_decision(game, min_legal: int = 2):
    """The first decision with at least ``min_legal`` moves along the first-move line."""
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif len(state.legal_actions()) < min_legal:
            state.apply_action(state.legal_actions()[0])
        else:
            return state


def test_games_without_evaluation_or_heuristic_fall_back_to_plain_search():
    game = pyspiel.load_game("kuhn_poker")
    chosen = resolve_auto(game, resolve("ismcts").params)
    assert chosen["eval"] == "score" and chosen["prior"] == "none"
    assert chosen["opponents"] == "search"


def test_auto_opponents_are_inferred_with_the_game_evaluation_only():
    game = pyspiel.load_game("python_bruxelles(players=3)")
    assert resolve_auto(game, resolve("ismcts").params)["opponents"] == "infer"
    old = resolve_auto(game, resolve("ismcts(eval=score,prior=none)").params)
    assert old["opponents"] == "search"


def test_auto_root_is_sequential_halving_with_the_game_evaluation_only():
    game = pyspiel.load_game("python_staufer(players=3)")
    assert resolve_auto(game, resolve("ismcts").params)["root"] == "halving"
    assert resolve_auto(game, resolve("ismcts(eval=score)").params)["root"] == "ucb"
    assert resolve_auto(game, resolve("ismcts(root=ucb)").params)["root"] == "ucb"


def test_opponents_heuristic_on_a_game_without_heuristic_is_refused():
    with pytest.raises(AgentSpecError, match="no heuristic for opponents=heuristic"):
        make_agent("mcts(opponents=heuristic)", pyspiel.load_game("kuhn_poker"), seed=0)


@pytest.mark.parametrize("opponents", ["heuristic", "search", "infer"])
def test_opponent_decisions_in_the_tree_follow_the_opponent_model(opponents):
    """With opponents=heuristic every other player's decision inside the tree is the
    heuristic's move (never the root player's own); with opponents=search it is never asked."""
    game = pyspiel.load_game("python_coloretto(players=3)")
    state = _first_decision(game)
    root_player = state.current_player()
    eng = make_engine(game, random.Random(1), eval="game", opponents=opponents)
    if opponents == "infer":  # a player known to play like the heuristic
        eng.opponents.q = [1.0] * game.num_players()
    asked = []
    real = getattr(eng.opponents, "heuristic", None)

    def model(s, rng):
        a = real(s, rng)
        asked.append((s.current_player(), a, s.clone()))
        return a

    if real is not None:
        eng.opponents.heuristic = model
    eng.search(state, sims=60)
    if opponents == "search":
        assert isinstance(eng.opponents, SearchedOpponents) and real is None and not asked
        return
    assert asked and all(p != root_player for p, _, _ in asked)
    from spiel_games.coloretto.heuristic import heuristic_action

    for _, a, s in asked:  # Coloretto's heuristic is deterministic: the very same move
        assert a == heuristic_action(s)


@pytest.mark.parametrize("opp_eps", [0.0, 0.4, 1.0])
def test_a_noisy_opponent_model_replaces_that_share_of_the_heuristics_moves(opp_eps):
    """With opp_eps the modelled opponents play a random legal move with that
    probability: never the heuristic at 1, always at 0, in between otherwise."""
    game = pyspiel.load_game("python_coloretto(players=3)")
    state = _first_decision(game)
    eng = make_engine(  # depth 0: no rollout moves, only the tree's opponent decisions
        game,
        random.Random(3),
        eval="game",
        rollout_depth=0,
        opponents="heuristic",
        opp_eps=opp_eps,
    )
    real, asked, moves = eng.opponents.heuristic, [], []
    apply = eng._apply

    def model(s, rng):
        asked.append(1)
        return real(s, rng)

    def counting_apply(s, a):
        if s.current_player() >= 0 and s.current_player() != eng.root_player:
            assert a in s.legal_actions()
            moves.append(a)
        apply(s, a)

    eng.opponents.heuristic, eng._apply = model, counting_apply
    eng.search(state, sims=200)
    assert moves
    if opp_eps == 0.0:
        assert len(asked) == len(moves)
    elif opp_eps == 1.0:
        assert not asked
    else:
        assert len(moves) > 100
        assert 0.25 < (len(moves) - len(asked)) / len(moves) < 0.55


@pytest.mark.parametrize(
    "spec,message",
    [
        ("ismcts(eval=learnt)", "auto, score, game or learned"),
        ("ismcts(prior=policy)", "auto, none, heuristic or blueprint"),
        ("ismcts(epsilon=1.5)", "in [0, 1]"),
        ("ismcts(prior_w=-1)", "in [0, 1000]"),
        ("ismcts(opponents=random)", "auto, search, heuristic, infer or blueprint"),
        ("ismcts(root=greedy)", "auto, ucb or halving"),
        ("ismcts(opp_eps=1.5)", "in [0, 1]"),
        ("ismcts(opp_eps=-0.5)", "in [0, 1]"),
        ("ismcts(opp_eps=0.2,opponents=search)", "opp_eps is an option of opponents=heuristic"),
        ("ismcts(opp_eps=0.2,opponents=infer)", "opp_eps is an option of opponents=heuristic"),
        ("ismcts(opp_share=0.9,opponents=search)", "opp_share is an option of opponents=infer"),
        ("ismcts(opp_prior=9,opponents=heuristic)", "opp_prior is an option of opponents=infer"),
        ("ismcts(opp_share=1.5,opponents=infer)", "in [0, 1]"),
        ("ismcts(opp_fit=mixture,opponents=heuristic)", "opp_fit is an option of opponents=infer"),
        ("ismcts(opp_fit=share,opponents=infer)", "match or mixture"),
        ("ismcts(opp_prior=-1,opponents=infer)", "in [0, 1e+06]"),
        ("ismcts(unprune=-0.5)", "must be in [0, 1000] (0 = off) or -1 (auto)"),
        ("ismcts(unprune=0.1,prior=none)", "needs prior=heuristic"),
    ],
)
def test_bad_new_parameters_give_one_line_errors(spec, message):
    game = pyspiel.load_game("python_coloretto(players=3)")
    with pytest.raises(AgentSpecError) as e:
        make_agent(spec, game, seed=0)
    assert message in str(e.value)


def test_eval_game_on_a_game_without_evaluation_is_refused():
    with pytest.raises(AgentSpecError, match="no evaluation"):
        make_agent("mcts(eval=game)", pyspiel.load_game("kuhn_poker"), seed=0)


def _model(game, share=0.5, weight=4.0, seed=0, fit="match") -> InferredOpponents:
    heuristic = get_spec(game.get_type().short_name).heuristic
    streams = Streams(random.Random(seed))
    return InferredOpponents(game, heuristic, streams, (share, weight), seed, fit)


def _observed_game(game, policies, seed: int, fit: str = "match") -> InferredOpponents:
    """Seat 0 (the observer, playing the heuristic) watches a whole game of ``policies``
    (one per other seat: the heuristic's move with that probability, else a uniformly
    random legal move), updating its model at each of its own decisions."""
    heuristic = get_spec(game.get_type().short_name).heuristic
    model = _model(game, seed=seed, fit=fit)
    rng, np_rng = random.Random(seed), np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        if p < 0:
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if p == 0:
            model.observe(state, 0)
        share = 1.0 if p == 0 else policies[p - 1]
        legal = state.legal_actions()
        a = heuristic(state, np_rng) if rng.random() < share else rng.choice(legal)
        state.apply_action(a)
    return model


@pytest.mark.parametrize("game_string", ["python_bruxelles(players=3)", "python_rococo(players=3)"])
def test_inference_moves_towards_the_true_policy_of_synthetic_opponents(game_string):
    """From the prior 0.5: towards 1 for a player who is the heuristic, down for a uniformly
    random player (who agrees with it only by chance), and in the order of the true shares
    for two mixtures of the two."""
    game = pyspiel.load_game(game_string)
    pure = _observed_game(game, (1.0, 0.0), seed=1)
    assert pure.q[1] > 0.8 and pure.q[2] < 0.45, pure.q
    assert pure.seen[1] > 20 and pure.seen[2] > 20 and pure.q[0] == 0.5
    mixed = _observed_game(game, (0.8, 0.3), seed=2)
    assert mixed.q[2] + 0.2 < mixed.q[1] < pure.q[1], mixed.q
    assert pure.q[2] < mixed.q[2]


@pytest.mark.parametrize("game_string", ["python_rococo(players=3)", "python_staufer(players=3)"])
def test_the_mixture_fit_tells_the_heuristic_from_a_random_player_more_sharply(game_string):
    """opp_fit=mixture on the same games as opp_fit=match: the player who is the heuristic
    ends nearer 1 (its moves that depend on cards the observer cannot see no longer count
    as plain misses), the gap to the uniformly random player is wider, and two mixtures
    keep the order of their true shares."""
    game = pyspiel.load_game(game_string)
    match = _observed_game(game, (1.0, 0.0), seed=1)
    pure = _observed_game(game, (1.0, 0.0), seed=1, fit="mixture")
    assert pure.q[1] > max(0.9, match.q[1]) and pure.q[2] < 0.3, (pure.q, match.q)
    assert pure.q[1] - pure.q[2] > match.q[1] - match.q[2]
    mixed = _observed_game(game, (0.8, 0.3), seed=2, fit="mixture")
    assert pure.q[2] + 0.2 < mixed.q[2] + 0.2 < mixed.q[1] < pure.q[1], mixed.q


def test_the_mixture_posterior_follows_the_evidence_from_its_prior():
    """No decision seen: the prior's mean; decisions the heuristic explains far better than a
    random player raise q, decisions it never makes among few moves lower it, and a
    secret choice that
    the observer cannot tell apart is no evidence (q and the count stay)."""
    from solvers.search.models import GRID, MixtureFit

    fit = MixtureFit(0.7, 4.0)
    ll = np.zeros(GRID.size)
    assert abs(fit.update(ll.copy(), 2, 4, 0.5) - 0.7) < 0.05  # as likely under both
    up = [fit.update(ll, 4, 4, 0.1) for _ in range(10)]
    assert 0.7 < up[0] < up[-1] and up[-1] > 0.85
    down = np.zeros(GRID.size)
    low = [fit.update(down, 0, 4, 0.34) for _ in range(10)]  # among three moves
    assert low == sorted(low, reverse=True) and low[-1] < 0.35
    game = pyspiel.load_game("python_rococo(players=3)")
    model = _model(game, fit="mixture")
    state = _first_decision(game)
    me = (state.current_player() + 1) % 3
    legal = state.legal_actions()
    after = [state.clone() for _ in legal[:2]]
    for s, a in zip(after, legal[:2], strict=True):
        s.apply_action(a)
    hidden = after[0].information_state_string(me) == after[1].information_state_string(me)
    model.me = me
    model._score(state, state.current_player(), legal[0])
    assert (model.seen[state.current_player()] == 0.0) == hidden


def test_inference_starts_again_on_a_new_game_and_is_reproducible():
    """A state from another game (its history not a continuation) restarts from the prior;
    the same states give the same estimates."""
    game = pyspiel.load_game("python_bruxelles(players=3)")
    watched = _observed_game(game, (1.0, 0.0), seed=3)
    again = _observed_game(game, (1.0, 0.0), seed=3)
    assert watched.q == again.q and watched.q[1] != 0.5
    fresh = _first_decision(game)
    watched.observe(fresh, fresh.current_player())
    assert watched.q == [0.5] * 3 and watched.seen == [0.0] * 3


def test_a_player_never_modelled_as_the_heuristic_is_searched():
    """q = 0: the tree never asks the heuristic for another player's move."""
    game = pyspiel.load_game("python_coloretto(players=3)")
    eng = make_engine(game, random.Random(1), eval="game", opponents="infer")
    eng.opponents.q = [0.0] * 3
    asked = []
    eng.opponents.heuristic = lambda s, rng: asked.append(1) or 0
    eng.search(_first_decision(game), sims=60)
    assert not asked


def _positions(game, rng, count):
    """Decision states along one random playout (each with the history before it)."""
    state, out = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out[:: max(1, len(out) // count)][1 : count + 1]


def _stats(analysis):
    return [(m.action, m.visits, m.value if m.visits else None) for m in analysis.moves]


HIDDEN = [s for s in all_specs() if s.perturb_secret is not None]


@pytest.mark.parametrize("spec", HIDDEN, ids=lambda s: s.short_name)
@pytest.mark.parametrize(
    "agent",
    [
        "ismcts(sims=8,rollout_depth=6,opponents=infer)",
        "mcts(sims=8,rollout_depth=6,opponents=infer)",
        "pimc(worlds=2,sims=4,rollout_depth=6,opponents=infer,opp_prior=1)",
        "ismcts(sims=8,rollout_depth=6,opponents=infer,opp_fit=mixture,opp_prior=1)",
        "ismcts(sims=12,rollout_depth=6,opponents=infer,opp_until=0.2)",
        "ismcts(sims=12,rollout_depth=6,opponents=search,opp_until=0.2)",
    ],
)
def test_inferred_opponents_never_peek_at_other_players_secrets(spec, agent):
    """Changing another player's secret leaves a seeded search's statistics unchanged,
    though the inference reads every move of the game so far."""
    rng = random.Random(7)
    checked = 0
    for config in spec.test_configs[:4]:
        game = pyspiel.load_game(config)
        for state in _positions(game, rng, 5):
            me = state.current_player()
            for other in range(game.num_players()):
                changed = None if other == me else spec.perturb_secret(state, other, rng)
                if changed is None:
                    continue
                assert changed.information_state_string(me) == state.information_state_string(me)
                a = make_agent(agent, game, seed=3).analyse(state)
                b = make_agent(agent, game, seed=3).analyse(changed)
                assert _stats(a) == _stats(b)
                checked += 1
    assert checked > 0


def _redealt(game, state, me: int, seed: int):
    """The game replayed from a history whose hidden chance outcomes were re-dealt by the
    game's full resampler (the same for ``me``), or None where it changed nothing."""
    world = state.resample_from_infostate(me, UniformSampler(random.Random(seed)))
    if world.history() == state.history():
        return None
    replay = game.new_initial_state()
    for a in world.history():
        replay.apply_action(a)
    assert replay.information_state_string(me) == state.information_state_string(me)
    return replay


@pytest.mark.parametrize("spec", HIDDEN, ids=lambda s: s.short_name)
def test_the_inference_reads_only_the_observers_information_along_the_history(spec):
    """A game whose past hidden deals differ (every move and what the observer saw the
    same) gives the same estimates: the past is read through the observer's eyes only."""
    rng = random.Random(5)
    checked = 0
    for config in spec.test_configs[:4]:
        game = pyspiel.load_game(config)
        for i, state in enumerate(_positions(game, rng, 5)):
            me = state.current_player()
            other = _redealt(game, state, me, i)
            if other is None:
                continue
            for fit in ("match", "mixture"):
                a, b = _model(game, weight=1.0, fit=fit), _model(game, weight=1.0, fit=fit)
                a.observe(state, me)
                b.observe(other, me)
                assert a.q == b.q and a.seen == b.seen
            checked += a.q != [0.5] * game.num_players()
    assert checked > 0


def test_every_opponent_model_choice_is_named_in_words():
    """Advice names the model its values assume: every choice of `opponents` has its words
    (opponents=blueprint had none, and advice with it raised KeyError)."""
    from solvers.assumptions import MODELS, assumed_opponents
    from solvers.search.params import COMMON

    choices = next(p for p in COMMON if p.name == "opponents").choices
    assert set(choices) <= set(MODELS)
    game = pyspiel.load_game("python_coloretto(players=3)")
    assert "blueprint" in assumed_opponents(game, "ismcts(sims=10,opponents=blueprint)")
