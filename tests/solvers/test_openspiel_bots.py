"""openspiel-ismcts: OpenSpiel's own IS-MCTS bot as an outside reference in the pool."""

from __future__ import annotations

import random
import threading

import pytest

import spiel_games
from solvers.registry import make_agent
from solvers.spec import AgentSpecError
from tournament.match import play_match, seed_streams

SPECS = spiel_games.all_specs()
HIDDEN = [s for s in SPECS if s.perturb_secret is not None]


def _game_actions(config: str, seed: int) -> list[int]:
    game = spiel_games.load_game(config)
    n = game.num_players()
    rng, seeds = seed_streams(seed, n)
    agents = [make_agent("openspiel-ismcts(sims=6)", game, seeds[0])] + [
        make_agent("heuristic", game, seeds[p]) for p in range(1, n)
    ]
    result = play_match(game, agents, seed, chance_rng=rng)
    assert result.failure == "", result.detail
    return result.actions


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.short_name)
def test_same_seed_same_game(spec):
    """Its world samples come from the agent's seed, not OpenSpiel's unseeded sampler."""
    config = spec.tiny_configs[0]
    assert _game_actions(config, 4) == _game_actions(config, 4)


def test_perfect_information_games_run_openspiels_mcts():
    from open_spiel.python.algorithms import mcts

    game = spiel_games.load_game("python_coloretto(players=3)")
    agent = make_agent("openspiel-ismcts(sims=5)", game, 0)
    assert isinstance(agent.bot, mcts.MCTSBot)  # its class, with a halt check added


@pytest.mark.parametrize("text", ["openspiel-ismcts(sims=0)", "openspiel-ismcts(uct_c=0)"])
def test_bad_parameters_are_refused(text):
    with pytest.raises(AgentSpecError, match="must be"):
        make_agent(text, spiel_games.load_game(SPECS[0].tiny_configs[0]), 0)


def _decisions(game, rng, count):
    state = game.new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("spec", HIDDEN, ids=lambda s: s.short_name)
def test_it_never_peeks_at_other_players_secrets(spec):
    """Changing another player's secret leaves its seeded choice unchanged: it searches
    worlds re-dealt from the mover's information state only."""
    rng = random.Random(3)
    game = spiel_games.load_game(f"{spec.short_name}(players=3)")
    checked = 0
    for state in _decisions(game, rng, 160)[::8]:
        if checked >= 4:
            break
        me = state.current_player()
        for other in range(game.num_players()):
            changed = None if other == me else spec.perturb_secret(state, other, rng)
            if changed is None:
                continue
            a = make_agent("openspiel-ismcts(sims=20)", game, 5).step(state.clone())
            b = make_agent("openspiel-ismcts(sims=20)", game, 5).step(changed.clone())
            assert a == b
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("config", ["python_coloretto(players=3)", "python_rococo"])
def test_a_halt_ends_the_search_with_the_move_of_the_tree_so_far(config):
    """Was: OpenSpiel's bots ran every simulation asked for (a terminate reached only the
    project's own search): openspiel-ismcts(sims=200000) blocked the advice engine for
    minutes. Coloretto runs OpenSpiel's MCTSBot, Rococo its ISMCTSBot."""
    game = spiel_games.load_game(config)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    agent = make_agent("openspiel-ismcts(sims=1000000)", game, 0)
    assert agent.halt() is True  # before the search: it stops once the root has a visit
    timer = threading.Timer(60, pytest.fail)  # (a search that ignored the halt)
    assert agent.step(state.clone()) in state.legal_actions()
    timer.cancel()
