"""The shared conformance suite, run for every registered game and configuration."""

from __future__ import annotations

import re

import pyspiel
import pytest

import spiel_games
from spiel_games.common import conformance as C

CASES = [(spec, cfg) for spec in spiel_games.all_specs() for cfg in spec.test_configs]
IDS = [cfg for _, cfg in CASES]


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def case(request):
    spec, cfg = request.param
    return spec, pyspiel.load_game(cfg)


def test_random_sim_test(case):
    _, game = case
    C.check_random_sim(game, num_sims=2)


def test_pickle_and_serialize_round_trip(case):
    _, game = case
    C.check_pickle_and_serialize(game)


def test_clone_independence(case):
    _, game = case
    C.check_clone_independence(game)


def test_declared_sizes(case):
    _, game = case
    C.check_declared_sizes(game, num_games=3)


def test_action_string_round_trip(case):
    _, game = case
    C.check_action_strings(game, num_games=1)


def test_chance_descriptions(case):
    """Every chance node says what it decides in the game's own words (table mode's
    prompts), the same in a resampled world."""
    _, game = case
    C.check_chance_descriptions(game, num_games=1)


def test_illegal_actions_raise(case):
    _, game = case
    assert C.check_illegal_actions_raise(game, num_games=1) > 0


def test_info_leak(case):
    spec, game = case
    C.check_info_leak(game, spec.perturb_secret)


def test_resampler_keeps_information_state(case):
    _, game = case
    assert C.check_resampler(game, num_games=1) > 0


def test_search_world_sampler_keeps_information_state(case):
    """A game's search-only world sampler (history left as it was) must give worlds as
    consistent as resample_from_infostate's, which play on legally."""
    spec, game = case
    if spec.world_sampler is None:
        pytest.skip(f"{spec.short_name} has no search-only world sampler")
    assert C.check_resampler(game, num_games=1, resample=spec.world_sampler) > 0


def test_resampler_contract_holds_for_every_player_at_every_node(case):
    """OpenSpiel asks resample_from_infostate(player, sampler) of any player at any node.
    One playout per configuration, samplers taken in turn, the fallback forced too
    (tries=0); the heavier sweep below is marked slow."""
    _, game = case
    assert C.check_resample_everywhere(game) > 0


def test_search_world_sampler_holds_for_every_player_at_every_node(case):
    spec, game = case
    if spec.world_sampler is None:
        pytest.skip(f"{spec.short_name} has no search-only world sampler")
    assert C.check_resample_everywhere(game, resample=spec.world_sampler) > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1])
def test_resampler_sweep_every_sampler_every_node(case, seed):
    """One more playout per configuration, every sampler at every node for every
    player, the fallback forced, and the history replayed at every third node."""
    spec, game = case
    assert C.check_resample_everywhere(game, seed=seed, replay_every=3, all_samplers=True) > 0
    if spec.world_sampler is not None:
        C.check_resample_everywhere(game, seed=seed, all_samplers=True, resample=spec.world_sampler)


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_every_player_count_loads_and_plays(spec):
    for n in range(spec.min_players, spec.max_players + 1):
        game = pyspiel.load_game(f"{spec.short_name}(players={n})")
        assert game.num_players() == n
        C.check_random_sim(game, num_sims=1)


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_spec_metadata_is_complete(spec):
    assert spec.tiny_configs, "every game lists tiny configurations"
    for cfg in spec.tiny_configs:
        game = pyspiel.load_game(cfg)
        assert game.num_players() == 2, "tiny configurations are two-player (for exact CFR)"
    assert spec.heuristic is not None, "every game has a heuristic baseline"
    defaults = pyspiel.load_game(spec.short_name).get_parameters()
    for p in spec.params:
        assert p.name in defaults, f"documented parameter {p.name} is not a game parameter"
        assert p.meaning


# Parameters that only count with an option on (Rococo's Jewelry Box) are tried with it on.
_OPTIONS_ON = {"python_rococo": "jewelry=true,"}


def _int_params(spec):
    return [p.name for p in spec.params if type(p.default) is int]


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
@pytest.mark.parametrize("value", [-2, -7, 100_000])
def test_integer_parameters_refuse_values_outside_their_range(spec, value):
    """Below every default sentinel (-1 or 0) and far above any plausible game, each integer
    parameter is refused in one line naming it, never read as its default or played."""
    for name in _int_params(spec):
        game = f"{spec.short_name}({_OPTIONS_ON.get(spec.short_name, '')}{name}={value})"
        with pytest.raises(ValueError) as err:
            pyspiel.load_game(game)
        text = str(err.value)
        assert name in text and "\n" not in text.strip(), (game, text)
        assert re.search(r"\d+-\d+", text), f"{game}: the error names no range: {text}"


# ----- hidden information (issue 13): private events, resampled worlds, the end -----------
def _hidden(game) -> bool:
    return game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION


def test_private_events_leave_others_the_same_decisions(case):
    """(With private_works, passing pays 1 BF per colour owned, so a pass shows whether a
    hidden kept work added a colour: a reveal by the owner's own move, documented.)"""
    _, game = case
    C.check_private_event_symmetry(game)  # tiny configurations may have no private event


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_private_events_are_found_in_the_typical_game(spec):
    game = pyspiel.load_game(spec.typical_config)
    followed = C.check_private_event_symmetry(game, num_games=2, seed=1)
    assert followed > 0 or not _hidden(game), "no private event was found to follow"


def test_resampled_world_replays_from_its_history(case):
    _, game = case
    checked = C.check_resample_replays(game, num_games=1)
    assert checked > 0 or not _hidden(game)


def test_resampling_a_terminal_state_changes_nothing(case):
    _, game = case
    checked = C.check_resample_terminal(game, num_games=1)
    assert checked > 0 or not _hidden(game)
