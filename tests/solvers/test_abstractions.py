"""Every game's MCCFR abstraction: keys and action labels read only what the player knows,
and the labels describe every legal action."""

from __future__ import annotations

import random

import pytest

import spiel_games
from solvers.policy_file import choices

SPECS = spiel_games.all_specs()


def _positions(game, rng, count):
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out[:: max(1, len(out) // count)][:count]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.short_name)
def test_labels_describe_every_legal_action(spec):
    game = spiel_games.load_game(spec.short_name + "(players=3)")
    rng = random.Random(4)
    merged = 0
    for state in _positions(game, rng, 40):
        p = state.current_player()
        legal = state.legal_actions()
        labels = spec.abstraction_labels(state, p, legal)
        assert len(labels) == len(legal)
        assert all(isinstance(x, int) and x >= 0 for x in labels)
        acts, distinct = choices(spec.abstraction_labels, state, p, legal)
        assert set(acts) <= set(legal) and len(set(distinct)) == len(acts)
        merged += len(legal) - len(acts)
        assert isinstance(spec.abstraction(state, p), str)
    assert merged > 0  # the labels do merge actions alike for the player


HIDDEN = [s for s in SPECS if s.perturb_secret is not None]


@pytest.mark.parametrize("spec", HIDDEN, ids=lambda s: s.short_name)
def test_keys_and_labels_ignore_other_players_secrets(spec):
    rng = random.Random(7)
    checked = 0
    for config in spec.test_configs[:4]:
        game = spiel_games.load_game(config)
        for state in _positions(game, rng, 8):
            me = state.current_player()
            legal = state.legal_actions()
            for other in range(game.num_players()):
                changed = spec.perturb_secret(state, other, rng) if other != me else None
                if changed is None:
                    continue
                assert spec.abstraction(changed, me) == spec.abstraction(state, me)
                assert spec.abstraction_labels(changed, me, legal) == spec.abstraction_labels(
                    state, me, legal
                )
                checked += 1
    assert checked > 0


def test_coloretto_gains_equal_the_scoring_rule():
    """The abstraction caches scores per sorted colour counts (every colour has the same
    table); its gains must equal ``score_with``'s on any collection and cards, including
    jokers and +2 cards, and for another scoring table."""
    from spiel_games.coloretto import abstraction as ab
    from spiel_games.coloretto.scoring import score_with

    rng = random.Random(1)
    for config in (
        "python_coloretto(players=3)",
        "python_coloretto(players=4,scoring=alternative)",
    ):
        cfg = spiel_games.load_game(config).new_initial_state()._s.cfg
        cache = ab._cache(cfg)
        size = cfg.joker_type + 1
        for _ in range(3000):
            col = tuple(rng.randrange(8 if i < cfg.colours else 4) for i in range(size))
            cards = tuple(rng.randrange(size + 1) for _ in range(rng.randrange(4)))
            want = score_with(cfg, col, cards) - score_with(cfg, col, ())
            assert ab._gain(cfg, cache, col, cards) == want, (config, col, cards)


def test_coloretto_keys_do_not_reuse_another_variants_tables(monkeypatch):
    """Was: the abstraction's tables were keyed by ``id(cfg)`` alone, so a variant whose
    config took the id of a freed one read that one's scores (13 of 60 keys wrong in a
    process loading two scoring variants in turn). Here every config gets one id."""
    import pyspiel

    from spiel_games.coloretto import abstraction

    def keys(game_string):
        game = pyspiel.load_game(game_string)
        positions = _positions(game, random.Random(3), 40)
        return [abstraction.abstract_key(s, s.current_player()) for s in positions]

    variant = "python_coloretto(players=3,scoring=alternative)"
    fresh = keys(variant)
    monkeypatch.setattr(abstraction, "id", lambda obj: 7, raising=False)
    keys("python_coloretto(players=3)")  # fills the tables of id 7 with the standard scores
    assert keys(variant) == fresh
