"""Bruxelles 1893's entry in the meeple-arena registry."""

from __future__ import annotations

from spiel_games.bruxelles import abstraction, evaluation, rules
from spiel_games.bruxelles.game import SHORT_NAME
from spiel_games.bruxelles.heuristic import heuristic_action
from spiel_games.common.registry import GameSpec

TINY = (
    # about 2.6 thousand and 21 thousand states (full tree, chance included)
    "python_bruxelles(players=2,rounds=1,board=2,assistants=1,courthouse=0,max_bid=1,"
    "brussels=false,setup=fixed)",
    "python_bruxelles(players=2,rounds=1,board=2,assistants=2,courthouse=0,max_bid=2,"
    "brussels=false,setup=fixed)",
)


def perturb_secret(state, player: int, rng):
    """Change what only `player` knows, or None if he knows nothing the others do not.

    With private works: the colour of one of his hidden works (swapped with the
    stack, so every public count stays the same). Otherwise: the works he drew
    and put back at a Workshop.
    """
    s = state._s
    if s.cfg.private_works:
        hidden = [c for c in range(rules.COLOURS) if s.works[player][c] > s.pub_works[player][c]]
        if hidden:
            c = rng.choice(hidden)
            others = [d for d in range(rules.COLOURS) if d != c and s.art_stack[d] > 0]
            if others:
                d = rng.choice(others)
                other = state.clone()
                o = other.own_core()
                w = list(o.works[player])
                w[c] -= 1
                w[d] += 1
                o.works = o.works[:player] + (tuple(w),) + o.works[player + 1 :]
                stack = list(o.art_stack)
                stack[c] += 1
                stack[d] -= 1
                o.art_stack = tuple(stack)
                return other
    if not s.seen[player]:
        return None
    other = state.clone()
    o = other.own_core()
    entries = list(o.seen[player])
    i = rng.randrange(len(entries))
    kept, others = entries[i]
    j = rng.randrange(len(others))
    new = list(others)
    new[j] = (new[j] + 1 + rng.randrange(rules.COLOURS - 1)) % rules.COLOURS
    entries[i] = (kept, tuple(sorted(new)))
    o.seen = o.seen[:player] + (tuple(entries),) + o.seen[player + 1 :]
    return other


SPEC = GameSpec(
    short_name=SHORT_NAME,
    title="Bruxelles 1893",
    min_players=2,
    max_players=5,
    params=rules.PARAMS,
    summary=(
        "Worker placement with bids over 5 rounds. Each round the stock exchange card "
        "opens part of the 5x5 Art Nouveau board; placing an assistant there needs a bid "
        "of at least 1 BF and gives Workshop, Sale, Royal Theater, Materials or "
        "Construction. Brussels actions (Market, Bourse, Park, Grand Place) cost 1, 2, 3... "
        "assistants but the player with most assistants there loses one to the Courthouse. "
        "Column bids win bonus cards (track steps or endgame multipliers), full shields score "
        "City Hall majorities, and buildings score the architect level at the end."
    ),
    tiny_configs=TINY,
    test_configs=TINY
    + (
        "python_bruxelles(players=2)",
        "python_bruxelles(players=3)",
        "python_bruxelles(players=4)",
        "python_bruxelles(players=5)",
        "python_bruxelles(players=3,rounds=2,utility=score)",
        "python_bruxelles(players=4,rounds=2,max_bid=3,utility=win)",
        "python_bruxelles(players=3,private_works=true)",
    ),
    typical_config="python_bruxelles(players=4)",
    assumptions=tuple(rules.RULES.assumptions())
    + (
        "workshop draws: by default the kept work is face up (rulebook) and only the put-back "
        "draws are private; private_works=true keeps it hidden until sold (issue 4's reading)",
        "small boards (tiny configurations): the whole board is available every round",
    ),
    heuristic=heuristic_action,
    abstraction=abstraction.abstract_key,
    abstraction_labels=abstraction.action_labels,
    evaluation=evaluation,
    search_defaults=evaluation.SEARCH_DEFAULTS,
    abstraction_name=abstraction.NAME,
    abstraction_version=abstraction.VERSION,
    perturb_secret=perturb_secret,
)
