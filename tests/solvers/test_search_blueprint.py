"""IS-MCTS with a blueprint: ``prior=blueprint`` (its most likely move opened first, with
the progressive bias), ``opponents=blueprint`` (the other players' moves sampled from its
average strategy) and ``rollout=blueprint`` (every rollout move sampled from it); declared
through the typed Param choices, never peeking."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spiel_games
from solvers.blueprint import load_blueprint, shipped_blueprints
from solvers.mccfr_tables import load_npz
from solvers.registry import make_agent
from solvers.search.kinds import ISMCTS
from solvers.search.models import BlueprintOpponents, BlueprintPolicy, BlueprintPrior
from solvers.spec import AgentSpecError
from spiel_games.common.registry import get_spec
from tests.solvers.test_solver_agents import _random_positions, _stats

SHIPPED = {
    spec.short_name: path
    for spec in spiel_games.all_specs()
    for path in shipped_blueprints(spiel_games.load_game(spec.typical_config))
    if path.name == "blueprint_3p.npz"
}
ALL = "ismcts(sims=8,rollout_depth=6,prior=blueprint,opponents=blueprint,rollout=blueprint)"


def _game(short_name: str):
    meta, _ = load_npz(SHIPPED[short_name])
    return spiel_games.load_game(meta["game"])


def test_the_choices_are_declared_and_build_the_blueprint_parts():
    params = {p.name: p for p in ISMCTS.params}
    for name in ("prior", "opponents", "rollout"):
        assert "blueprint" in params[name].choices, name
    game = _game("python_coloretto")
    agent = make_agent(ALL, game, seed=0)
    assert isinstance(agent.engine.prior, BlueprintPrior)
    assert isinstance(agent.engine.opponents, BlueprintOpponents)
    assert agent.engine.prior.policy.blueprint is load_blueprint(SHIPPED["python_coloretto"], game)
    assert agent.engine.opponents.policy.sample and not agent.engine.prior.policy.sample
    rollout = agent.engine.leaf.policy
    assert isinstance(rollout, BlueprintPolicy) and rollout.sample
    assert rollout.blueprint is load_blueprint(SHIPPED["python_coloretto"], game)
    plain = make_agent("ismcts(sims=8,rollout=blueprint)", game, seed=0).engine
    assert isinstance(plain.leaf.policy, BlueprintPolicy)  # needs neither prior nor opponents


def test_bad_blueprint_options_are_one_line_errors(tmp_path):
    game = _game("python_coloretto")
    with pytest.raises(AgentSpecError, match="none is set"):
        make_agent(f"ismcts(blueprint={SHIPPED['python_coloretto']})", game, seed=0)
    with pytest.raises(AgentSpecError, match="blueprint=FILE"):  # no 4-player blueprint shipped
        make_agent(
            "ismcts(prior=blueprint)", spiel_games.load_game("python_coloretto(players=4)"), 0
        )
    with pytest.raises(AgentSpecError, match="not found"):
        make_agent(f"ismcts(opponents=blueprint,blueprint={tmp_path / 'x.npz'})", game, seed=0)
    with pytest.raises(AgentSpecError, match="opponents"):
        make_agent("ismcts(opponents=oracle)", game, seed=0)
    kuhn = spiel_games.load_game("kuhn_poker", any_openspiel=True)  # outside the registry
    for spec in ("ismcts(rollout=blueprint)", "ismcts(prior=blueprint)"):
        with pytest.raises(AgentSpecError, match="no shipped blueprint for kuhn_poker"):
            make_agent(spec, kuhn, seed=0)  # was a KeyError traceback


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_ismcts_with_the_blueprint_never_peeks(name):
    """Changing another player's secret leaves a seeded search's statistics unchanged."""
    spec = get_spec(name)
    if spec.perturb_secret is None:
        pytest.skip("no hidden information")
    game = _game(name)
    rng = random.Random(11)
    checked = 0
    for _ in range(12):  # playouts until a few secrets were met (rare in some games)
        for state in _random_positions(game, rng, 40):
            me = state.current_player()
            for other in range(game.num_players()):
                changed = None if other == me else spec.perturb_secret(state, other, rng)
                if changed is None or checked >= 4:
                    continue
                a = make_agent(ALL, game, seed=3).analyse(state)
                b = make_agent(ALL, game, seed=3).analyse(changed)
                assert _stats(a) == _stats(b)
                checked += 1
    assert checked > 0


def _covered_position(game, bp, rng):
    """A decision with several abstract choices that the blueprint has a row for."""
    for _ in range(50):
        for state in _random_positions(game, rng, 40):
            found = bp.policy(state, state.current_player())
            if found is not None and len(found[0]) > 2 and max(found[1]) < 0.9:
                return state, found
    raise AssertionError("no covered position with a mixed strategy")


def test_the_opponent_model_samples_the_blueprints_policy():
    game = _game("python_coloretto")
    bp = load_blueprint(SHIPPED["python_coloretto"], game)
    state, (acts, probs) = _covered_position(game, bp, random.Random(5))
    model = make_agent(ALL, game, seed=0).engine.opponents.policy
    np_rng = np.random.default_rng(1)
    n = 4000
    counts = dict.fromkeys(acts, 0)
    for _ in range(n):
        counts[model(state, np_rng)] += 1
    for a, q in zip(acts, probs, strict=True):
        sd = (q * (1 - q) / n) ** 0.5
        assert abs(counts[a] / n - q) <= 5 * sd + 1e-9, (a, counts[a] / n, q)
    prior = BlueprintPolicy(bp, None, lambda s, p: s.legal_actions(p), sample=False)
    assert prior(state, np_rng) == acts[max(range(len(acts)), key=lambda j: probs[j])]


def test_positions_without_a_row_go_to_the_fallback_then_to_a_random_move():
    class Empty:
        def policy(self, state, player):
            return None

    game = _game("python_coloretto")
    state = _random_positions(game, random.Random(2), 3)[1]
    with_fallback = BlueprintPolicy(Empty(), lambda s, r: -7, lambda s, p: [], sample=True)
    assert with_fallback(state, np.random.default_rng(0)) == -7
    legal = state.legal_actions()
    bare = BlueprintPolicy(Empty(), None, lambda s, p: s.legal_actions(p), sample=True)
    seen = {bare(state, np.random.default_rng(i)) for i in range(40)}
    assert seen <= set(legal) and len(seen) > 1
