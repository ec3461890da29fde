"""`meeple review` compares the moves `meeple advise` compares, and the move played."""

from __future__ import annotations

import random

import spiel_games
from tournament.advice.advise import advise_state
from tournament.advice.review import _decision


def test_reviews_best_move_is_advises_recommendation_when_that_is_its_fifth_most_searched():
    """Was: review compared 4 most searched moves and the move played, advise 5; here
    (Bruxelles, a random game, ply 38) advise recommends its fifth, which review never
    compared, so it named another move best and measured the loss against that."""
    game_string, spec = "python_bruxelles(players=3)", "ismcts(sims=100)"
    state, actions, rng = (
        spiel_games.load_game(game_string).new_initial_state(),
        [],
        random.Random(0),
    )
    while len(actions) < 38:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            a = rng.choices(outcomes, probs)[0]
        else:
            legal = state.legal_actions()
            a = rng.choice(legal)
            if len(legal) >= 6:
                rng.random()  # the search for such positions drew here
        state.apply_action(a)
        actions.append(int(a))
    player, played = state.current_player(), 159
    adv = advise_state(game_string, state, spec, player=player, seed=0, ply=38)
    assert adv.moves[0].action_id != played
    d = _decision(game_string, [*actions, played], spec, player, 0, state=state)
    assert (d.best, d.best_value) == (adv.moves[0].action, adv.moves[0].value)
